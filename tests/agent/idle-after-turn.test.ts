/**
 * "Not busy" is true by the time a turn's result is delivered: inside the last event's
 * listeners and right after `await`, for an agent and an NPC, after a success, a failure and a
 * cancel (UI code enables its buttons "when not talking"). oam-cocos issue 24, item 4.
 */
import { Agent, NPC } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { FAST } from './helpers';

const MIRA = { name: 'Mira', role: 'the innkeeper', fallbackLines: ['Hm?'] };

describe('idle as soon as the result is delivered', () => {
  test('an agent: in the completed event and right after await', async () => {
    const agent = new Agent(new ScriptedLanguageModel([Script.reply('Hi.')]), { config: FAST });
    const run = agent.run('Hello');
    let inEvent: boolean | undefined;
    run.on('completed', () => {
      inEvent = agent.isResponding;
    });
    await run.response();
    expect(inEvent).toBe(false);
    expect(agent.isResponding).toBe(false);
  });

  test('an agent with a second turn queued stays busy until that one is delivered too', async () => {
    const agent = new Agent(new ScriptedLanguageModel([Script.reply('One.'), Script.reply('Two.')]), { config: FAST });
    const first = agent.run('One');
    const second = agent.run('Two');
    await first.response();
    expect(agent.isResponding).toBe(true);
    await second.response();
    expect(agent.isResponding).toBe(false);
  });

  test('an agent after a failure and after a cancel', async () => {
    const agent = new Agent(new ScriptedLanguageModel([Script.fail('refusal'), Script.hang()]), {
      config: { ...FAST, retry: { ...FAST.retry, maxAttempts: 1 } },
    });
    await agent.respond('One').catch(() => undefined);
    expect(agent.isResponding).toBe(false);
    const run = agent.run('Two');
    setTimeout(() => run.cancel(), 5);
    await run.response().catch(() => undefined);
    expect(agent.isResponding).toBe(false);
  });

  test('an NPC: isTalking is false in the completed event and right after await talk()', async () => {
    const npc = new NPC({
      persona: MIRA,
      model: new ScriptedLanguageModel([Script.text('Evening!\n[happy]'), Script.text('Again!\n[happy]')]),
    });
    const stream = npc.talkStream('Hello');
    let inEvent: boolean | undefined;
    stream.on('completed', () => {
      inEvent = npc.isTalking;
    });
    await stream.turn();
    expect(inEvent).toBe(false);
    expect(npc.isTalking).toBe(false);
    await npc.talk('Again');
    expect(npc.isTalking).toBe(false);
  });
});
