/**
 * A talking character on a node. Fill in the persona and options in the Inspector, call
 * `talk(line)` and listen to the node events below. Turns run one at a time: a talk() made
 * while a turn runs is queued and starts when the previous one ends. Added from code, the NPC
 * is built once the persona is set (at start() or the first call); destroyed, everything in
 * flight ends `cancelled` at the end of the frame, and so does any later call.
 *
 * External tools (declared in the Inspector) reach the game as `npc-external-tool` events;
 * the turn waits for `request.answer(output)` / `request.fail(message)` until the tool's
 * timeout (game time: it stands still while the game is paused), then the NPC replies without
 * it. With no live listener (none added, removed, or its target destroyed) the call is refused
 * at once, and a listener that throws fails the call at once, so the player never waits for
 * nothing. Disabled (the component or its node turned off), the NPC stops: running and queued
 * turns end `cancelled` and talk()/bark() reject until it is enabled again; save() and
 * restore() still work. The full contract: docs/components.md.
 */
import { _decorator, Component, JsonAsset, CCString, CCInteger, Enum } from 'cc';
import {
  NPC,
  AgentTool,
  AgentError,
  Canceller,
  validatePersona,
  formatPersonaProblems,
  npcSetupFromInspector,
  isSameCharacter,
} from '../runtime/oam-core.js';
import type {
  DialogueStream,
  DialogueTurn,
  LanguageModel,
  ToolVerdict,
  NPCInspectorProperties,
  NPCOptions,
  NPCProfileParts,
  NPCSaveState,
  Persona,
  ProfileToolHandler,
  ToolCall,
  WorldState,
} from '../runtime/oam-core.js';
import { OamRuntime } from './OamRuntime';
import { emitSafely, type EmitResult } from './emitSafely';
import { WorldStateStore } from './WorldStateStore';
import { ToolDeclaration } from './ToolDeclaration';
import { isGone, liveState } from './liveState';
import { GAME_TIME_CLOCK } from './gameTimeClock';
import { characterModel, type Answerer } from './characterModel';
import {
  NPC_LINE,
  NPC_EMOTION,
  NPC_TOOL_CALL,
  NPC_TOOL_RESULT,
  NPC_TURN,
  NPC_BARK,
  NPC_FALLBACK,
  NPC_ERROR,
} from './npcEvents';
import type {
  ExternalToolRequest as ExternalToolRequestOf,
  ToolApprovalRequest as ToolApprovalRequestOf,
} from './npcEvents';
import type { NPCRestoreOptions, NPCTalkOptions } from './npcCallOptions';
import { profileSetup } from './profileSetup';
import { askApproval, requestExternal, type GameAsker } from './askTheGame';
import { DEV } from 'cc/env';

const { ccclass, property, menu, disallowMultiple } = _decorator;

export {
  NPC_LINE,
  NPC_EMOTION,
  NPC_TOOL_CALL,
  NPC_EXTERNAL_TOOL,
  NPC_TOOL_RESULT,
  NPC_TURN,
  NPC_BARK,
  NPC_FALLBACK,
  NPC_ERROR,
  NPC_TOOL_APPROVAL,
  NPC_EVENTS,
} from './npcEvents';
export type { NPCLineEvent } from './npcEvents';
/** Payload of `npc-external-tool`: the call and the way to answer it. */
export type ExternalToolRequest = ExternalToolRequestOf<NPCComponent>;
/** Payload of `npc-tool-approval`: allow or refuse a call before it runs. */
export type ToolApprovalRequest = ToolApprovalRequestOf<NPCComponent>;
export type { NPCRestoreOptions, NPCTalkOptions } from './npcCallOptions';

export enum ReplyFormat {
  Automatic,
  Structured,
  Text,
}
Enum(ReplyFormat);

interface NPCLiveState {
  npc: NPC | null;
  problem: AgentError | null;
  built: boolean;
  /** The persona asset the NPC was built from: a different one set later is picked up on next use. */
  builtPersona: JsonAsset | null;
  /** The same for the profile asset. */
  builtProfile: JsonAsset | null;
  destroyed: boolean;
  /** Turned off and confirmed so (see onDisable): no node events until onEnable. */
  off: boolean;
  localTools: AgentTool[];
  /** The tools of the set-up (the Inspector's declarations or the profile's), before registerTool()'s. */
  setupTools: AgentTool[];
  /** Game code a profile's tool names (`"answer": {"handler": …}`). */
  profileHandlers: Record<string, ProfileToolHandler>;
  streams: DialogueStream[];
  barkCancellers: Canceller[];
  /** Who answers this character now (characterModel). */
  answers: () => Answerer;
  /** The same for a set-up being built: it takes over only once its NPC exists. */
  nextAnswers: () => Answerer;
}

const live = liveState<NPCComponent, NPCLiveState>(() => ({
  npc: null,
  problem: null,
  built: false,
  builtPersona: null,
  builtProfile: null,
  destroyed: false,
  off: false,
  localTools: [],
  setupTools: [],
  profileHandlers: {},
  streams: [],
  barkCancellers: [],
  answers: () => OamRuntime.kind,
  nextAnswers: () => OamRuntime.kind,
}));

@ccclass('oam.NPCComponent')
@menu('oam/NPCComponent')
@disallowMultiple
export class NPCComponent extends Component {
  @property({ type: JsonAsset, tooltip: 'The persona (a JSON asset: name, role, personality, goals, secrets…).' })
  persona: JsonAsset | null = null;

  @property({
    type: JsonAsset,
    tooltip:
      'An NPC profile (.npc-profile): persona, tools, world paths and options in one file. When set, the NPC fields below are not read.',
  })
  profile: JsonAsset | null = null;

  @property({
    type: JsonAsset,
    tooltip: 'Lines said where no on-device model is (a line bank, see docs/line-banks.md); shipped builds only.',
  })
  lineBank: JsonAsset | null = null;

  @property({ type: WorldStateStore, tooltip: "The scene's shared state. Without one the NPC has no world tools." })
  worldStore: WorldStateStore | null = null;

  @property({ type: [CCString], tooltip: 'World paths the NPC may read ("" = everything; empty list = no read tool).' })
  worldReadable: string[] = [''];

  @property({ type: [CCString], tooltip: 'World paths the NPC may change (empty = none).' })
  worldWritable: string[] = [];

  @property({ type: [CCString], tooltip: 'World paths summarised into every turn (no tool call needed).' })
  worldContextPaths: string[] = [];

  @property({ tooltip: 'A tool forced on the first step of every turn (e.g. check_menu); empty = none.' })
  groundingTool = '';

  @property({ type: Enum(ReplyFormat), tooltip: 'Automatic: structured, retried as plain text on failure.' })
  replyFormat: ReplyFormat = ReplyFormat.Automatic;

  @property({ tooltip: 'The NPC may remember facts about the player (remember_fact tool).' })
  rememberFacts = false;

  @property({ tooltip: 'The NPC tracks its relationship with the player (change_relationship tool).' })
  trackRelationship = false;

  @property({
    type: CCInteger,
    range: [-100, 100, 1],
    tooltip: 'Secrets stay out of the prompt until the relationship reaches this (−100…100).',
  })
  secretsUnlockAt = 50;

  @property({
    tooltip:
      'Keep the secrets in the prompt from the start, guarded by a rule not to tell (ignores Secrets Unlock At).',
  })
  secretsAlwaysGuarded = false;

  @property({ type: [CCString], tooltip: 'Emotions the NPC may show (empty = all 16).' })
  emotions: string[] = [];

  @property({
    type: CCInteger,
    range: [0, 4, 1],
    tooltip: 'Suggested player replies per turn (each costs about a second on a phone).',
  })
  playerOptionCount = 0;

  @property({ tooltip: 'The NPC may end the conversation.' })
  canEndConversation = true;

  @property({
    type: [CCString],
    tooltip: "Lines used when the model cannot answer (empty = the persona's, then built-in ones).",
  })
  fallbackLines: string[] = [];

  @property({ type: [ToolDeclaration], tooltip: 'Game actions answered through the npc-external-tool event.' })
  externalTools: ToolDeclaration[] = [];

  @property({ multiline: true, tooltip: 'Extra instructions appended to the persona.' })
  extraInstructions = '';

  @property({ type: CCInteger, tooltip: 'How long a turn waits for the game to answer an external tool (ms).' })
  externalToolTimeoutMs = 30000;

  @property({ type: CCInteger, tooltip: 'How long a local tool may run (ms).' })
  toolTimeoutMs = 10000;

  @property({ type: CCInteger, tooltip: "Scheduler priority of this NPC's turns (100 = the one the player talks to)." })
  priority = 100;

  @property({
    tooltip: 'Load the on-device model when the scene starts, so the first reply does not pay the ~2 s cold start.',
  })
  prewarmOnStart = true;

  onLoad(): void {
    // A component added from code runs onLoad before the caller can set the persona: without
    // one, wait for start() or the first talk() to build (and to report what is missing).
    if (this.persona || this.profile) this.rebuild();
  }

  start(): void {
    const npc = this.ready();
    // A warm-up failure only means the first reply is slower: log it, never fail the scene.
    if (this.prewarmOnStart && npc) {
      const name = this.nodeName();
      npc
        .prewarm()
        .catch((error: unknown) =>
          console.warn(
            `[oam] ${name}: the model could not be warmed up (${error instanceof Error ? error.message : String(error)}).`,
          ),
        );
    }
  }

  onEnable(): void {
    live(this).off = false;
  }

  onDisable(): void {
    // A scene change detaches a persist-root node and re-attaches it in the same call (onDisable,
    // then onEnable): only an NPC still off once that call is over is stopped. A turn that
    // completes before then completes, with its npc-turn.
    void Promise.resolve().then(() => {
      const state = live(this);
      if (this.isGone()) this.cancel('The NPC component was destroyed.');
      else if (this.isOff()) {
        state.off = true;
        this.cancel('The NPC was turned off (its component disabled or its node deactivated).');
      }
    });
  }

  onDestroy(): void {
    const state = live(this);
    state.destroyed = true;
    this.cancel('The NPC component was destroyed.');
    if (state.npc) state.npc.close();
    state.npc = null;
  }

  /**
   * Who answers this character right now: the shared model's kind (`gemini-nano`, `chrome-nano`,
   * `stand-in`, …), or in a shipped build without an on-device model its `line-bank` (or
   * `persona`, its own lines). A model that becomes available takes over from the bank.
   */
  get answeredBy(): Answerer {
    return live(this).answers();
  }

  /** The set-up problem (bad persona, bad tool declaration…), or null when the NPC is ready. */
  get setupError(): AgentError | null {
    if (this.isGone()) return this.gone();
    this.ready();
    return live(this).problem;
  }

  /** The core NPC (memory, history…), or null while the set-up is broken. */
  get core(): NPC | null {
    return this.ready();
  }

  get isTalking(): boolean {
    const npc = live(this).npc;
    return npc ? npc.isTalking : false;
  }

  /**
   * Re-reads the Inspector properties (call it after changing them from code; a new persona
   * asset is picked up by itself). Running turns are cancelled; memory and conversation are
   * kept while the persona is the same character (by name), and start fresh for another.
   * Returns false and reports `npc-error` when the set-up is invalid; the component stays
   * usable and talk() rejects until fixed.
   */
  rebuild(): boolean {
    const state = live(this);
    if (this.isGone()) return false;
    const previous = state.npc;
    state.built = true;
    state.builtPersona = this.persona;
    state.builtProfile = this.profile;
    this.cancel('The NPC was rebuilt.');
    const saved = previous ? previous.saveState() : undefined;
    try {
      const parts = this.readProfile();
      // A component given no asset keeps the persona it has (one a save without an asset restored).
      const persona = parts ? parts.persona : !this.persona && saved ? saved.persona : this.readPersona();
      const setup = this.coreSetup(persona, parts);
      // Memory and conversation stay with the character: an updated asset of the same name keeps
      // them, an asset of another character starts fresh (as restore() refuses such a save).
      const kept = saved && isSameCharacter(saved.persona.name, persona.name) ? saved : undefined;
      state.npc = new NPC({
        persona,
        ...setup,
        memory: kept ? kept.memory : parts ? parts.memory : undefined,
        transcript: kept ? kept.transcript : undefined,
      });
      state.answers = state.nextAnswers;
      state.problem = null;
    } catch (error) {
      state.npc = null;
      state.problem = this.named(AgentError.from(error, 'invalid_request'));
      console.error(`[oam] ${state.problem.message}`);
      this.emitNode(NPC_ERROR, state.problem);
    }
    if (previous && previous !== state.npc) previous.close();
    return state.npc !== null;
  }

  /**
   * The game code a profile's tool names (`"answer": {"handler": "open_gate"}`). Register
   * handlers before the NPC is built (in onLoad of a component on the same node, or before
   * setting the profile from code); registering later rebuilds the NPC.
   */
  registerProfileHandler(name: string, handler: ProfileToolHandler): void {
    if (typeof handler !== 'function')
      throw new AgentError('invalid_request', `registerProfileHandler("${name}") needs a function.`);
    const state = live(this);
    state.profileHandlers = { ...state.profileHandlers, [name]: handler };
    if (state.built && this.profile) this.rebuild();
  }

  /** Adds a tool that runs in the game's code (or replaces one of the same name). */
  registerTool(tool: AgentTool): void {
    if (!(tool instanceof AgentTool))
      throw new AgentError(
        'invalid_request',
        'registerTool needs an AgentTool (AgentTool.local(...) or AgentTool.external(...)).',
      );
    this.applyTools(
      live(this)
        .localTools.filter((existing) => existing.name !== tool.name)
        .concat([tool]),
    );
  }

  /** Removes a tool added with registerTool; returns whether it was there. */
  unregisterTool(name: string): boolean {
    const before = live(this).localTools;
    const after = before.filter((existing) => existing.name !== name);
    if (after.length === before.length) return false;
    this.applyTools(after);
    return true;
  }

  /** One turn. Queued behind a running turn; rejects with `cancelled` when cancelled. */
  talk(line: string, options: NPCTalkOptions = {}): Promise<DialogueTurn> {
    if (this.isOff()) return Promise.reject(this.off('talk'));
    const npc = this.ready();
    if (!npc) return this.refuse();
    const stream = npc.talkStream(line, {
      situation: options.situation,
      toolChoice: options.toolChoice,
      image: options.image,
    });
    this.track(stream);
    return stream.turn().catch((reason: unknown) => {
      const error = AgentError.from(reason);
      if (error.code !== 'cancelled') this.emitNode(NPC_ERROR, error);
      throw error;
    });
  }

  /** A one-line ambient remark (no history, memory or tools), also sent as `npc-bark`. */
  bark(situation: string): Promise<string> {
    if (this.isOff()) return Promise.reject(this.off('bark'));
    const npc = this.ready();
    if (!npc) return this.refuse();
    const canceller = new Canceller();
    const barks = live(this).barkCancellers;
    barks.push(canceller);
    const forget = () => {
      const index = barks.indexOf(canceller);
      if (index >= 0) barks.splice(index, 1);
    };
    return npc.bark(situation, { signal: canceller.signal }).then(
      (line) => {
        forget();
        this.emitNode(NPC_BARK, line);
        return line;
      },
      (reason: unknown) => {
        forget();
        const error = AgentError.from(reason);
        if (error.code !== 'cancelled') this.emitNode(NPC_ERROR, error);
        throw error;
      },
    );
  }

  /** Cancels the running turn, the queued ones and barks; nothing of them is kept. */
  cancel(reason?: string): void {
    const state = live(this);
    for (const stream of state.streams.slice()) stream.cancel(reason);
    for (const canceller of state.barkCancellers.splice(0))
      canceller.abort(new AgentError('cancelled', reason || 'The bark was cancelled.'));
  }

  /**
   * Answers an external tool call by id (the same as `request.answer`). False for a call this
   * NPC is not waiting for: unknown, already answered, timed out or cancelled.
   */
  answerTool(callId: string, output: unknown): boolean {
    for (const stream of live(this).streams) {
      if (stream.pendingToolCalls.some((call) => call.id === callId)) return stream.submit(callId, output);
    }
    return false;
  }

  /** The calls waiting for the game's answer right now. */
  get pendingToolCalls(): ToolCall[] {
    const calls: ToolCall[] = [];
    for (const stream of live(this).streams) calls.push(...stream.pendingToolCalls);
    return calls;
  }

  /** One JSON object for the game's save file: persona, memory and conversation (a running turn is left out). */
  save(): NPCSaveState {
    if (this.isGone()) throw this.gone();
    const npc = this.ready();
    if (!npc) throw live(this).problem || new AgentError('invalid_request', 'The NPC is not set up.');
    return npc.saveState();
  }

  /**
   * Restores a save(): its memory and conversation, with the persona of the Inspector's asset
   * (an updated asset in a patched game wins over the saved one; with no asset set, the save's
   * persona is used). A save of a character with another name is refused unless
   * `acceptOtherPersona`. Running turns are cancelled. A bad save throws and keeps the state.
   */
  restore(saved: unknown, options: NPCRestoreOptions = {}): void {
    const state = live(this);
    if (this.isGone()) throw this.gone();
    this.ready();
    let next: NPC;
    try {
      const parts = this.readProfile();
      const persona = parts ? parts.persona : this.persona ? this.readPersona() : undefined;
      const savedPersona = (saved as { persona?: Persona } | null)?.persona;
      next = NPC.restore(saved, {
        ...this.coreSetup((persona ?? savedPersona ?? { name: this.nodeName() }) as Persona, parts),
        persona,
        acceptOtherPersona: options.acceptOtherPersona === true,
      });
    } catch (error) {
      throw this.named(AgentError.from(error, 'invalid_request'));
    }
    this.cancel('The NPC was restored from a save.');
    if (state.npc) state.npc.close();
    state.npc = next;
    state.answers = state.nextAnswers;
    state.problem = null;
    state.built = true;
    state.builtPersona = this.persona;
    state.builtProfile = this.profile;
  }

  // ---- internals ----------------------------------------------------------------------------

  /**
   * The NPC, built on first use; a persona asset swapped since is picked up here, but only
   * while nothing runs (a swap never cancels a turn). Null when destroyed or broken.
   */
  private ready(): NPC | null {
    const state = live(this);
    if (this.isGone()) return null;
    const idle = state.streams.length === 0 && state.barkCancellers.length === 0;
    const swapped = this.persona !== state.builtPersona || this.profile !== state.builtProfile;
    if (!state.built || (swapped && idle)) this.rebuild();
    return state.npc;
  }

  private isGone(): boolean {
    return isGone(this, live(this));
  }

  /** Turned off: the component disabled, its node inactive, or its node not in a scene yet. */
  private isOff(): boolean {
    return !this.isGone() && !this.enabledInHierarchy;
  }

  /** talk()/bark() on an NPC that is off: refused before anything runs, with no node event. */
  private off(what: string): AgentError {
    const why =
      this.node && !this.node.scene
        ? 'its node is not in a scene yet'
        : 'its component is disabled or its node inactive';
    return new AgentError(
      'invalid_request',
      `The NPC on "${this.nodeName()}" is turned off (${why}); enable it before ${what}().`,
    );
  }

  private gone(): AgentError {
    return new AgentError('cancelled', `The NPC on "${this.nodeName()}" was destroyed.`);
  }

  /** A call on a destroyed NPC ends like a cancel (nothing happened, nothing to report); a broken set-up is reported. */
  private refuse<T>(): Promise<T> {
    const state = live(this);
    if (this.isGone()) return Promise.reject(this.gone());
    const error = state.problem || new AgentError('invalid_request', `The NPC on "${this.nodeName()}" is not set up.`);
    this.emitNode(NPC_ERROR, error);
    return Promise.reject(error);
  }

  private named(error: AgentError): AgentError {
    return new AgentError(error.code, `NPCComponent on "${this.nodeName()}": ${error.message}`, { cause: error });
  }

  private readPersona(): Persona {
    if (!this.persona)
      throw new AgentError('invalid_request', 'no persona asset; set the Persona property to a persona JSON asset.');
    const check = validatePersona(this.persona.json);
    if (!check.ok)
      throw new AgentError(
        'invalid_request',
        `the persona asset "${this.persona.name}" is not a valid persona: ${formatPersonaProblems(check.problems)}`,
      );
    return check.persona;
  }

  /** The profile's parts, or undefined without a profile asset; throws what is wrong with it. */
  private readProfile(): NPCProfileParts | undefined {
    if (!this.profile) return undefined;
    return profileSetup({
      profile: this.profile,
      persona: this.persona,
      world: this.worldStore ? this.worldStore.world : undefined,
      handlers: live(this).profileHandlers,
    });
  }

  private coreSetup(
    persona: Persona,
    parts?: NPCProfileParts,
  ): {
    model: LanguageModel;
    tools: AgentTool[];
    world?: WorldState;
    options: NPCOptions;
    toolClock: typeof GAME_TIME_CLOCK;
    approveToolCall: (call: ToolCall, context: { signal: { aborted: boolean } }) => ToolVerdict | Promise<ToolVerdict>;
  } {
    let world: WorldState | undefined;
    if (parts) world = parts.world;
    else if (this.worldStore) world = this.worldStore.world;
    else if (this.worldWritable.length > 0 || this.worldContextPaths.length > 0) {
      console.warn(
        `[oam] NPCComponent on "${this.nodeName()}" has world paths but no WorldStateStore; it talks without world tools.`,
      );
    }
    const { options, tools } = parts ?? npcSetupFromInspector(this.inspectorProperties());
    live(this).setupTools = tools;
    // In a shipped build a player without an on-device model hears the line bank (or the
    // persona's own lines), never the built-in stand-in's developer text.
    const chosen = characterModel({
      place: DEV ? 'preview' : 'shipped',
      shared: OamRuntime.model,
      sharedKind: () => OamRuntime.kind,
      gameStandIn: () => OamRuntime.config.standIn !== undefined,
      bank: this.lineBank ? this.lineBank.json : undefined,
      persona,
    });
    live(this).nextAnswers = () => chosen.answers();
    return {
      model: chosen.model,
      tools: tools.concat(live(this).localTools),
      world,
      options,
      toolClock: GAME_TIME_CLOCK,
      approveToolCall: (call) => askApproval(this.asker(), call),
    };
  }

  /** The Inspector properties the shared mapping reads (the editor's preview and meter read the same ones). */
  private inspectorProperties(): NPCInspectorProperties {
    return {
      worldReadable: this.worldReadable,
      worldWritable: this.worldWritable,
      worldContextPaths: this.worldContextPaths,
      groundingTool: this.groundingTool,
      replyFormat: this.replyFormat,
      rememberFacts: this.rememberFacts,
      trackRelationship: this.trackRelationship,
      secretsUnlockAt: this.secretsUnlockAt,
      secretsAlwaysGuarded: this.secretsAlwaysGuarded,
      emotions: this.emotions,
      playerOptionCount: this.playerOptionCount,
      canEndConversation: this.canEndConversation,
      fallbackLines: this.fallbackLines,
      externalTools: this.externalTools,
      extraInstructions: this.extraInstructions,
      externalToolTimeoutMs: this.externalToolTimeoutMs,
      toolTimeoutMs: this.toolTimeoutMs,
      priority: this.priority,
    };
  }

  /** Makes `next` the local tools; a set the NPC refuses (a bad schema, a clash) throws and changes nothing. */
  private applyTools(next: AgentTool[]): void {
    const state = live(this);
    if (state.npc) state.npc.setTools(state.setupTools.concat(next));
    state.localTools = next;
  }

  private track(stream: DialogueStream): void {
    const streams = live(this).streams;
    streams.push(stream);
    const untrack = () => {
      const index = streams.indexOf(stream);
      if (index >= 0) streams.splice(index, 1);
    };
    stream.turn().then(untrack, untrack);
    stream.on('line', (event) =>
      this.emitNode(NPC_LINE, { delta: event.delta, line: event.line, isReset: event.isReset }),
    );
    stream.on('emotion', (event) => this.emitNode(NPC_EMOTION, event.emotion));
    stream.on('toolCall', (event) => this.emitNode(NPC_TOOL_CALL, event.call));
    stream.on('externalToolCall', (event) => requestExternal(this.asker(), stream, event.call));
    stream.on('toolResult', (event) => this.emitNode(NPC_TOOL_RESULT, event.record));
    stream.on('fallback', (event) => this.emitNode(NPC_FALLBACK, event.reason));
    stream.on('completed', (event) => this.emitNode(NPC_TURN, event.turn));
  }

  /** What the game is asked through (npc-external-tool, npc-tool-approval), as this NPC. */
  private asker(): GameAsker<NPCComponent> {
    return {
      node: this.node,
      npc: this,
      name: this.nodeName(),
      timeoutMs: this.externalToolTimeoutMs,
      emit: (type, payload) => this.emitNode(type, payload),
    };
  }

  private emitNode(type: string, payload: unknown): EmitResult {
    const state = live(this);
    if (state.destroyed || state.off) return { emitted: false, threw: false };
    return emitSafely(this.node, type, payload);
  }

  private nodeName(): string {
    return this.node ? this.node.name : '?';
  }
}
