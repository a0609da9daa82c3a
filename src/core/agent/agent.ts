/**
 * An agent over any LanguageModel: instructions, tools, a history of whole turns, and a queue
 * that runs its turns one at a time, in order. A turn is atomic: it lands in the history
 * whole when it completes, or not at all (failure, cancel); run-turn.ts runs it to that commit.
 */
import { AgentError } from '../../contract/errors';
import { AgentTool, checkToolSet } from '../tools';
import type { JsonSchema } from '../schema';
import type { LanguageModel, TokenUsage } from '../../contract/language-model';
import { resolveConfig, type AgentConfig, type AgentConfigInput } from './config';
import type { AgentResponse } from './events';
import { AgentRun } from './run';
import { prefixInput } from './turn-setup';
import { TurnQueue } from './turn-queue';
import { createAgentSetup, prepareRun, type AgentSetup, type PreparedAttempt, type RunOptions } from './run-options';
import { runTurn, type RunningTry, type TurnHost } from './run-turn';
import { summarizeTurns, type CompactOptions } from './summarize-turns';
import { TokenCounter } from '../prompt/token-counter';
import { PrefixCache } from '../prompt/prefix-cache';
import {
  clone,
  checkEntry,
  splitTurns,
  transcriptFromJSON,
  transcriptToJSON,
  type TranscriptData,
  type TranscriptEntry,
} from '../transcript';

export { createAgentSetup } from './run-options';
export type { AgentSetup, RunOptions, TurnAttempt, TurnFailure } from './run-options';
export type { CompactOptions } from './summarize-turns';

export interface AgentOptions {
  instructions?: string;
  tools?: AgentTool[];
  config?: AgentConfigInput;
  /** A transcript saved with `saveTranscript()`: its history and context note are restored. */
  transcript?: unknown;
}

let runCounter = 0;

export class Agent {
  readonly model: LanguageModel;
  private _setup: AgentSetup;
  private _contextNote = '';
  private _history: TranscriptEntry[] = [];
  private readonly queue = new TurnQueue();
  /** Runs not finished yet (queued or running), so close() can cancel them. */
  private readonly unfinished = new Set<AgentRun>();
  private running: RunningTry | null = null;
  private readonly counter: TokenCounter;
  private readonly prefixes = new PrefixCache();
  private _usage: TokenUsage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
  private closed = false;
  private closedMessage = 'This agent was closed.';
  private epoch = 0;
  /** What its turns see of the agent (run-turn.ts): the conversation, and the one commit point. */
  private readonly host: TurnHost;

  constructor(model: LanguageModel, options: AgentOptions = {}) {
    if (!model || typeof model.generate !== 'function') {
      throw new AgentError('invalid_request', 'Agent needs a LanguageModel (an object with generate()).');
    }
    this.model = model;
    this._setup = createAgentSetup(options);
    this.counter = new TokenCounter(model);
    this.host = {
      model,
      counter: this.counter,
      prefixes: this.prefixes,
      conversation: () => ({ history: this._history, contextNote: this._contextNote }),
      setRunning: (running) => {
        this.running = running;
      },
      commit: (entries, usage) => {
        this._history = this._history.concat(entries);
        this.running = null;
        this.addUsage(usage);
      },
    };
    if (options.transcript !== undefined) {
      const saved = transcriptFromJSON(options.transcript);
      this._history = saved.entries;
      this._contextNote = saved.contextNote;
    }
  }

  // ---- turns --------------------------------------------------------------------------------

  /**
   * Starts a turn (queued behind any running one) and returns its run at once. The turn runs with
   * the setup current now; bad input fails the run before any model call.
   */
  run(prompt: string, options: RunOptions = {}): AgentRun {
    const run = new AgentRun(`run_${++runCounter}`, options.signal, options.externalTools);
    const setup = this._setup;
    let failure: AgentError | undefined;
    let first: PreparedAttempt | undefined;
    try {
      if (this.closed) throw new AgentError('invalid_request', this.closedMessage);
      first = prepareRun(prompt, options, { setup, model: this.model });
    } catch (error) {
      failure = AgentError.from(error);
    }
    const job = { run, prompt, options, setup, first: first as PreparedAttempt };
    this.queue.add(run, failure, () => runTurn(this.host, job));
    if (!failure) {
      this.unfinished.add(run);
      const forget = () => this.unfinished.delete(run);
      run.on('completed', forget);
      run.on('error', forget);
    }
    return run;
  }

  /** Runs a turn to completion; external tools are answered by `options.externalTools`. */
  respond(prompt: string, options: RunOptions = {}): Promise<AgentResponse> {
    return this.run(prompt, options).response(options.externalTools);
  }

  /** Resolves once every queued and running turn has finished. */
  waitUntilIdle(): Promise<void> {
    return this.queue.idle();
  }

  get isResponding(): boolean {
    return this.queue.size > 0;
  }

  // ---- state --------------------------------------------------------------------------------

  /** Completed turns only (copies). */
  get history(): TranscriptEntry[] {
    return clone(this._history);
  }

  /** Instructions, note, tools and entries, including the turn in progress. */
  get transcript(): TranscriptData {
    const entries = this._history.concat(this.running ? this.running.entries : []);
    return {
      instructions: this._setup.instructions,
      contextNote: this._contextNote,
      tools: this._setup.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters.json,
      })),
      entries: clone(entries),
    };
  }

  get turnCount(): number {
    return splitTurns(this._history).length;
  }

  /** The setup new turns run with (a turn keeps the one it was asked with). */
  get setup(): AgentSetup {
    return this._setup;
  }

  /** Replaces the whole setup at once, from the next turn asked for (see `createAgentSetup`). */
  replaceSetup(setup: AgentSetup): void {
    if (!setup || typeof setup.instructions !== 'string' || !Array.isArray(setup.tools) || !setup.config) {
      throw new AgentError('invalid_request', 'replaceSetup needs a setup made by createAgentSetup().');
    }
    this._setup = setup;
  }

  get instructions(): string {
    return this._setup.instructions;
  }

  /** Applies from the next turn asked for. */
  set instructions(value: string) {
    this._setup = Object.freeze({ ...this._setup, instructions: value ?? '' });
  }

  get contextNote(): string {
    return this._contextNote;
  }

  set contextNote(value: string) {
    this._contextNote = value ?? '';
  }

  get tools(): AgentTool[] {
    return this._setup.tools.slice();
  }

  /** Replaces the tools (checked now; applies from the next turn asked for). */
  setTools(tools: AgentTool[]): void {
    checkToolSet(tools);
    this._setup = Object.freeze({ ...this._setup, tools: Object.freeze(tools.slice()) });
  }

  get config(): AgentConfig {
    return this._setup.config;
  }

  /** Changes some settings from the next turn asked for; invalid values throw invalid_request. */
  configure(input: AgentConfigInput): void {
    this._setup = Object.freeze({ ...this._setup, config: resolveConfig(input, this._setup.config) });
  }

  /**
   * Tokens of the committed turns, each with all its tries; a turn that failed, was cancelled or
   * fell back adds nothing here (its own response or error still says what it spent).
   */
  get totalUsage(): TokenUsage {
    return { ...this._usage };
  }

  /** Replaces the history, after running turns finish. */
  replaceHistory(entries: TranscriptEntry[]): Promise<void> {
    // Bad input rejects the promise (like every other failure of this async API), never throws.
    try {
      if (!Array.isArray(entries))
        throw new AgentError('invalid_request', 'replaceHistory needs an array of transcript entries.');
      entries.forEach((entry, index) => checkEntry(entry, index));
    } catch (error) {
      return Promise.reject(AgentError.from(error, 'invalid_request'));
    }
    const copy = clone(entries);
    return this.enqueue(() => {
      this._history = copy;
      this.epoch++;
    });
  }

  /** Clears history and context note (keeps instructions and tools), after running turns finish. */
  reset(): Promise<void> {
    return this.enqueue(() => {
      this._history = [];
      this._contextNote = '';
      this.epoch++;
    });
  }

  saveTranscript(): { type: string; version: number; transcript: TranscriptData } {
    return transcriptToJSON({ ...this.transcript, entries: clone(this._history) });
  }

  /**
   * Folds all but the last `keepRecentTurns` turns into the context note with one summary call.
   * Returns the new note, or null when there is nothing to compact. On failure nothing changes.
   */
  compactHistory(options: CompactOptions = {}): Promise<string | null> {
    const keep = options.keepRecentTurns ?? 2;
    if (!(keep >= 0)) return Promise.reject(new AgentError('invalid_request', 'keepRecentTurns must be ≥ 0.'));
    return this.enqueue(async () => {
      const result = await this.summarizeOldTurns({
        ...options,
        keepRecentTurns: keep,
        earlierSummary: this._contextNote,
      });
      // Null also when the history was replaced meanwhile: the summary would repeat kept turns.
      if (!result || !this.dropOldestTurns(result.turns, result.epoch)) return null;
      this._contextNote = result.summary;
      return result.summary;
    });
  }

  /**
   * Summarises all but the last `keepRecentTurns` turns with one model call, now (not queued)
   * and without changing anything: the caller applies it with `dropOldestTurns(turns, epoch)`.
   * An NPC does this in the background and keeps the summary in its memory. Null when there is
   * nothing to summarise; an empty summary is generation_failed.
   */
  async summarizeOldTurns(
    options: CompactOptions & { earlierSummary?: string; priority?: number } = {},
  ): Promise<{ summary: string; turns: number; epoch: number } | null> {
    const keep = options.keepRecentTurns ?? 2;
    const epoch = this.epoch;
    const turns = splitTurns(this._history);
    if (turns.length <= keep) return null;
    const old = turns.slice(0, turns.length - keep);
    const summary = await summarizeTurns(this.model, { turns: old, config: this._setup.config, options });
    return { summary, turns: old.length, epoch };
  }

  /** Changes whenever the history is replaced or cleared (not when a turn is appended). */
  get historyEpoch(): number {
    return this.epoch;
  }

  /**
   * Drops the oldest `count` whole turns now, not queued: a summariser working in the
   * background uses it. It does nothing (false) when the history was reset or replaced since
   * `epoch` was read, since turns are otherwise only appended.
   */
  dropOldestTurns(count: number, epoch: number): boolean {
    if (epoch !== this.epoch) return false;
    const turns = splitTurns(this._history);
    if (count <= 0 || count > turns.length) return false;
    this._history = ([] as TranscriptEntry[]).concat(...turns.slice(count));
    return true;
  }

  /**
   * Sends the stable prefix (instructions, tool catalog, answer format) ahead of the first turn,
   * so a backend with a prefix cache (Gemini Nano) does not make the first turn pay its prefill.
   * Pass the schema the turns will use (an NPC's reply shape), since the prefix describes it.
   */
  prewarm(options: { schema?: JsonSchema } = {}): Promise<void> {
    if (!this.model.prewarm) return Promise.resolve();
    const { instructions, tools, config } = this._setup;
    const stable = this.prefixes.get(prefixInput({ instructions, tools }, config, options.schema), this.model);
    return this.model.prewarm(stable.systemInstruction, stable.promptPrefix);
  }

  /** Cancels running and queued turns; the agent takes no more. `reason` is what they are told. */
  close(reason = 'The agent was closed.'): void {
    this.closed = true;
    this.closedMessage = reason;
    for (const run of Array.from(this.unfinished)) run.cancel(reason);
  }

  private addUsage(usage: TokenUsage): void {
    this._usage = {
      inputTokens: this._usage.inputTokens + usage.inputTokens,
      cachedInputTokens: this._usage.cachedInputTokens + usage.cachedInputTokens,
      outputTokens: this._usage.outputTokens + usage.outputTokens,
    };
  }

  private enqueue<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.queue.after(fn);
  }
}
