/**
 * The turn limit (ML Kit's maxTurns): by default the reply is forced when the rounds run out;
 * with onMaxTurns 'fail' a turn that needs more model steps ends with generation_failed (-112)
 * and leaves the history as it was. ML Kit's -112 over the native bridge reads the same way.
 */
import { AgentError, AgentRunner, ML_KIT_MAX_TURNS_EXCEEDED, reasonOf } from '../../src';
import { ScriptedLanguageModel, Script, type ScriptStep } from '../../src/testing';
import { errorFromWire } from '../../src/models/gemini-nano/bridge-client';
import { FAST, failure, tavern } from '../agent/helpers';

function runner(steps: Array<ScriptStep | string>, limit: { maxTurns?: number; onMaxTurns?: 'reply' | 'fail' } = {}) {
  const model = new ScriptedLanguageModel(steps);
  const bar = tavern();
  const sessions = new AgentRunner({
    model,
    agent: { instructions: 'You are Mira.', tools: [bar.menu, bar.order], config: FAST },
    ...limit,
  });
  return { model, sessions, ...bar };
}

const ORDER = [
  Script.call('check_menu'),
  Script.call('take_order', { item: 'ale', quantity: 2 }),
  Script.reply('Two ales, 6 gold.'),
];

describe("onMaxTurns 'fail'", () => {
  it('ends a turn that needs more steps with generation_failed (-112), before the extra model call', async () => {
    const { sessions, model, log } = runner([Script.reply('Welcome!'), ...ORDER], { maxTurns: 2, onMaxTurns: 'fail' });
    await sessions.respond('sam', 'Hello');
    const session = sessions.getOrCreate('sam');
    const before = session.agent.history;

    const error = await failure(session.respond('Two ales, please.'));
    expect(error.code).toBe('generation_failed');
    expect(error.nativeCode).toBe(ML_KIT_MAX_TURNS_EXCEEDED);
    expect(error.details).toEqual({ reason: 'max_turns_exceeded', maxTurns: 2 });
    expect(reasonOf(error)).toBe('max_turns_exceeded');
    expect(error.message).toMatch(/more than 2 model steps/);
    // The hello, then two decide steps of this turn; the third was never sent.
    expect(model.calls).toBe(3);
    expect(model.remaining).toBe(1);
    expect(log).toEqual(['check_menu', 'take_order {"item":"ale","quantity":2}']);
    expect(session.agent.history).toEqual(before);
    expect(session.agent.turnCount).toBe(1);
    expect(session.isBusy).toBe(false);
  });

  it('lets a turn within the limit through, and the run reports the failure as failed, not cancelled', async () => {
    const { sessions, model } = runner([...ORDER, ...ORDER], { maxTurns: 3, onMaxTurns: 'fail' });
    expect((await sessions.respond('a', 'Two ales.')).text).toBe('Two ales, 6 gold.');
    expect(model.calls).toBe(3);
    const tight = runner(ORDER, { maxTurns: 1, onMaxTurns: 'fail' });
    const run = tight.sessions.run('a', 'Two ales.');
    await failure(run.response());
    expect(run.status).toBe('failed');
    expect(tight.model.calls).toBe(1);
  });

  it('counts a repair as a step, and a retry of the same step not', async () => {
    const repair = runner(
      ['{"tool": "take_order", "args": {"item": "wine"}}', Script.call('check_menu'), Script.reply('Ale it is.')],
      { maxTurns: 1, onMaxTurns: 'fail' },
    );
    const repaired = await failure(repair.sessions.respond('a', 'Wine!'));
    expect(reasonOf(repaired)).toBe('max_turns_exceeded');
    expect(repair.model.calls).toBe(1);

    const retry = runner([Script.fail('generation_failed', 'hiccup'), Script.reply('Hello!')], {
      maxTurns: 1,
      onMaxTurns: 'fail',
    });
    expect((await retry.sessions.respond('a', 'Hi')).text).toBe('Hello!');
    expect(retry.model.calls).toBe(2);
  });

  it("defaults to ML Kit's 10 steps, and a session can set its own limit", async () => {
    const steps = Array.from({ length: 12 }, (_unused, index) =>
      Script.call('take_order', { item: 'ale', quantity: (index % 10) + 1 }),
    );
    const { sessions, model } = runner(steps, { onMaxTurns: 'fail' });
    sessions.getOrCreate('a', { config: { toolPolicy: { maxToolRounds: 20, maxToolCalls: 20 } } });
    const error = await failure(sessions.respond('a', 'Keep pouring.'));
    expect(error.details).toEqual({ reason: 'max_turns_exceeded', maxTurns: 10 });
    expect(model.calls).toBe(10);

    const own = runner(ORDER, { onMaxTurns: 'fail' });
    own.sessions.getOrCreate('b', { maxTurns: 1 });
    expect((await failure(own.sessions.respond('b', 'Two ales.'))).details).toEqual({
      reason: 'max_turns_exceeded',
      maxTurns: 1,
    });
    expect(own.model.calls).toBe(1);
  });

  it('applies to single turns too', async () => {
    const { sessions, model } = runner(ORDER, { maxTurns: 2, onMaxTurns: 'fail' });
    const error = await failure(sessions.respondOnce('Two ales.'));
    expect(error.nativeCode).toBe(-112);
    expect(model.calls).toBe(2);
  });

  it('still cancels when the caller cancels, and delete cancels a limited turn', async () => {
    const { sessions, model } = runner([Script.hang(), Script.hang()], { maxTurns: 2, onMaxTurns: 'fail' });
    const caller = new AbortController();
    const cancelled = sessions.run('a', 'Hi', { signal: caller.signal });
    for (let tick = 0; tick < 20; tick++) await Promise.resolve();
    caller.abort();
    expect((await failure(cancelled.response())).code).toBe('cancelled');
    const run = sessions.run('a', 'Hi');
    for (let tick = 0; tick < 20; tick++) await Promise.resolve();
    sessions.delete('a');
    expect((await failure(run.response())).code).toBe('cancelled');
    expect(model.calls).toBe(2);
  });
});

describe("onMaxTurns 'reply' (the default)", () => {
  it('forces the reply when the rounds run out, as before: maxTurns leaves one step for the reply', async () => {
    const { sessions, model, log } = runner([Script.call('check_menu'), 'Ale is 3 gold.'], { maxTurns: 2 });
    const session = sessions.getOrCreate('a');
    expect(session.agent.config.toolPolicy.maxToolRounds).toBe(1);
    const response = await session.respond('What is on the menu?');
    expect(response.text).toBe('Ale is 3 gold.');
    expect(model.kinds).toEqual(['decide', 'respond']);
    expect(log).toEqual(['check_menu']);
  });

  it('changes nothing without maxTurns, or when the rounds already fit', async () => {
    const { sessions, model } = runner(ORDER);
    expect(sessions.getOrCreate('a').agent.config.toolPolicy.maxToolRounds).toBe(4);
    expect((await sessions.respond('a', 'Two ales.')).text).toBe('Two ales, 6 gold.');
    expect(model.calls).toBe(3);
    const roomy = runner([], { maxTurns: 10 });
    expect(roomy.sessions.getOrCreate('a').agent.config.toolPolicy.maxToolRounds).toBe(4);
  });
});

describe('ML Kit MAX_TURNS_EXCEEDED over the native bridge', () => {
  it('maps -112 to generation_failed with the same reason', () => {
    const error = errorFromWire({
      code: -32012,
      message: 'Gemini Nano: the turn needed more steps than maxTurns allows (ML Kit MAX_TURNS_EXCEEDED, -112)',
      data: { code: 'generation_failed', mlkitCode: -112 },
    });
    expect(error).toBeInstanceOf(AgentError);
    expect(error.code).toBe('generation_failed');
    expect(error.nativeCode).toBe(-112);
    expect(reasonOf(error)).toBe('max_turns_exceeded');
    // Whatever code the native side sent, -112 reads as the runner's own error.
    expect(errorFromWire({ code: -32603, message: '', data: { mlkitCode: -112 } }).code).toBe('generation_failed');
    expect(
      reasonOf(errorFromWire({ code: -32012, message: 'x', data: { code: 'generation_failed', mlkitCode: -106 } })),
    ).toBeUndefined();
  });
});
