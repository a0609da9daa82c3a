/**
 * The tool loop of one turn. Default (inline) mode: a decide step answers with either a tool
 * call or the reply itself, streamed as it is written, so small talk costs one model call and
 * a one-tool turn two. Seed-compatible mode keeps a separate reply step after every decide.
 */
import { AgentError } from '../errors';
import { abortError } from '../abort';
import { AgentTool, newCallId, ToolOutput, type ToolCall } from '../tools';
import type { JsonSchema } from '../schema';
import { parseEnvelope, argumentCandidates, inlineReplyOf, InlineReplyReader } from '../envelope';
import { CompletionScanner, extractJson, hasCompleteObject, isPlainObject } from '../json';
import { buildStepPrompt, type StablePrompt, type TokenCounter } from '../prompt/prompt-builder';
import type { PrefixCache } from '../prompt/prefix-cache';
import { argumentsTask, decideTask, repairNote, respondTask, structuredTask } from '../prompt/task-lines';
import { cleanReplyText } from '../prompt/reply-text';
import { PlainReplyReader } from '../envelope/plain-reply';
import { stripReasoning } from '../envelope/call-syntax';
import type { StepKind } from '../../models/types';
import type { ToolChoice } from './config';
import type { AgentResponse, ToolCallingMode, ToolRecord } from './events';
import type { TranscriptEntry } from './transcript';
import { runModelStep } from './model-step';
import { runTool, type ExternalCalls } from './tool-runner';
import type { TurnState } from './turn-state';

export interface TurnInput {
  prompt: string;
  schema?: JsonSchema;
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

type DecideOutcome =
  | { kind: 'call'; tool: AgentTool; args: Record<string, unknown> }
  | { kind: 'reply'; inline?: unknown; envelope?: unknown }
  | { kind: 'rejected'; tool: AgentTool; args: Record<string, unknown>; problem: string }
  | { kind: 'gaveUp' };

/** Checks the turn's tool settings before any model call; throws invalid_request. */
export function resolveTurnTools(tools: readonly AgentTool[], choice: ToolChoice, enabledNames?: readonly string[]): { enabled: AgentTool[]; forced?: AgentTool } {
  let enabled = tools.slice();
  if (enabledNames) {
    for (const n of enabledNames) {
      if (!tools.some((t) => t.name === n)) {
        throw new AgentError('invalid_request', `enabledTools names "${n}", which is not one of this agent's tools (${tools.map((t) => t.name).join(', ') || 'none'}).`);
      }
    }
    enabled = tools.filter((t) => enabledNames.indexOf(t.name) >= 0);
  }
  let forced: AgentTool | undefined;
  if (typeof choice === 'object') {
    forced = tools.find((t) => t.name === choice.tool);
    if (!forced) {
      throw new AgentError('invalid_request', `toolChoice names "${choice.tool}", which is not one of this agent's tools (${tools.map((t) => t.name).join(', ') || 'none'}).`);
    }
  }
  return { enabled, forced };
}

export class TurnEngine {
  private readonly stable: StablePrompt;
  private readonly contextNote: string;
  private readonly records: ToolRecord[] = [];
  private readonly succeeded = new Set<string>();
  private rounds = 0;
  private calls = 0;
  private readonly labels: string[];

  constructor(
    private readonly turn: TurnState,
    private readonly setup: TurnSetup,
    private readonly input: TurnInput,
    private readonly external: ExternalCalls,
    /** This turn's entries so far; the agent shows them in `transcript` and commits them on success. */
    private readonly current: TranscriptEntry[],
  ) {
    const config = turn.config;
    this.stable = setup.prefixes.get(setup.instructions, setup.tools, config.labels, config.inlineReplies, input.schema, turn.model);
    this.contextNote = [setup.contextNote, input.context ?? ''].map((s) => s.trim()).filter(Boolean).join('\n\n');
    this.labels = [config.labels.assistant, 'Assistant', 'AI'];
  }

  async run(): Promise<AgentResponse> {
    const { config } = this.turn;
    const { choice } = this.input;
    const resolved = resolveTurnTools(this.setup.tools, choice, this.input.enabledTools ?? config.toolPolicy.enabledTools);
    const forced = resolved.forced;
    let enabled = resolved.enabled;
    this.current.push({ type: 'prompt', text: this.input.prompt });

    let inline: unknown;
    let inlineProblem: { problem: string; previous: string } | undefined;
    const policy = config.toolPolicy;
    const toolsOn = choice !== 'none' && (enabled.length > 0 || forced !== undefined);

    while (toolsOn && this.rounds < policy.maxToolRounds && this.calls < policy.maxToolCalls) {
      const first = this.rounds === 0;
      let outcome: DecideOutcome;
      if (first && forced) {
        if (enabled.indexOf(forced) < 0) break; // forced but not enabled: straight to the reply
        // A parameterless forced tool needs no model step: it just runs (below).
        outcome = forced.isParameterless ? { kind: 'call', tool: forced, args: {} } : await this.argumentsStep(forced, enabled);
      } else if (first && choice === 'required' && enabled.length === 1) {
        // The only tool the model may use takes no arguments: nothing to ask.
        outcome = enabled[0].isParameterless ? { kind: 'call', tool: enabled[0], args: {} } : await this.argumentsStep(enabled[0], enabled);
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
          enabled = enabled.filter((t) => t !== forced);
          if (!config.inlineReplies || enabled.length === 0) break;
        }
        continue;
      }
      if (outcome.kind === 'rejected') {
        this.reject(outcome.tool, outcome.args, outcome.problem);
        break;
      }
      if (outcome.kind === 'reply') {
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
    const names = enabled.map((t) => t.name);
    let problem = '';
    let previous = '';
    let knownTool: AgentTool | undefined;
    let knownArgs: Record<string, unknown> = {};
    const attempts = config.repairsInvalidOutput ? 2 : 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      this.turn.resetText();
      let task = decideTask(required, enabled, this.setup.tools, config.inlineReplies);
      if (attempt > 0) task += `\n\n${repairNote(problem, previous)}`;
      // Under 'required' a reply is refused, so it must not flash on screen while streaming.
      const reader = config.inlineReplies && !required ? new InlineReplyReader(names) : undefined;
      const scanner = new CompletionScanner();
      const text = await this.step('decide', task, attempt > 0, required ? 'required' : 'allowed', names, (t) => {
        // Reasoning first (a thinking model): nothing in it is shown, and a JSON object in it
        // does not end the stream.
        const answer = stripReasoning(t);
        if (reader) this.showInline(reader.push(answer));
        return scanner.push(answer);
      });
      const env = parseEnvelope(text, { toolNames: names, allowRespond: !required });
      if (env.kind === 'respond') {
        // A reply cut off before its JSON closed (the decide step's small output cap, a stream
        // that ended early) must not become the final reply, cut mid-word: the reply step
        // writes it whole instead (its text shown so far is reset).
        const whole = env.reply === undefined || hasCompleteObject(text);
        return { kind: 'reply', inline: whole ? env.reply : undefined, envelope: whole ? extractJson(text)?.value : undefined };
      }
      if (env.kind === 'call') {
        const tool = enabled.find((t) => t.name === env.tool) as AgentTool;
        const checked = checkArguments(tool, env.argCandidates);
        if (checked.ok) return { kind: 'call', tool, args: checked.args };
        problem = checked.problem;
        knownTool = tool;
        knownArgs = checked.firstArgs;
      } else {
        problem = env.problem;
        if (env.tool) knownTool = enabled.find((t) => t.name === env.tool);
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
      const text = await this.step('toolArguments', task, attempt > 0, 'required', enabled.map((t) => t.name), (t) => scanner.push(t));
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
    const text = await this.step('respond', task, false, 'disallowed', [], (t) => {
      const shown = reader.push(t);
      if (shown !== undefined) this.turn.showText(cleanReplyText(shown, this.labels, false));
      return false;
    }, raw);
    const reply = cleanReplyText(PlainReplyReader.final(text), this.labels, true);
    if (!reply) throw new AgentError('generation_failed', 'The model returned an empty reply; try again.');
    return reply;
  }

  private async structuredStep(schema: JsonSchema, inlineProblem?: { problem: string; previous: string }): Promise<unknown> {
    const { config } = this.turn;
    const usedTools = this.records.length > 0;
    let problem = inlineProblem?.problem ?? '';
    let previous = inlineProblem?.previous ?? '';
    const attempts = inlineProblem ? 1 : (config.repairsInvalidOutput ? 2 : 1);
    for (let attempt = 0; attempt < attempts; attempt++) {
      const isRepair = inlineProblem !== undefined || attempt > 0;
      let task = structuredTask(config.labels, schema, usedTools);
      if (isRepair) task += `\n\n${repairNote(problem, previous)}`;
      let lastPartial = '';
      let seen = 0;
      const scanner = new CompletionScanner();
      const raw = this.setup.tools.length === 0 && this.setup.history.length === 0;
      const text = await this.step('structured', task, isRepair, 'disallowed', [], (t) => {
        // Re-read the partial value only when the new text can change its shape or a string in
        // it (a quote, comma or closing bracket), not on every chunk: reading is linear in the text.
        const fresh = t.slice(seen);
        seen = t.length;
        const partial = /[",}\]]/.test(fresh) || fresh.length > 24 ? extractJson(t) : undefined;
        if (partial) {
          const key = JSON.stringify(partial.value);
          if (key !== lastPartial) {
            lastPartial = key;
            this.turn.emit({ type: 'partial', value: partial.value });
          }
        }
        return scanner.push(t);
      }, raw);
      const found = extractJson(text);
      if (found) {
        const checked = schema.check(found.value);
        if (checked.ok) return checked.value;
        problem = checked.problem;
        // A model that keeps to the decide format wraps the answer: {"reply": {…}}.
        const inner = isPlainObject(found.value) ? inlineReplyOf(found.value) : undefined;
        const unwrapped = inner !== undefined && inner !== found.value ? schema.check(inner) : undefined;
        if (unwrapped && unwrapped.ok) return unwrapped.value;
      } else {
        problem = 'the answer was not JSON';
      }
      previous = text;
    }
    throw new AgentError('generation_failed', `The structured output stayed invalid after a repair attempt: ${problem}.`);
  }

  private async step(
    kind: StepKind,
    task: string,
    isRepair: boolean,
    mode: ToolCallingMode,
    enabledTools: string[],
    onText: (text: string) => boolean,
    raw = false,
  ): Promise<string> {
    const { config, model } = this.turn;
    const t0 = performance.now();
    const built = await buildStepPrompt(
      { kind, history: this.setup.history, current: this.current, contextNote: this.contextNote, task, raw },
      this.stable,
      config,
      model,
      this.setup.counter,
      this.turn.signal,
    );
    const decision = kind === 'decide' || kind === 'toolArguments';
    const req = built.request;
    if (decision) {
      req.temperature = config.decisionTemperature;
      req.maxOutputTokens = config.decisionMaxTokens;
    } else {
      if (config.temperature !== undefined) req.temperature = config.temperature;
      if (config.maxResponseTokens !== undefined) req.maxOutputTokens = config.maxResponseTokens;
    }
    if (config.topK !== undefined) req.topK = config.topK;
    if (config.seed !== undefined) req.seed = config.seed;
    req.turn = {
      prompt: this.input.prompt,
      toolResults: this.records.map((r) => ({ tool: r.call.name, args: r.call.args, output: ToolOutput.render(r.output) })),
    };
    const buildMs = performance.now() - t0;
    const result = await runModelStep(
      this.turn,
      built,
      { kind, isRepair, completedToolRounds: this.rounds, toolCallingMode: mode, enabledTools },
      { onText },
      buildMs,
    );
    return result.text;
  }

  // ---- inline replies -----------------------------------------------------------------------

  private showInline(state: ReturnType<InlineReplyReader['push']>): void {
    if (!this.turn.config.inlineReplies) return;
    if (state.kind === 'reply-text') this.turn.showText(cleanReplyText(state.text, this.labels, false));
    else if (state.kind === 'reply-object') this.turn.emit({ type: 'partial', value: state.value });
  }

  /**
   * Takes the inline reply if it is usable. For a structured turn a small model sometimes drops
   * the wrapper and writes the reply object itself (`{"emotion": …, "line": …}`): that whole
   * envelope counts when it fits the schema, instead of costing a repair.
   */
  private acceptInline(value: unknown, envelope?: unknown): { ok: true; value: unknown } | { ok: false; failure: { problem: string; previous: string } } {
    const schema = this.input.schema;
    if (!schema) {
      if (typeof value !== 'string') return { ok: false, failure: { problem: 'the reply must be text', previous: JSON.stringify(value) } };
      const text = cleanReplyText(value, this.labels, true);
      return text ? { ok: true, value: text } : { ok: false, failure: { problem: 'the reply was empty', previous: '' } };
    }
    const checked = schema.check(value);
    if (checked.ok) return { ok: true, value: checked.value };
    if (isPlainObject(envelope) && envelope !== value) {
      const whole = schema.check(envelope);
      if (whole.ok) return { ok: true, value: whole.value };
    }
    return { ok: false, failure: { problem: checked.problem, previous: JSON.stringify(value) } };
  }

  // ---- tools --------------------------------------------------------------------------------

  private async execute(tool: AgentTool, args: Record<string, unknown>): Promise<ToolRecord> {
    const call: ToolCall = { id: newCallId(), name: tool.name, args };
    const record = await runTool(this.turn, tool, call, this.external);
    this.records.push(record);
    this.current.push({ type: 'toolUse', call, output: record.output });
    this.rounds++;
    this.calls++;
    return record;
  }

  private reject(tool: AgentTool, args: Record<string, unknown>, problem: string): void {
    const call: ToolCall = { id: newCallId(), name: tool.name, args };
    const output = ToolOutput.error(`The call was not made: ${problem}.`);
    const record: ToolRecord = { call, output, durationMs: 0, rejected: true };
    this.records.push(record);
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
    this.current.push(structured ? { type: 'response', text, structured: reply } : { type: 'response', text });
    const response: AgentResponse = {
      text,
      toolCalls: this.records.slice(),
      usage: { ...this.turn.usage },
      steps: this.turn.steps.slice(),
      modelCalls: this.turn.modelCalls,
    };
    if (structured) response.structured = reply;
    return response;
  }
}

/** Coerces and validates argument candidates in order; the first valid one wins. */
function checkArguments(tool: AgentTool, candidates: unknown[]):
  { ok: true; args: Record<string, unknown> } | { ok: false; problem: string; firstArgs: Record<string, unknown> } {
  const list = candidates.length > 0 ? candidates : [{}];
  let firstProblem = '';
  for (const c of list) {
    const checked = tool.parameters.check(c);
    if (checked.ok) return { ok: true, args: (checked.value ?? {}) as Record<string, unknown> };
    if (!firstProblem) firstProblem = checked.problem;
  }
  const first = list[0];
  const firstArgs = first && typeof first === 'object' && !Array.isArray(first) ? (first as Record<string, unknown>) : {};
  return { ok: false, problem: `the arguments for ${tool.name} are invalid: ${firstProblem}`, firstArgs };
}
