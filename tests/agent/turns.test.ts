/** Turns: the FIFO queue, events, cancellation at every stage, failures, and atomic history. */
import { Agent, AgentError, AgentTool, Canceller, JsonSchema, type AgentEvent, type TranscriptEntry } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { collect, failure, FAST, shownText, tavernAgent, until } from './helpers';

describe('the queue', () => {
  test('turns run one at a time, in order; the second sees the first in its prompt', async () => {
    const { agent, model } = tavernAgent([
      Script.delay(10, Script.reply('First answer.')),
      Script.reply('Second answer.'),
    ]);
    const first = agent.run('First question');
    const second = agent.run('Second question');
    expect(first.status).toBe('queued');
    expect(second.status).toBe('queued');
    await until(() => first.status === 'running', 'the first turn to start');
    expect(second.status).toBe('queued');
    expect(agent.isResponding).toBe(true);
    const [ra, rb] = await Promise.all([first.response(), second.response()]);
    expect([ra.text, rb.text]).toEqual(['First answer.', 'Second answer.']);
    expect(model.requests[1].prompt).toContain('User: First question\nAssistant: First answer.\nUser: Second question');
    expect(first.status).toBe('completed');
    expect(agent.turnCount).toBe(2);
    await agent.waitUntilIdle();
    expect(agent.isResponding).toBe(false);
  });

  test('a failed turn does not block the next one', async () => {
    const { agent } = tavernAgent([Script.fail('refusal'), Script.reply('Fine.')]);
    const first = agent.run('One');
    const second = agent.run('Two');
    expect((await failure(first.response())).code).toBe('refusal');
    expect((await second.response()).text).toBe('Fine.');
    expect(agent.history.map((entry) => entry.type === 'prompt' && entry.text)).toEqual(['Two', false]);
  });

  test('a bad request behind a running turn fails at once, without waiting for it', async () => {
    const { agent, model } = tavernAgent([Script.hang()]);
    const first = agent.run('Blocking');
    await until(() => model.calls === 1, 'the first turn');
    const bad = agent.run('x', { toolChoice: { tool: 'fly' } });
    const errors: string[] = [];
    bad.on('error', (error) => errors.push(error.code));
    expect((await failure(bad.response())).code).toBe('invalid_request');
    expect(errors).toEqual(['invalid_request']);
    expect(bad.status).toBe('failed');
    expect(first.status).toBe('running');
    first.cancel();
    await agent.waitUntilIdle();
  });

  test('a prompt that is not a string is invalid_request', async () => {
    const { agent, model } = tavernAgent([]);
    expect((await failure(agent.respond(42 as never))).code).toBe('invalid_request');
    expect(model.calls).toBe(0);
  });
});

describe('events', () => {
  test('in order, completed last; text deltas add up exactly to the reply', async () => {
    const { agent } = tavernAgent([Script.call('check_menu'), Script.reply('Ale is three coins, stew is five.', 7)]);
    const run = agent.run('Prices?');
    const { events, error } = await collect(run);
    expect(error).toBeUndefined();
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('step');
    expect(types[types.length - 1]).toBe('completed');
    expect(types.filter((type) => type === 'completed')).toHaveLength(1);
    const toolTypes = types.filter((type) => type.startsWith('tool'));
    expect(toolTypes).toEqual(['toolStarted', 'toolCompleted']);
    const texts = events.filter((event): event is Extract<AgentEvent, { type: 'text' }> => event.type === 'text');
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.some((event) => event.isReset)).toBe(false);
    const response = (events[events.length - 1] as Extract<AgentEvent, { type: 'completed' }>).response;
    expect(texts.map((event) => event.delta).join('')).toBe(response.text);
    expect(texts[texts.length - 1].text).toBe(response.text);
    // step / stepFinished pair up
    expect(types.filter((type) => type === 'step')).toHaveLength(2);
    expect(types.filter((type) => type === 'stepFinished')).toHaveLength(2);
  });

  test('deltas add up in seed mode too, and a cleaned-up label never shows', async () => {
    const { agent } = tavernAgent([Script.action('respond'), Script.text('Assistant: "Good evening, traveller."', 9)], {
      inlineReplies: false,
    });
    const { events } = await collect(agent.run('Evening'));
    const response = (events[events.length - 1] as Extract<AgentEvent, { type: 'completed' }>).response;
    expect(response.text).toBe('Good evening, traveller.');
    expect(shownText(events)).toBe(response.text);
    for (const event of events) if (event.type === 'text') expect(event.text).not.toContain('Assistant');
  });

  test('events can be collected once; a second iteration throws', async () => {
    const { agent } = tavernAgent([Script.reply('Hi.')]);
    const run = agent.run('Hi');
    await collect(run);
    expect(() => run.events[Symbol.asyncIterator]()).toThrow(/once/);
  });

  test('events pushed before anyone reads are kept', async () => {
    const { agent } = tavernAgent([Script.reply('Hi.')]);
    const run = agent.run('Hi');
    await run.response();
    const { events } = await collect(run);
    expect(events[events.length - 1].type).toBe('completed');
    expect(events[0].type).toBe('step');
  });

  test('on() listeners, with unsubscribe; error listeners get the failure', async () => {
    const { agent } = tavernAgent([Script.reply('Hi.'), Script.fail('guardrail_violation')]);
    const run = agent.run('Hi');
    const seen: string[] = [];
    run.on('step', (event) => seen.push(`step ${event.step.kind}`));
    const off = run.on('text', () => seen.push('text'));
    off();
    run.on('completed', (event) => seen.push(`completed ${event.response.text}`));
    await run.response();
    expect(seen).toEqual(['step decide', 'completed Hi.']);

    const bad = agent.run('Bad');
    const errors: string[] = [];
    bad.on('error', (error) => errors.push(error.code));
    await failure(bad.response());
    expect(errors).toEqual(['guardrail_violation']);
    expect(bad.status).toBe('failed');
  });

  test('the event iteration throws the failure', async () => {
    const { agent } = tavernAgent([Script.fail('guardrail_violation')]);
    const { events, error } = await collect(agent.run('x'));
    expect(error?.code).toBe('guardrail_violation');
    expect(events.map((event) => event.type)).toEqual(['step']);
  });

  test('the step event carries the request and the stepFinished event the raw output', async () => {
    const { agent } = tavernAgent([Script.reply('Hi.')]);
    const run = agent.run('Hello');
    const steps: AgentEvent[] = [];
    run.on('step', (event) => steps.push(event));
    const finished: string[] = [];
    run.on('stepFinished', (event) => finished.push(event.output));
    await run.response();
    expect((steps[0] as Extract<AgentEvent, { type: 'step' }>).request.kind).toBe('decide');
    expect(finished).toEqual(['{"reply":"Hi."}']);
  });
});

/** A finished first turn, then a second that fails or is cancelled: the history stays as after the first. */
async function withOneTurn(steps: Parameters<typeof tavernAgent>[0], config: Parameters<typeof tavernAgent>[1] = {}) {
  const setup = tavernAgent([Script.reply('Welcome.'), ...steps], config);
  await setup.agent.respond('Hello');
  const before: TranscriptEntry[] = setup.agent.history;
  expect(before).toHaveLength(2);
  const expectUnchanged = () => {
    expect(setup.agent.history).toEqual(before);
    expect(setup.agent.transcript.entries).toEqual(before);
    expect(setup.agent.turnCount).toBe(1);
  };
  return { ...setup, before, expectUnchanged };
}

describe('cancellation', () => {
  test('before start: a queued turn is cancelled at once, with no model call', async () => {
    const { agent, model, expectUnchanged } = await withOneTurn([Script.hang()]);
    const first = agent.run('Blocking');
    const second = agent.run('Queued');
    await until(() => model.calls === 2, 'the first turn to reach the model');
    second.cancel();
    expect(second.status).toBe('cancelled');
    expect((await failure(second.response())).code).toBe('cancelled');
    first.cancel();
    expect((await failure(first.response())).code).toBe('cancelled');
    await agent.waitUntilIdle();
    expect(model.calls).toBe(2);
    expectUnchanged();
  });

  test('a queued turn whose caller signal was already aborted is cancelled at once', async () => {
    const { agent, model } = tavernAgent([Script.hang()]);
    const first = agent.run('Blocking');
    const canceller = new Canceller();
    canceller.abort();
    const second = agent.run('Queued', { signal: canceller.signal });
    // It fails a microtask later (like bad input), so a listener attached right after run() hears it.
    const heard: string[] = [];
    second.on('error', (error) => heard.push(error.code));
    await Promise.resolve();
    expect(second.status).toBe('cancelled');
    expect(heard).toEqual(['cancelled']);
    expect((await failure(second.response())).code).toBe('cancelled');
    first.cancel();
    await agent.waitUntilIdle();
    expect(model.calls).toBe(1);
  });

  test('during a model step', async () => {
    const { agent, model, expectUnchanged } = await withOneTurn([Script.hang()]);
    const run = agent.run('Wait');
    await until(() => model.calls === 2, 'the model step');
    expect(agent.transcript.entries).toHaveLength(3); // the running turn shows
    run.cancel('The player walked away.');
    const error = await failure(run.response());
    expect(error.code).toBe('cancelled');
    expect(error.message).toBe('The player walked away.');
    expect(run.status).toBe('cancelled');
    expectUnchanged();
  });

  test('during a streamed reply (after some text)', async () => {
    const model = new ScriptedLanguageModel([Script.text('One two three four five six', 6)], { chunkDelayMs: 5 });
    const agent = new Agent(model);
    const run = agent.run('Count');
    let texts = 0;
    run.on('text', () => {
      texts++;
      if (texts === 2) run.cancel();
    });
    expect((await failure(run.response())).code).toBe('cancelled');
    expect(agent.history).toEqual([]);
  });

  test('during a local tool: the tool sees its signal abort', async () => {
    let toolRunning = false;
    let toolSignalAborted = false;
    const slow = AgentTool.local(
      { name: 'dig', description: 'Digs.' },
      (_a, ctx) =>
        new Promise((resolve) => {
          toolRunning = true;
          ctx.signal.addEventListener('abort', () => {
            toolSignalAborted = true;
            resolve('stopped');
          });
        }),
    );
    const model = new ScriptedLanguageModel([Script.reply('Hi.'), Script.call('dig'), Script.reply('Dug.')]);
    const agent = new Agent(model, { tools: [slow], config: FAST });
    await agent.respond('Hello');
    const before = agent.history;
    const run = agent.run('Dig');
    await until(() => toolRunning, 'the tool to start');
    run.cancel();
    expect((await failure(run.response())).code).toBe('cancelled');
    expect(toolSignalAborted).toBe(true);
    expect(agent.history).toEqual(before);
    expect(agent.transcript.entries).toEqual(before);
    expect(model.calls).toBe(2);
  });

  test('during an external tool wait: the pending call is dropped and a late answer is refused', async () => {
    const door = AgentTool.external({
      name: 'open_door',
      description: 'Opens.',
      parameters: JsonSchema.obj({ door: JsonSchema.string() }),
    });
    const model = new ScriptedLanguageModel([Script.call('open_door', { door: 'n' }), Script.reply('never')]);
    const agent = new Agent(model, { tools: [door], config: { externalToolTimeoutMs: 0 } });
    const run = agent.run('Open');
    await until(() => run.pendingToolCalls.length === 1, 'the external call');
    const id = run.pendingToolCalls[0].id;
    run.cancel();
    expect((await failure(run.response())).code).toBe('cancelled');
    expect(run.submit(id, 'late')).toBe(false);
    expect(run.pendingToolCalls).toEqual([]);
    expect(agent.history).toEqual([]);
    expect(model.calls).toBe(1);
  });

  test("through the caller's signal (the library's Canceller)", async () => {
    const { agent, model, expectUnchanged } = await withOneTurn([Script.hang()]);
    const canceller = new Canceller();
    const run = agent.run('Wait', { signal: canceller.signal });
    await until(() => model.calls === 2, 'the model step');
    canceller.abort(new AgentError('cancelled', 'Scene changed.'));
    const error = await failure(run.response());
    expect(error.code).toBe('cancelled');
    expect(error.message).toBe('Scene changed.');
    expectUnchanged();
  });

  test('through respond() with a signal', async () => {
    const { agent, model } = tavernAgent([Script.hang()]);
    const canceller = new Canceller();
    const turn = agent.respond('Wait', { signal: canceller.signal });
    await until(() => model.calls === 1, 'the model step');
    canceller.abort();
    expect((await failure(turn)).code).toBe('cancelled');
  });

  test('after completion: no effect', async () => {
    const { agent } = tavernAgent([Script.reply('Done.')]);
    const canceller = new Canceller();
    const run = agent.run('Go', { signal: canceller.signal });
    const response = await run.response();
    run.cancel();
    canceller.abort();
    expect(run.status).toBe('completed');
    expect(await run.response()).toBe(response);
    expect(agent.history).toHaveLength(2);
  });

  test('close() cancels the running and queued turns and takes no more', async () => {
    const { agent, model } = tavernAgent([Script.hang(), Script.reply('never')]);
    const first = agent.run('A');
    const second = agent.run('B');
    await until(() => model.calls === 1, 'the first step');
    agent.close();
    expect((await failure(first.response())).code).toBe('cancelled');
    expect((await failure(second.response())).code).toBe('cancelled');
    expect((await failure(agent.respond('C'))).code).toBe('invalid_request');
    await agent.waitUntilIdle();
    expect(model.calls).toBe(1);
    expect(agent.history).toEqual([]);
  });
});

describe('a model error at each stage leaves the history as it was', () => {
  test('in the first decide step', async () => {
    const { agent, expectUnchanged, log } = await withOneTurn([Script.fail('guardrail_violation')]);
    expect((await failure(agent.respond('Bad words'))).code).toBe('guardrail_violation');
    expect(log).toEqual([]);
    expectUnchanged();
  });

  test('after a tool ran', async () => {
    const { agent, log, expectUnchanged } = await withOneTurn([Script.call('check_menu'), Script.fail('refusal')]);
    const run = agent.run('Menu');
    const error = await failure(run.response());
    expect(error.code).toBe('refusal');
    expect(log).toEqual(['check_menu']);
    expectUnchanged();
  });

  test('in the respond step (seed mode)', async () => {
    const { agent, expectUnchanged } = await withOneTurn(
      [Script.action('check_menu'), Script.action('respond'), Script.fail('model_unavailable')],
      { inlineReplies: false },
    );
    expect((await failure(agent.respond('Menu'))).code).toBe('model_unavailable');
    expectUnchanged();
  });

  test('in a toolArguments step', async () => {
    const { agent, expectUnchanged } = await withOneTurn([Script.fail('unsupported_language')]);
    expect((await failure(agent.respond('Bread', { toolChoice: { tool: 'take_order' } }))).code).toBe(
      'unsupported_language',
    );
    expectUnchanged();
  });

  test('an empty reply is generation_failed', async () => {
    const { agent, expectUnchanged } = await withOneTurn(['   ', '', '""'], { retry: { maxAttempts: 1 } });
    expect((await failure(agent.respond('Hm', { toolChoice: 'none' }))).code).toBe('generation_failed');
    expectUnchanged();
  });

  test('the script running out is reported clearly, not a hang', async () => {
    const { agent, expectUnchanged } = await withOneTurn([]);
    const error = await failure(agent.respond('More'));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain('script is exhausted');
    expectUnchanged();
  });

  test('usage is only added for committed turns', async () => {
    const { agent } = await withOneTurn([Script.call('check_menu'), Script.fail('refusal')]);
    const usage = agent.totalUsage;
    expect(usage.inputTokens).toBeGreaterThan(0);
    await failure(agent.respond('Menu'));
    expect(agent.totalUsage).toEqual(usage);
  });
});

describe('a model that ignores its signal', () => {
  const { Agent } = require('../../src') as typeof import('../../src');
  test('cannot keep a cancelled turn, or the turns queued behind it, waiting', async () => {
    const deaf = {
      capabilities: {
        modelName: 'deaf',
        maxInputTokens: 4000,
        maxOutputTokens: 256,
        systemInstructions: true,
        prefixCaching: false,
        nativeToolCalling: false,
      },
      availability: () => Promise.resolve({ status: 'available' as const }),
      // Never yields and never looks at the signal.
      generate: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<never>(() => undefined) }) }),
    };
    const agent = new Agent(deaf);
    const first = agent.run('Hello');
    const second = agent.run('Again');
    await new Promise((resolve) => setTimeout(resolve, 10));
    first.cancel();
    second.cancel();
    const errors = await Promise.all([
      first.response().catch((error) => error),
      second.response().catch((error) => error),
    ]);
    expect(errors.map((error) => (error as AgentError).code)).toEqual(['cancelled', 'cancelled']);
    await agent.waitUntilIdle();
    expect(agent.history).toEqual([]);
  });
});

test('response(handler) called twice does not hand the same external call to the handler twice', async () => {
  const { Agent, AgentTool } = require('../../src') as typeof import('../../src');
  const { ScriptedLanguageModel, Script } = require('../../src/testing') as typeof import('../../src/testing');
  const ask = AgentTool.external({ name: 'ask', description: 'Asks the game.' });
  const agent = new Agent(new ScriptedLanguageModel([Script.call('ask'), Script.reply('Done.')]), { tools: [ask] });
  let handled = 0;
  const handler = () => {
    handled++;
    return 'yes';
  };
  const run = agent.run('Go');
  await new Promise<void>((resolve) => run.on('toolRequested', () => resolve()));
  void run.response(handler);
  const response = await run.response(handler);
  expect(response.text).toBe('Done.');
  expect(handled).toBe(1);
});

test('a game listener that throws neither fails the turn nor poisons the turns queued behind it', async () => {
  const { Agent } = require('../../src') as typeof import('../../src');
  const { ScriptedLanguageModel, Script } = require('../../src/testing') as typeof import('../../src/testing');
  const agent = new Agent(new ScriptedLanguageModel([Script.text('One.'), Script.text('Two.')]));
  const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const first = agent.run('1');
  first.on('text', () => {
    throw new Error('bug in game listener');
  });
  const second = agent.run('2');
  expect((await first.response()).text).toBe('One.');
  expect((await second.response()).text).toBe('Two.');
  expect(spy).toHaveBeenCalled();
  spy.mockRestore();
});

test('an accept option that is not a function is rejected before any model call', async () => {
  const { Agent } = require('../../src') as typeof import('../../src');
  const { ScriptedLanguageModel } = require('../../src/testing') as typeof import('../../src/testing');
  const model = new ScriptedLanguageModel(['Hi']);
  const err = await new Agent(model).respond('Hello', { accept: 'yes' as never }).catch((error) => error);
  expect(err.code).toBe('invalid_request');
  expect(model.calls).toBe(0);
});
