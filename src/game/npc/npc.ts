/**
 * A talking character: persona, memory, tools and world access over one Agent. Its turns run
 * one at a time; a turn that fails, falls back or is cancelled leaves history and memory as
 * they were.
 */
import { AgentError } from '../../contract/errors';
import type { SignalLike } from '../../contract/abort';
import {
  Agent,
  validateToolChoice,
  validateToolClock,
  type AgentRun,
  type ToolChoice,
  type ToolClock,
} from '../../core/agent';
import type { AgentTool, ToolApproval } from '../../core/tools';
import type { JsonSchema } from '../../core/schema';
import { Priority, type LanguageModel } from '../../contract/language-model';
import { checkImageInput } from '../../contract/image-input';
import { isSameCharacter, parsePersona, type NormalizedPersona, type Persona } from '../persona';
import { currentStage, type NormalizedStage } from './stage-parts';
import { MemoryStage, NPCMemory } from '../memory';
import type { WorldState } from '../world';
import type { DialogueTurn } from './dialogue';
import { DialogueStream } from './dialogue-stream';
import { LineTracker } from './line-tracker';
import { resolveNPCOptions, DEFAULT_FALLBACK_LINES, type NPCOptions, type ResolvedNPCOptions } from './npc-options';
import { barkLine, type BarkOptions } from './bark';
import type { NPCConfig, NPCRestoreConfig, TalkOptions } from './npc-config';
import { NPC_SAVE_VERSION, readSaveState, type NPCSaveState } from './save-state';
import { buildNPCSetup, type NPCSetupParts } from './npc-setup';
import { TurnReply } from './turn-reply';
import { translateEvents } from './turn-events';
import { renderTurnNote } from './turn-note';
import { BackgroundSummary } from './background-summary';

export type { NPCConfig, NPCRestoreConfig, TalkOptions };

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
  private readonly summary = new BackgroundSummary((signal, priority) => this.compact(signal, priority));
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
      choice = this.checkTalk(options);
    } catch (error) {
      return DialogueStream.refused(AgentError.from(error));
    }
    // A relationship that crossed into another stage since the last setup: that stage's prefix.
    this.refreshStage();
    // This turn's settings, as they are now: a later setOptions() is for the turns after it.
    const persona = this._persona;
    const settings = this.options;
    const reply = new TurnReply(settings, persona);
    // Whether the turn has started: only then does the stage hold its changes.
    let started = false;
    const run = this.agent.run(
      typeof playerLine === 'string' ? playerLine.trim() || '(The player says nothing.)' : playerLine,
      {
        schema: reply.first === 'structured' ? this.replySchema : undefined,
        toolChoice: choice,
        // Read when the turn starts (the memory then), with this turn's settings.
        context: () => reply.keepNote(this.turnNote({ settings, persona, situation: options.situation })),
        signal: options.signal,
        images: options.image !== undefined ? [options.image] : undefined,
        externalTools: options.externalTools,
        accept: reply.accept(reply.first),
        onStart: () => {
          started = true;
          this.stage.discard();
        },
        retry: (failure) => reply.retry(failure),
        fallback: (failure) => {
          if (!reply.mayFallBack(failure)) return undefined;
          this.stage.discard();
          return reply.fallBackTo(this.nextFallbackLine(settings, persona));
        },
        onCommit: () => this.stage.commit(this.memory),
      },
    );
    return this.dialogueOf(run, { reply, started: () => started });
  }

  /** The turn's run as the game sees it: the player's events, then the finished DialogueTurn or the error. */
  private dialogueOf(run: AgentRun, turn: { reply: TurnReply; started: () => boolean }): DialogueStream {
    const { reply } = turn;
    const stream = DialogueStream.over(run);
    const tracker = new LineTracker(reply.names, (event) => stream.emit(event));
    translateEvents({
      run,
      stream,
      tracker,
      reading: () => reply.reading,
      emotions: reply.settings.emotions,
      defaultEmotion: reply.persona.defaultEmotion,
    });
    run.on('stepFinished', (event) => reply.noteOutput(event.output));
    run.on('completed', ({ response }) => {
      const finished = reply.finished;
      tracker.setEmotion(finished.emotion);
      tracker.finish(finished.line);
      const done = reply.turnOf(response, this.memory.relationship);
      stream.complete(done, { type: 'completed', turn: done });
      if (!response.isFallback) this.summary.afterTurn(this.options, this.agent.turnCount);
    });
    run.on('error', (error) => {
      // The stage holds the running turn's changes: only this turn's own failure may clear it,
      // not a turn refused or cancelled while it waited in the queue.
      if (turn.started()) this.stage.discard();
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
    const built = buildNPCSetup(parts, {
      world: this.world,
      stage: this.stage,
      memory: this.memory,
      toolClock: this.toolClock,
      approveToolCall: this.approveToolCall,
    });
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

  /** What only the NPC can check of a turn before it is queued; returns the turn's tool choice. */
  private checkTalk(options: TalkOptions): ToolChoice {
    if (options.situation !== undefined && typeof options.situation !== 'string')
      throw new AgentError('invalid_request', 'situation must be a string.');
    if (options.image !== undefined) checkImageInput(options.image, 'image');
    return this.turnChoice(options.toolChoice);
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

  /** Memory, world summary and situation: the part of the prompt that changes every turn. */
  private turnNote(turn: { settings: ResolvedNPCOptions; persona: NormalizedPersona; situation?: string }): string {
    return renderTurnNote({
      memory: this.memory.snapshot(),
      world: this.worldSummary(turn.settings),
      options: turn.settings,
      persona: turn.persona,
      situation: turn.situation,
    });
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
    await this.summary.settled();
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
    this.summary.cancel(`${this._persona.name} was closed.`);
  }
}

export type { BarkOptions };
