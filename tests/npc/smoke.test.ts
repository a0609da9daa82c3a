import { NPC } from '../../src/game/npc';
import { WorldState } from '../../src/game/world';
import { AgentTool } from '../../src';
import { ScriptedLanguageModel, Script } from '../../src/testing';

test('npc smoke', async () => {
  const world = new WorldState({ player: { gold: 10 } });
  const menu = AgentTool.local({ name: 'check_menu', description: 'Lists the menu.' }, () => ({ ale: 3, stew: 5 }));
  const model = new ScriptedLanguageModel([
    Script.reply({ emotion: 'happy', line: 'Welcome, traveller!' }),
    Script.call('check_menu'),
    Script.reply({ emotion: 'neutral', line: 'Stew is 5 gold, ale 3.' }),
  ]);
  const npc = new NPC({
    persona: { name: 'Mira', role: 'innkeeper', secrets: ['The mayor owes me money'] },
    model,
    tools: [menu],
    world,
    options: { worldContextPaths: ['player.gold'], memoryTools: 'all' },
  });
  const stream = npc.talkStream('Hello!');
  const ev: string[] = [];
  stream.on('emotion', (event) => ev.push(`emotion:${event.emotion}`));
  stream.on('line', (event) => ev.push(`line:${event.delta}`));
  const turn = await stream.turn();
  expect(ev).toEqual(['emotion:happy', 'line:Welcome,', 'line: traveller!']);
  expect(turn).toMatchObject({ line: 'Welcome, traveller!', emotion: 'happy', modelCalls: 1, isFallback: false });
  const t2 = await npc.talk('What is warm?');
  expect(t2.toolCalls.map((toolCall) => toolCall.call.name)).toEqual(['check_menu']);
  expect(t2.line).toBe('Stew is 5 gold, ale 3.');
  expect(model.requests[0].prompt).toMatch(/^Memory:[\s\S]*Game state:\nplayer\.gold: 10/);
  expect(model.calls).toBe(3);
});
