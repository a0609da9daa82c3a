import { Canceller, type SignalLike } from '../../src/contract/abort';
import { AgentError } from '../../src/contract/errors';
import { ModelScheduler, Priority, type ModelSchedulerOptions, type SchedulerEvent } from '../../src/models/scheduler';
import {
  DEFAULT_CAPABILITIES,
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
} from '../../src/contract/language-model';

/** A deterministic clock: timers fire only when the test advances time. */
class FakeClock {
  time = 0;
  private timers: Array<{ at: number; seq: number; fn: () => void }> = [];
  private seq = 0;

  readonly now = (): number => this.time;
  readonly setTimer = (fn: () => void, ms: number): unknown => {
    const timer = { at: this.time + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return timer;
  };
  readonly clearTimer = (handle: unknown): void => {
    this.timers = this.timers.filter((timer) => timer !== handle);
  };

  sleep(ms: number, signal?: SignalLike): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.clearTimer(timer);
        reject(AgentError.cancelled('The generation'));
      };
      const timer = this.setTimer(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort);
    });
  }

  /** Lets every pending promise chain run. */
  async settle(): Promise<void> {
    for (let index = 0; index < 3; index++) await new Promise((resolve) => setImmediate(resolve));
  }

  /** Fires timers in time order up to `until` (default: until none are left). */
  async run(until = Infinity): Promise<void> {
    await this.settle();
    for (let guard = 0; guard < 100000; guard++) {
      const next = this.timers.slice().sort((left, right) => left.at - right.at || left.seq - right.seq)[0];
      if (!next || next.at > until) break;
      this.timers.splice(this.timers.indexOf(next), 1);
      this.time = Math.max(this.time, next.at);
      next.fn();
      await this.settle();
    }
    if (until !== Infinity) this.time = Math.max(this.time, until);
    await this.settle();
  }
}

type Behaviour =
  { kind: 'ok' } | { kind: 'failBefore'; error: AgentError } | { kind: 'failAfterChunk'; error: AgentError };

/** Records every call the scheduler lets through, with the fake clock's time. */
class RecordingModel implements LanguageModel {
  readonly capabilities = { ...DEFAULT_CAPABILITIES, modelName: 'recording' };
  readonly calls: Array<{ label?: string; priority?: number; at: number }> = [];
  active = 0;
  maxActive = 0;
  abortsSeen = 0;
  /** Per label, what each successive call does (then `ok`). */
  readonly plans = new Map<string, Behaviour[]>();

  constructor(
    private readonly clock: FakeClock,
    private readonly durationMs = 400,
  ) {}

  async *generate(request: GenerationRequest, signal?: SignalLike): AsyncGenerator<GenerationChunk> {
    this.calls.push({ label: request.label, priority: request.priority, at: this.clock.now() });
    const behaviour = this.plans.get(request.label ?? '')?.shift() ?? { kind: 'ok' };
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      if (behaviour.kind === 'failBefore') {
        await this.clock.sleep(10, signal);
        throw behaviour.error;
      }
      await this.clock.sleep(this.durationMs / 2, signal);
      yield { delta: 'Hello ', text: 'Hello ' };
      if (behaviour.kind === 'failAfterChunk') throw behaviour.error;
      await this.clock.sleep(this.durationMs / 2, signal);
      yield { delta: 'there.', text: 'Hello there.', finishReason: 'stop' };
    } catch (error) {
      if ((error as AgentError).code === 'cancelled') this.abortsSeen++;
      throw error;
    } finally {
      this.active--;
    }
  }

  async availability() {
    return { status: 'available' as const };
  }
}

interface Outcome {
  label: string;
  status: 'pending' | 'completed' | 'error';
  text: string;
  error?: AgentError;
}

/** Starts consuming a generation in the background and records how it ended. */
function consume(model: LanguageModel, request: GenerationRequest, signal?: SignalLike): Outcome {
  const outcome: Outcome = { label: request.label ?? '', status: 'pending', text: '' };
  void (async () => {
    try {
      for await (const chunk of model.generate(request, signal)) outcome.text += chunk.delta;
      outcome.status = 'completed';
    } catch (error) {
      outcome.status = 'error';
      outcome.error = error as AgentError;
    }
  })();
  return outcome;
}

function setup(options: ModelSchedulerOptions = {}, durationMs = 400) {
  const clock = new FakeClock();
  const inner = new RecordingModel(clock, durationMs);
  const events: SchedulerEvent[] = [];
  const scheduler = new ModelScheduler(inner, {
    now: clock.now,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { clock, inner, scheduler, events };
}

const req = (label: string, priority?: number, extra: Partial<GenerationRequest> = {}): GenerationRequest => ({
  kind: 'respond',
  prompt: label,
  label,
  priority,
  ...extra,
});

/** No 60 s window [t, t + 60 s) holds more than `limit` of these sorted start times. */
function maxStartsInAnyWindow(starts: number[]): number {
  let most = 0;
  for (let last = 0, first = 0; last < starts.length; last++) {
    while (starts[last] - starts[first] >= 60000) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

describe('ModelScheduler ordering', () => {
  test('a burst queued together runs highest priority first', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0 });
    const outcomes = [
      consume(scheduler, req('bark', Priority.bark)),
      consume(scheduler, req('background', Priority.background)),
      consume(scheduler, req('talk', Priority.conversation)),
      consume(scheduler, req('decide', Priority.decision)),
      consume(scheduler, req('content', Priority.content)),
      consume(scheduler, req('unset')),
    ];
    await clock.run();
    expect(inner.calls.map((call) => call.label)).toEqual(['talk', 'decide', 'content', 'bark', 'background', 'unset']);
    expect(outcomes.every((outcome) => outcome.status === 'completed' && outcome.text === 'Hello there.')).toBe(true);
    expect(inner.maxActive).toBe(1);
  });

  test('equal priorities run first come, first served', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0 });
    for (let index = 0; index < 8; index++) consume(scheduler, req(`n${index}`, index % 2 === 0 ? 5 : 7));
    await clock.run();
    expect(inner.calls.map((call) => call.label)).toEqual(['n1', 'n3', 'n5', 'n7', 'n0', 'n2', 'n4', 'n6']);
  });

  test('background work never stands in front of the player: a running summary is stopped and runs again after the turn', async () => {
    // No retries allowed: a preemption is not a backend failure and must not use them up.
    const { clock, inner, scheduler, events } = setup({ callsPerMinute: 0, maxRetries: 0 });
    const summary = consume(scheduler, req('summary', Priority.background));
    await clock.run(100); // the summary is prefilling, no output yet
    const talk = consume(scheduler, req('talk', Priority.conversation));
    await clock.run();
    expect(inner.calls.map((call) => call.label)).toEqual(['summary', 'talk', 'summary']);
    expect(inner.calls[1].at).toBe(100); // the turn started at once, not after the summary's 400 ms
    expect(talk.status).toBe('completed');
    expect(summary).toMatchObject({ status: 'completed', text: 'Hello there.' });
    expect(events.filter((event) => event.type === 'preempted').map((event) => event.label)).toEqual(['summary']);
    expect(scheduler.stats()).toMatchObject({ preempted: 1, retried: 0, failed: 0, completed: 2 });
    expect(events.some((event) => event.type === 'retry')).toBe(false);
  });

  test('preempted again and again, a background request still runs once the player is answered', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0 });
    const bark = consume(scheduler, req('bark', Priority.bark));
    for (let index = 0; index < 4; index++) {
      await clock.run(clock.time + 50);
      consume(scheduler, req(`talk${index}`, Priority.conversation));
      await clock.run(clock.time + 450);
    }
    await clock.run();
    expect(bark).toMatchObject({ status: 'completed', text: 'Hello there.' });
    expect(scheduler.stats()).toMatchObject({ preempted: 4, retried: 0 });
    expect(inner.calls.filter((call) => call.label === 'bark')).toHaveLength(5);
  });

  test('a bark that already spoke is not repeated: its caller gets busy; a decision also preempts, content does not', async () => {
    const first = setup({ callsPerMinute: 0 });
    const bark = consume(first.scheduler, req('bark', Priority.bark));
    await first.clock.run(250); // the first words are out
    consume(first.scheduler, req('decide', Priority.decision));
    await first.clock.run();
    expect(bark.status).toBe('error');
    expect(bark.error?.code).toBe('busy');
    expect(bark.error?.message).toContain('decide');
    expect(first.inner.calls.map((call) => call.label)).toEqual(['bark', 'decide']);
    const second = setup({ callsPerMinute: 0 });
    consume(second.scheduler, req('bark', Priority.bark));
    await second.clock.run(100);
    consume(second.scheduler, req('content', Priority.content));
    await second.clock.run();
    expect(second.scheduler.stats().preempted).toBe(0);
    expect(() => new ModelScheduler(second.inner, { preemptsBackground: 'no' as unknown as boolean })).toThrow(
      /preemptsBackground must be true or false/,
    );
  });

  test('preemptsBackground off: a later, more urgent request overtakes those still waiting but not the running one', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0, preemptsBackground: false });
    consume(scheduler, req('first', 0));
    await clock.settle();
    consume(scheduler, req('bark', Priority.bark));
    await clock.run(100);
    consume(scheduler, req('talk', Priority.conversation));
    await clock.run();
    expect(inner.calls.map((call) => call.label)).toEqual(['first', 'talk', 'bark']);
  });

  test('runs at most `concurrency` generations at once', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0, concurrency: 3 });
    for (let index = 0; index < 10; index++) consume(scheduler, req(`n${index}`));
    await clock.run();
    expect(inner.maxActive).toBe(3);
    expect(inner.calls).toHaveLength(10);
    expect(scheduler.stats()).toMatchObject({ queued: 0, running: 0, started: 10, completed: 10 });
  });

  test('a consumer that stops reading early frees the slot', async () => {
    const { clock, inner, scheduler, events } = setup({ callsPerMinute: 0 });
    const seen: string[] = [];
    const early = (async () => {
      for await (const chunk of scheduler.generate(req('early'))) {
        seen.push(chunk.delta);
        break;
      }
    })();
    const next = consume(scheduler, req('next'));
    await clock.run();
    await early;
    expect(seen).toEqual(['Hello ']);
    expect(next.status).toBe('completed');
    expect(inner.calls.map((call) => call.label)).toEqual(['early', 'next']);
    expect(events.find((event) => event.type === 'finished' && event.label === 'early')?.outcome).toBe('closed');
  });
});

describe('ModelScheduler pacing', () => {
  test('never starts more than callsPerMinute in any sliding 60 s window', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 5 }, 100);
    const outcomes = Array.from({ length: 23 }, (_, index) =>
      consume(scheduler, req(`n${index}`, Priority.conversation)),
    );
    await clock.run();
    const starts = inner.calls.map((call) => call.at);
    expect(starts).toHaveLength(23);
    expect(maxStartsInAnyWindow(starts)).toBe(5);
    // it does not wait when there is budget: the first five go back to back
    expect(starts.slice(0, 5)).toEqual([0, 100, 200, 300, 400]);
    expect(starts[5]).toBe(60000);
    expect(outcomes.every((outcome) => outcome.status === 'completed')).toBe(true);
  });

  test('the default budget is 30 calls a minute', async () => {
    const { clock, inner, scheduler } = setup({}, 10);
    for (let index = 0; index < 65; index++) consume(scheduler, req(`n${index}`, Priority.conversation));
    await clock.run();
    expect(inner.calls).toHaveLength(65);
    expect(maxStartsInAnyWindow(inner.calls.map((call) => call.at))).toBe(30);
  });
});

describe('ModelScheduler retries', () => {
  test("retries rate_limited after the server's retry-after when it is longer than the backoff", async () => {
    const { clock, inner, scheduler, events } = setup({ callsPerMinute: 0 });
    inner.plans.set('a', [
      { kind: 'failBefore', error: new AgentError('rate_limited', 'quota', { retryAfterMs: 2000 }) },
    ]);
    const first = consume(scheduler, req('a'));
    await clock.run();
    expect(first.status).toBe('completed');
    expect(first.text).toBe('Hello there.');
    expect(inner.calls.map((call) => call.at)).toEqual([0, 10 + 2000]);
    expect(scheduler.stats()).toMatchObject({ started: 2, retried: 1, completed: 1, failed: 0 });
    expect(events.filter((event) => event.type === 'retry')).toEqual([
      { type: 'retry', label: 'a', priority: 0, attempt: 2, waitMs: 2000, error: 'rate_limited' },
    ]);
  });

  test('busy without retry-after backs off 300 ms, then 600 ms', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0 });
    const busy = () => ({ kind: 'failBefore' as const, error: new AgentError('busy', 'busy') });
    inner.plans.set('a', [busy(), busy()]);
    const first = consume(scheduler, req('a'));
    await clock.run();
    expect(first.status).toBe('completed');
    expect(inner.calls.map((call) => call.at)).toEqual([0, 310, 320 + 600]);
  });

  test('gives up after maxRetries and throws the last error', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0, maxRetries: 2 });
    const busy = () => ({ kind: 'failBefore' as const, error: new AgentError('busy', 'still busy') });
    inner.plans.set('a', [busy(), busy(), busy(), busy()]);
    const first = consume(scheduler, req('a'));
    await clock.run();
    expect(first.status).toBe('error');
    expect(first.error?.code).toBe('busy');
    expect(inner.calls).toHaveLength(3);
    expect(scheduler.stats()).toMatchObject({ failed: 1, retried: 2 });
  });

  test('a retry-after longer than maxRetryAfterMs is not waited for', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0, maxRetryAfterMs: 5000 });
    inner.plans.set('a', [
      { kind: 'failBefore', error: new AgentError('rate_limited', 'daily quota', { retryAfterMs: 60000 }) },
    ]);
    const first = consume(scheduler, req('a'));
    await clock.run();
    expect(first.error?.code).toBe('rate_limited');
    expect(first.error?.retryAfterMs).toBe(60000);
    expect(inner.calls).toHaveLength(1);
  });

  test('an error after output started is passed through, never retried', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0 });
    inner.plans.set('a', [{ kind: 'failAfterChunk', error: new AgentError('busy', 'busy mid-stream') }]);
    const first = consume(scheduler, req('a'));
    await clock.run();
    expect(first.status).toBe('error');
    expect(first.error?.code).toBe('busy');
    expect(first.text).toBe('Hello '); // streamed once, not repeated
    expect(inner.calls).toHaveLength(1);
  });

  test('other errors are passed through without retry', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0 });
    inner.plans.set('a', [{ kind: 'failBefore', error: new AgentError('context_size_exceeded', 'too long') }]);
    inner.plans.set('b', [{ kind: 'failBefore', error: new AgentError('generation_failed', 'oops') }]);
    const first = consume(scheduler, req('a'));
    const second = consume(scheduler, req('b'));
    await clock.run();
    expect([first.error?.code, second.error?.code]).toEqual(['context_size_exceeded', 'generation_failed']);
    expect(inner.calls).toHaveLength(2);
  });

  test('a server retry-after holds everyone, not just the request that hit it', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0 });
    inner.plans.set('a', [{ kind: 'failBefore', error: new AgentError('busy', 'quota', { retryAfterMs: 3000 }) }]);
    consume(scheduler, req('a', 10));
    await clock.run(5);
    consume(scheduler, req('b', 0));
    await clock.run();
    expect(inner.calls.map((call) => [call.label, call.at])).toEqual([
      ['a', 0],
      ['a', 3010],
      ['b', 3410],
    ]);
  });
});

describe('ModelScheduler cancellation and stale requests', () => {
  test('a queued request whose signal aborts leaves the queue at once and never runs', async () => {
    const { clock, inner, scheduler, events } = setup({ callsPerMinute: 0 });
    const blocker = consume(scheduler, req('blocker'));
    const canceller = new Canceller();
    const waiting = consume(scheduler, req('waiting'), canceller.signal);
    await clock.run(100);
    expect(scheduler.stats().queued).toBe(1);
    canceller.abort();
    await clock.settle();
    expect(waiting.status).toBe('error');
    expect(waiting.error?.code).toBe('cancelled');
    expect(clock.time).toBe(100); // before the blocker finished
    expect(scheduler.stats().queued).toBe(0);
    await clock.run();
    expect(blocker.status).toBe('completed');
    expect(inner.calls.map((call) => call.label)).toEqual(['blocker']);
    expect(events).toContainEqual({ type: 'dropped', label: 'waiting', priority: 0, reason: 'cancelled' });
    expect(scheduler.stats()).toMatchObject({ cancelled: 1, completed: 1 });
  });

  test('an already aborted signal is refused without queueing', async () => {
    const { clock, inner, scheduler } = setup();
    const canceller = new Canceller();
    canceller.abort();
    const first = consume(scheduler, req('a'), canceller.signal);
    await clock.run();
    expect(first.error?.code).toBe('cancelled');
    expect(inner.calls).toHaveLength(0);
  });

  test('aborting a running request forwards the abort to the inner model', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0 });
    const canceller = new Canceller();
    const first = consume(scheduler, req('a'), canceller.signal);
    const second = consume(scheduler, req('b'));
    await clock.run(100);
    canceller.abort();
    await clock.run();
    expect(first.error?.code).toBe('cancelled');
    expect(inner.abortsSeen).toBe(1);
    expect(second.status).toBe('completed');
    expect(scheduler.stats()).toMatchObject({ cancelled: 1, completed: 1, failed: 0 });
  });

  test('a request not started by its deadline is dropped and never runs', async () => {
    const { clock, inner, scheduler, events } = setup({ callsPerMinute: 0 }, 1000);
    consume(scheduler, req('blocker', Priority.conversation));
    const bark = consume(scheduler, req('bark', Priority.bark, { deadline: 500 }));
    const later = consume(scheduler, req('later', Priority.bark, { deadline: 5000 }));
    await clock.run(500);
    expect(bark.status).toBe('error');
    expect(bark.error?.code).toBe('cancelled');
    expect(bark.error?.message).toMatch(/^dropped: its moment passed/);
    await clock.run();
    expect(later.status).toBe('completed');
    expect(inner.calls.map((call) => call.label)).toEqual(['blocker', 'later']);
    expect(events).toContainEqual({ type: 'dropped', label: 'bark', priority: Priority.bark, reason: 'stale' });
    expect(scheduler.stats()).toMatchObject({ dropped: 1, completed: 2 });
  });

  test('a deadline already past is dropped without a model call', async () => {
    const { clock, inner, scheduler } = setup();
    clock.time = 10000;
    const first = consume(scheduler, req('a', 0, { deadline: 9000 }));
    await clock.run();
    expect(first.error?.message).toMatch(/dropped/);
    expect(inner.calls).toHaveLength(0);
  });

  test('a request waiting for the rate budget goes stale too', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 1 }, 10);
    consume(scheduler, req('a'));
    const second = consume(scheduler, req('b', 0, { deadline: 30000 }));
    await clock.run();
    expect(second.error?.message).toMatch(/dropped/);
    expect(inner.calls.map((call) => call.label)).toEqual(['a']);
  });
});

describe('ModelScheduler delegation and validation', () => {
  test('capabilities, availability, countTokens and prewarm go to the inner model', async () => {
    const prewarmed: Array<[string | undefined, string | undefined]> = [];
    const inner: LanguageModel = {
      capabilities: { ...DEFAULT_CAPABILITIES, modelName: 'nano' },
      generate: async function* () {
        yield { delta: 'x', text: 'x', finishReason: 'stop' as const };
      },
      availability: async () => ({ status: 'downloadable' as const }),
      countTokens: async (text: string) => text.length,
      prewarm: async (systemInstruction?: string, promptPrefix?: string) => {
        prewarmed.push([systemInstruction, promptPrefix]);
      },
    };
    const scheduler = new ModelScheduler(inner);
    expect(scheduler.capabilities.modelName).toBe('nano');
    expect(await scheduler.availability()).toEqual({ status: 'downloadable' });
    expect(await scheduler.countTokens('abcd')).toBe(4);
    await scheduler.prewarm('sys', 'prefix');
    // The model is loaded; without prefix caching there is no fill to queue.
    expect(prewarmed).toEqual([['sys', undefined]]);

    const bare = new ModelScheduler({
      capabilities: DEFAULT_CAPABILITIES,
      generate: inner.generate,
      availability: inner.availability,
    });
    expect(await bare.countTokens('abcd')).toBeNull();
    await expect(bare.prewarm()).resolves.toBeUndefined();
  });

  test('rejects bad options', () => {
    const { inner } = setup();
    for (const bad of [
      { concurrency: 0 },
      { concurrency: 1.5 },
      { callsPerMinute: -1 },
      { callsPerMinute: NaN },
      { maxRetries: -1 },
      { maxRetryAfterMs: -5 },
      { initialBackoffMs: Infinity },
    ]) {
      expect(() => new ModelScheduler(inner, bad)).toThrow(AgentError);
    }
    expect(() => new ModelScheduler(undefined as unknown as LanguageModel)).toThrow(/LanguageModel/);
    expect(() => new ModelScheduler(inner, { callsPerMinute: Infinity })).not.toThrow();
  });

  test('rejects bad priorities and deadlines before queueing', async () => {
    const { clock, inner, scheduler } = setup();
    const first = consume(scheduler, req('a', NaN));
    const second = consume(scheduler, req('b', 0, { deadline: 'soon' as unknown as number }));
    await clock.run();
    expect([first.error?.code, second.error?.code]).toEqual(['invalid_request', 'invalid_request']);
    expect(inner.calls).toHaveLength(0);
    expect(scheduler.stats().queued).toBe(0);
  });

  test('an observer that throws does not break scheduling', async () => {
    const { clock, scheduler } = setup({
      callsPerMinute: 0,
      onEvent: () => {
        throw new Error('observer bug');
      },
    });
    const first = consume(scheduler, req('a'));
    await clock.run();
    expect(first.status).toBe('completed');
  });
});

describe('ModelScheduler under a burst of 200 requests from 20 NPCs', () => {
  test('priority order, the rate budget, nothing lost, cancelled requests never reach the model', async () => {
    const perMinute = 30;
    const { clock, inner, scheduler, events } = setup({ callsPerMinute: perMinute }, 400);
    const priorities = [Priority.conversation, Priority.decision, Priority.content, Priority.bark, Priority.background];
    interface Sent {
      seq: number;
      label: string;
      priority: number;
      deadline?: number;
      cancelAt?: number;
      outcome: Outcome;
    }
    const sent: Sent[] = [];
    for (let npc = 0; npc < 20; npc++) {
      for (let slot = 0; slot < 10; slot++) {
        const seq = npc * 10 + slot;
        const priority = priorities[(npc + slot) % priorities.length];
        const label = `npc${npc}#${slot}`;
        // barks and background chatter lose their point after a while; some are called off
        const deadline = priority <= Priority.bark && seq % 3 === 0 ? 60000 + seq * 100 : undefined;
        const cancelAt = priority <= Priority.content && seq % 7 === 3 ? 20000 + seq * 50 : undefined;
        let signal: SignalLike | undefined;
        if (cancelAt !== undefined) {
          const canceller = new Canceller();
          clock.setTimer(() => canceller.abort(), cancelAt);
          signal = canceller.signal;
        }
        sent.push({
          seq,
          label,
          priority,
          deadline,
          cancelAt,
          outcome: consume(scheduler, req(label, priority, { deadline }), signal),
        });
      }
    }
    await clock.run();

    const byLabel = new Map(sent.map((entry) => [entry.label, entry]));
    const ran = inner.calls.map((call) => byLabel.get(call.label ?? '')!);

    // nothing lost: every request finished one way or another
    expect(sent.every((entry) => entry.outcome.status !== 'pending')).toBe(true);
    const completed = sent.filter((entry) => entry.outcome.status === 'completed');
    const cancelled = sent.filter(
      (entry) => entry.outcome.error?.code === 'cancelled' && !/dropped/.test(entry.outcome.error.message),
    );
    const dropped = sent.filter(
      (entry) => entry.outcome.error?.code === 'cancelled' && /dropped/.test(entry.outcome.error.message),
    );
    expect(completed.length + cancelled.length + dropped.length).toBe(200);
    expect(completed.every((entry) => entry.outcome.text === 'Hello there.')).toBe(true);
    expect(scheduler.stats()).toEqual({
      queued: 0,
      running: 0,
      started: completed.length,
      completed: completed.length,
      failed: 0,
      dropped: dropped.length,
      cancelled: cancelled.length,
      retried: 0,
      preempted: 0,
    });

    // every request without a deadline or a cancel completed; the asked-for ones were cancelled or dropped
    expect(
      sent
        .filter((entry) => entry.deadline === undefined && entry.cancelAt === undefined)
        .every((entry) => entry.outcome.status === 'completed'),
    ).toBe(true);
    expect(cancelled.every((entry) => entry.cancelAt !== undefined)).toBe(true);
    expect(dropped.every((entry) => entry.deadline !== undefined)).toBe(true);
    expect(cancelled.length).toBeGreaterThan(10);
    expect(dropped.length).toBeGreaterThan(5);

    // cancelled and dropped requests never reached the model; each ran exactly once otherwise
    expect(ran).toHaveLength(completed.length);
    expect(new Set(ran.map((entry) => entry.label)).size).toBe(ran.length);
    expect(ran.some((entry) => entry.outcome.status !== 'completed')).toBe(false);

    // started strictly by priority, first come first served within one
    const expectedOrder = completed
      .slice()
      .sort((left, right) => right.priority - left.priority || left.seq - right.seq)
      .map((entry) => entry.label);
    expect(ran.map((entry) => entry.label)).toEqual(expectedOrder);

    // never over the budget, and deadlines respected
    const starts = inner.calls.map((call) => call.at);
    expect(maxStartsInAnyWindow(starts)).toBeLessThanOrEqual(perMinute);
    inner.calls.forEach((call) => {
      const entry = byLabel.get(call.label ?? '')!;
      if (entry.deadline !== undefined) expect(call.at).toBeLessThan(entry.deadline);
    });
    expect(inner.maxActive).toBe(1);
    expect(events.filter((event) => event.type === 'queued')).toHaveLength(200);
    expect(events.filter((event) => event.type === 'started')).toHaveLength(completed.length);
  });
});

describe('ModelScheduler with its default clock', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  test('works with jest fake timers (Date.now and setTimeout)', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const startedAt: number[] = [];
    const inner: LanguageModel = {
      capabilities: DEFAULT_CAPABILITIES,
      generate: async function* () {
        startedAt.push(Date.now());
        yield { delta: 'x', text: 'x', finishReason: 'stop' as const };
      },
      availability: async () => ({ status: 'available' as const }),
    };
    const scheduler = new ModelScheduler(inner, { callsPerMinute: 2 });
    const outcomes = [0, 1, 2].map((index) => consume(scheduler, req(`n${index}`)));
    await jest.advanceTimersByTimeAsync(59_000);
    expect(startedAt).toEqual([1_000_000, 1_000_000]);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(startedAt).toEqual([1_000_000, 1_000_000, 1_060_000]);
    expect(outcomes.every((outcome) => outcome.status === 'completed')).toBe(true);
  });
});

test('a model that ignores its signal does not hold the slot after a cancel: the next request runs', async () => {
  const { ModelScheduler, Canceller } = require('../../src') as typeof import('../../src');
  const { ScriptedLanguageModel, Script } = require('../../src/testing') as typeof import('../../src/testing');
  let calls = 0;
  const fallback = new ScriptedLanguageModel([Script.text('second')]);
  const deaf = {
    capabilities: fallback.capabilities,
    availability: () => fallback.availability(),
    generate: (req: import('../../src').GenerationRequest, signal?: import('../../src').SignalLike) => {
      calls++;
      if (calls === 1) return { [Symbol.asyncIterator]: () => ({ next: () => new Promise<never>(() => undefined) }) };
      return fallback.generate(req, signal);
    },
  };
  const shared = new ModelScheduler(deaf, { callsPerMinute: 0 });
  const canceller = new Canceller();
  const first = (async () => {
    for await (const _ of shared.generate({ kind: 'text', prompt: 'a' }, canceller.signal)) {
      /* never */
    }
  })().catch((error) => error.code);
  const second = (async () => {
    let text = '';
    for await (const ch of shared.generate({ kind: 'text', prompt: 'b' })) text = ch.text;
    return text;
  })();
  await new Promise((resolve) => setTimeout(resolve, 10));
  canceller.abort();
  expect(await first).toBe('cancelled');
  expect(await second).toBe('second');
  expect(shared.stats().running).toBe(0);
});

test('setPacing changes the budget in place; a bad value changes nothing', () => {
  const { ModelScheduler, AgentError } = require('../../src') as typeof import('../../src');
  const { ScriptedLanguageModel } = require('../../src/testing') as typeof import('../../src/testing');
  const scheduler = new ModelScheduler(new ScriptedLanguageModel(), { callsPerMinute: 30 });
  scheduler.setPacing({ callsPerMinute: 5 });
  expect(() => scheduler.setPacing({ callsPerMinute: 5, maxRetries: -1 })).toThrow(AgentError);
  expect(scheduler.stats().queued).toBe(0);
});

describe('ModelScheduler: the player never waits behind background work', () => {
  test('a player request back from a BUSY backoff preempts a bark that took the slot meanwhile', async () => {
    const { clock, inner, scheduler, events } = setup({ callsPerMinute: 0, initialBackoffMs: 50 });
    inner.plans.set('talk', [{ kind: 'failBefore', error: new AgentError('busy', 'Busy.') }]);
    const talk = consume(scheduler, req('talk', Priority.conversation));
    await clock.run(20); // the talk failed BUSY at 10 ms and backs off until 60 ms
    consume(scheduler, req('bark', Priority.bark));
    await clock.run();
    expect(talk.status).toBe('completed');
    const talkStarts = inner.calls.filter((call) => call.label === 'talk').map((call) => call.at);
    expect(talkStarts[1]).toBe(60); // when its backoff ended, not after the bark's 400 ms
    expect(events.map((event) => `${event.type}:${event.label}`)).toContain('preempted:bark');
    expect(scheduler.stats().preempted).toBe(1);
  });

  test('prewarm loads the model and sends the prefix fill through the queue at background priority', async () => {
    const { clock, inner, scheduler, events } = setup({ callsPerMinute: 0 });
    (inner as unknown as { capabilities: object }).capabilities = { ...inner.capabilities, prefixCaching: true };
    const warmed = scheduler.prewarm('You are Mira.', 'Tools: …');
    const talk = consume(scheduler, req('talk', Priority.conversation));
    await clock.run();
    await warmed;
    expect(talk.status).toBe('completed');
    const warm = events.find((event) => event.type === 'queued' && event.label === 'prefix warm-up');
    expect(warm).toMatchObject({ priority: Priority.background });
    expect(inner.calls.map((call) => call.label)).toEqual(expect.arrayContaining(['talk', 'prefix warm-up']));
    expect(inner.maxActive).toBe(1);
  });
});

describe('ModelScheduler: no call wasted on background work (issue 26)', () => {
  test('barks and background work leave the reserved last third of the window to conversation turns', async () => {
    const { clock, inner, scheduler } = setup({}, 100);
    const barks = Array.from({ length: 40 }, (_, index) => consume(scheduler, req(`bark${index}`, Priority.bark)));
    await clock.run(10_000);
    expect(inner.calls).toHaveLength(20); // 30 a minute, 10 of them kept
    const talks = Array.from({ length: 10 }, (_, index) =>
      consume(scheduler, req(`talk${index}`, Priority.conversation)),
    );
    await clock.run(12_000);
    expect(talks.every((talk) => talk.status === 'completed')).toBe(true);
    expect(inner.calls.filter((call) => call.label?.startsWith('talk')).map((call) => call.at)).toEqual(
      Array.from({ length: 10 }, (_, index) => 10_000 + index * 100),
    );
    await clock.run();
    expect(barks.every((bark) => bark.status === 'completed')).toBe(true);
    const barkStarts = inner.calls.filter((call) => call.label?.startsWith('bark')).map((call) => call.at);
    expect(maxStartsInAnyWindow(barkStarts)).toBe(20);
    expect(maxStartsInAnyWindow(inner.calls.map((call) => call.at))).toBe(30);
  });

  test("after a burst of 30 barks the player's line waits at most one call behind them", async () => {
    const { clock, inner, scheduler, events } = setup({}, 400);
    for (let index = 0; index < 30; index++) consume(scheduler, req(`bark${index}`, Priority.bark));
    await clock.run(2_850); // the 8th bark is prefilling
    const early = consume(scheduler, req('early', Priority.conversation));
    await clock.run(20_000); // 20 barks have run; the other 10 wait for the window to roll
    const late = consume(scheduler, req('late', Priority.conversation));
    await clock.run(21_000);
    expect([early.status, late.status]).toEqual(['completed', 'completed']);
    const started = (label: string) => inner.calls.find((call) => call.label === label)?.at;
    expect(started('early')).toBe(2_850); // the bark it found running was stopped for it
    expect(started('late')).toBe(20_000); // no wait at all for the window
    const barksBetween = (from: number, to: number) =>
      inner.calls.filter((call) => call.label?.startsWith('bark') && call.at > from && call.at < to).length;
    expect(barksBetween(2_850, 2_850 + 400)).toBe(0);
    expect(events.filter((event) => event.type === 'preempted')).toHaveLength(1);
    await clock.run();
    // The stopped bark had not spoken: it ran again later (one call more, no bark lost).
    expect(inner.calls.filter((call) => call.label?.startsWith('bark')).length).toBe(31);
  });

  test('a summary is not started while a conversation goes on: it runs once the game has been quiet', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0 }, 400);
    const summary = consume(scheduler, req('summary', Priority.background));
    const first = consume(scheduler, req('talk0', Priority.conversation));
    await clock.run(400);
    // The player answers 5 s after each line, for three more lines.
    for (let index = 1; index <= 3; index++) {
      await clock.run(clock.time + 5_000);
      consume(scheduler, req(`talk${index}`, Priority.conversation));
      await clock.run(clock.time + 400);
    }
    expect(first.status).toBe('completed');
    expect(inner.calls.map((call) => call.label)).toEqual(['talk0', 'talk1', 'talk2', 'talk3']);
    const lastLineEnded = clock.time;
    await clock.run();
    expect(summary.status).toBe('completed');
    expect(inner.calls.map((call) => call.label)).toEqual(['talk0', 'talk1', 'talk2', 'talk3', 'summary']);
    expect(inner.calls[4].at).toBe(lastLineEnded + 20_000);
    expect(scheduler.stats()).toMatchObject({ preempted: 0, failed: 0, started: 5 });
  });

  test('quietAfterConversationMs 0: background work takes any free slot (and is stopped for the player)', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0, quietAfterConversationMs: 0 }, 400);
    consume(scheduler, req('talk0', Priority.conversation));
    const summary = consume(scheduler, req('summary', Priority.background));
    await clock.run(600); // the summary has started writing
    consume(scheduler, req('talk1', Priority.conversation));
    await clock.run();
    expect(inner.calls.map((call) => [call.label, call.at])).toEqual([
      ['talk0', 0],
      ['summary', 400],
      ['talk1', 600],
    ]);
    expect(summary.error?.code).toBe('busy'); // a wasted call
    expect(scheduler.stats()).toMatchObject({ preempted: 1, failed: 1 });
  });

  test('a deferred summary waits only for background priority: barks still run between lines', async () => {
    const { clock, inner, scheduler } = setup({ callsPerMinute: 0 }, 400);
    consume(scheduler, req('talk', Priority.conversation));
    consume(scheduler, req('summary', Priority.background));
    consume(scheduler, req('bark', Priority.bark));
    await clock.run();
    expect(inner.calls.map((call) => [call.label, call.at])).toEqual([
      ['talk', 0],
      ['bark', 400],
      ['summary', 20_400],
    ]);
  });

  test('rejects bad reservedForConversation and quietAfterConversationMs; setPacing keeps the old ones', () => {
    const { inner } = setup();
    for (const bad of [
      { reservedForConversation: -1 },
      { reservedForConversation: 1.5 },
      { reservedForConversation: 30 },
      { callsPerMinute: 12, reservedForConversation: 12 },
      { reservedForConversation: NaN },
      { reservedForConversation: '5' as unknown as number },
      { quietAfterConversationMs: -1 },
      { quietAfterConversationMs: NaN },
      { quietAfterConversationMs: Infinity },
    ]) {
      let thrown: unknown;
      try {
        new ModelScheduler(inner, bad);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(AgentError);
      expect((thrown as AgentError).code).toBe('invalid_request');
    }
    expect(() => new ModelScheduler(inner, { callsPerMinute: 30, reservedForConversation: 29 })).not.toThrow();
    expect(() => new ModelScheduler(inner, { callsPerMinute: 0, reservedForConversation: 50 })).not.toThrow();
    const scheduler = new ModelScheduler(inner, { callsPerMinute: 30, reservedForConversation: 5 });
    expect(() => scheduler.setPacing({ callsPerMinute: 4, reservedForConversation: 5 })).toThrow(
      /reservedForConversation must be below callsPerMinute \(4\)/,
    );
  });
});

describe('an NPC summary on a shared scheduler', () => {
  /** Turns answer in 200 ms; a summary writes for 2 s, four chunks of 500 ms. */
  class DeviceModel implements LanguageModel {
    readonly capabilities = { ...DEFAULT_CAPABILITIES, modelName: 'device' };
    readonly kinds: string[] = [];
    constructor(private readonly clock: FakeClock) {}

    async *generate(request: GenerationRequest, signal?: SignalLike): AsyncGenerator<GenerationChunk> {
      this.kinds.push(request.kind);
      if (request.kind !== 'summary') {
        await this.clock.sleep(200, signal);
        const text = JSON.stringify({ emotion: 'neutral', line: 'Aye.' });
        yield { delta: text, text, finishReason: 'stop' };
        return;
      }
      let text = '';
      for (const delta of ['They talked ', 'about ale ', 'and the ', 'mill.']) {
        await this.clock.sleep(500, signal);
        text += delta;
        yield { delta, text };
      }
    }

    async availability() {
      return { status: 'available' as const };
    }
  }

  function npcSetup() {
    const { NPC } = require('../../src') as typeof import('../../src');
    const clock = new FakeClock();
    const device = new DeviceModel(clock);
    const scheduler = new ModelScheduler(device, {
      now: clock.now,
      setTimer: clock.setTimer,
      clearTimer: clock.clearTimer,
    });
    const npc = new NPC({
      persona: { name: 'Mira' },
      model: scheduler,
      options: { compactAfterTurns: 3, keepRecentTurns: 1 },
    });
    /** A turn, played on the fake clock. */
    const talk = async (line: string) => {
      const turn = npc.talk(line);
      await clock.run(clock.time + 200);
      return turn;
    };
    return { clock, device, scheduler, npc, talk };
  }

  test('deferred while the player talks, written once the conversation pauses', async () => {
    const { clock, device, scheduler, npc, talk } = npcSetup();
    // Due after 3 turns; 5 turns (not yet overdue, which would go at the NPC's own priority).
    for (let index = 0; index < 5; index++) {
      await talk(`Line ${index}`);
      await clock.run(clock.time + 4_000); // the player reads and answers
    }
    expect(device.kinds.filter((kind) => kind === 'summary')).toHaveLength(0);
    expect(npc.turnCount).toBe(5);
    await clock.run(); // the player walks away
    await npc.settledState();
    expect(device.kinds.filter((kind) => kind === 'summary')).toHaveLength(1);
    expect(npc.memory.summary).toBe('They talked about ale and the mill.');
    // It folds the turns it was asked about after turn 3 (all but the last), not the 2 since.
    expect(npc.turnCount).toBe(3);
    expect(scheduler.stats()).toMatchObject({ preempted: 0, failed: 0 });
  });

  test('a summary stopped for the player after it started writing leaves the history exactly as it was', async () => {
    const { clock, device, scheduler, npc, talk } = npcSetup();
    for (let index = 0; index < 3; index++) await talk(`Line ${index}`);
    const history = JSON.stringify(npc.history);
    const memory = JSON.stringify(npc.memory.snapshot());
    await clock.run(clock.time + 20_000 + 1_200); // quiet: the summary has written two chunks
    expect(device.kinds).toHaveLength(4);
    expect(device.kinds[3]).toBe('summary');
    const turn = npc.talk('Wait, one more thing!');
    await clock.run(clock.time + 200);
    await turn;
    expect(scheduler.stats().preempted).toBe(1);
    // The stopped summary changed nothing: the turns before the new one are the same entries.
    expect(JSON.stringify(npc.history).startsWith(history.slice(0, -1))).toBe(true);
    expect(npc.turnCount).toBe(4);
    expect(JSON.stringify(npc.memory.snapshot())).toBe(memory);
    // Queued again after that turn, it is written in the next quiet moment.
    await clock.run();
    await npc.settledState();
    expect(npc.memory.summary).toBe('They talked about ale and the mill.');
    expect(npc.turnCount).toBe(1);
  });
});
