/** Step-level retries: transient failures repeat the step only, with backoff; other failures end the turn. */
import { type AgentEvent } from '../../src';
import { Script } from '../../src/testing';
import { collect, failure, shownText, tavernAgent, until } from './helpers';

describe('step retries', () => {
  test.each(['busy', 'rate_limited', 'generation_failed'] as const)(
    '%s is retried and the turn succeeds',
    async (code) => {
      const { agent, model } = tavernAgent([Script.fail(code), Script.reply('Hello!')]);
      const run = agent.run('Hi');
      const attempts: number[] = [];
      run.on('step', (event) => attempts.push(event.step.attempt));
      const response = await run.response();
      expect(response.text).toBe('Hello!');
      expect(model.calls).toBe(2);
      expect(response.modelCalls).toBe(2);
      expect(response.steps).toHaveLength(1);
      expect(attempts).toEqual([0, 1]);
    },
  );

  test('a rate limit with a short retry-after is retried', async () => {
    const { agent, model } = tavernAgent([
      Script.fail('rate_limited', 'slow down', { retryAfterMs: 2 }),
      Script.reply('Hi.'),
    ]);
    await agent.respond('Hi');
    expect(model.calls).toBe(2);
  });

  test('a retry-after longer than maxRetryAfterMs is not retried; the error keeps it', async () => {
    const { agent, model } = tavernAgent([
      Script.fail('rate_limited', 'quota', { retryAfterMs: 10_000 }),
      Script.reply('never'),
    ]);
    const error = await failure(agent.respond('Hi'));
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfterMs).toBe(10_000);
    expect(model.calls).toBe(1);
  });

  test('maxAttempts (default 3) bounds the retries of one step', async () => {
    const { agent, model } = tavernAgent([
      Script.fail('busy'),
      Script.fail('busy'),
      Script.fail('busy'),
      Script.reply('never'),
    ]);
    expect((await failure(agent.respond('Hi'))).code).toBe('busy');
    expect(model.calls).toBe(3);

    const one = tavernAgent([Script.fail('busy'), Script.reply('never')], { retry: { maxAttempts: 1 } });
    expect((await failure(one.agent.respond('Hi'))).code).toBe('busy');
    expect(one.model.calls).toBe(1);
  });

  test.each([
    'guardrail_violation',
    'refusal',
    'context_size_exceeded',
    'model_unavailable',
    'unsupported_language',
  ] as const)('%s is not retried', async (code) => {
    const { agent, model } = tavernAgent([Script.fail(code), Script.reply('never')]);
    expect((await failure(agent.respond('Hi'))).code).toBe(code);
    expect(model.calls).toBe(1);
    expect(agent.history).toEqual([]);
  });

  test('a retry repeats the step only: a tool is never run twice', async () => {
    const { agent, model, log } = tavernAgent([
      Script.call('check_menu'),
      Script.fail('busy'),
      Script.fail('generation_failed'),
      Script.reply('Ale 3.'),
    ]);
    const response = await agent.respond('Menu');
    expect(log).toEqual(['check_menu']);
    expect(model.calls).toBe(4);
    expect(response.modelCalls).toBe(4);
    expect(response.steps.map((step) => step.kind)).toEqual(['decide', 'decide']);
    // The retried request is the same request.
    expect(model.requests[1].prompt).toBe(model.requests[3].prompt);
  });

  test('a retried streamed reply starts over with a reset text event', async () => {
    const { agent } = tavernAgent(
      [Script.fail('busy', 'lost', { afterText: 'Hello wor' }), 'Hello world, friend.'],
      {},
    );
    const run = agent.run('Hi', { toolChoice: 'none' });
    const { events } = await collect(run);
    const texts = events.filter((event): event is Extract<AgentEvent, { type: 'text' }> => event.type === 'text');
    const resetAt = texts.findIndex((event) => event.isReset);
    expect(resetAt).toBeGreaterThan(0); // something was shown before the failure
    expect(texts[resetAt]).toEqual({ type: 'text', delta: '', text: '', isReset: true });
    expect(texts.slice(resetAt + 1).every((event) => !event.isReset)).toBe(true);
    expect(shownText(events)).toBe('Hello world, friend.');
  });

  test('an inline reply retried after a failure mid-stream also resets', async () => {
    const { agent } = tavernAgent([
      Script.fail('generation_failed', 'cut', { afterText: '{"reply": "Wel' }),
      Script.reply('Welcome in!'),
    ]);
    const { events } = await collect(agent.run('Hi'));
    expect(events.some((event) => event.type === 'text' && event.isReset)).toBe(true);
    expect(shownText(events)).toBe('Welcome in!');
    expect(events[events.length - 1].type).toBe('completed');
  });

  test('a cancel during the backoff ends the turn at once, with no further attempt', async () => {
    const { agent, model } = tavernAgent([Script.fail('busy'), Script.reply('never')], {
      retry: { initialDelayMs: 60_000 },
    });
    const run = agent.run('Hi');
    await until(() => model.calls === 1, 'the first attempt');
    await new Promise((resolve) => setTimeout(resolve, 5));
    run.cancel();
    expect((await failure(run.response())).code).toBe('cancelled');
    expect(model.calls).toBe(1);
    expect(agent.history).toEqual([]);
  });
});

test('behind a ModelScheduler, the agent does not retry busy again on top of the scheduler', async () => {
  const { Agent, ModelScheduler } = require('../../src') as typeof import('../../src');
  const { ScriptedLanguageModel, Script } = require('../../src/testing') as typeof import('../../src/testing');
  const device = new ScriptedLanguageModel([
    Script.fail('busy'),
    Script.fail('busy'),
    Script.fail('busy'),
    Script.text('late'),
  ]);
  const shared = new ModelScheduler(device, { maxRetries: 2, initialBackoffMs: 1, callsPerMinute: 0 });
  const agent = new Agent(shared, { config: { retry: { initialDelayMs: 1 } } });
  const err = await agent.respond('Hi').catch((error) => error);
  expect(err.code).toBe('busy');
  expect(device.calls).toBe(3); // the scheduler's 1 + 2 retries; not 3 × 3
});
