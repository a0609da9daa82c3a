/**
 * A QA view for debug builds on a phone: put it beside an NPCComponent (or point it at one). Per
 * turn it shows the model steps with their prompt tokens and times, the tool calls and how they
 * ended, and which backend answered (Gemini Nano, Chrome's model, the line bank, the stand-in);
 * `exportBundle()` gives the session as a replay bundle (docs/qa-and-replay.md), `saveBundle()`
 * writes it (native: under `native.fileUtils.getWritablePath()`; web: a download), so a bad
 * answer seen on a test phone replays exactly in the editor and becomes a persona test.
 *
 * Inert in release builds (`DEBUG` of `cc/env` is false): it records nothing and shows nothing.
 * It reads the NPC through the component's public API only: its node events, `core` (the NPC's
 * model, memory and conversation) and `answeredBy`.
 */
import { _decorator, Component, Label, native, sys } from 'cc';
import { DEBUG, DEV, NATIVE } from 'cc/env';
import {
  AgentError,
  BUILT_IN_TOOLS,
  SessionRecorder,
  npcSetupFromInspector,
  summarizeTurn,
} from '../runtime/oam-core.js';
import type {
  DialogueTurn,
  NPC,
  NPCOptions,
  RecordedTool,
  RecordedTurn,
  ReplayBundle,
  TranscriptData,
} from '../runtime/oam-core.js';
import { NPCComponent, NPC_ERROR, NPC_TURN } from './NPCComponent';
import { emitSafely } from './emitSafely';
import { liveState } from './liveState';

const { ccclass, property, menu } = _decorator;

/** Node event: `RecordedTurn` after each turn the overlay recorded. */
export const QA_TURN = 'qa-turn';

interface QAState {
  target: NPCComponent | null;
  core: NPC | null;
  recorder: SessionRecorder | null;
}

const live = liveState<QAOverlay, QAState>(() => ({ target: null, core: null, recorder: null }));

@ccclass('oam.QAOverlay')
@menu('oam/QAOverlay')
export class QAOverlay extends Component {
  /** False in release builds; a test (or a game's own QA switch) may change it before the overlay loads. */
  static allowed = !!DEBUG;

  @property({ type: NPCComponent, tooltip: 'The NPC to watch (empty: the NPCComponent on this node).' })
  npc: NPCComponent | null = null;

  @property({ type: Label, tooltip: 'A Label that shows the last turns (optional; `text` has the same).' })
  label: Label | null = null;

  @property({ tooltip: 'How many of the last turns the label shows.' })
  turnsShown = 3;

  @property({ tooltip: 'The file name saveBundle() writes (a .json).' })
  fileName = 'oam-replay-bundle.json';

  @property({ readonly: true, multiline: true, tooltip: 'What the overlay shows.' })
  text = '';

  /** True when it records: a debug build, with an NPC to watch. */
  get active(): boolean {
    return QAOverlay.allowed && live(this).recorder !== null;
  }

  /** The turns recorded so far (copies). */
  get turns(): RecordedTurn[] {
    const recorder = live(this).recorder;
    return recorder ? recorder.turns : [];
  }

  onEnable(): void {
    // Listening only: the NPC is read from start() on, once every onLoad of the scene has run
    // (reading it earlier would build it before its own component does).
    if (QAOverlay.allowed) this.listen();
  }

  start(): void {
    if (QAOverlay.allowed) this.follow();
  }

  onDisable(): void {
    this.unfollow();
  }

  onDestroy(): void {
    this.unfollow();
    const state = live(this);
    if (state.recorder) state.recorder.close();
    state.recorder = null;
  }

  /** The session as a replay bundle (JSON text); null in a release build or without an NPC. */
  exportBundle(): string | null {
    const bundle = this.bundle();
    return bundle ? JSON.stringify(bundle, null, 2) : null;
  }

  /** The session as a bundle object; null in a release build or without an NPC. */
  bundle(): ReplayBundle | null {
    if (!QAOverlay.allowed) return null;
    this.follow();
    const recorder = live(this).recorder;
    return recorder ? recorder.bundle() : null;
  }

  /**
   * Writes the bundle where a tester can take it: on native, `<writable path>/<fileName>` (the
   * path is returned; docs/qa-and-replay.md says how to take it off a phone); on the web, a
   * download of `fileName` (returned). Null when there is nothing to write (release build, no
   * NPC) or writing failed (logged).
   */
  saveBundle(): string | null {
    const text = this.exportBundle();
    if (text === null) return null;
    try {
      if (NATIVE && native && native.fileUtils) {
        const path = `${native.fileUtils.getWritablePath()}${this.fileName}`;
        return native.fileUtils.writeStringToFile(text, path) ? path : null;
      }
      return downloadText(text, this.fileName);
    } catch (error) {
      console.warn('[oam] QAOverlay: the bundle was not saved:', AgentError.from(error).message);
      return null;
    }
  }

  /** Starts over: what was recorded is dropped, the NPC as it is now is the new start. */
  clear(): void {
    const state = live(this);
    if (state.recorder) state.recorder.close();
    state.recorder = null;
    state.core = null;
    this.follow();
    this.show();
  }

  // ---- internals ----------------------------------------------------------------------------

  private readonly onTurn = (turn: DialogueTurn): void => {
    const state = live(this);
    if (!state.recorder || !state.core) return this.follow();
    // The player's words exactly as the conversation holds them (a fallback turn is not in it).
    const history = state.core.history;
    const last = turn.isFallback ? undefined : history.filter((entry) => entry.type === 'prompt').pop();
    const recorded = state.recorder.finishTurn(turn, last && last.type === 'prompt' ? last.text : undefined);
    // A rebuilt NPC (a new persona asset, rebuild()) gets a recorder of its own from its next turn.
    this.follow();
    this.show();
    emitSafely(this.node, QA_TURN, recorded);
  };

  private readonly onError = (error: AgentError): void => {
    const state = live(this);
    if (!state.recorder || !state.recorder.hasOpenTurn) return;
    const recorded = state.recorder.failTurn(error);
    this.show();
    emitSafely(this.node, QA_TURN, recorded);
  };

  /** The NPC component to watch and its node events. */
  private listen(): NPCComponent | null {
    const state = live(this);
    if (!QAOverlay.allowed || !this.isValid) return null;
    const target = this.npc || this.getComponent(NPCComponent);
    if (target !== state.target) {
      this.unfollow();
      state.target = target;
      if (target) {
        target.node.on(NPC_TURN, this.onTurn, this);
        target.node.on(NPC_ERROR, this.onError, this);
      }
    }
    return target;
  }

  /** A recorder on the watched NPC (a new one when the NPC was rebuilt: a new persona, a restore). */
  private follow(): void {
    const state = live(this);
    const target = this.listen();
    const core = target && target.isValid ? target.core : null;
    if (!target || !core || core === state.core) return;
    if (state.recorder) state.recorder.close();
    state.core = core;
    state.recorder = recorderFor(target, core);
  }

  private unfollow(): void {
    const state = live(this);
    const target = state.target;
    if (target && target.isValid && target.node) {
      target.node.off(NPC_TURN, this.onTurn, this);
      target.node.off(NPC_ERROR, this.onError, this);
    }
    state.target = null;
  }

  private show(): void {
    const turns = this.turns;
    const from = Math.max(0, turns.length - Math.max(1, this.turnsShown));
    const lines: string[] = [];
    for (let index = from; index < turns.length; index++) lines.push(...summarizeTurn(turns[index], index));
    this.text = lines.join('\n');
    if (this.label && this.label.isValid) this.label.string = this.text;
  }
}

/** A recorder for the component's NPC as it is now: its persona, options, memory, world and tools. */
function recorderFor(target: NPCComponent, core: NPC): SessionRecorder {
  const saved = core.saveState();
  const { options, declared } = setupOf(target, saved.persona);
  const transcript = (saved.transcript as { transcript?: TranscriptData }).transcript;
  const tools: RecordedTool[] = (transcript ? transcript.tools : [])
    .filter((tool) => BUILT_IN_TOOLS.indexOf(tool.name) < 0)
    .map((tool) => ({ ...tool, ...(declared.indexOf(tool.name) >= 0 ? { sideEffect: true } : {}) }));
  const recorder = new SessionRecorder({
    persona: saved.persona,
    profile: target.profile ? (target.profile.json as Record<string, unknown>) : undefined,
    options,
    tools,
    world: target.worldStore ? target.worldStore.world : undefined,
    memory: saved.memory,
    transcript: core.turnCount > 0 ? saved.transcript : undefined,
    answeredBy: () => target.answeredBy,
    source: { place: DEV ? 'preview' : 'shipped', platform: String(sys.platform), node: target.node.name },
  });
  recorder.tap(core.model);
  return recorder;
}

interface ProfileJson {
  options?: NPCOptions;
  tools?: Array<{ name?: unknown; sideEffect?: unknown }>;
  world?: { readable?: string[]; writable?: string[]; contextPaths?: string[] };
}

/** The NPC's options (the profile's, or the Inspector's) and the names of its side-effect tools. */
function setupOf(target: NPCComponent, persona: unknown): { options: NPCOptions; declared: string[] } {
  try {
    const profile = target.profile ? (target.profile.json as ProfileJson) : null;
    if (profile) {
      const effects = (profile.tools || []).filter((tool) => tool.sideEffect === true).map((tool) => String(tool.name));
      // As the profile loader reads it: its world paths are the NPC's world options.
      const options: NPCOptions = { ...(profile.options || {}) };
      const world = profile.world || {};
      if (world.readable) options.worldReadable = world.readable.slice();
      if (world.writable) options.worldWritable = world.writable.slice();
      if (world.contextPaths) options.worldContextPaths = world.contextPaths.slice();
      return { options, declared: effects };
    }
    return { options: npcSetupFromInspector(target as never).options, declared: [] };
  } catch (error) {
    console.warn(
      `[oam] QAOverlay: the options of ${String((persona as { name?: unknown }).name)} were not read:`,
      error,
    );
    return { options: {}, declared: [] };
  }
}

/** A browser download of `text` as `name`; returns the name. */
function downloadText(text: string, name: string): string | null {
  if (typeof document === 'undefined') return null;
  const link = document.createElement('a');
  const blobs = typeof Blob === 'function' && typeof URL !== 'undefined' && typeof URL.createObjectURL === 'function';
  const href = blobs
    ? URL.createObjectURL(new Blob([text], { type: 'application/json' }))
    : `data:application/json;charset=utf-8,${encodeURIComponent(text)}`;
  link.href = href;
  link.download = name;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  document.body.removeChild(link);
  if (blobs) setTimeout(() => URL.revokeObjectURL(href), 0);
  return name;
}
