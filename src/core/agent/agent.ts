/**
 * An agent over any LanguageModel: instructions, tools, a history of whole turns, and a queue
 * that runs its turns one at a time, in order. A turn is atomic: it lands in the history
 * whole when it completes, or not at all (failure, cancel).
 */
import { playerText } from '../player-text/player-text';
import { wholeSentences } from '../player-text/whole-sentences';
import { AgentError } from '../../contract/errors';
import type { SignalLike } from '../../contract/abort';
import { AgentTool, checkToolSet } from '../tools';
import { JsonSchema } from '../schema';
import type { LanguageModel, TokenUsage } from '../../contract/language-model';
import { generateText } from '../../contract/language-model';
import { checkImages, checkImagesAccepted, IMAGE_INPUT_TOKENS, type ImageInput } from '../../contract/image-input';
import { resolveConfig, validateToolChoice, type AgentConfig, type AgentConfigInput, type ToolChoice } from './config';
import type { AgentResponse, ToolRecord } from './events';
import { AgentRun } from './run';
import { TurnEngine } from './turn';
import { prefixInput, resolveTurnTools } from './turn-setup';
import { TurnState } from './turn-state';
import { TurnQueue } from './turn-queue';
import { TokenCounter } from '../prompt/prompt-builder';
import { PrefixCache } from '../prompt/prefix-cache';
import { entryLines, renderStructuredPlain } from '../prompt/render-conversation';
import type { ExternalToolHandler } from './tool-runner';
import {
  clone,
  checkEntry,
  splitTurns,
  transcriptFromJSON,
  transcriptToJSON,
  type TranscriptData,
  type TranscriptEntry,
} from '../transcript';

export interface AgentOptions {
  instructions?: string;
  tools?: AgentTool[];
  config?: AgentConfigInput;
  /** A transcript saved with `saveTranscript()`: its history and context note are restored. */
  transcript?: unknown;
}

/**
 * Everything a turn runs with besides its prompt. Built whole and checked by `createAgentSetup`,
 * never changed: a turn keeps the setup it was asked with, whatever is set after.
 */
export interface AgentSetup {
  readonly instructions: string;
  readonly tools: readonly AgentTool[];
  readonly config: AgentConfig;
}

/** One try of a turn. The first is the run's own options; `RunOptions.retry` gives the others. */
export interface TurnAttempt {
  /** Structured turn: the reply is JSON valid against this schema, keys in schema order. */
  schema?: JsonSchema | Record<string, unknown>;
  /**
   * A check beyond the schema (a decision's id among its options): a problem it names is
   * repaired like a schema violation. The schema, not this, is what the stable prefix describes.
   */
  refine?: (value: unknown) => string | undefined;
  toolChoice?: ToolChoice;
  enabledTools?: string[];
  /** A note for this try only; a function is read when the try starts (what is true by then). */
  context?: string | (() => string);
  /**
   * Checks the finished response before it is committed; throwing rejects the try, which then
   * fails with that error (and may be retried) and leaves no trace in the history.
   */
  accept?: (response: AgentResponse) => void;
}

/** Why a try of a turn failed, for `retry` and `fallback`. */
export interface TurnFailure {
  error: AgentError;
  /** 0 for the first try. */
  attempt: number;
  /** Every tool call of the turn so far (their side effects happened). */
  toolCalls: ToolRecord[];
}

export interface RunOptions extends TurnAttempt {
  signal?: SignalLike;
  /**
   * Pictures that go with the prompt (the player's drawn badge): sent with every model call of
   * this turn, each tries included, to a model whose capabilities say `imageInput`; refused
   * before any model call otherwise. Later turns see the words of this turn, not the pictures.
   */
  images?: ImageInput[];
  externalTools?: ExternalToolHandler;
  /**
   * Asked when a try fails (never when the turn was cancelled): the next try of the same turn,
   * in the same queue slot and event stream, or undefined to stop. An NPC retries as plain text.
   */
  retry?: (failure: TurnFailure) => TurnAttempt | undefined;
  /**
   * Asked when the last try failed: an answer to give instead (an authored line), kept out of the
   * history, or undefined to fail the turn with the error.
   */
  fallback?: (failure: TurnFailure) => { text: string; structured?: unknown } | undefined;
  /** Called when the turn starts (after the turns queued before it). */
  onStart?: () => void;
  /** Called at the commit point, with the response now in the history. */
  onCommit?: (response: AgentResponse) => void;
}

export interface CompactOptions {
  keepRecentTurns?: number;
  instructions?: string;
  signal?: SignalLike;
}

/** Output cap of a summary step: the default 120 words fit; 13 s at 15 tokens/s at the very worst. */
const SUMMARY_MAX_TOKENS = 200;

const DEFAULT_SUMMARY_INSTRUCTIONS =
  'Summarise the conversation so far in at most 120 words of plain prose. Keep names, facts, numbers and promises.';

let runCounter = 0;

/** The settings of a turn with pictures: their tokens come out of the prompt's budget. */
function withImageTokens(config: AgentConfig, count: number): AgentConfig {
  const reservedTokens = config.context.reservedTokens + count * IMAGE_INPUT_TOKENS;
  return { ...config, context: { ...config.context, reservedTokens } };
}

/** A checked setup: the tools as a set (unique names, none reserved), the settings over the defaults. */
export function createAgentSetup(
  input: { instructions?: string; tools?: readonly AgentTool[]; config?: AgentConfigInput } = {},
): AgentSetup {
  const tools = (input.tools ?? []).slice();
  checkToolSet(tools);
  return Object.freeze({
    instructions: input.instructions ?? '',
    tools: Object.freeze(tools),
    config: resolveConfig(input.config),
  });
}

/** A try's options checked against the setup, before any model call. */
interface PreparedAttempt {
  schema?: JsonSchema;
  refine?: (value: unknown) => string | undefined;
  choice: ToolChoice;
  enabledTools?: string[];
  context?: string | (() => string);
  accept?: (response: AgentResponse) => void;
}

function prepareAttempt(attempt: TurnAttempt, setup: AgentSetup): PreparedAttempt {
  if (attempt.context !== undefined && typeof attempt.context !== 'string' && typeof attempt.context !== 'function') {
    throw new AgentError('invalid_request', 'The context option must be a string (a note for this turn).');
  }
  if (attempt.accept !== undefined && typeof attempt.accept !== 'function')
    throw new AgentError('invalid_request', 'The accept option must be a function.');
  if (
    attempt.enabledTools !== undefined &&
    (!Array.isArray(attempt.enabledTools) || attempt.enabledTools.some((name) => typeof name !== 'string'))
  ) {
    throw new AgentError('invalid_request', 'enabledTools must be a list of tool names.');
  }
  const choice =
    attempt.toolChoice !== undefined ? validateToolChoice(attempt.toolChoice) : setup.config.toolPolicy.choice;
  let schema: JsonSchema | undefined;
  if (attempt.schema !== undefined)
    schema = attempt.schema instanceof JsonSchema ? attempt.schema : JsonSchema.from(attempt.schema);
  resolveTurnTools(setup.tools, choice, attempt.enabledTools ?? setup.config.toolPolicy.enabledTools);
  return {
    schema,
    refine: attempt.refine,
    choice,
    enabledTools: attempt.enabledTools,
    context: attempt.context,
    accept: attempt.accept,
  };
}

const HOOKS = ['retry', 'fallback', 'onStart', 'onCommit'] as const;

export class Agent {
  readonly model: LanguageModel;
  private _setup: AgentSetup;
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
  private closedMessage = 'This agent was closed.';
  private epoch = 0;

  constructor(model: LanguageModel, options: AgentOptions = {}) {
    if (!model || typeof model.generate !== 'function') {
      throw new AgentError('invalid_request', 'Agent needs a LanguageModel (an object with generate()).');
    }
    this.model = model;
    this._setup = createAgentSetup(options);
    this.counter = new TokenCounter(model);
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
      if (typeof prompt !== 'string') throw new AgentError('invalid_request', 'The prompt must be a string.');
      for (const hook of HOOKS) {
        if (options[hook] !== undefined && typeof options[hook] !== 'function')
          throw new AgentError('invalid_request', `The ${hook} option must be a function.`);
      }
      first = prepareAttempt(options, setup);
      checkImages(options.images, 'images');
      checkImagesAccepted(options.images, this.model.capabilities);
    } catch (error) {
      failure = AgentError.from(error);
    }
    this.queue.add(run, failure, () => this.runTurn({ run, prompt, options, setup, first: first as PreparedAttempt }));
    if (!failure) {
      this.unfinished.add(run);
      const forget = () => this.unfinished.delete(run);
      run.on('completed', forget);
      run.on('error', forget);
    }
    return run;
  }

  /**
   * One turn, try after try: the first that is accepted is committed to the history (the one
   * commit point); when none is and there is a fallback, its answer is given and nothing is kept.
   * Every try shares the turn's counters, so usage and model calls count the failed ones too.
   */
  private async runTurn(job: {
    run: AgentRun;
    prompt: string;
    options: RunOptions;
    setup: AgentSetup;
    first: PreparedAttempt;
  }): Promise<void> {
    const { run, prompt, options, setup } = job;
    if (options.onStart) options.onStart();
    const images = options.images && options.images.length > 0 ? options.images.slice() : undefined;
    const state = new TurnState({
      model: this.model,
      config: images ? withImageTokens(setup.config, images.length) : setup.config,
      signal: run.signal,
      send: (event) => run.emit(event),
      images,
    });
    let attempt = job.first;
    for (let index = 0; ; index++) {
      const entries: TranscriptEntry[] = [];
      this.running = { run, entries };
      let response: AgentResponse;
      try {
        const context = typeof attempt.context === 'function' ? attempt.context() : attempt.context;
        const engine = new TurnEngine({
          turn: state,
          setup: {
            instructions: setup.instructions,
            contextNote: this._contextNote,
            tools: setup.tools,
            history: this._history,
            counter: this.counter,
            prefixes: this.prefixes,
          },
          input: {
            prompt,
            schema: attempt.schema,
            refine: attempt.refine,
            choice: attempt.choice,
            enabledTools: attempt.enabledTools,
            context,
          },
          external: run.external,
          entries,
        });
        response = await engine.run();
        if (run.signal.aborted) throw run.cancelReason();
        if (attempt.accept) attempt.accept(response);
      } catch (error) {
        this.running = null;
        // A cancel is final: never retried, never covered by a fallback, nothing kept.
        if (run.signal.aborted) throw run.cancelReason();
        const failure: TurnFailure = {
          error: AgentError.from(error),
          attempt: index,
          toolCalls: state.toolCalls.slice(),
        };
        const next = options.retry ? options.retry(failure) : undefined;
        if (next) {
          attempt = prepareAttempt(next, setup);
          state.resetText();
          run.emit({ type: 'attempt', index: index + 1, reason: failure.error });
          continue;
        }
        const substitute = options.fallback ? options.fallback(failure) : undefined;
        if (!substitute) throw failure.error;
        run.emit({ type: 'fallback', reason: failure.error });
        const fallback: AgentResponse = {
          text: substitute.text,
          toolCalls: state.toolCalls.slice(),
          usage: { ...state.usage },
          steps: state.steps.slice(),
          modelCalls: state.modelCalls,
          isFallback: true,
        };
        if (substitute.structured !== undefined) fallback.structured = substitute.structured;
        run.finish(fallback);
        return;
      }
      // The point of no return: from here on the turn is committed and a cancel changes nothing.
      this._history = this._history.concat(entries);
      this.running = null;
      this.addUsage(response.usage);
      if (options.onCommit) options.onCommit(response);
      run.finish(response);
      return;
    }
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
    const { config } = this._setup;
    const render = config.structuredReplyRenderer ?? renderStructuredPlain;
    const lines = old
      .map((turn) =>
        entryLines({
          entries: turn,
          labels: config.labels,
          maxOutputChars: config.context.maxToolOutputChars,
          renderStructured: render,
        }).join('\n'),
      )
      .join('\n');
    const earlier = options.earlierSummary ? `Earlier summary: ${options.earlierSummary}\n\n` : '';
    const prompt = `${earlier}Conversation:\n${lines}\n\n${options.instructions ?? DEFAULT_SUMMARY_INSTRUCTIONS}`;
    const { text, finishReason } = await generateText(
      this.model,
      {
        kind: 'summary',
        prompt,
        temperature: config.decisionTemperature,
        // Bounded: a summary runs in the background, but a turn may still wait for its slot (a
        // scheduler preempts it; a bare model does not). 120 words are about 160 tokens.
        maxOutputTokens: SUMMARY_MAX_TOKENS,
        priority: options.priority ?? 0,
        label: config.label,
      },
      options.signal,
    );
    // Cut by the cap, a summary keeps its whole sentences only: half a fact is worse than none.
    const words = playerText(text);
    const summary = finishReason === 'max_tokens' ? wholeSentences(words) : words.trim();
    if (!summary) {
      throw new AgentError(
        'generation_failed',
        finishReason === 'max_tokens'
          ? `The summary was cut off at ${SUMMARY_MAX_TOKENS} tokens before a sentence ended; the history was left as it was (ask for fewer words).`
          : 'The summary came back empty; the history was left as it was.',
      );
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
