/**
 * An agent over any LanguageModel: instructions, tools, a history of whole turns, and a queue
 * that runs its turns one at a time, in order. A turn is atomic: it lands in the history
 * whole when it completes, or not at all (failure, cancel).
 */
import { AgentError } from '../../contract/errors';
import type { SignalLike } from '../../contract/abort';
import { AgentTool, checkToolSet } from '../tools';
import { JsonSchema } from '../schema';
import type { LanguageModel, TokenUsage } from '../../contract/language-model';
import { generateText } from '../../contract/language-model';
import { resolveConfig, validateToolChoice, type AgentConfig, type AgentConfigInput, type ToolChoice } from './config';
import type { AgentResponse } from './events';
import { AgentRun } from './run';
import { TurnEngine, prefixInput, resolveTurnTools } from './turn';
import { TurnState } from './turn-state';
import { TurnQueue } from './turn-queue';
import { TokenCounter } from '../prompt/prompt-builder';
import { PrefixCache } from '../prompt/prefix-cache';
import { entryLines, renderStructuredPlain } from '../prompt/render-conversation';
import type { ExternalToolHandler } from './tool-runner';
import { clone, checkEntry, splitTurns, transcriptFromJSON, transcriptToJSON, type TranscriptData, type TranscriptEntry } from '../transcript';

export interface AgentOptions {
  instructions?: string;
  tools?: AgentTool[];
  config?: AgentConfigInput;
  /** A transcript saved with `saveTranscript()`: its history and context note are restored. */
  transcript?: unknown;
}

export interface RunOptions {
  /** Structured turn: the reply is JSON valid against this schema, keys in schema order. */
  schema?: JsonSchema | Record<string, unknown>;
  /**
   * A check beyond the schema (a decision's id among its options): a problem it names is
   * repaired like a schema violation. The schema, not this, is what the stable prefix describes.
   */
  refine?: (value: unknown) => string | undefined;
  toolChoice?: ToolChoice;
  enabledTools?: string[];
  /** A note for this turn only. */
  context?: string;
  signal?: SignalLike;
  externalTools?: ExternalToolHandler;
  /**
   * Checks the finished response before it is committed; throwing rejects the turn, which then
   * fails with that error and leaves no trace in the history (an NPC rejects a reply without words).
   */
  accept?: (response: AgentResponse) => void;
}

export interface CompactOptions {
  keepRecentTurns?: number;
  instructions?: string;
  signal?: SignalLike;
}

/** The text up to its last sentence end (., !, ?, …), or '' when no sentence ended. */
function wholeSentences(text: string): string {
  const m = /^[\s\S]*(?:[.!?…]["'”’)\]]*(?=\s|$)|[。！？]["'”’)\]]*)/.exec(text.trim());
  return m ? m[0].trim() : '';
}

/** Output cap of a summary step: the default 120 words fit; 13 s at 15 tokens/s at the very worst. */
const SUMMARY_MAX_TOKENS = 200;

const DEFAULT_SUMMARY_INSTRUCTIONS = 'Summarise the conversation so far in at most 120 words of plain prose. Keep names, facts, numbers and promises.';

let runCounter = 0;

export class Agent {
  readonly model: LanguageModel;
  private _instructions: string;
  private _tools: AgentTool[];
  private _config: AgentConfig;
  private _contextNote = '';
  private _history: TranscriptEntry[] = [];
  private readonly queue = new TurnQueue();
  /** Runs not finished yet (queued or running), so close() can cancel them. */
  private readonly unfinished = new Set<AgentRun>();
  private running: { run: AgentRun; entries: TranscriptEntry[] } | null = null;
  private readonly counter: TokenCounter;
  private readonly prefixes = new PrefixCache();
  private _usage: TokenUsage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
  private closed = false;
  private epoch = 0;

  constructor(model: LanguageModel, options: AgentOptions = {}) {
    if (!model || typeof model.generate !== 'function') {
      throw new AgentError('invalid_request', 'Agent needs a LanguageModel (an object with generate()).');
    }
    this.model = model;
    this._instructions = options.instructions ?? '';
    const tools = options.tools ?? [];
    checkToolSet(tools);
    this._tools = tools.slice();
    this._config = resolveConfig(options.config);
    this.counter = new TokenCounter(model);
    if (options.transcript !== undefined) {
      const t = transcriptFromJSON(options.transcript);
      this._history = t.entries;
      this._contextNote = t.contextNote;
    }
  }

  // ---- turns --------------------------------------------------------------------------------

  /** Starts a turn (queued behind any running one) and returns its run at once. */
  run(prompt: string, options: RunOptions = {}): AgentRun {
    const run = new AgentRun(`run_${++runCounter}`, options.signal, options.externalTools);
    let failure: AgentError | undefined;
    let schema: JsonSchema | undefined;
    let choice: ToolChoice = this._config.toolPolicy.choice;
    try {
      if (this.closed) throw new AgentError('invalid_request', 'This agent was closed.');
      if (typeof prompt !== 'string') throw new AgentError('invalid_request', 'The prompt must be a string.');
      if (options.context !== undefined && typeof options.context !== 'string') throw new AgentError('invalid_request', 'The context option must be a string (a note for this turn).');
      if (options.accept !== undefined && typeof options.accept !== 'function') throw new AgentError('invalid_request', 'The accept option must be a function.');
      if (options.enabledTools !== undefined && (!Array.isArray(options.enabledTools) || options.enabledTools.some((n) => typeof n !== 'string'))) {
        throw new AgentError('invalid_request', 'enabledTools must be a list of tool names.');
      }
      if (options.toolChoice !== undefined) choice = validateToolChoice(options.toolChoice);
      if (options.schema !== undefined) schema = options.schema instanceof JsonSchema ? options.schema : JsonSchema.from(options.schema);
      resolveTurnTools(this._tools, choice, options.enabledTools ?? this._config.toolPolicy.enabledTools);
    } catch (e) {
      failure = AgentError.from(e);
    }
    this.queue.add(run, failure, async () => {
      const entries: TranscriptEntry[] = [];
      this.running = { run, entries };
      try {
        const state = new TurnState(this.model, this._config, run.signal, (e) => run.emit(e));
        const engine = new TurnEngine(
          state,
          { instructions: this._instructions, contextNote: this._contextNote, tools: this._tools, history: this._history, counter: this.counter, prefixes: this.prefixes },
          { prompt, schema, refine: options.refine, choice, enabledTools: options.enabledTools, context: options.context },
          run.external,
          entries,
        );
        const response = await engine.run();
        if (run.signal.aborted) throw run.cancelReason();
        if (options.accept) options.accept(response);
        // The point of no return: from here on the turn is committed and a cancel changes nothing.
        this._history = this._history.concat(entries);
        this.addUsage(response.usage);
        run.finish(response);
      } finally {
        this.running = null;
      }
    });
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
      instructions: this._instructions,
      contextNote: this._contextNote,
      tools: this._tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters.json })),
      entries: clone(entries),
    };
  }

  get turnCount(): number {
    return splitTurns(this._history).length;
  }

  get instructions(): string {
    return this._instructions;
  }

  /** Applies from the next turn. */
  set instructions(value: string) {
    this._instructions = value ?? '';
  }

  get contextNote(): string {
    return this._contextNote;
  }

  set contextNote(value: string) {
    this._contextNote = value ?? '';
  }

  get tools(): AgentTool[] {
    return this._tools.slice();
  }

  /** Replaces the tools (checked now; applies from the next turn). */
  setTools(tools: AgentTool[]): void {
    checkToolSet(tools);
    this._tools = tools.slice();
  }

  get config(): AgentConfig {
    return this._config;
  }

  /** Changes settings from the next turn on; invalid values throw invalid_request. */
  configure(input: AgentConfigInput): void {
    this._config = resolveConfig(input, this._config);
  }

  get totalUsage(): TokenUsage {
    return { ...this._usage };
  }

  /** Replaces the history, after running turns finish. */
  replaceHistory(entries: TranscriptEntry[]): Promise<void> {
    // Bad input rejects the promise (like every other failure of this async API), never throws.
    try {
      if (!Array.isArray(entries)) throw new AgentError('invalid_request', 'replaceHistory needs an array of transcript entries.');
      entries.forEach((e, i) => checkEntry(e, i));
    } catch (e) {
      return Promise.reject(AgentError.from(e, 'invalid_request'));
    }
    const copy = clone(entries);
    return this.enqueue(() => { this._history = copy; this.epoch++; });
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
      const result = await this.summarizeOldTurns({ ...options, keepRecentTurns: keep, earlierSummary: this._contextNote });
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
  async summarizeOldTurns(options: CompactOptions & { earlierSummary?: string; priority?: number } = {}): Promise<{ summary: string; turns: number; epoch: number } | null> {
    const keep = options.keepRecentTurns ?? 2;
    const epoch = this.epoch;
    const turns = splitTurns(this._history);
    if (turns.length <= keep) return null;
    const old = turns.slice(0, turns.length - keep);
    const labels = this._config.labels;
    const render = this._config.structuredReplyRenderer ?? renderStructuredPlain;
    const lines = old.map((t) => entryLines(t, labels, this._config.context.maxToolOutputChars, render).join('\n')).join('\n');
    const earlier = options.earlierSummary ? `Earlier summary: ${options.earlierSummary}\n\n` : '';
    const prompt = `${earlier}Conversation:\n${lines}\n\n${options.instructions ?? DEFAULT_SUMMARY_INSTRUCTIONS}`;
    const { text, finishReason } = await generateText(this.model, {
      kind: 'summary',
      prompt,
      temperature: this._config.decisionTemperature,
      // Bounded: a summary runs in the background, but a turn may still wait for its slot (a
      // scheduler preempts it; a bare model does not). 120 words are about 160 tokens.
      maxOutputTokens: SUMMARY_MAX_TOKENS,
      priority: options.priority ?? 0,
      label: this._config.label,
    }, options.signal);
    // Cut by the cap, a summary keeps its whole sentences only: half a fact is worse than none.
    const summary = finishReason === 'max_tokens' ? wholeSentences(text) : text.trim();
    if (!summary) {
      throw new AgentError('generation_failed', finishReason === 'max_tokens'
        ? `The summary was cut off at ${SUMMARY_MAX_TOKENS} tokens before a sentence ended; the history was left as it was (ask for fewer words).`
        : 'The summary came back empty; the history was left as it was.');
    }
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
    const stable = this.prefixes.get(prefixInput({ instructions: this._instructions, tools: this._tools }, this._config, options.schema), this.model);
    return this.model.prewarm(stable.systemInstruction, stable.promptPrefix);
  }

  /** Cancels running and queued turns; the agent takes no more. */
  close(): void {
    this.closed = true;
    for (const run of Array.from(this.unfinished)) run.cancel('The agent was closed.');
  }

  private addUsage(u: TokenUsage): void {
    this._usage = {
      inputTokens: this._usage.inputTokens + u.inputTokens,
      cachedInputTokens: this._usage.cachedInputTokens + u.cachedInputTokens,
      outputTokens: this._usage.outputTokens + u.outputTokens,
    };
  }

  private enqueue<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.queue.after(fn);
  }
}
