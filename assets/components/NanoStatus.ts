/**
 * The shared model's availability and download progress for a game's UI: a progress bar while
 * Gemini Nano (Android) or Chrome's built-in model (web builds, browser previews) downloads, a
 * clear message where it cannot run. Elsewhere it reports the stand-in model (always available).
 * On the web, call download() from a button: Chrome starts the download only after the player
 * has interacted with the page. `answeredBy` / `answerer` say who answers the characters: the
 * NPC's own `answeredBy` when one is set, else what a shipped build's selection gives.
 */
import { _decorator, Component } from 'cc';
import { DEV } from 'cc/env';
import { AgentError } from '../runtime/oam-core.js';
import type { DownloadProgress, ModelAvailability } from '../runtime/oam-core.js';
import { OamRuntime } from './OamRuntime';
import type { OnDeviceModel } from './OamRuntime';
import { emitSafely } from './emitSafely';
import type { OamModelKind } from './OamRuntime';
import { isGone, liveState } from './liveState';
import { NPCComponent } from './NPCComponent';
import type { Answerer } from './characterModel';

const { ccclass, property, menu } = _decorator;

/** Node event: `NanoAvailabilityEvent` after every refresh(). */
export const NANO_AVAILABILITY = 'nano-availability';
/** Node event: `DownloadProgress` while the model downloads. */
export const NANO_PROGRESS = 'nano-progress';

export type NanoStatusValue = 'unknown' | 'available' | 'downloadable' | 'downloading' | 'unavailable';

export interface NanoAvailabilityEvent {
  availability: ModelAvailability;
  status: NanoStatusValue;
  /** A sentence a game can show the player. */
  message: string;
  /** Which backend the game runs on (`stand-in` in the editor and browser previews). */
  kind: OamModelKind;
  /** Who answers the characters now (the NPC's, when the component names one). */
  answeredBy: Answerer;
  /** The same in words: "Gemini Nano", "Line bank (Gemini Nano is downloading)"… */
  answerer: string;
}

const ANSWERERS: Record<string, string> = {
  'gemini-nano': 'Gemini Nano',
  'chrome-nano': "Chrome's built-in model",
  'line-bank': 'Line bank',
  persona: "The persona's own lines",
  'stand-in': 'Stand-in (editor and previews)',
  'openai-compatible': 'Development server',
  custom: "The game's own model",
};

const ON_DEVICE_NAMES: Record<string, string> = { 'gemini-nano': 'Gemini Nano', 'chrome-nano': "Chrome's model" };

/**
 * Who answers, by the shipped build's selection (characterModel): the on-device model once it is
 * available, the line bank while it downloads or where it cannot run; previews keep the kind.
 */
export function answererOf(kind: OamModelKind, status: NanoStatusValue, preview: boolean): Answerer {
  if (preview || kind === 'custom' || kind === 'openai-compatible') return kind;
  if (kind in ON_DEVICE_NAMES && status === 'available') return kind;
  return 'line-bank';
}

/** Who answers in words; the bank's says which model it stands in for while that one downloads. */
export function answererText(answeredBy: Answerer, kind: OamModelKind, status: NanoStatusValue): string {
  const name = ANSWERERS[answeredBy] || answeredBy;
  const waiting = answeredBy !== kind ? ON_DEVICE_NAMES[kind] : undefined;
  if (waiting && (status === 'downloading' || status === 'downloadable'))
    return `${name} (${waiting} ${status === 'downloading' ? 'is downloading' : 'needs a download'})`;
  return name;
}

const REASONS: Record<string, string> = {
  device_not_eligible: 'This device cannot run Gemini Nano (it needs a recent Android phone with on-device AI).',
  aicore_unavailable: 'The on-device AI service (AICore) is missing or disabled; update Google Play system services.',
  needs_system_update: 'On-device AI needs a system update; install the pending updates and try again.',
  not_enough_disk_space: 'Not enough free storage to download the on-device AI model; free some space and try again.',
  model_not_ready: 'The on-device AI model is still being prepared; try again in a few minutes.',
  unreachable: 'The on-device AI module did not answer; this build may lack the oam-cocos Android module.',
  not_native: 'On-device AI runs only in an Android build.',
  no_prompt_api: 'This browser has no built-in AI model (it needs Chrome 148 or later on a desktop computer).',
  permissions_policy:
    'The page embedding this game does not allow built-in AI: its iframe needs allow="language-model".',
  device_not_eligible_web:
    "This computer cannot run Chrome's built-in AI model (it needs 22 GB of free disk and a GPU with more than 4 GB of memory, or 16 GB of RAM).",
};

/** The sentence to show for an availability. */
export function availabilityMessage(status: ModelAvailability, kind: OamModelKind): string {
  const standIn =
    kind === 'stand-in' ? ' (stand-in model: Gemini Nano answers on an Android phone or in Chrome on the desktop)' : '';
  const web = kind === 'chrome-nano';
  switch (status.status) {
    case 'available':
      return web ? "Chrome's built-in AI model is ready." : `The AI model is ready${standIn}.`;
    case 'downloadable':
      return web
        ? "Chrome's built-in AI model needs a one-time download: press Download (a stand-in answers until then)."
        : 'The on-device AI model needs a download before first use.';
    case 'downloading':
      return web
        ? 'Chrome is downloading its built-in AI model… (a stand-in answers until then)'
        : 'The on-device AI model is downloading…';
    default:
      if (web && status.reason === 'device_not_eligible') return REASONS.device_not_eligible_web;
      // An unanswered handshake may come with its cause (module missing, bridge taken over): show it.
      if (status.reason === 'unreachable' && status.detail) return `On-device AI did not answer: ${status.detail}`;
      return (
        REASONS[status.reason] ||
        `On-device AI is unavailable (${status.reason}${status.detail ? `: ${status.detail}` : ''}).`
      );
  }
}

interface NanoLiveState {
  destroyed: boolean;
  /** Turned off since it loaded: onEnable shows what changed meanwhile. */
  wasDisabled: boolean;
  stopProgress: (() => void) | null;
  followed: OnDeviceModel | null;
}

const live = liveState<NanoStatus, NanoLiveState>(() => ({
  destroyed: false,
  wasDisabled: false,
  stopProgress: null,
  followed: null,
}));

@ccclass('oam.NanoStatus')
@menu('oam/NanoStatus')
export class NanoStatus extends Component {
  @property({ tooltip: 'Check availability when the component loads.' })
  refreshOnLoad = true;

  @property({ tooltip: 'Start the download as soon as the model is downloadable.' })
  autoDownload = false;

  @property({ readonly: true, tooltip: 'available, downloadable, downloading, unavailable or unknown.' })
  status: NanoStatusValue = 'unknown';

  @property({ readonly: true, tooltip: 'Download progress 0…1 (0 when the size is unknown).' })
  progress = 0;

  @property({ readonly: true, multiline: true })
  message = '';

  @property({ type: NPCComponent, tooltip: 'The character whose answerer to show (empty: what the selection gives).' })
  npc: NPCComponent | null = null;

  @property({ readonly: true, tooltip: 'Who answers: gemini-nano, chrome-nano, line-bank, persona, stand-in…' })
  answeredBy = '';

  @property({ readonly: true, tooltip: 'Who answers, in words.' })
  answerer = '';

  onLoad(): void {
    this.followCurrentModel();
    if (this.refreshOnLoad) {
      this.refresh()
        .then((availability) => {
          if (live(this).destroyed) return undefined;
          if (this.autoDownload && availability.status === 'downloadable') return this.download();
          return undefined;
        })
        .catch((error: unknown) => console.warn('[oam] NanoStatus:', AgentError.from(error).message));
    }
  }

  onEnable(): void {
    const state = live(this);
    if (!state.wasDisabled) return;
    state.wasDisabled = false;
    this.refresh().catch((error: unknown) => console.warn('[oam] NanoStatus:', AgentError.from(error).message));
  }

  /** Off, it keeps its properties up to date but emits no events (a download goes on). */
  onDisable(): void {
    live(this).wasDisabled = true;
  }

  onDestroy(): void {
    live(this).destroyed = true;
    this.unfollow();
  }

  /** Which backend the shared model uses. */
  get kind(): OamModelKind {
    return OamRuntime.kind;
  }

  /** Asks the model again; updates the properties and emits `nano-availability`. */
  async refresh(): Promise<ModelAvailability> {
    this.followCurrentModel();
    let availability: ModelAvailability;
    try {
      availability = await OamRuntime.model.availability();
    } catch (error) {
      availability = { status: 'unavailable', reason: 'unknown', detail: AgentError.from(error).message };
    }
    this.apply(availability);
    return availability;
  }

  /**
   * Downloads Gemini Nano or Chrome's model (progress as `nano-progress`); resolves at once for
   * the stand-in. On the web, call it from a button's click: Chrome needs the player's gesture.
   */
  async download(): Promise<void> {
    if (isGone(this, live(this))) throw new AgentError('cancelled', 'The NanoStatus component was destroyed.');
    this.followCurrentModel();
    const nano = OamRuntime.onDevice;
    if (!nano) {
      await this.refresh();
      return;
    }
    this.apply({ status: 'downloading' });
    try {
      await nano.download();
    } finally {
      await this.refresh();
    }
  }

  /** Listens to the download progress of the model in force now (configure() may have changed it). */
  private followCurrentModel(): void {
    const state = live(this);
    const nano = state.destroyed ? null : OamRuntime.onDevice;
    if (nano === state.followed) return;
    this.unfollow();
    state.followed = nano;
    if (nano) state.stopProgress = nano.onDownloadProgress((progress) => this.onProgress(progress));
  }

  private unfollow(): void {
    const state = live(this);
    if (state.stopProgress) state.stopProgress();
    state.stopProgress = null;
    state.followed = null;
  }

  private onProgress(progress: DownloadProgress): void {
    if (live(this).destroyed) return;
    this.status = 'downloading';
    this.progress = progress.fraction !== undefined ? progress.fraction : 0;
    this.emitNode(NANO_PROGRESS, progress);
  }

  private apply(availability: ModelAvailability): void {
    if (live(this).destroyed) return;
    const kind = OamRuntime.kind;
    this.status = availability.status;
    if (availability.status === 'available') this.progress = 1;
    else if (availability.status !== 'downloading') this.progress = 0;
    this.message = availabilityMessage(availability, kind);
    const npc = this.npc && this.npc.isValid ? this.npc : null;
    const answeredBy = npc ? npc.answeredBy : answererOf(kind, this.status, !!DEV);
    this.answeredBy = answeredBy;
    this.answerer = answererText(answeredBy, kind, this.status);
    const event: NanoAvailabilityEvent = {
      availability,
      status: this.status,
      message: this.message,
      kind,
      answeredBy,
      answerer: this.answerer,
    };
    this.emitNode(NANO_AVAILABILITY, event);
  }

  private emitNode(type: string, payload: unknown): void {
    if (!live(this).destroyed && this.enabledInHierarchy) emitSafely(this.node, type, payload);
  }
}
