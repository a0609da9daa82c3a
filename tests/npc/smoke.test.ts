import { NPC } from '../../src/game/npc';
import { WorldState } from '../../src/game/world';
import { AgentTool, JsonSchema, ScriptedLanguageModel, Script } from '../../src';

test('npc smoke', async () => {
  const world = new WorldState({ player: { gold: 10 } });
  const menu = AgentTool.local({ name: 'check_menu', description: 'Lists the menu.' }, () => ({ ale: 3, stew: 5 }));
  const model = new ScriptedLanguageModel([
    Script.reply({ emotion: 'happy', line: 'Welcome, traveller!' }),
    Script.call('check_menu'),
    Script.reply({ emotion: 'neutral', line: 'Stew is 5 gold, ale 3.' }),
  ]);
  const npc = new NPC({ persona: { name: 'Mira', role: 'innkeeper', secrets: ['The mayor owes me money'] }, model, tools: [menu], world, options: { worldContextPaths: ['player.gold'], memoryTools: 'all' } });
  const s = npc.talkStream('Hello!');
  const ev: string[] = [];
  s.on('emotion', (e) => ev.push(`emotion:${e.emotion}`));
  s.on('line', (e) => ev.push(`line:${e.delta}`));
  const t = await s.turn();
  console.log(ev, t);
  const t2 = await npc.talk('What is warm?');
  console.log(t2);
  console.log(model.requests.map((q) => `--- ${q.kind}\nSYS: ${q.systemInstruction}\nPREFIX: ${q.promptPrefix}\nPROMPT: ${q.prompt}`).join('\n'));
  expect(model.calls).toBe(3);
});
