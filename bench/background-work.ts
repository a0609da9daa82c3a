/**
 * Background work against the player (issue 26, "No call wasted"), on a fake clock (no real
 * waiting): every model call costs device time from the cost model, the scheduler paces on the
 * same clock.
 * (a) 10,000 NPC turns of 50 NPCs back to back through one ModelScheduler with compaction on:
 *     every call, the wasted ones (stopped after they started, failed, summaries thrown away)
 *     and their share.
 * (b) a burst of 30 barks, then one player line: how many calls it waited behind and how long.
 */
import { ModelScheduler, NPC, Priority, type ModelSchedulerOptions, type SchedulerEvent } from '../src';
import type { SignalLike } from '../src/contract/abort';
import { AgentError } from '../src/contract/errors';
import {
  DEFAULT_CAPABILITIES,
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
} from '../src/contract/language-model';
import { COST_MODEL } from '../demo/phone-cost-model';

const TURNS = Number(process.env.BENCH_BACKGROUND_TURNS ?? 10_000);
const NPCS = 50;
const WASTE_GOAL = 0.05;
const WINDOW_MS = 60_000;

/** Timers fire only when the bench moves time on; promise chains run in between. */
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
    const index = this.timers.indexOf(handle as never);
    if (index >= 0) this.timers.splice(index, 1);
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

  /** Runs timers in time order until `done` resolves; fails if nothing is left to run. */
  async runUntil<T>(done: Promise<T>): Promise<T> {
    let finished = false;
    let value: T | undefined;
    let failure: unknown;
    done.then(
      (result) => {
        finished = true;
        value = result;
      },
      (error) => {
        finished = true;
        failure = error ?? new Error('failed');
      },
    );
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (finished) break;
      let next: { at: number; seq: number; fn: () => void } | undefined;
      for (const timer of this.timers)
        if (!next || timer.at < next.at || (timer.at === next.at && timer.seq < next.seq)) next = timer;
      if (!next) throw new Error('background-work bench: stuck, no timer left and the run has not finished');
      this.timers.splice(this.timers.indexOf(next), 1);
      this.time = Math.max(this.time, next.at);
      next.fn();
    }
    if (failure !== undefined) throw failure;
    return value as T;
  }
}

/** A small deterministic random source (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const tokensOf = (text: string | undefined): number => Math.ceil((text ?? '').length / 4);

interface CallRecord {
  kind: string;
  priority: number;
  /** The stream ran to its end (the caller may still throw a summary away). */
  completed: boolean;
}

/**
 * The phone's model, scripted: a call costs the cost model's fixed cost and prefill (the stable
 * prefix cached), then streams its answer a few tokens at a time at the decode rate.
 */
class DeviceModel implements LanguageModel {
  readonly capabilities = { ...DEFAULT_CAPABILITIES, modelName: 'bench device' };
  readonly calls: CallRecord[] = [];
  private summaries = 0;

  constructor(private readonly clock: FakeClock) {}

  async *generate(request: GenerationRequest, signal?: SignalLike): AsyncGenerator<GenerationChunk> {
    const record: CallRecord = { kind: request.kind, priority: request.priority ?? 0, completed: false };
    this.calls.push(record);
    const output = this.answer(request);
    const cached = tokensOf(request.systemInstruction) + tokensOf(request.promptPrefix);
    const prefill =
      (tokensOf(request.prompt) + cached * COST_MODEL.cachedPrefillFactor) / COST_MODEL.prefillTokensPerSecond;
    await this.clock.sleep((COST_MODEL.perCallSeconds + prefill) * 1000, signal);
    const words = output.split(/(?<= )/);
    let text = '';
    for (let index = 0; index < words.length; index += 3) {
      const delta = words.slice(index, index + 3).join('');
      await this.clock.sleep((tokensOf(delta) / COST_MODEL.decodeTokensPerSecond) * 1000, signal);
      text += delta;
      const last = index + 3 >= words.length;
      yield last ? { delta, text, finishReason: 'stop' } : { delta, text };
    }
    record.completed = true;
  }

  async availability() {
    return { status: 'available' as const };
  }

  private answer(request: GenerationRequest): string {
    if (request.kind === 'summary') {
      this.summaries++;
      // About 60 words, as an NPC asks for.
      return `Summary ${this.summaries}: the player and the villager talked about the harvest, the price of ale at the inn, the broken bridge on the north road and the miller's missing cart. The player promised to bring two sacks of flour by market day and asked about work. The villager was friendly, a little worried about wolves, and offered a discount on bread.`;
    }
    if (request.kind === 'text') return 'Fresh bread, still warm from the oven!';
    const line = 'Aye, the road north is muddy since the rain, but the bridge still holds if you walk slowly.';
    return JSON.stringify(
      request.kind === 'decide' ? { reply: { emotion: 'neutral', line } } : { emotion: 'neutral', line },
    );
  }
}

function setup(clock: FakeClock, options: ModelSchedulerOptions) {
  const device = new DeviceModel(clock);
  const events: Array<SchedulerEvent & { at: number }> = [];
  const scheduler = new ModelScheduler(device, {
    ...options,
    now: clock.now,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
    onEvent: (event) => events.push({ ...event, at: clock.now() }),
  });
  return { device, scheduler, events };
}

/** Counts the summaries an NPC really kept (its memory's summary set by a compaction). */
function countKeptSummaries(npc: NPC, kept: { count: number }): void {
  const descriptor = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(npc.memory), 'summary');
  if (!descriptor?.get || !descriptor.set) throw new Error('NPCMemory.summary is no longer an accessor');
  const { get, set } = descriptor;
  Object.defineProperty(npc.memory, 'summary', {
    get() {
      return get.call(this);
    },
    set(value: string) {
      kept.count++;
      set.call(this, value);
    },
  });
}

export interface TurnsFigures {
  turns: number;
  calls: number;
  turnCalls: number;
  summaryCalls: number;
  keptSummaries: number;
  wasted: number;
  /** Of the wasted: stopped for a player before and after they wrote, and other failures. */
  preempted: number;
  failed: number;
  longestHistory: number;
  /** The player's longest wait for the first call of a turn (fake ms). */
  longestWaitMs: number;
  fakeHours: number;
}

/**
 * The player plays 10,000 turns with 50 villagers: dialogues of 1–6 turns with one of them, 1–6 s
 * to read and answer a line, 2–20 s to walk to the next, and every tenth dialogue or so a pause
 * of 30–120 s (a menu, a fight, a map).
 */
export async function playTurns(options: ModelSchedulerOptions = {}, turns = TURNS): Promise<TurnsFigures> {
  const clock = new FakeClock();
  const { device, scheduler, events } = setup(clock, options);
  const kept = { count: 0 };
  const npcs = Array.from({ length: NPCS }, (_, index) => {
    const npc = new NPC({
      persona: { name: `Villager ${index + 1}`, role: 'a villager of Oakford', personality: 'Chatty.' },
      model: scheduler,
      options: { compactAfterTurns: 8, keepRecentTurns: 2 },
    });
    countKeptSummaries(npc, kept);
    return npc;
  });
  const rand = random(26);
  let longestHistory = 0;
  const play = async () => {
    let played = 0;
    while (played < turns) {
      const npc = npcs[Math.floor(rand() * NPCS)];
      const length = 1 + Math.floor(rand() * 6);
      for (let index = 0; index < length && played < turns; index++, played++) {
        await npc.talk(`Line ${played}: what news from the north road?`);
        longestHistory = Math.max(longestHistory, npc.turnCount);
        await clock.sleep(1000 + rand() * 5000);
      }
      await clock.sleep(rand() < 0.1 ? 30_000 + rand() * 90_000 : 2000 + rand() * 18_000);
    }
    await Promise.all(npcs.map((npc) => npc.settledState()));
  };
  await clock.runUntil(play());
  const turnCalls = device.calls.filter((call) => call.kind !== 'summary');
  const summaryCalls = device.calls.filter((call) => call.kind === 'summary');
  const stopped = device.calls.filter((call) => !call.completed).length;
  const completedSummaries = summaryCalls.filter((call) => call.completed).length;
  const stats = scheduler.stats();
  let longestWaitMs = 0;
  for (const event of events)
    if (event.type === 'started' && event.priority >= Priority.conversation && event.attempt === 1)
      longestWaitMs = Math.max(longestWaitMs, event.waitMs ?? 0);
  return {
    turns,
    calls: device.calls.length,
    turnCalls: turnCalls.length,
    summaryCalls: summaryCalls.length,
    keptSummaries: kept.count,
    wasted: stopped + (completedSummaries - kept.count),
    preempted: stats.preempted,
    failed: stats.failed,
    longestHistory,
    longestWaitMs,
    fakeHours: clock.time / 3_600_000,
  };
}

export interface BurstFigures {
  /** Barks started before the line came. */
  barksRun: number;
  /** Background calls the line waited behind: running, started ahead of it, or holding the quota. */
  behind: number;
  waitMs: number;
  queuedAt: number;
}

/** 30 barks queued at once, then, once no bark is running any more, the player's line. */
export async function barkBurst(options: ModelSchedulerOptions = {}): Promise<BurstFigures> {
  const clock = new FakeClock();
  const { scheduler, events } = setup(clock, options);
  const villagers = Array.from(
    { length: 30 },
    (_, index) => new NPC({ persona: { name: `Crier ${index + 1}` }, model: scheduler }),
  );
  const player = new NPC({ persona: { name: 'Mira' }, model: scheduler });
  const run = async () => {
    const barks = villagers.map((npc) => npc.bark('Market day, the square is full', { priority: Priority.bark }));
    do await clock.sleep(250);
    while (scheduler.stats().running > 0);
    await player.talk('Hello, Mira.');
    await Promise.allSettled(barks);
  };
  await clock.runUntil(run());
  const queued = events.find((event) => event.type === 'queued' && event.label === 'Mira');
  const started = events.find((event) => event.type === 'started' && event.label === 'Mira');
  if (!queued || !started) throw new Error('background-work bench: the player line never ran');
  const background = (event: SchedulerEvent) => event.priority <= Priority.bark;
  const starts = events.filter((event) => event.type === 'started' && background(event));
  // Ahead of it in the slot: started while it waited, or running when it came and not stopped.
  let behind = starts.filter((event) => event.at > queued.at && event.at <= started.at).length;
  const finishedBy = (at: number) => events.filter((event) => event.type === 'finished' && event.at <= at).length;
  const runningAtQueue = starts.filter((event) => event.at <= queued.at).length - finishedBy(queued.at);
  const stoppedForIt = events.some((event) => event.type === 'preempted' && event.at === queued.at);
  if (runningAtQueue > 0 && !stoppedForIt) behind += runningAtQueue;
  // Held by the calls-per-minute window after the slot was free: the background calls filling it.
  const lastFinish = Math.max(
    queued.at,
    ...events.filter((event) => event.type === 'finished' && event.at <= started.at).map((event) => event.at),
  );
  if (started.at > lastFinish)
    behind += starts.filter((event) => event.at > started.at - WINDOW_MS && event.at <= queued.at).length;
  return {
    barksRun: starts.filter((event) => event.at < queued.at).length,
    behind,
    waitMs: started.at - queued.at,
    queuedAt: queued.at,
  };
}

const pct = (part: number, whole: number): string => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;
const verdict = (ok: boolean): string => (ok ? 'PASS' : 'MISS');

/** The scheduler as it was before issue 26: barks may fill the whole window, background work any free slot. */
const BEFORE: ModelSchedulerOptions = { reservedForConversation: 0, quietAfterConversationMs: 0 };

export async function benchBackgroundWork(): Promise<void> {
  console.log(
    `\nbackground work (fake clock; calls cost the cost model's device time; callsPerMinute 30; "before" = reservedForConversation 0, quietAfterConversationMs 0)`,
  );
  for (const [name, options] of [
    ['before', BEFORE],
    ['default', {}],
  ] as Array<[string, ModelSchedulerOptions]>) {
    const turns = await playTurns(options);
    const share = turns.wasted / Math.max(1, turns.calls);
    console.log(
      `  ${name.padEnd(7)} ${turns.turns} turns of ${NPCS} NPCs (compactAfterTurns 8, ${turns.fakeHours.toFixed(1)} fake h): ${turns.calls} calls (${turns.turnCalls} for turns, ${turns.summaryCalls} summaries, ${turns.keptSummaries} kept); wasted ${turns.wasted} = ${pct(turns.wasted, turns.calls)} (${(turns.wasted / turns.turns).toFixed(2)} a turn; scheduler: ${turns.preempted} preempted, ${turns.failed} failed); longest history ${turns.longestHistory} turns; longest wait at conversation priority ${(turns.longestWaitMs / 1000).toFixed(1)} s`,
    );
    console.log(`  ${name.padEnd(7)} ${verdict(share <= WASTE_GOAL)} wasted calls ≤ ${WASTE_GOAL * 100}% of all calls`);
    const burst = await barkBurst(options);
    console.log(
      `  ${name.padEnd(7)} 30 barks, then the player's line when no bark is running (${(burst.queuedAt / 1000).toFixed(1)} s in, ${burst.barksRun} barks run): it waited behind ${burst.behind} background call(s), ${(burst.waitMs / 1000).toFixed(1)} fake s`,
    );
    console.log(
      `  ${name.padEnd(7)} ${verdict(burst.behind <= 1)} the player's line waits at most one call behind background work`,
    );
  }
}

if (/background-work\.ts$/.test(process.argv[1] ?? '')) {
  benchBackgroundWork().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
