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
import { _decorator, Component, type JsonAsset } from 'cc';
import { ReplyFormat } from './replyFormat';
import { NPC_FIELDS } from './npcFields';
import { NPC, AgentTool, AgentError } from '../runtime/oam-core.js';
import type {
  DialogueTurn,
  NPCSaveState,
  Persona,
  ProfileToolHandler,
  ToolCall,
  NPCProfileParts,
} from '../runtime/oam-core.js';
import { emitSafely, type EmitResult } from './emitSafely';
import type { WorldStateStore } from './WorldStateStore';
import type { ToolDeclaration } from './ToolDeclaration';
import { isGone } from './liveState';
import { type Answerer } from './characterModel';
import { NPC_ERROR } from './npcEvents';
import type {
  ExternalToolRequest as ExternalToolRequestOf,
  ToolApprovalRequest as ToolApprovalRequestOf,
} from './npcEvents';
import type { NPCRestoreOptions, NPCTalkOptions } from './npcCallOptions';
import { profileSetup } from './profileSetup';
import { askApproval, requestExternal, type GameAsker } from './askTheGame';
import { withHandler, withTool, withoutTool } from './npcGameTools';
import { npcLive as live, adoptNPC, markBuilt } from './npcLiveState';
import { coreSetup, inspectorPropertiesOf, prewarmQuietly, readPersonaAsset } from './npcCoreSetup';
import { rebuiltNPC, restoredNPC, type CoreSetup } from './npcCoreSetup';
import * as conversation from './npcConversation';
import { destroyedError, namedError, nodeNameOf, notSetUpError, turnedOffError } from './npcRefusals';

const { ccclass, property, menu, disallowMultiple } = _decorator;

// The node events and their payloads; the two requests are typed with this component below.
export * from './npcEvents';
/** Payload of `npc-external-tool`: the call and the way to answer it. */
export type ExternalToolRequest = ExternalToolRequestOf<NPCComponent>;
/** Payload of `npc-tool-approval`: allow or refuse a call before it runs. */
export type ToolApprovalRequest = ToolApprovalRequestOf<NPCComponent>;
export type { NPCRestoreOptions, NPCTalkOptions } from './npcCallOptions';

export { ReplyFormat } from './replyFormat';

@ccclass('oam.NPCComponent')
@menu('oam/NPCComponent')
@disallowMultiple
export class NPCComponent extends Component {
  @property(NPC_FIELDS.persona)
  persona: JsonAsset | null = null;

  @property(NPC_FIELDS.profile)
  profile: JsonAsset | null = null;

  @property(NPC_FIELDS.lineBank)
  lineBank: JsonAsset | null = null;

  @property(NPC_FIELDS.worldStore)
  worldStore: WorldStateStore | null = null;

  @property(NPC_FIELDS.worldReadable)
  worldReadable: string[] = [''];

  @property(NPC_FIELDS.worldWritable)
  worldWritable: string[] = [];

  @property(NPC_FIELDS.worldContextPaths)
  worldContextPaths: string[] = [];

  @property(NPC_FIELDS.groundingTool)
  groundingTool = '';

  @property(NPC_FIELDS.replyFormat)
  replyFormat: ReplyFormat = ReplyFormat.Automatic;

  @property(NPC_FIELDS.rememberFacts)
  rememberFacts = false;

  @property(NPC_FIELDS.trackRelationship)
  trackRelationship = false;

  @property(NPC_FIELDS.secretsUnlockAt)
  secretsUnlockAt = 50;

  @property(NPC_FIELDS.secretsAlwaysGuarded)
  secretsAlwaysGuarded = false;

  @property(NPC_FIELDS.emotions)
  emotions: string[] = [];

  @property(NPC_FIELDS.playerOptionCount)
  playerOptionCount = 0;

  @property(NPC_FIELDS.canEndConversation)
  canEndConversation = true;

  @property(NPC_FIELDS.fallbackLines)
  fallbackLines: string[] = [];

  @property(NPC_FIELDS.externalTools)
  externalTools: ToolDeclaration[] = [];

  @property(NPC_FIELDS.extraInstructions)
  extraInstructions = '';

  @property(NPC_FIELDS.externalToolTimeoutMs)
  externalToolTimeoutMs = 30000;

  @property(NPC_FIELDS.toolTimeoutMs)
  toolTimeoutMs = 10000;

  @property(NPC_FIELDS.priority)
  priority = 100;

  @property(NPC_FIELDS.prewarmOnStart)
  prewarmOnStart = true;

  onLoad(): void {
    // A component added from code runs onLoad before the caller can set the persona: without
    // one, wait for start() or the first talk() to build (and to report what is missing).
    if (this.persona || this.profile) this.rebuild();
  }

  start(): void {
    const npc = this.ready();
    if (this.prewarmOnStart && npc) prewarmQuietly(npc, nodeNameOf(this.node));
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
    adoptNPC(state, null);
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
    if (this.isGone()) return destroyedError(this.node);
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
    markBuilt(state, this);
    this.cancel('The NPC was rebuilt.');
    const saved = previous ? previous.saveState() : undefined;
    try {
      const { parts, persona: read } = this.readAssets();
      // A component given no asset keeps the persona it has (one a save without an asset restored).
      const persona = read ?? (saved ? saved.persona : readPersonaAsset(null));
      adoptNPC(state, rebuiltNPC({ persona, parts, setup: this.coreSetup(persona, parts), saved }));
    } catch (error) {
      adoptNPC(state, null);
      state.problem = namedError(this.node, AgentError.from(error, 'invalid_request'));
      console.error(`[oam] ${state.problem.message}`);
      this.emitNode(NPC_ERROR, state.problem);
    }
    return state.npc !== null;
  }

  /**
   * The game code a profile's tool names (`"answer": {"handler": "open_gate"}`). Register
   * handlers before the NPC is built (in onLoad of a component on the same node, or before
   * setting the profile from code); registering later rebuilds the NPC.
   */
  registerProfileHandler(name: string, handler: ProfileToolHandler): void {
    const state = live(this);
    state.profileHandlers = withHandler(state.profileHandlers, name, handler);
    if (state.built && this.profile) this.rebuild();
  }

  /** Adds a tool that runs in the game's code (or replaces one of the same name). */
  registerTool(tool: AgentTool): void {
    this.applyTools(withTool(live(this).localTools, tool));
  }

  /** Removes a tool added with registerTool; returns whether it was there. */
  unregisterTool(name: string): boolean {
    const before = live(this).localTools;
    const after = withoutTool(before, name);
    if (after.length === before.length) return false;
    this.applyTools(after);
    return true;
  }

  /** One turn. Queued behind a running turn; rejects with `cancelled` when cancelled. */
  talk(line: string, options: NPCTalkOptions = {}): Promise<DialogueTurn> {
    if (this.isOff()) return Promise.reject(turnedOffError(this.node, 'talk'));
    const npc = this.ready();
    if (!npc) return this.refuse();
    return conversation.startTalk(this.running(npc), {
      line,
      options,
      external: (stream, call) => requestExternal(this.asker(), stream, call),
    });
  }

  /** A one-line ambient remark (no history, memory or tools), also sent as `npc-bark`. */
  bark(situation: string): Promise<string> {
    if (this.isOff()) return Promise.reject(turnedOffError(this.node, 'bark'));
    const npc = this.ready();
    if (!npc) return this.refuse();
    return conversation.startBark(this.running(npc), situation);
  }

  /** Cancels the running turn, the queued ones and barks; nothing of them is kept. */
  cancel(reason?: string): void {
    conversation.cancelRunning(live(this), reason);
  }

  /**
   * Answers an external tool call by id (the same as `request.answer`). False for a call this
   * NPC is not waiting for: unknown, already answered, timed out or cancelled.
   */
  answerTool(callId: string, output: unknown): boolean {
    return conversation.answerWaitingCall(live(this), callId, output);
  }

  /** The calls waiting for the game's answer right now. */
  get pendingToolCalls(): ToolCall[] {
    return conversation.waitingCalls(live(this));
  }

  /** One JSON object for the game's save file: persona, memory and conversation (a running turn is left out). */
  save(): NPCSaveState {
    if (this.isGone()) throw destroyedError(this.node);
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
    if (this.isGone()) throw destroyedError(this.node);
    this.ready();
    let next: NPC;
    try {
      const { parts, persona } = this.readAssets();
      const acceptOtherPersona = options.acceptOtherPersona === true;
      const setupFor = (chosen: Persona) => this.coreSetup(chosen, parts);
      next = restoredNPC({ saved, persona, setupFor, acceptOtherPersona, nodeName: nodeNameOf(this.node) });
    } catch (error) {
      throw namedError(this.node, AgentError.from(error, 'invalid_request'));
    }
    this.cancel('The NPC was restored from a save.');
    adoptNPC(state, next);
    markBuilt(state, this);
  }

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

  /** A call on a destroyed NPC ends like a cancel (nothing happened, nothing to report); a broken set-up is reported. */
  private refuse<T>(): Promise<T> {
    const state = live(this);
    if (this.isGone()) return Promise.reject(destroyedError(this.node));
    const error = state.problem || notSetUpError(this.node);
    this.emitNode(NPC_ERROR, error);
    return Promise.reject(error);
  }

  /** The profile's parts and the persona the assets give (none without assets); throws what is wrong with them. */
  private readAssets(): { parts?: NPCProfileParts; persona?: Persona } {
    const world = this.worldStore ? this.worldStore.world : undefined;
    const handlers = live(this).profileHandlers;
    const parts = this.profile
      ? profileSetup({ profile: this.profile, persona: this.persona, world, handlers })
      : undefined;
    return { parts, persona: parts ? parts.persona : this.persona ? readPersonaAsset(this.persona) : undefined };
  }

  /** The set-up of the NPC from the assets and the Inspector; the next NPC's answerer waits in nextAnswers. */
  private coreSetup(persona: Persona, parts?: NPCProfileParts): CoreSetup {
    const state = live(this);
    const setup = coreSetup({
      persona,
      parts,
      world: this.worldStore ? this.worldStore.world : undefined,
      inspector: inspectorPropertiesOf(this),
      lineBank: this.lineBank,
      localTools: state.localTools,
      nodeName: nodeNameOf(this.node),
      approve: (call) => askApproval(this.asker(), call),
    });
    state.setupTools = setup.setupTools;
    state.nextAnswers = setup.answers;
    return setup;
  }

  /** Makes `next` the local tools; a set the NPC refuses (a bad schema, a clash) throws and changes nothing. */
  private applyTools(next: AgentTool[]): void {
    const state = live(this);
    if (state.npc) state.npc.setTools(state.setupTools.concat(next));
    state.localTools = next;
  }

  private running(npc: NPC): conversation.RunningOn {
    return { state: live(this), npc, emit: (type, payload) => this.emitNode(type, payload) };
  }

  /** What the game is asked through (npc-external-tool, npc-tool-approval), as this NPC. */
  private asker(): GameAsker<NPCComponent> {
    const emit = (type: string, payload: unknown) => this.emitNode(type, payload);
    return { node: this.node, npc: this, name: nodeNameOf(this.node), timeoutMs: this.externalToolTimeoutMs, emit };
  }

  private emitNode(type: string, payload: unknown): EmitResult {
    const state = live(this);
    if (state.destroyed || state.off) return { emitted: false, threw: false };
    return emitSafely(this.node, type, payload);
  }
}
