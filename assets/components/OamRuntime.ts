/**
 * The one model every NPC, decision and NanoStatus in a game shares, behind one ModelScheduler
 * (Gemini Nano serves one request at a time under a per-app quota, so every caller must queue
 * in one place). A module-level singleton, created on first use. The backend is:
 * - a languageModel given to configure() (tests, a custom backend);
 * - an OpenAI-compatible server when one is configured, in the editor and browser previews only
 *   (native builds have no fetch, so a phone never uses it);
 * - Gemini Nano through the JsbBridge on Android native builds;
 * - Chrome's built-in Gemini Nano (the Prompt API) in web builds and browser previews when the
 *   browser has the API: it answers once Chrome says available, the stand-in until then;
 * - otherwise the KeywordModel stand-in, so the editor, previews and iOS/desktop builds run.
 *
 * Components hold `OamRuntime.model`, a stable object that forwards every call to the current
 * scheduler, so a later configure() (another scene's OamRuntimeSettings) reaches NPCs created
 * before it. The Gemini Nano model and its bridge live as long as the game: reconfiguring never
 * disposes them (a new `ready` would make the native side cancel running jobs and downloads).
 */
import { sys } from 'cc';
import { NATIVE } from 'cc/env';
import {
  ChromePromptModel,
  GeminiNanoModel,
  KeywordModel,
  ModelScheduler,
  OpenAICompatibleModel,
  PreferAvailableModel,
  AgentError,
} from '../runtime/oam-core.js';
import type {
  DownloadProgress,
  GenerationRequest,
  KeywordModelOptions,
  LanguageModel,
  ModelAvailability,
  ModelCapabilities,
  ModelSchedulerOptions,
  SchedulerStats,
  SignalLike,
} from '../runtime/oam-core.js';
import { JsbBridgeTransport } from '../bridge/JsbBridgeTransport';

export type OamModelKind = 'gemini-nano' | 'chrome-nano' | 'openai-compatible' | 'stand-in' | 'custom';

/** The on-device model a game can download and follow: Gemini Nano on Android, Chrome's on the web. */
export interface OnDeviceModel {
  download(): Promise<void>;
  onDownloadProgress(listener: (progress: DownloadProgress) => void): () => void;
}

export interface OamRuntimeConfig {
  /** Any LanguageModel; wins over everything else (a scripted model in tests, your own backend). */
  languageModel?: LanguageModel;
  /** An OpenAI-compatible API root for the editor and browser previews, e.g. `http://127.0.0.1:8080/v1`. Ignored in native builds. */
  openaiUrl?: string;
  /** The model name sent to that server (default "default"). */
  model?: string;
  apiKey?: string;
  /** Use Chrome's built-in model in web builds and browser previews when the browser has it (default true). */
  chromeNano?: boolean;
  /** Rules of the stand-in model used in the editor, browser previews and non-Android builds. */
  standIn?: KeywordModelOptions;
  /** Pacing of the shared scheduler (default: one at a time, 30 calls a minute). */
  scheduler?: ModelSchedulerOptions;
}

/** What a backend was built from: configure() rebuilds only when this changes. */
interface BackendSource {
  kind: OamModelKind;
  languageModel?: LanguageModel;
  standIn?: KeywordModelOptions;
  endpoint?: string;
}

interface Backend {
  source: BackendSource;
  base: LanguageModel;
}

const DEFAULT_STAND_IN: KeywordModelOptions = {
  rules: [{ when: ['hello', 'hi', 'hey'], reply: { emotion: 'happy', line: 'Well met, traveller!' } }],
  otherwise: { emotion: 'neutral', line: '(Stand-in model: on an Android phone Gemini Nano answers here.)' },
  barks: ['(A stand-in bark: Gemini Nano speaks here on a phone.)'],
};

let config: OamRuntimeConfig = {};
let backend: Backend | null = null;
let scheduler: ModelScheduler | null = null;
/** Created once and kept across configure() calls; only reset() disposes it. */
let nano: { model: GeminiNanoModel; transport: JsbBridgeTransport } | null = null;
/** Chrome's model, kept across configure() like Gemini Nano (a download goes on); only reset() disposes it. */
let chrome: ChromePromptModel | null = null;

/**
 * The stable LanguageModel components hold. It has no state of its own: every call goes to the
 * scheduler in force at the time of the call.
 */
export class OamSharedModel implements LanguageModel {
  get capabilities(): ModelCapabilities {
    return OamRuntime.scheduler.capabilities;
  }

  generate(request: GenerationRequest, signal?: SignalLike): ReturnType<LanguageModel['generate']> {
    return OamRuntime.scheduler.generate(request, signal);
  }

  availability(): Promise<ModelAvailability> {
    return OamRuntime.scheduler.availability();
  }

  countTokens(text: string): Promise<number | null> {
    return OamRuntime.scheduler.countTokens(text);
  }

  prewarm(systemInstruction?: string, promptPrefix?: string): Promise<void> {
    return OamRuntime.scheduler.prewarm(systemInstruction, promptPrefix);
  }

  /** The backend model the scheduler wraps right now. */
  get inner(): LanguageModel {
    return OamRuntime.scheduler.inner;
  }

  /** The current scheduler's counters (a new backend starts a new scheduler at zero). */
  stats(): SchedulerStats {
    return OamRuntime.scheduler.stats();
  }
}

const sharedModel = new OamSharedModel();

export class OamRuntime {
  /**
   * Sets how the shared model is chosen. Best called before the first NPC loads (e.g. from a
   * component with a low executionOrder, or OamRuntimeSettings). A later call takes effect for
   * every component, old or new, from their next request on: the backend is rebuilt only when
   * it changes (kind, endpoint, custom model or stand-in rules); a pacing change alone is
   * applied to the same scheduler, so its queue and the one-request-at-a-time rule carry over.
   */
  static configure(next: OamRuntimeConfig): void {
    if (next.openaiUrl !== undefined && (typeof next.openaiUrl !== 'string' || !/^https?:\/\//.test(next.openaiUrl))) {
      throw new AgentError(
        'invalid_request',
        `openaiUrl must start with http:// or https://; got ${JSON.stringify(next.openaiUrl)}.`,
      );
    }
    const previousPacing = config.scheduler;
    config = { ...next };
    if (backend && !sameSource(backend.source, OamRuntime.sourceFor(config))) {
      backend = null;
      scheduler = null;
    } else if (scheduler && !samePacing(previousPacing, config.scheduler)) {
      // Same backend: the one queue keeps its requests and only its pacing changes.
      scheduler.setPacing(config.scheduler);
    }
  }

  /** The configuration in force (a copy), so a caller can change one part and keep the rest. */
  static get config(): OamRuntimeConfig {
    return { ...config };
  }

  /** The shared model: pass it wherever a LanguageModel is needed. The same object for the whole game. */
  static get model(): OamSharedModel {
    return sharedModel;
  }

  /** The scheduler in force now (it changes when configure() changes the backend). */
  static get scheduler(): ModelScheduler {
    if (!scheduler) scheduler = new ModelScheduler(OamRuntime.backend().base, config.scheduler);
    return scheduler;
  }

  /** Which backend the scheduler wraps. */
  static get kind(): OamModelKind {
    return OamRuntime.backend().source.kind;
  }

  /** The Gemini Nano model (download, progress) when it is the backend; null elsewhere. */
  static get nano(): GeminiNanoModel | null {
    return OamRuntime.kind === 'gemini-nano' && nano ? nano.model : null;
  }

  /** Chrome's built-in model when it is the backend (web builds, browser previews); null elsewhere. */
  static get chromeNano(): ChromePromptModel | null {
    return OamRuntime.kind === 'chrome-nano' && chrome ? chrome : null;
  }

  /** The on-device model to download and follow: Gemini Nano on Android, Chrome's on the web; null for the others. */
  static get onDevice(): OnDeviceModel | null {
    return OamRuntime.nano || OamRuntime.chromeNano;
  }

  /** True in an Android native build, where Gemini Nano is reached through the bridge. */
  static isAndroidNative(): boolean {
    return !!NATIVE && sys.platform === sys.Platform.ANDROID;
  }

  /**
   * Drops everything, the Gemini Nano model and its bridge listener included; the next use
   * creates fresh ones. For tests and shutdown, not for switching models: use configure().
   */
  static reset(): void {
    const old = nano;
    const oldChrome = chrome;
    nano = null;
    chrome = null;
    backend = null;
    scheduler = null;
    if (oldChrome) oldChrome.dispose();
    if (old) {
      old.model.dispose();
      old.transport.dispose();
    }
  }

  private static backend(): Backend {
    if (!backend) {
      const source = OamRuntime.sourceFor(config);
      backend = { source, base: OamRuntime.build(source) };
    }
    return backend;
  }

  private static sourceFor(wanted: OamRuntimeConfig): BackendSource {
    if (wanted.languageModel) return { kind: 'custom', languageModel: wanted.languageModel };
    // Native builds (Android, iOS, desktop) have no fetch: the server is for previews only.
    if (wanted.openaiUrl && !NATIVE)
      return {
        kind: 'openai-compatible',
        endpoint: [wanted.openaiUrl, wanted.model || '', wanted.apiKey || ''].join('\n'),
      };
    if (OamRuntime.isAndroidNative() && JsbBridgeTransport.isSupported()) return { kind: 'gemini-nano' };
    // Feature detection only: whether Chrome can run the model is asked (asynchronously) per call.
    if (!NATIVE && wanted.chromeNano !== false && ChromePromptModel.isSupported())
      return { kind: 'chrome-nano', standIn: wanted.standIn };
    return { kind: 'stand-in', standIn: wanted.standIn };
  }

  private static build(source: BackendSource): LanguageModel {
    switch (source.kind) {
      case 'custom':
        return source.languageModel as LanguageModel;
      case 'openai-compatible':
        return new OpenAICompatibleModel({
          baseUrl: config.openaiUrl as string,
          model: config.model,
          apiKey: config.apiKey,
        });
      case 'gemini-nano':
        if (!nano) {
          const transport = new JsbBridgeTransport();
          nano = { model: new GeminiNanoModel({ transport }), transport };
        }
        return nano.model;
      case 'chrome-nano':
        if (!chrome) chrome = new ChromePromptModel();
        // Chrome's model once it says available; the stand-in while it downloads or where it cannot run.
        return new PreferAvailableModel(chrome, new KeywordModel(source.standIn || DEFAULT_STAND_IN));
      default:
        return new KeywordModel(source.standIn || DEFAULT_STAND_IN);
    }
  }
}

function sameSource(left: BackendSource, right: BackendSource): boolean {
  return (
    left.kind === right.kind &&
    left.languageModel === right.languageModel &&
    left.standIn === right.standIn &&
    left.endpoint === right.endpoint
  );
}

/** Same values for every pacing option (a copied options object counts as the same). */
function samePacing(left: ModelSchedulerOptions | undefined, right: ModelSchedulerOptions | undefined): boolean {
  const leftFields = (left || {}) as Record<string, unknown>;
  const rightFields = (right || {}) as Record<string, unknown>;
  const keys = Object.keys(leftFields).concat(Object.keys(rightFields));
  return keys.every((key) => leftFields[key] === rightFields[key]);
}
