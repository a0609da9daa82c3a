/**
 * The tool loop of one turn. Default (inline) mode: a decide step answers with either a tool
 * call or the reply itself, streamed as it is written, so small talk costs one model call and
 * a one-tool turn two. Seed-compatible mode keeps a separate reply step after every decide.
 */
import { AgentError } from '../../contract/errors';
import { abortError } from '../../contract/abort';
import { AgentTool, newCallId, ToolOutput, type ToolCall } from '../tools';
import { readSnapshot } from '../tools/snapshot';
import type { JsonSchema } from '../schema';
import { parseEnvelope, argumentCandidates, inlineReplyOf, InlineReplyReader } from '../envelope';
import { CompletionScanner, extractJson, hasCompleteObject, isPlainObject } from '../json';
import { PartialJsonReader } from '../json/partial-reader';
import { buildStepPrompt, type StablePrompt, type TokenCounter } from '../prompt/prompt-builder';
import type { PrefixCache } from '../prompt/prefix-cache';
import {
  argumentsTask,
  decideTask,
  lineFirstTask,
  repairNote,
  respondTask,
  structuredTask,
} from '../prompt/task-lines';
import { cleanReplyText, ReplyTextStream } from '../prompt/reply-text';
import { PlainReplyReader } from '../envelope/plain-reply';
import { LineFirstReader, readLineFirst, type LineFirstAnswer, type TrailerKinds } from '../envelope/line-first';
import { envelopeSchema } from '../envelope/envelope-schema';
import {
  isPrefetchedLookup,
  lineFieldOf,
  replyTrailerOf,
  tagValuesOf,
  writesLineFirst,
  type PrefixInput,
} from '../prompt/stable-prefix';
import { PlayerTextStream } from '../player-text/player-text-stream';
import { stripReasoning } from '../calls/reasoning';
import type { FinishReason, StepKind } from '../../contract/language-model';
import type { AgentConfig, ToolChoice } from './config';
import type { AgentResponse, ToolCallingMode, ToolRecord } from './events';
import type { TranscriptEntry } from '../transcript';
import { runModelStep } from './model-step';
import { runTool, type ExternalCalls } from './tool-runner';
import type { TurnState } from './turn-state';

export interface TurnInput {
  prompt: string;
  schema?: JsonSchema;
  /** A check beyond the schema; the problem it names is repaired like a schema violation. */
  refine?: (value: unknown) => string | undefined;
  choice: ToolChoice;
  enabledTools?: string[];
  /** A note for this turn only (the situation, the world right now). */
  context?: string;
}

export interface TurnSetup {
  instructions: string;
  contextNote: string;
  tools: readonly AgentTool[];
  history: readonly TranscriptEntry[];
  counter: TokenCounter;
  prefixes: PrefixCache;
}

/** A line-first decide step's output cap when no reply cap is set: room for a few sentences and the trailer. */
const LINE_FIRST_MIN_TOKENS = 512;

/** One model step as the tool loop asks for it. */
interface StepInput {
  kind: StepKind;
  task: string;
  isRepair: boolean;
  mode: ToolCallingMode;
  enabledTools: string[];
  /** Called with all text so far after each chunk; true stops reading. */
  onText: (text: string) => boolean;
  /** The prompt is the user's words alone (a first plain turn). */
  raw?: boolean;
  /** A JSON Schema the whole answer must match, for backends that constrain decoding. */
  responseSchema?: Record<string, unknown>;
}

/** A side-effect call written after the words of a line-first reply. */
interface AfterReplyCall {
  tool: AgentTool;
  argCandidates: unknown[];
}

type DecideOutcome =
  | { kind: 'call'; tool: AgentTool; args: Record<string, unknown> }
  | {
      kind: 'reply';
      inline?: unknown;
      envelope?: unknown;
      after?: AfterReplyCall[];
      refused?: Pick<LineFirstAnswer, 'calls' | 'unread'>;
    }
  | { kind: 'rejected'; tool: AgentTool; args: Record<string, unknown>; problem: string }
  | { kind: 'gaveUp' };

/** Checks the turn's tool settings before any model call; throws invalid_request. */
export function resolveTurnTools(
  tools: readonly AgentTool[],
  choice: ToolChoice,
  enabledNames?: readonly string[],
): { enabled: AgentTool[]; forced?: AgentTool } {
  let enabled = tools.slice();
  if (enabledNames) {
    for (const name of enabledNames) {
      if (!tools.some((tool) => tool.name === name)) {
        throw new AgentError(
          'invalid_request',
          `enabledTools names "${name}", which is not one of this agent's tools (${tools.map((tool) => tool.name).join(', ') || 'none'}).`,
        );
      }
    }
    enabled = tools.filter((tool) => enabledNames.indexOf(tool.name) >= 0);
  }
  let forced: AgentTool | undefined;
  if (typeof choice === 'object') {
    forced = tools.find((tool) => tool.name === choice.tool);
    if (!forced) {
      throw new AgentError(
        'invalid_request',
        `toolChoice names "${choice.tool}", which is not one of this agent's tools (${tools.map((tool) => tool.name).join(', ') || 'none'}).`,
      );
    }
  }
  return { enabled, forced };
}

/** What the stable prefix of a turn depends on. */
export function prefixInput(
  setup: Pick<TurnSetup, 'instructions' | 'tools'>,
  config: AgentConfig,
  schema: JsonSchema | undefined,
): PrefixInput {
  return {
    instructions: setup.instructions,
    tools: setup.tools,
    labels: config.labels,
    inlineReplies: config.inlineReplies,
    lineFirst: config.lineFirst,
    replyLineField: config.replyLineField,
    replySchema: schema,
  };
}

/** What one attempt of a turn works with. */
export interface TurnEngineParts {
  /** The turn's counters and events, shared by all its attempts. */
  turn: TurnState;
  setup: TurnSetup;
  input: TurnInput;
  external: ExternalCalls;
  /** This attempt's entries so far; the agent shows them in `transcript` and commits them on success. */
  entries: TranscriptEntry[];
}

export class TurnEngine {
  private readonly stable: StablePrompt;
  private contextNote: string;
  private readonly records: ToolRecord[] = [];
  private readonly succeeded = new Set<string>();
  private rounds = 0;
  private calls = 0;
  /** How the last step ended: a line cut by the token limit is written again whole. */
  private lastFinishReason: FinishReason | undefined;
  /** Where this turn's entries of actions written after the words start and end. */
  private afterReply: { from: number; to: number } | undefined;
  private readonly labels: string[];
  /** Replies are written line first (plain words, then JSON lines). */
  private readonly lineFirst: boolean;
  /** The structured reply's spoken-text key, when line first. */
  private readonly lineField: string | undefined;
  /** The reply key written as a `[value]` tag after the words, when there is one. */
  private readonly tagKey: string | undefined;
  /** The values that tag may hold; other bracketed words are stage directions. */
  private readonly tagValues: string[] | undefined;
  /** Every tool's name: calls of these are cut from the words wherever they sit. */
  private readonly toolNames: string[];
  /** Incremental clean-up of the reply text and of the line streamed so far (each starts over when its text does not grow). */
  private replyStream?: ReplyTextStream;
  private lineStream?: PlayerTextStream;

  private readonly turn: TurnState;
  private readonly setup: TurnSetup;
  private readonly input: TurnInput;
  private readonly external: ExternalCalls;
  private readonly current: TranscriptEntry[];

  constructor(parts: TurnEngineParts) {
    const { turn, setup, input } = parts;
    this.turn = turn;
    this.setup = setup;
    this.input = input;
    this.external = parts.external;
    this.current = parts.entries;
    const config = turn.config;
    const prefix = prefixInput(setup, config, input.schema);
    this.stable = setup.prefixes.get(prefix, turn.model);
    this.lineFirst = writesLineFirst(prefix);
    this.lineField = input.schema && this.lineFirst ? lineFieldOf(input.schema, config.replyLineField) : undefined;
    this.tagKey = this.lineField ? replyTrailerOf(input.schema, this.lineField).tagKey : undefined;
    this.tagValues = tagValuesOf(input.schema, this.tagKey);
    this.toolNames = setup.tools.map((tool) => tool.name);
    this.contextNote = [setup.contextNote, input.context ?? '']
      .map((note) => note.trim())
      .filter(Boolean)
      .join('\n\n');
    this.labels = [config.labels.assistant, 'Assistant', 'AI'];
  }

  async run(): Promise<AgentResponse> {
    const { config } = this.turn;
    const { choice } = this.input;
    const resolved = resolveTurnTools(
      this.setup.tools,
      choice,
      this.input.enabledTools ?? config.toolPolicy.enabledTools,
    );
    const forced = resolved.forced;
    let enabled = resolved.enabled;
    this.current.push({ type: 'prompt', text: this.input.prompt });

    let inline: unknown;
    let inlineProblem: { problem: string; previous: string } | undefined;
    const policy = config.toolPolicy;
    // Line first, a small lookup that can say now what it would return goes into this turn's
    // prompt instead of costing a model call (the menu, a quest log): the words can come first.
    // The lookup stays offered: a model that calls it anyway gets a correct answer, one call later.
    if (this.lineFirst && !forced && choice === 'auto') this.prefetchLookups(enabled);
    const toolsOn = choice !== 'none' && (enabled.length > 0 || forced !== undefined);

    while (toolsOn && this.rounds < policy.maxToolRounds && this.calls < policy.maxToolCalls) {
      const first = this.rounds === 0;
      let outcome: DecideOutcome;
      if (first && forced) {
        if (enabled.indexOf(forced) < 0) break; // forced but not enabled: straight to the reply
        // A parameterless forced tool needs no model step: it just runs (below).
        outcome = forced.isParameterless
          ? { kind: 'call', tool: forced, args: {} }
          : await this.argumentsStep(forced, enabled);
      } else if (first && choice === 'required' && enabled.length === 1) {
        // The only tool the model may use takes no arguments: nothing to ask.
        outcome = enabled[0].isParameterless
          ? { kind: 'call', tool: enabled[0], args: {} }
          : await this.argumentsStep(enabled[0], enabled);
      } else {
        outcome = await this.decideStep(enabled, first && choice === 'required');
      }

      if (outcome.kind === 'call') {
        const key = `${outcome.tool.name} ${JSON.stringify(outcome.args)}`;
        if (config.dedupesToolCalls && this.succeeded.has(key)) break; // the same call again means "reply now"
        const record = await this.execute(outcome.tool, outcome.args);
        if (!ToolOutput.isError(record.output)) this.succeeded.add(key);
        if (first && forced && forced.isParameterless) {
          // Inline mode then decides as usual, without the tool that just ran (it can only run
          // the same way again): the reply comes inline (still 1 call) or the model uses another
          // tool (a grounded NPC looks at the menu, then takes the order). Seed mode goes straight
          // to its reply step, since a decide there would cost a call just to say "respond".
          enabled = enabled.filter((tool) => tool !== forced);
          if (!config.inlineReplies || enabled.length === 0) break;
        }
        continue;
      }
      if (outcome.kind === 'rejected') {
        this.reject(outcome.tool, outcome.args, outcome.problem);
        break;
      }
      if (outcome.kind === 'reply') {
        // Actions written after the words run whether or not the words are usable: the model
        // chose them, and a repair step then sees their results.
        if (outcome.after) await this.runAfterReply(outcome.after);
        if (outcome.refused) this.refuseCalls(outcome.refused, 'that tool is not available now');
        if (config.inlineReplies && outcome.inline !== undefined) {
          const accepted = this.acceptInline(outcome.inline, outcome.envelope);
          if (accepted.ok) inline = accepted.value;
          else inlineProblem = accepted.failure;
        }
        break;
      }
      break; // gave up on an unusable answer: reply without more tools
    }

    if (inline === undefined) {
      if (this.input.schema) inline = await this.structuredStep(this.input.schema, inlineProblem);
      else inline = await this.respondStep();
    }
    return this.finish(inline);
  }

  // ---- steps ------------------------------------------------------------------------------

  private async decideStep(enabled: AgentTool[], required: boolean): Promise<DecideOutcome> {
    const { config } = this.turn;
    const names = enabled.map((tool) => tool.name);
    let problem = '';
    let previous = '';
    let knownTool: AgentTool | undefined;
    let knownArgs: Record<string, unknown> = {};
    const attempts = config.repairsInvalidOutput ? 2 : 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      this.turn.resetText();
      const format = this.lineFirst ? 'lineFirst' : config.inlineReplies ? 'inline' : 'seed';
      let task = decideTask({
        required,
        enabled,
        allTools: this.setup.tools,
        format,
        assistant: config.labels.assistant,
      });
      if (attempt > 0) task += `\n\n${repairNote(problem, previous)}`;
      // Under 'required' a reply is refused, so it must not flash on screen while streaming.
      const reader = config.inlineReplies && !required ? new InlineReplyReader(names) : undefined;
      const lines = this.lineFirst && !required ? new LineFirstReader(this.trailerKinds()) : undefined;
      const scanner = new CompletionScanner();
      // In a JSON envelope mode the whole answer has a schema: a constraining backend honours it.
      const responseSchema =
        this.lineFirst && !required
          ? undefined
          : envelopeSchema({
              tools: enabled,
              allowReply: !required,
              replySchema: this.input.schema,
              seedForm: !config.inlineReplies,
            });
      const text = await this.step({
        kind: 'decide',
        task,
        isRepair: attempt > 0,
        mode: required ? 'required' : 'allowed',
        enabledTools: names,
        responseSchema,
        onText: (full) => {
          // Reasoning first (a thinking model): nothing in it is shown, and a JSON object in it
          // does not end the stream.
          const answer = stripReasoning(full);
          const state = lines ? lines.push(answer) : undefined;
          // Words first: shown as they come; the JSON lines after them end the answer by themselves.
          if (state && state.kind === 'line') return this.showLine(state.text);
          if (state && state.kind === 'unknown') return false;
          if (reader) this.showInline(reader.push(answer));
          return scanner.push(answer);
        },
      });
      const written = lines ? readLineFirst(stripReasoning(text), this.trailerKinds()) : undefined;
      // Words before a call whose result is needed ("Let me look.\ncheck_menu()") are a
      // preamble: the call is the answer.
      const needed = written
        ? written.calls.find((call) => enabled.some((tool) => tool.name === call.tool && !tool.sideEffect))
        : undefined;
      if (needed) {
        const tool = enabled.find((candidate) => candidate.name === needed.tool) as AgentTool;
        const checked = checkArguments(tool, needed.argCandidates);
        if (checked.ok) return { kind: 'call', tool, args: checked.args };
      }
      // Words that are a call themselves (`check_menu`, `[check_menu()]`) are read as the call.
      if (
        written &&
        !needed &&
        parseEnvelope(written.line, { toolNames: names, allowRespond: false, parameterOrder: this.parameterOrder })
          .kind !== 'call'
      ) {
        // Cut by the token limit: the words may stop mid-word, so the reply step writes them whole.
        if (this.lastFinishReason === 'max_tokens') return { kind: 'reply', inline: undefined };
        return this.lineFirstReply(written, enabled);
      }
      const env = parseEnvelope(text, {
        toolNames: names,
        allowRespond: !required,
        parameterOrder: this.parameterOrder,
      });
      if (env.kind === 'respond') {
        // A reply cut off before its JSON closed (the decide step's small output cap, a stream
        // that ended early) must not become the final reply, cut mid-word: the reply step
        // writes it whole instead (its text shown so far is reset).
        const whole = env.reply === undefined || hasCompleteObject(text);
        return {
          kind: 'reply',
          inline: whole ? env.reply : undefined,
          envelope: whole ? extractJson(text)?.value : undefined,
        };
      }
      if (env.kind === 'call') {
        const tool = enabled.find((candidate) => candidate.name === env.tool) as AgentTool;
        const checked = checkArguments(tool, env.argCandidates);
        if (checked.ok) return { kind: 'call', tool, args: checked.args };
        problem = checked.problem;
        knownTool = tool;
        knownArgs = checked.firstArgs;
      } else {
        problem = env.problem;
        if (env.tool) knownTool = enabled.find((candidate) => candidate.name === env.tool);
      }
      previous = text;
    }
    return knownTool ? { kind: 'rejected', tool: knownTool, args: knownArgs, problem } : { kind: 'gaveUp' };
  }

  private async argumentsStep(tool: AgentTool, enabled: AgentTool[]): Promise<DecideOutcome> {
    const { config } = this.turn;
    let problem = '';
    let previous = '';
    let firstArgs: Record<string, unknown> = {};
    const attempts = config.repairsInvalidOutput ? 2 : 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      let task = argumentsTask(tool);
      if (attempt > 0) task += `\n\n${repairNote(problem, previous)}`;
      const scanner = new CompletionScanner();
      const text = await this.step({
        kind: 'toolArguments',
        task,
        isRepair: attempt > 0,
        mode: 'required',
        enabledTools: enabled.map((candidate) => candidate.name),
        onText: (full) => scanner.push(full),
        responseSchema: tool.parameters.json,
      });
      const checked = checkArguments(tool, argumentCandidates(text, tool.name));
      if (checked.ok) return { kind: 'call', tool, args: checked.args };
      problem = checked.problem;
      firstArgs = checked.firstArgs;
      previous = text;
    }
    return { kind: 'rejected', tool, args: firstArgs, problem };
  }

  private async respondStep(): Promise<string> {
    const { config } = this.turn;
    this.turn.resetText();
    const usedTools = this.records.length > 0;
    const raw = this.setup.tools.length === 0 && this.setup.history.length === 0 && !usedTools;
    // A first plain turn goes to the model as the user's words alone.
    const task = raw ? '' : respondTask(config.labels, usedTools);
    const reader = new PlainReplyReader();
    // Line first, a model may still write actions after its words here (tools are off now):
    // they are cut from the words and recorded as not made.
    const lines = this.lineFirst && this.setup.tools.length > 0 ? new LineFirstReader(this.trailerKinds()) : undefined;
    const text = await this.step({
      kind: 'respond',
      task,
      isRepair: false,
      mode: 'disallowed',
      enabledTools: [],
      raw,
      onText: (full) => {
        const state = lines ? lines.push(full) : undefined;
        const shown =
          state && state.kind === 'line'
            ? state.text
            : state && state.kind === 'unknown'
              ? undefined
              : reader.push(full);
        if (shown !== undefined) this.turn.showText(this.visible(shown, false));
        return false;
      },
    });
    const written = lines ? readLineFirst(text, this.trailerKinds()) : undefined;
    if (written) this.refuseCalls(written, 'no tools can be used in this step');
    const reply = this.visible(written ? written.line : PlainReplyReader.final(text), true);
    if (!reply) throw new AgentError('generation_failed', 'The model returned an empty reply; try again.');
    return reply;
  }

  private async structuredStep(
    schema: JsonSchema,
    inlineProblem?: { problem: string; previous: string },
  ): Promise<unknown> {
    const { config } = this.turn;
    const usedTools = this.records.length > 0;
    let problem = inlineProblem?.problem ?? '';
    let previous = inlineProblem?.previous ?? '';
    const attempts = inlineProblem ? 1 : config.repairsInvalidOutput ? 2 : 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const isRepair = inlineProblem !== undefined || attempt > 0;
      const lineField = this.lineField;
      let task = lineField
        ? lineFirstTask({ labels: config.labels, schema, lineField, usedTools })
        : structuredTask(config.labels, schema, usedTools);
      if (isRepair) task += `\n\n${repairNote(problem, previous)}`;
      const partials = new PartialJsonReader();
      const scanner = new CompletionScanner();
      const lines = lineField ? new LineFirstReader(this.trailerKinds()) : undefined;
      const raw = this.setup.tools.length === 0 && this.setup.history.length === 0;
      // Written as JSON (no spoken line first), the answer can be constrained to the schema.
      const text = await this.step({
        kind: 'structured',
        task,
        isRepair,
        mode: 'disallowed',
        enabledTools: [],
        raw,
        responseSchema: lineField ? undefined : schema.json,
        onText: (full) => {
          // Reasoning first (a thinking model) is never shown or read as the answer.
          const visible = stripReasoning(full);
          const state = lines ? lines.push(visible) : undefined;
          if (state && state.kind === 'line') return this.showLine(state.text);
          if (state && state.kind === 'unknown') return false;
          // Every chunk, so a line read token by token shows token by token; while a string is
          // open at the end, a push decodes only the new characters.
          const partial = partials.push(visible);
          if (partial !== undefined) this.turn.emit({ type: 'partial', value: partial });
          return scanner.push(visible);
        },
      });
      const answer = stripReasoning(text);
      const written = lineField ? readLineFirst(answer, this.trailerKinds()) : undefined;
      if (written) this.refuseCalls(written, 'no tools can be used in this step');
      const found = written ? { value: this.lineFirstValue(written) } : extractJson(answer);
      if (found) {
        const checked = this.checkReply(schema, found.value);
        if (checked.ok) return checked.value;
        problem = checked.problem;
        // A model that keeps to the decide format wraps the answer: {"reply": {…}}.
        const inner = isPlainObject(found.value) ? inlineReplyOf(found.value) : undefined;
        const unwrapped = inner !== undefined && inner !== found.value ? this.checkReply(schema, inner) : undefined;
        if (unwrapped && unwrapped.ok) return unwrapped.value;
      } else {
        problem = 'the answer was not JSON';
      }
      previous = text;
    }
    throw new AgentError(
      'generation_failed',
      `The structured output stayed invalid after a repair attempt: ${problem}.`,
    );
  }

  private async step(step: StepInput): Promise<string> {
    const { kind, task, isRepair, mode, enabledTools, onText, raw = false } = step;
    const { config, model } = this.turn;
    const t0 = performance.now();
    const built = await buildStepPrompt({
      input: { kind, history: this.setup.history, current: this.current, contextNote: this.contextNote, task, raw },
      stable: this.stable,
      settings: config,
      model,
      counter: this.setup.counter,
      signal: this.turn.signal,
    });
    const decision = kind === 'decide' || kind === 'toolArguments';
    const req = built.request;
    if (decision) {
      req.temperature = config.decisionTemperature;
      // A line-first decide step may carry the whole reply: it gets the reply's room too.
      const carriesReply = kind === 'decide' && this.lineFirst && mode !== 'required';
      req.maxOutputTokens = carriesReply
        ? Math.max(config.decisionMaxTokens, config.maxResponseTokens ?? LINE_FIRST_MIN_TOKENS)
        : config.decisionMaxTokens;
    } else {
      if (config.temperature !== undefined) req.temperature = config.temperature;
      // Every step has an output cap: a reply step without one could stream for as long as the server likes.
      req.maxOutputTokens = config.maxResponseTokens ?? LINE_FIRST_MIN_TOKENS;
    }
    // A backend that constrains decoding (Chrome's responseConstraint) enforces it; others ignore it.
    if (step.responseSchema) req.responseSchema = step.responseSchema;
    if (config.topK !== undefined) req.topK = config.topK;
    if (config.seed !== undefined) req.seed = config.seed;
    const buildMs = performance.now() - t0;
    const result = await runModelStep({
      turn: this.turn,
      built,
      info: { kind, isRepair, completedToolRounds: this.rounds, toolCallingMode: mode, enabledTools },
      handlers: { onText },
      buildMs,
    });
    this.lastFinishReason = result.finishReason;
    return result.text;
  }

  // ---- line-first replies -------------------------------------------------------------------

  /**
   * Places parameterless lookups' small snapshots in the turn's note (`check_menu now: {…}`).
   * The prefix does not list such a lookup (isPrefetchedLookup), so one whose snapshot cannot
   * be read this turn (too big, it threw) is offered here instead, to be called as usual.
   */
  private prefetchLookups(enabled: readonly AgentTool[]): void {
    const facts: string[] = [];
    for (const tool of enabled) {
      const snapshot = tool.isParameterless ? readSnapshot(tool) : undefined;
      if (snapshot) facts.push(`${tool.name} now: ${snapshot.json}`);
      else if (isPrefetchedLookup(tool))
        facts.push(`Tool you can call now: ${tool.name}()${tool.description ? `: ${tool.description}` : ''}`);
    }
    if (facts.length > 0) this.contextNote = [this.contextNote, facts.join('\n')].filter(Boolean).join('\n\n');
  }

  /** The words of a text reply as the player may see them (whole, or streamed so far, cleaned incrementally). */
  private visible(raw: string, final: boolean): string {
    const { toolNames } = this;
    if (final) return cleanReplyText({ raw, labels: this.labels, final, toolNames });
    this.replyStream = this.replyStream ?? new ReplyTextStream({ labels: this.labels, toolNames });
    return this.replyStream.push(raw);
  }

  /** Shows the words of a line-first reply as they stream; never ends the stream. */
  private showLine(words: string): false {
    if (this.lineField) {
      this.lineStream = this.lineStream ?? new PlayerTextStream({ toolNames: this.toolNames });
      this.turn.emit({ type: 'partial', value: { [this.lineField]: this.lineStream.push(words) } });
    } else this.turn.showText(this.visible(words, false));
    return false;
  }

  /** The reply value of a line-first answer: the words, or the object with the words in its line key. */
  private lineFirstValue(written: LineFirstAnswer): unknown {
    if (!this.lineField) return written.line;
    const value: Record<string, unknown> = { ...written.fields };
    delete value[this.lineField]; // the words written first are the line, whatever the trailer says
    // Words without their tag are still a reply: the tag is left empty (an NPC reads that as its
    // default emotion) instead of costing a repair call over one word.
    if (this.tagKey !== undefined && typeof value[this.tagKey] !== 'string') value[this.tagKey] = '';
    return { [this.lineField]: written.line, ...value };
  }

  private lineFirstReply(written: LineFirstAnswer, enabled: AgentTool[]): DecideOutcome {
    const after: AfterReplyCall[] = [];
    for (const call of written.calls) {
      const tool = enabled.find((candidate) => candidate.name === call.tool);
      if (tool) after.push({ tool, argCandidates: call.argCandidates });
    }
    // Calls that cannot run now are recorded as not made, after the words, so the next prompt
    // shows the model what did not happen.
    const notNow = {
      ...written,
      calls: written.calls.filter((call) => !enabled.some((tool) => tool.name === call.tool)),
    };
    return { kind: 'reply', inline: this.lineFirstValue(written), after, refused: notNow };
  }

  /** What a line-first reader looks for after the words: every tool's calls, and the reply's tag. */
  private trailerKinds(): TrailerKinds {
    return {
      toolNames: this.toolNames,
      tagKey: this.tagKey,
      tagValues: this.tagValues,
      parameterOrder: this.parameterOrder,
    };
  }

  /** A tool's parameter names in schema order, for calls written by position. */
  private readonly parameterOrder = (name: string): readonly string[] | undefined => {
    const tool = this.setup.tools.find((candidate) => candidate.name === name);
    return tool ? tool.parameters.propertyNames() : undefined;
  };

  /** Records the calls written after the words that will not run (unreadable, or tools off). */
  private refuseCalls(written: Pick<LineFirstAnswer, 'calls' | 'unread'>, problem: string): void {
    const from = this.current.length;
    for (const call of written.calls) {
      const tool = this.setup.tools.find((candidate) => candidate.name === call.tool);
      if (tool) this.reject(tool, firstObject(call.argCandidates), problem);
    }
    for (const bad of written.unread) {
      const tool = this.setup.tools.find((candidate) => candidate.name === bad.tool);
      if (tool) this.reject(tool, {}, bad.problem);
    }
    if (this.current.length > from) this.afterReply = { from: this.afterReply?.from ?? from, to: this.current.length };
  }

  /** Runs the actions written after the words, in order, within the turn's call budget; a repeat runs once. */
  private async runAfterReply(calls: AfterReplyCall[]): Promise<void> {
    const from = this.current.length;
    const seen = new Set<string>();
    for (const call of calls) {
      const checked = checkArguments(call.tool, call.argCandidates);
      const args = checked.ok ? checked.args : checked.firstArgs;
      const key = `${call.tool.name} ${JSON.stringify(args)}`;
      // A repeat runs once, also of a call that already ran earlier in this turn.
      if (seen.has(key) || (this.turn.config.dedupesToolCalls && this.succeeded.has(key))) continue;
      seen.add(key);
      if (this.calls >= this.turn.config.toolPolicy.maxToolCalls)
        this.reject(
          call.tool,
          args,
          `the turn already used its ${this.turn.config.toolPolicy.maxToolCalls} tool calls`,
        );
      else if (!checked.ok) this.reject(call.tool, args, checked.problem);
      else if (!ToolOutput.isError((await this.execute(call.tool, checked.args)).output)) this.succeeded.add(key);
    }
    if (this.current.length > from) this.afterReply = { from, to: this.current.length };
  }

  // ---- inline replies -----------------------------------------------------------------------

  private showInline(state: ReturnType<InlineReplyReader['push']>): void {
    if (!this.turn.config.inlineReplies) return;
    if (state.kind === 'reply-text') this.turn.showText(this.visible(state.text, false));
    else if (state.kind === 'reply-object') this.turn.emit({ type: 'partial', value: state.value });
  }

  /**
   * Takes the inline reply if it is usable. For a structured turn a small model sometimes drops
   * the wrapper and writes the reply object itself (`{"emotion": …, "line": …}`): that whole
   * envelope counts when it fits the schema, instead of costing a repair.
   */
  private acceptInline(
    value: unknown,
    envelope?: unknown,
  ): { ok: true; value: unknown } | { ok: false; failure: { problem: string; previous: string } } {
    const schema = this.input.schema;
    if (!schema) {
      if (typeof value !== 'string')
        return { ok: false, failure: { problem: 'the reply must be text', previous: JSON.stringify(value) } };
      const text = this.visible(value, true);
      return text
        ? { ok: true, value: text }
        : { ok: false, failure: { problem: 'the reply was empty', previous: '' } };
    }
    const checked = this.checkReply(schema, value);
    if (checked.ok) return { ok: true, value: checked.value };
    if (isPlainObject(envelope) && envelope !== value) {
      const whole = this.checkReply(schema, envelope);
      if (whole.ok) return { ok: true, value: whole.value };
    }
    return { ok: false, failure: { problem: checked.problem, previous: JSON.stringify(value) } };
  }

  /** The schema's check, then the run's own. */
  private checkReply(
    schema: JsonSchema,
    value: unknown,
  ): { ok: true; value: unknown } | { ok: false; problem: string } {
    const checked = schema.check(value);
    if (!checked.ok || !this.input.refine) return checked;
    const problem = this.input.refine(checked.value);
    return problem ? { ok: false, problem } : checked;
  }

  // ---- tools --------------------------------------------------------------------------------

  private async execute(tool: AgentTool, args: Record<string, unknown>): Promise<ToolRecord> {
    const call: ToolCall = { id: newCallId(), name: tool.name, args };
    const record = await runTool({ turn: this.turn, tool, call, external: this.external });
    this.records.push(record);
    this.turn.toolCalls.push(record);
    this.current.push({ type: 'toolUse', call: record.call, output: record.output });
    this.rounds++;
    this.calls++;
    return record;
  }

  private reject(tool: AgentTool, args: Record<string, unknown>, problem: string): void {
    const call: ToolCall = { id: newCallId(), name: tool.name, args };
    const output = ToolOutput.error(`The call was not made: ${problem}.`);
    const record: ToolRecord = { call, output, durationMs: 0, rejected: true };
    this.records.push(record);
    this.turn.toolCalls.push(record);
    this.current.push({ type: 'toolUse', call, output, rejected: true });
    this.turn.emit({ type: 'toolCompleted', record });
    this.rounds++;
    this.calls++;
  }

  private finish(reply: unknown): AgentResponse {
    if (this.turn.signal.aborted) throw abortError(this.turn.signal);
    const structured = this.input.schema !== undefined;
    const text = structured ? JSON.stringify(reply) : (reply as string);
    if (!structured) this.turn.showText(text);
    // Actions written after the words come after them in the transcript too, so the next
    // prompt shows the line, then what the game really did (a failed order included).
    const after = this.afterReply
      ? this.current.splice(this.afterReply.from, this.afterReply.to - this.afterReply.from)
      : [];
    this.current.push(structured ? { type: 'response', text, structured: reply } : { type: 'response', text });
    this.current.push(...after);
    const response: AgentResponse = {
      text,
      toolCalls: this.turn.toolCalls.slice(),
      usage: { ...this.turn.usage },
      steps: this.turn.steps.slice(),
      modelCalls: this.turn.modelCalls,
    };
    if (structured) response.structured = reply;
    return response;
  }
}

/** The first candidate that is an object, for a record of a call that was not made. */
function firstObject(candidates: unknown[]): Record<string, unknown> {
  const first = candidates.find((candidate) => isPlainObject(candidate));
  return (first as Record<string, unknown> | undefined) ?? {};
}

/** Coerces and validates argument candidates in order; the first valid one wins. */
function checkArguments(
  tool: AgentTool,
  candidates: unknown[],
): { ok: true; args: Record<string, unknown> } | { ok: false; problem: string; firstArgs: Record<string, unknown> } {
  const list = candidates.length > 0 ? candidates : [{}];
  let firstProblem = '';
  for (const candidate of list) {
    const checked = tool.parameters.check(candidate);
    if (checked.ok) return { ok: true, args: (checked.value ?? {}) as Record<string, unknown> };
    if (!firstProblem) firstProblem = checked.problem;
  }
  const first = list[0];
  const firstArgs =
    first && typeof first === 'object' && !Array.isArray(first) ? (first as Record<string, unknown>) : {};
  return { ok: false, problem: `the arguments for ${tool.name} are invalid: ${firstProblem}`, firstArgs };
}
