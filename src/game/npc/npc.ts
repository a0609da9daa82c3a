/**
 * A talking character: persona, memory, tools and world access over one Agent. Its turns run
 * one at a time; a turn that fails, falls back or is cancelled leaves history and memory as
 * they were.
 */
import { AgentError, type AgentErrorCode } from '../../contract/errors';
import { Canceller, type SignalLike } from '../../contract/abort';
import {
  Agent,
  createAgentSetup,
  validateToolChoice,
  validateToolClock,
  type AgentResponse,
  type AgentRun,
  type AgentSetup,
  type ExternalToolHandler,
  type ToolChoice,
  type ToolClock,
} from '../../core/agent';
import { AgentTool, type ToolApproval } from '../../core/tools';
import type { JsonSchema } from '../../core/schema';
import { Priority, type LanguageModel } from '../../contract/language-model';
import { checkImageInput, type ImageInput } from '../../contract/image-input';
import { parseEmotionTag, isEmotionTagPending, type Emotion } from '../emotion';
import { isSameCharacter, normalizePersona, parsePersona, type NormalizedPersona, type Persona } from '../persona';
import { currentStage, npcCharacterInstructions, unlockedSecrets, type NormalizedStage } from './stage-parts';
import { MemoryStage, NPCMemory, renderMemoryNote, type NPCMemoryState } from '../memory';
import type { WorldState } from '../world';
import { npcInstructionRules, npcToolSet } from './agent-parts';
import type { DialogueTurn } from './dialogue';
import { DialogueStream } from './dialogue-stream';
import { LineTracker } from './line-tracker';
import { resolveNPCOptions, DEFAULT_FALLBACK_LINES, type NPCOptions, type ResolvedNPCOptions } from './npc-options';
import { NPC_LINE_FIELD, npcReplySchema, readStructuredReply, type ParsedReply } from './reply-format';
import { barkLine, type BarkOptions } from './bark';
import { readTextReply, retriesAsText, spokenLineOf, textRetryNote } from './text-reply';
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
  /**
   * What tool timeouts count (default wall time); the Cocos components pass engine time, which
   * stops while the game is paused.
   */
  toolClock?: ToolClock;
  /**
   * Looks at every call the NPC's model chose before it runs, after the tool's own `approve`:
   * allow, change the arguments, or refuse with a reason the NPC reads (no more gold than the
   * player has). A component passes one that asks the game through an engine event.
   */
  approveToolCall?: ToolApproval;
}

/** How restore() treats the persona. */
export interface NPCRestoreConfig extends Omit<NPCConfig, 'persona' | 'memory' | 'transcript'> {
  /**
   * The persona the NPC is now (a game's current persona asset): the save gives only memory and
   * conversation. Left out, the save's own persona is used.
   */
  persona?: Persona | unknown;
  /** Take the memory and conversation of a save made by a character of another name. Default false: refused. */
  acceptOtherPersona?: boolean;
}

export interface TalkOptions {
  /** What is happening now; shown to the model for this turn only. */
  situation?: string;
  /** A picture the player shows with the line (a drawn badge), for a model that takes images. */
  image?: ImageInput;
  toolChoice?: ToolChoice;
  signal?: SignalLike;
  /** Answers external tool calls (otherwise answer them through the stream's events). */
  externalTools?: ExternalToolHandler;
}

/** Programmer errors and cancels are thrown; everything else becomes a fallback line. */
const NEVER_FALLBACK = new Set<AgentErrorCode>([
  'cancelled',
  'invalid_request',
  'invalid_schema',
  'context_size_exceeded',
]);

/** What `buildSetup` checks together: nothing of it is applied unless all of it is valid. */
interface NPCSetupParts {
  persona: Persona;
  options: ResolvedNPCOptions;
  tools: AgentTool[];
}

/** How one try of a turn is read: as the structured reply, or as emotion-tagged text. */
type ReplyReading = 'structured' | 'text';

export class NPC {
  readonly model: LanguageModel;
  readonly memory: NPCMemory;
  private _persona!: NormalizedPersona;
  private rawPersona!: Persona;
  private options!: ResolvedNPCOptions;
  private gameTools: AgentTool[] = [];
  private readonly world?: WorldState;
  private readonly toolClock?: ToolClock;
  private readonly approveToolCall?: ToolApproval;
  /** The NPC's turns are this agent's turns: one queue, one event stream, one place that counts. */
  private readonly agent: Agent;
  private readonly stage: MemoryStage;
  private replySchema!: JsonSchema;
  /** The relationship stage the setup's prefix was rendered for (-1: none). */
  private builtStage = -1;
  private background: Promise<unknown> = Promise.resolve();
  /** The background compaction queued or running (one at a time; an overdue one replaces it at a higher priority). */
  private compaction: { priority: number; canceller: Canceller } | undefined;
  private fallbackIndex = 0;

  constructor(config: NPCConfig) {
    this.model = config.model;
    this.world = config.world;
    validateToolClock(config.toolClock);
    this.toolClock = config.toolClock;
    if (config.approveToolCall !== undefined && typeof config.approveToolCall !== 'function')
      throw new AgentError('invalid_request', 'approveToolCall must be a function (call, { signal }) => verdict.');
    this.approveToolCall = config.approveToolCall;
    this.memory = new NPCMemory(config.memory);
    const options = resolveNPCOptions(config.options);
    this.stage = new MemoryStage({ maxFacts: options.maxFacts });
    this.agent = new Agent(this.model, { transcript: config.transcript });
    this.apply({ persona: parsePersona(config.persona), options, tools: (config.tools ?? []).slice() });
  }

  /**
   * Rebuilds an NPC from `saveState()`; tools, world and options are code, so pass them again.
   * With `persona`, the NPC is that persona and the save must be of the same character (its
   * name, compared by isSameCharacter; the rest of the saved persona is not read), unless
   * `acceptOtherPersona`: a save restored into the wrong NPC is refused, not silently turned
   * into another character.
   */
  static restore(saved: unknown, config: NPCRestoreConfig): NPC {
    const { persona: current, acceptOtherPersona, ...rest } = config;
    const state = readSaveState(saved, { nameOnly: current !== undefined });
    if (current === undefined)
      return new NPC({ ...rest, persona: state.persona, memory: state.memory, transcript: state.transcript });
    const persona = parsePersona(current);
    const savedName = state.persona.name.trim();
    const name = persona.name.trim();
    if (!isSameCharacter(savedName, name) && acceptOtherPersona !== true) {
      throw new AgentError(
        'invalid_request',
        `This save is of ${JSON.stringify(savedName)}, not ${JSON.stringify(name)}; restore it into ${JSON.stringify(savedName)}'s NPC, or pass acceptOtherPersona to give ${JSON.stringify(name)} its memory and conversation.`,
      );
    }
    return new NPC({ ...rest, persona, memory: state.memory, transcript: state.transcript });
  }

  // ---- talking ------------------------------------------------------------------------------

  /** One turn: the NPC's line, emotion and the rest, once it is finished. */
  talk(playerLine: string, options: TalkOptions = {}): Promise<DialogueTurn> {
    return this.talkStream(playerLine, options).turn();
  }

  /**
   * One turn as a stream of events (emotion, line deltas, tool calls, completed). The turn is one
   * agent run whose tries are the reply format's: structured, then (automatic) plain text with
   * tools off, then an authored fallback line; the run commits the first reply with words.
   */
  talkStream(playerLine: string, options: TalkOptions = {}): DialogueStream {
    let choice: ToolChoice;
    try {
      if (options.situation !== undefined && typeof options.situation !== 'string')
        throw new AgentError('invalid_request', 'situation must be a string.');
      if (options.image !== undefined) checkImageInput(options.image, 'image');
      choice = this.turnChoice(options.toolChoice);
    } catch (error) {
      return DialogueStream.refused(AgentError.from(error));
    }
    // A relationship that crossed into another stage since the last setup: that stage's prefix.
    this.refreshStage();
    // This turn's settings, as they are now: a later setOptions() is for the turns after it.
    const persona = this._persona;
    const settings = this.options;
    const names = [persona.name, 'Assistant'];
    const readings: ReplyReading[] = [settings.replyFormat === 'text' ? 'text' : 'structured'];
    let reply: ParsedReply | undefined;
    // The model's own last answer: the agent unwraps a plain reply for the player, but an
    // `{"emotion", "line"}` object in it still tells the NPC how it feels.
    let lastOutput = '';
    let note = '';
    let started = false;
    // A reply without words is rejected before the agent commits it, so a retry or a fallback
    // leaves the history as it was.
    const readReply = (reading: ReplyReading) => (response: AgentResponse) => {
      reply =
        reading === 'structured'
          ? readStructuredReply({
              value: response.structured,
              options: settings,
              names,
              defaultEmotion: persona.defaultEmotion,
            })
          : readTextReply({
              text: response.text,
              modelOutput: lastOutput,
              options: settings,
              names,
              defaultEmotion: persona.defaultEmotion,
            });
    };
    const run = this.agent.run(
      typeof playerLine === 'string' ? playerLine.trim() || '(The player says nothing.)' : playerLine,
      {
        schema: readings[0] === 'structured' ? this.replySchema : undefined,
        toolChoice: choice,
        // Read when the turn starts (the memory then), with this turn's settings.
        context: () => (note = this.turnNote({ settings, persona, situation: options.situation })),
        signal: options.signal,
        images: options.image !== undefined ? [options.image] : undefined,
        externalTools: options.externalTools,
        accept: readReply(readings[0]),
        onStart: () => {
          started = true;
          this.stage.discard();
        },
        retry: (failure) => {
          if (settings.replyFormat !== 'automatic' || failure.attempt > 0 || !retriesAsText(failure.error))
            return undefined;
          // One more try as emotion-tagged text with tools off; tools that already ran are passed
          // in as facts so their side effects are not repeated.
          readings.push('text');
          return {
            toolChoice: 'none',
            context: [note, textRetryNote(failure.toolCalls, settings.emotions)].filter(Boolean).join('\n\n'),
            accept: readReply('text'),
          };
        },
        fallback: (failure) => {
          if (!settings.fallbackOnFailure || NEVER_FALLBACK.has(failure.error.code) || failure.error.unexpected)
            return undefined;
          this.stage.discard();
          const line = this.nextFallbackLine(settings, persona);
          reply = { line, emotion: persona.defaultEmotion, playerOptions: [], endsConversation: false };
          return { text: line };
        },
        onCommit: () => this.stage.commit(this.memory),
      },
    );
    const stream = DialogueStream.over(run);
    const tracker = new LineTracker(names, (event) => stream.emit(event));
    this.translateEvents({ run, stream, tracker, reading: () => readings[readings.length - 1], settings });
    run.on('stepFinished', (event) => {
      lastOutput = event.output;
    });
    run.on('completed', ({ response }) => {
      const finished = reply as ParsedReply;
      tracker.setEmotion(finished.emotion);
      tracker.finish(finished.line);
      const turn: DialogueTurn = {
        line: finished.line,
        emotion: finished.emotion,
        playerOptions: finished.playerOptions,
        endsConversation: finished.endsConversation,
        toolCalls: response.toolCalls,
        relationship: this.memory.relationship,
        isFallback: response.isFallback === true,
        usage: response.usage,
        modelCalls: response.modelCalls,
      };
      stream.complete(turn, { type: 'completed', turn });
      if (!response.isFallback) this.maybeCompact();
    });
    run.on('error', (error) => {
      // The stage holds the running turn's changes: only this turn's own failure may clear it,
      // not a turn refused or cancelled while it waited in the queue.
      if (started) this.stage.discard();
      stream.fail(error);
    });
    return stream;
  }

  /** A one-line ambient remark (no history, memory, tools or secrets). */
  bark(situation: string, options: BarkOptions = {}): Promise<string> {
    if (typeof situation !== 'string' || !situation.trim()) {
      return Promise.reject(new AgentError('invalid_request', 'bark() needs a situation (what is happening).'));
    }
    return barkLine({
      model: this.model,
      persona: this.rawPersona,
      options: this.options,
      situation,
      worldSummary: this.worldSummary(this.options),
      bark: options,
    });
  }

  get isTalking(): boolean {
    return this.agent.isResponding;
  }

  get turnCount(): number {
    return this.agent.turnCount;
  }

  get persona(): NormalizedPersona {
    return this._persona;
  }

  /** The persona's relationship stage the relationship is in now, or undefined (no stages, or in none). */
  get relationshipStage(): NormalizedStage | undefined {
    return currentStage(this._persona, this.memory.relationship);
  }

  /** The authored first line for the relationship now: the stage's greeting, else the persona's. */
  get greeting(): string {
    const stage = this.relationshipStage;
    return (stage && stage.greeting) || this._persona.greeting;
  }

  /** The conversation so far (completed turns). */
  get history() {
    return this.agent.history;
  }

  // ---- set-up -------------------------------------------------------------------------------

  setPersona(persona: Persona | unknown): void {
    this.apply({ persona: parsePersona(persona), options: this.options, tools: this.gameTools });
  }

  setOptions(options: NPCOptions): void {
    this.apply({ persona: this.rawPersona, options: resolveNPCOptions(options), tools: this.gameTools });
  }

  setTools(tools: AgentTool[]): void {
    this.apply({ persona: this.rawPersona, options: this.options, tools: tools.slice() });
  }

  /** Checks the whole set-up first, then makes it the NPC's: a refused change changes nothing. */
  private apply(parts: NPCSetupParts): void {
    const built = this.buildSetup(parts);
    this.rawPersona = parts.persona;
    this._persona = built.persona;
    this.options = parts.options;
    this.gameTools = parts.tools;
    this.replySchema = built.replySchema;
    this.builtStage = built.stageIndex;
    this.agent.replaceSetup(built.setup);
  }

  /** Rebuilds the setup (same parts, already checked) when the relationship is in another stage now. */
  private refreshStage(): void {
    const stage = currentStage(this._persona, this.memory.relationship);
    const index = stage ? this._persona.stages.indexOf(stage) : -1;
    if (index !== this.builtStage)
      this.apply({ persona: this.rawPersona, options: this.options, tools: this.gameTools });
  }

  /** The agent setup of an NPC: its instructions, every tool it has, and all its settings from the defaults. */
  private buildSetup({ persona: raw, options, tools: gameTools }: NPCSetupParts): {
    setup: AgentSetup;
    persona: NormalizedPersona;
    replySchema: JsonSchema;
    stageIndex: number;
  } {
    const persona = normalizePersona(raw);
    const tools = npcToolSet({
      gameTools,
      world: this.world,
      options,
      stage: this.stage,
      memory: () => this.memory.snapshot(),
    });
    const character = npcCharacterInstructions({
      persona: raw,
      rules: npcInstructionRules(options, tools),
      options,
      relationship: this.memory.relationship,
    });
    const instructions = character.text;
    const setup = createAgentSetup({
      instructions,
      tools,
      config: {
        labels: { user: 'Player', assistant: labelOf(persona.name) },
        inlineReplies: options.inlineReplies,
        replyLineField: NPC_LINE_FIELD,
        toolPolicy: {
          choice: options.toolChoice,
          maxToolRounds: options.maxToolRounds,
          maxToolCalls: options.maxToolCalls,
        },
        structuredReplyRenderer: spokenLineOf,
        temperature: options.temperature,
        maxResponseTokens: options.maxResponseTokens,
        toolTimeoutMs: options.toolTimeoutMs,
        externalToolTimeoutMs: options.externalToolTimeoutMs,
        toolClock: this.toolClock,
        approveToolCall: this.approveToolCall,
        priority: options.priority,
        label: persona.name,
      },
    });
    return {
      setup,
      persona,
      replySchema: npcReplySchema(options, persona.maxSentences),
      stageIndex: character.stageIndex,
    };
  }

  private turnChoice(perTurn?: ToolChoice): ToolChoice {
    const tools = this.agent.tools;
    if (perTurn !== undefined) {
      const choice = validateToolChoice(perTurn);
      if (typeof choice === 'object' && !tools.some((tool) => tool.name === choice.tool)) {
        throw new AgentError(
          'invalid_request',
          `toolChoice names "${choice.tool}", which is not one of ${this._persona.name}'s tools (${tools.map((tool) => tool.name).join(', ') || 'none'}).`,
        );
      }
      return choice;
    }
    if (this.options.groundingTool) return { tool: this.options.groundingTool };
    return tools.length > 0 ? this.options.toolChoice : 'none';
  }

  // ---- one turn -----------------------------------------------------------------------------

  /** The agent run's events as the player sees them: tool calls as they are, the reply as a line and an emotion. */
  private translateEvents(parts: {
    run: AgentRun;
    stream: DialogueStream;
    tracker: LineTracker;
    reading: () => ReplyReading;
    settings: ResolvedNPCOptions;
  }): void {
    const { run, stream, tracker, reading, settings } = parts;
    run.on('step', (event) => stream.emit({ type: 'modelStep', step: event.step, request: event.request }));
    run.on('stepFinished', (event) =>
      stream.emit({ type: 'modelStepFinished', step: event.step, output: event.output, usage: event.usage }),
    );
    run.on('toolStarted', (event) => stream.emit({ type: 'toolCall', call: event.call }));
    run.on('toolRequested', (event) => stream.emit({ type: 'externalToolCall', call: event.call }));
    run.on('toolCompleted', (event) => stream.emit({ type: 'toolResult', record: event.record }));
    run.on('attempt', () => tracker.reset());
    run.on('fallback', (event) => {
      stream.emit({ type: 'fallback', reason: event.reason });
      tracker.reset();
    });
    const defaultEmotion = this._persona.defaultEmotion;
    run.on('partial', (event) => {
      const value = event.value as { emotion?: unknown; line?: unknown } | null;
      if (reading() !== 'structured' || !value || typeof value !== 'object') return;
      // The emotion is complete once the model has moved on to the line.
      if (typeof value.line === 'string') {
        if (typeof value.emotion === 'string')
          tracker.setEmotion(
            parseEmotionTag(`[${value.emotion}]`, settings.emotions, defaultEmotion).emotion as Emotion,
          );
        tracker.setRawLine(value.line);
      }
    });
    run.on('text', (event) => {
      if (reading() !== 'text') return;
      if (event.isReset && event.text === '') return tracker.reset();
      if (isEmotionTagPending(event.text)) return;
      if (event.text.trim().charAt(0) === '{') return; // a JSON answer: shown once read, never as raw JSON
      const tag = parseEmotionTag(event.text, settings.emotions, defaultEmotion);
      if (tag.emotion) tracker.setEmotion(tag.emotion);
      tracker.setRawLine(tag.emotion ? tag.rest : event.text);
    });
  }

  /** Memory, world summary and situation: the part of the prompt that changes every turn. */
  private turnNote(turn: { settings: ResolvedNPCOptions; persona: NormalizedPersona; situation?: string }): string {
    const { settings: options, persona, situation } = turn;
    const state = this.memory.snapshot();
    const unlocked = unlockedSecrets({ persona, options, relationship: state.relationship });
    const parts = [
      renderMemoryNote(state, {
        showRelationship: options.memoryTools.relationship || state.relationship !== 0,
        secretsUnlocked: unlocked,
      }),
    ];
    const world = this.worldSummary(options);
    if (world) parts.push(`Game state:\n${world}`);
    if (situation && situation.trim()) parts.push(`Situation: ${situation.trim()}`);
    return parts.filter(Boolean).join('\n');
  }

  private worldSummary(options: ResolvedNPCOptions): string {
    if (!this.world || options.worldContextPaths.length === 0) return '';
    return this.world.summary(options.worldContextPaths);
  }

  /** The next authored line of the turn's settings, then the persona's, then the built-in ones. */
  private nextFallbackLine(settings: ResolvedNPCOptions, persona: NormalizedPersona): string {
    const lines =
      settings.fallbackLines.length > 0
        ? settings.fallbackLines
        : persona.fallbackLines.length > 0
          ? persona.fallbackLines
          : DEFAULT_FALLBACK_LINES;
    const line = lines[this.fallbackIndex % lines.length];
    this.fallbackIndex++;
    return line;
  }

  // ---- compaction ---------------------------------------------------------------------------

  private maybeCompact(): void {
    const options = this.options;
    if (options.compactAfterTurns === 0) return;
    const due = Math.max(options.compactAfterTurns, options.keepRecentTurns + 1);
    const turns = this.agent.turnCount;
    if (turns < due) return;
    // In the background, so the player's next turn never waits for the summary. A summary
    // overdue by a whole interval goes at the NPC's own priority instead: at background
    // priority it would wait behind every conversation turn of a busy game forever, and the
    // history (and every prompt) would keep growing.
    const priority = turns >= due + options.compactAfterTurns ? options.priority : Priority.background;
    const queued = this.compaction;
    if (queued && queued.priority >= priority) return; // one at a time
    if (queued)
      queued.canceller.abort(new AgentError('cancelled', 'The summary was queued again at a higher priority.'));
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
    await this.agent.waitUntilIdle();
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

  /** Cancels running and queued turns and the background summary; the NPC takes no more. */
  close(): void {
    this.agent.close(`${this._persona.name} was closed.`);
    // A summary waiting for a quiet moment would otherwise still cost a call (and keep a timer).
    this.compaction?.canceller.abort(new AgentError('cancelled', `${this._persona.name} was closed.`));
  }
}

function labelOf(name: string): string {
  const clean = name
    .replace(/[:\n\r]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean || 'NPC';
}

export type { BarkOptions };
