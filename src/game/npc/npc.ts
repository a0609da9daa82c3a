/**
 * A talking character: persona, memory, tools and world access over one Agent. Its turns run
 * one at a time; a turn that fails, falls back or is cancelled leaves history and memory as
 * they were.
 */
import { AgentError, isFromBackend, type AgentErrorCode } from '../../contract/errors';
import { Canceller, type SignalLike } from '../../contract/abort';
import { Agent, splitTurns, type AgentRun, type ExternalToolHandler, type ToolChoice, type ToolRecord } from '../../core/agent';
import { validateToolChoice } from '../../core/agent/config';
import { AgentTool, ToolOutput } from '../../core/tools';
import type { JsonSchema } from '../../core/schema';
import { generateText, Priority, type LanguageModel, type TokenUsage } from '../../contract/language-model';
import { extractJson, isPlainObject } from '../../core/json/extract';
import { parseEmotionTag, isEmotionTagPending, type Emotion } from '../emotion';
import { normalizePersona, parsePersona, renderPersonaInstructions, cleanLine, type NormalizedPersona, type Persona } from '../persona';
import { MemoryStage, memoryTools, MEMORY_TOOL_NAMES, NPCMemory, renderMemoryNote, type NPCMemoryState } from '../memory';
import { worldStateTools, READ_WORLD_STATE_TOOL, UPDATE_WORLD_STATE_TOOL, type WorldState } from '../world';
import type { DialogueTurn } from './dialogue';
import { DialogueStream } from './dialogue-stream';
import { TurnQueue } from '../../core/agent/turn-queue';
import { LineTracker } from './line-tracker';
import { resolveNPCOptions, DEFAULT_FALLBACK_LINES, type NPCOptions, type ResolvedNPCOptions } from './npc-options';
import { NPC_LINE_FIELD, npcReplySchema, readStructuredReply, textFormatRule, type ParsedReply } from './reply-format';
import { barkLine, type BarkOptions } from './bark';
import { NPC_SAVE_VERSION, readSaveState, type NPCSaveState } from './save-state';

export interface NPCConfig {
  persona: Persona | unknown;
  model: LanguageModel;
  /** The game's tools (local handlers or external, answered by the game). */
  tools?: AgentTool[];
  world?: WorldState;
  options?: NPCOptions;
  /** Restored memory (from a save). */
  memory?: NPCMemoryState;
  /** Restored transcript (from a save). */
  transcript?: unknown;
}

export interface TalkOptions {
  /** What is happening now; shown to the model for this turn only. */
  situation?: string;
  toolChoice?: ToolChoice;
  signal?: SignalLike;
  /** Answers external tool calls (otherwise answer them through the stream's events). */
  externalTools?: ExternalToolHandler;
}

const BUILT_IN_TOOLS = [READ_WORLD_STATE_TOOL, UPDATE_WORLD_STATE_TOOL, ...MEMORY_TOOL_NAMES];
/** Content problems worth one more try as plain text with tools off. */
const RETRY_AS_TEXT = new Set<AgentErrorCode>(['guardrail_violation', 'refusal', 'generation_failed']);
/** Programmer errors and cancels are thrown; everything else becomes a fallback line. */
const NEVER_FALLBACK = new Set<AgentErrorCode>(['cancelled', 'invalid_request', 'invalid_schema', 'context_size_exceeded']);

export class NPC {
  readonly model: LanguageModel;
  readonly memory: NPCMemory;
  private _persona: NormalizedPersona;
  private rawPersona: Persona;
  private options: ResolvedNPCOptions;
  private gameTools: AgentTool[];
  private readonly world?: WorldState;
  private readonly agent: Agent;
  private readonly stage: MemoryStage;
  private replySchema!: JsonSchema;
  private readonly turns = new TurnQueue();
  private background: Promise<unknown> = Promise.resolve();
  /** The background compaction queued or running (one at a time; an overdue one replaces it at a higher priority). */
  private compaction: { priority: number; canceller: Canceller } | undefined;
  private fallbackIndex = 0;
  private closed = false;

  constructor(config: NPCConfig) {
    this.rawPersona = parsePersona(config.persona);
    this._persona = normalizePersona(this.rawPersona);
    this.model = config.model;
    this.options = resolveNPCOptions(config.options);
    this.world = config.world;
    this.gameTools = (config.tools ?? []).slice();
    this.memory = new NPCMemory(config.memory);
    this.stage = new MemoryStage({ maxFacts: this.options.maxFacts });
    this.agent = new Agent(this.model, { transcript: config.transcript });
    this.applySetup();
  }

  /** Rebuilds an NPC from `saveState()`; tools, world and options are code, so pass them again. */
  static restore(saved: unknown, config: Omit<NPCConfig, 'persona' | 'memory' | 'transcript'>): NPC {
    const state = readSaveState(saved);
    return new NPC({ ...config, persona: state.persona, memory: state.memory, transcript: state.transcript });
  }

  // ---- talking ------------------------------------------------------------------------------

  /** One turn: the NPC's line, emotion and the rest, once it is finished. */
  talk(playerLine: string, options: TalkOptions = {}): Promise<DialogueTurn> {
    return this.talkStream(playerLine, options).turn();
  }

  /** One turn as a stream of events (emotion, line deltas, tool calls, completed). */
  talkStream(playerLine: string, options: TalkOptions = {}): DialogueStream {
    const stream = new DialogueStream(options.signal);
    let failure: AgentError | undefined;
    let choice: ToolChoice | undefined;
    try {
      if (this.closed) throw new AgentError('invalid_request', `${this._persona.name} was closed.`);
      if (typeof playerLine !== 'string') throw new AgentError('invalid_request', 'talk() needs the player\'s line as a string.');
      if (options.situation !== undefined && typeof options.situation !== 'string') throw new AgentError('invalid_request', 'situation must be a string.');
      choice = this.turnChoice(options.toolChoice);
    } catch (e) {
      failure = AgentError.from(e);
    }
    // A queued turn of a closed NPC is a cancel, not bad input.
    this.turns.add(stream, failure, () => (this.closed
      ? Promise.reject(new AgentError('cancelled', `${this._persona.name} was closed.`))
      : this.runTurn(stream, playerLine, options, choice as ToolChoice).catch((e) => {
        this.stage.discard();
        throw e;
      })));
    return stream;
  }

  /** A one-line ambient remark (no history, memory, tools or secrets). */
  bark(situation: string, options: BarkOptions = {}): Promise<string> {
    if (typeof situation !== 'string' || !situation.trim()) {
      return Promise.reject(new AgentError('invalid_request', 'bark() needs a situation (what is happening).'));
    }
    return barkLine(this.model, this.rawPersona, this.options, situation, this.worldSummary(), options);
  }

  get isTalking(): boolean {
    return this.turns.size > 0;
  }

  get turnCount(): number {
    return this.agent.turnCount;
  }

  get persona(): NormalizedPersona {
    return this._persona;
  }

  /** The conversation so far (completed turns). */
  get history() {
    return this.agent.history;
  }

  // ---- set-up -------------------------------------------------------------------------------

  setPersona(persona: Persona | unknown): void {
    this.rawPersona = parsePersona(persona);
    this._persona = normalizePersona(this.rawPersona);
    this.applySetup();
  }

  setOptions(options: NPCOptions): void {
    const previous = this.options;
    this.options = resolveNPCOptions(options);
    try {
      this.applySetup();
    } catch (e) {
      this.options = previous;
      this.applySetup();
      throw e;
    }
  }

  setTools(tools: AgentTool[]): void {
    const previous = this.gameTools;
    this.gameTools = tools.slice();
    try {
      this.applySetup();
    } catch (e) {
      this.gameTools = previous;
      this.applySetup();
      throw e;
    }
  }

  private applySetup(): void {
    const o = this.options;
    for (const t of this.gameTools) {
      if (BUILT_IN_TOOLS.indexOf(t.name) >= 0) {
        throw new AgentError('invalid_request', `Tool "${t.name}" clashes with a built-in NPC tool (${BUILT_IN_TOOLS.join(', ')}); rename it.`);
      }
    }
    const tools = this.gameTools.slice();
    if (this.world) tools.push(...worldStateTools(this.world, { readable: o.worldReadable, writable: o.worldWritable }));
    // The tools add what this turn staged themselves, so they get the committed memory.
    tools.push(...memoryTools(this.stage, () => this.memory.snapshot(), {
      facts: o.memoryTools.facts,
      relationship: o.memoryTools.relationship,
      maxRelationshipChange: o.maxRelationshipChange,
    }));
    if (o.groundingTool !== undefined && !tools.some((t) => t.name === o.groundingTool)) {
      throw new AgentError('invalid_request', `groundingTool "${o.groundingTool}" is not one of this NPC's tools (${tools.map((t) => t.name).join(', ') || 'none'}).`);
    }
    const p = this._persona;
    const extra = [o.extraInstructions ?? '', o.replyFormat === 'text' ? textFormatRule(o.emotions) : ''].filter(Boolean).join('\n');
    const instructions = renderPersonaInstructions(this.rawPersona, {
      // The check-your-facts rule only when the NPC can look facts up (memory tools cannot).
      usesTools: tools.some((t) => MEMORY_TOOL_NAMES.indexOf(t.name) < 0),
      secretsInPrefix: o.secretsUnlockAtRelationship === null,
      extra: extra || undefined,
    });
    this.replySchema = npcReplySchema(o, p.maxSentences);
    this.agent.setTools(tools);
    this.agent.instructions = instructions;
    this.agent.configure({
      labels: { user: 'Player', assistant: labelOf(p.name) },
      inlineReplies: o.inlineReplies,
      replyLineField: NPC_LINE_FIELD,
      toolPolicy: { choice: o.toolChoice, maxToolRounds: o.maxToolRounds, maxToolCalls: o.maxToolCalls },
      structuredReplyRenderer: (v) => (v && typeof v === 'object' && typeof (v as { line?: unknown }).line === 'string' ? (v as { line: string }).line : JSON.stringify(v)),
      temperature: o.temperature,
      maxResponseTokens: o.maxResponseTokens,
      toolTimeoutMs: o.toolTimeoutMs,
      externalToolTimeoutMs: o.externalToolTimeoutMs,
      priority: o.priority,
      label: p.name,
    });
  }

  private turnChoice(perTurn?: ToolChoice): ToolChoice {
    if (perTurn !== undefined) {
      const c = validateToolChoice(perTurn);
      if (typeof c === 'object' && !this.agent.tools.some((t) => t.name === c.tool)) {
        throw new AgentError('invalid_request', `toolChoice names "${c.tool}", which is not one of ${this._persona.name}'s tools (${this.agent.tools.map((t) => t.name).join(', ') || 'none'}).`);
      }
      return c;
    }
    if (this.options.groundingTool) return { tool: this.options.groundingTool };
    return this.agent.tools.length > 0 ? this.options.toolChoice : 'none';
  }

  // ---- one turn -----------------------------------------------------------------------------

  private async runTurn(stream: DialogueStream, playerLine: string, options: TalkOptions, choice: ToolChoice): Promise<void> {
    this.stage.discard();
    const names = [this._persona.name, 'Assistant'];
    const tracker = new LineTracker(names, (e) => stream.emit(e));
    const records: ToolRecord[] = [];
    const usage: TokenUsage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
    let modelCalls = 0;
    const prompt = playerLine.trim() || '(The player says nothing.)';
    const note = this.turnNote(options.situation);
    const o = this.options;

    const attempt = async (format: 'structured' | 'text', toolChoice: ToolChoice, context: string): Promise<ParsedReply> => {
      tracker.reset();
      let parsed: ParsedReply | undefined;
      // The model's own last answer: the agent unwraps a plain reply for the player, but an
      // `{"emotion", "line"}` object in it still tells the NPC how it feels.
      let lastOutput = '';
      const run = this.agent.run(prompt, {
        schema: format === 'structured' ? this.replySchema : undefined,
        toolChoice,
        context,
        signal: stream.signal,
        externalTools: options.externalTools,
        // A reply without words is rejected before the agent commits it, so a retry or a
        // fallback leaves the history as it was.
        accept: (response) => {
          parsed = format === 'structured'
            ? readStructuredReply(response.structured, o, names, this._persona.defaultEmotion)
            : readTextReply(response.text, lastOutput, o, names, this._persona.defaultEmotion);
        },
      });
      stream.attach(run);
      this.forwardEvents(run, stream, tracker, records, format);
      // Counted from the steps, so failed tries count too.
      run.on('step', () => { modelCalls++; });
      run.on('stepFinished', (e) => {
        lastOutput = e.output;
        usage.inputTokens += e.usage.inputTokens;
        usage.cachedInputTokens += e.usage.cachedInputTokens;
        usage.outputTokens += e.usage.outputTokens;
      });
      try {
        await run.response();
        return parsed as ParsedReply;
      } finally {
        stream.attach(null);
      }
    };

    let reply: ParsedReply | undefined;
    let failure: AgentError | undefined;
    try {
      reply = await attempt(o.replyFormat === 'text' ? 'text' : 'structured', choice, note);
    } catch (e) {
      failure = AgentError.from(e);
    }
    // The text retry is for answers the model could not give in JSON (a refusal, a blocked or
    // unreadable reply); a backend that kept failing after its retries is not asked again, and a
    // bug (an unexpected error) surfaces as itself.
    const retryAsText = failure && RETRY_AS_TEXT.has(failure.code) && !failure.unexpected && !(failure.code === 'generation_failed' && isFromBackend(failure));
    if (failure && o.replyFormat === 'automatic' && retryAsText && !stream.signal.aborted) {
      // One more try as emotion-tagged text with tools off; tools that already ran are passed in
      // as facts so their side effects are not repeated.
      const context = [note, textRetryNote(records, o.emotions)].filter(Boolean).join('\n\n');
      try {
        reply = await attempt('text', 'none', context);
        failure = undefined;
      } catch (e) {
        failure = AgentError.from(e);
      }
    }
    // A reply the agent already committed stands, even if a cancel arrives now.
    if (failure && stream.signal.aborted) throw stream.cancelReason();
    if (failure) {
      if (!o.fallbackOnFailure || NEVER_FALLBACK.has(failure.code) || failure.unexpected) throw failure;
      this.stage.discard();
      stream.emit({ type: 'fallback', reason: failure });
      const line = this.nextFallbackLine();
      tracker.reset();
      tracker.setEmotion(this._persona.defaultEmotion);
      tracker.finish(line);
      const turn: DialogueTurn = {
        line, emotion: this._persona.defaultEmotion, playerOptions: [], endsConversation: false,
        toolCalls: records, relationship: this.memory.relationship, isFallback: true, usage, modelCalls,
      };
      stream.complete(turn, { type: 'completed', turn });
      return;
    }
    const r = reply as ParsedReply;
    this.stage.commit(this.memory);
    tracker.setEmotion(r.emotion);
    tracker.finish(r.line);
    const turn: DialogueTurn = {
      line: r.line, emotion: r.emotion, playerOptions: r.playerOptions, endsConversation: r.endsConversation,
      toolCalls: records, relationship: this.memory.relationship, isFallback: false, usage, modelCalls,
    };
    stream.complete(turn, { type: 'completed', turn });
    this.maybeCompact();
  }

  private forwardEvents(run: AgentRun, stream: DialogueStream, tracker: LineTracker, records: ToolRecord[], format: 'structured' | 'text'): void {
    run.on('step', (e) => stream.emit({ type: 'modelStep', step: e.step, request: e.request }));
    run.on('stepFinished', (e) => stream.emit({ type: 'modelStepFinished', step: e.step, output: e.output, usage: e.usage }));
    run.on('toolStarted', (e) => stream.emit({ type: 'toolCall', call: e.call }));
    run.on('toolRequested', (e) => stream.emit({ type: 'externalToolCall', call: e.call }));
    run.on('toolCompleted', (e) => {
      records.push(e.record);
      stream.emit({ type: 'toolResult', record: e.record });
    });
    const defaultEmotion = this._persona.defaultEmotion;
    const emotions = this.options.emotions;
    if (format === 'structured') {
      run.on('partial', (e) => {
        const v = e.value as { emotion?: unknown; line?: unknown } | null;
        if (!v || typeof v !== 'object') return;
        // The emotion is complete once the model has moved on to the line.
        if (typeof v.line === 'string') {
          if (typeof v.emotion === 'string') tracker.setEmotion(parseEmotionTag(`[${v.emotion}]`, emotions, defaultEmotion).emotion as Emotion);
          tracker.setRawLine(v.line);
        }
      });
    } else {
      run.on('text', (e) => {
        if (e.isReset && e.text === '') return tracker.reset();
        if (isEmotionTagPending(e.text)) return;
        if (e.text.trim().charAt(0) === '{') return; // a JSON answer: shown once read, never as raw JSON
        const tag = parseEmotionTag(e.text, emotions, defaultEmotion);
        if (tag.emotion) tracker.setEmotion(tag.emotion);
        tracker.setRawLine(tag.emotion ? tag.rest : e.text);
      });
    }
  }

  /** Memory, world summary and situation: the part of the prompt that changes every turn. */
  private turnNote(situation?: string): string {
    const o = this.options;
    const state = this.memory.snapshot();
    const unlocked = o.secretsUnlockAtRelationship !== null && state.relationship >= o.secretsUnlockAtRelationship ? this._persona.secrets : [];
    const parts = [renderMemoryNote(state, {
      showRelationship: o.memoryTools.relationship || state.relationship !== 0,
      secretsUnlocked: unlocked,
    })];
    const world = this.worldSummary();
    if (world) parts.push(`Game state:\n${world}`);
    if (situation && situation.trim()) parts.push(`Situation: ${situation.trim()}`);
    return parts.filter(Boolean).join('\n');
  }

  private worldSummary(): string {
    if (!this.world || this.options.worldContextPaths.length === 0) return '';
    return this.world.summary(this.options.worldContextPaths);
  }

  private nextFallbackLine(): string {
    const lines = this.options.fallbackLines.length > 0 ? this.options.fallbackLines
      : this._persona.fallbackLines.length > 0 ? this._persona.fallbackLines : DEFAULT_FALLBACK_LINES;
    const line = lines[this.fallbackIndex % lines.length];
    this.fallbackIndex++;
    return line;
  }

  // ---- compaction ---------------------------------------------------------------------------

  private maybeCompact(): void {
    const o = this.options;
    if (o.compactAfterTurns === 0) return;
    const due = Math.max(o.compactAfterTurns, o.keepRecentTurns + 1);
    const turns = this.agent.turnCount;
    if (turns < due) return;
    // In the background, so the player's next turn never waits for the summary. A summary
    // overdue by a whole interval goes at the NPC's own priority instead: at background
    // priority it would wait behind every conversation turn of a busy game forever, and the
    // history (and every prompt) would keep growing.
    const priority = turns >= due + o.compactAfterTurns ? o.priority : Priority.background;
    const queued = this.compaction;
    if (queued && queued.priority >= priority) return; // one at a time
    if (queued) queued.canceller.abort(new AgentError('cancelled', 'The summary was queued again at a higher priority.'));
    const compaction = { priority, canceller: new Canceller() };
    this.compaction = compaction;
    this.background = this.background
      .then(() => this.compact(compaction.canceller.signal, priority))
      .catch(() => undefined)
      .then(() => {
        if (this.compaction === compaction) this.compaction = undefined;
      });
  }

  /**
   * Folds older turns into the memory summary with one model call. Returns the summary, or null
   * when there is nothing to fold or the history was reset meanwhile; an empty summary rejects
   * with generation_failed and changes nothing.
   */
  async compact(signal?: SignalLike, priority: number = Priority.background): Promise<string | null> {
    const result = await this.agent.summarizeOldTurns({
      keepRecentTurns: this.options.keepRecentTurns,
      earlierSummary: this.memory.summary,
      priority,
      instructions: `Summarise what happened between the player and ${this._persona.name} in at most 60 words, in the third person. Keep names, deals, prices and feelings.`,
      signal,
    });
    // The history may have been reset or restored meanwhile: then the summary is stale.
    if (!result || !this.agent.dropOldestTurns(result.turns, result.epoch)) return null;
    this.memory.summary = result.summary;
    return result.summary;
  }

  // ---- persistence --------------------------------------------------------------------------

  /** One versioned JSON snapshot a game stores in its own save file (a turn in progress is left out). */
  saveState(): NPCSaveState {
    return {
      version: NPC_SAVE_VERSION,
      persona: JSON.parse(JSON.stringify(this.rawPersona)),
      memory: this.memory.snapshot(),
      transcript: this.agent.saveTranscript(),
    };
  }

  /** Waits for running turns and background compaction, then saves. */
  async settledState(): Promise<NPCSaveState> {
    await this.turns.idle();
    await this.background.catch(() => undefined);
    return this.saveState();
  }

  /** Forgets the conversation (and the memory too when asked). */
  async resetConversation(clearMemory = false): Promise<void> {
    await this.agent.reset();
    if (clearMemory) this.memory.forget();
  }

  prewarm(): Promise<void> {
    return this.agent.prewarm({ schema: this.options.replyFormat === 'text' ? undefined : this.replySchema });
  }

  /** Cancels running and queued turns; the NPC takes no more. */
  close(): void {
    this.closed = true;
    this.agent.close();
  }
}

function labelOf(name: string): string {
  const clean = name.replace(/[:\n\r]+/g, ' ').replace(/\s+/g, ' ').trim();
  return clean || 'NPC';
}

function readTextReply(text: string, modelOutput: string, o: ResolvedNPCOptions, names: string[], defaultEmotion: Emotion): ParsedReply {
  // A model primed by the JSON rules in the prefix may still answer the text retry with
  // {"emotion", "line"} (bare or as {"reply": {…}}): read it as such instead of speaking the
  // JSON aloud or losing the emotion.
  const head = modelOutput.trim();
  const json = head.charAt(0) === '{' || head.startsWith('```') ? extractJson(modelOutput) : undefined;
  const object = json && isPlainObject(json.value) ? (isPlainObject(json.value.reply) ? json.value.reply : json.value) : undefined;
  if (object && typeof object.line === 'string') {
    return readStructuredReply(object, { ...o, playerOptionCount: 0, canEndConversation: false }, names, defaultEmotion);
  }
  const tag = parseEmotionTag(text, o.emotions, defaultEmotion);
  const line = cleanLine(tag.rest, names);
  if (!line) throw new AgentError('generation_failed', 'The reply had no words.');
  return { line, emotion: tag.emotion ?? defaultEmotion, playerOptions: [], endsConversation: false };
}

function textRetryNote(records: ToolRecord[], emotions: readonly Emotion[]): string {
  const lines = ['Answer in plain words this time.', textFormatRule(emotions).replace(/^- /, '')];
  const facts = records.filter((r) => !r.rejected).slice(-6)
    .map((r) => `- ${r.call.name}: ${ToolOutput.render(r.output).slice(0, 400)}`);
  if (facts.length > 0) lines.push(`Facts you just looked up:\n${facts.join('\n')}`);
  return lines.join('\n');
}

export type { BarkOptions };
export { BUILT_IN_TOOLS };
