/**
 * The one model every NPC, decision and NanoStatus in a game shares, behind one ModelScheduler
 * (Gemini Nano serves one request at a time under a per-app quota, so every caller must queue
 * in one place). A module-level singleton, created on first use:
 * - a languageModel given to configure() (tests, a custom backend);
 * - Gemini Nano through the JsbBridge on Android native builds;
 * - an OpenAI-compatible server when one is configured (development: editor and browser previews);
 * - otherwise the KeywordModel stand-in, so the editor and previews work without a phone.
 */
import { sys } from 'cc';
import { NATIVE } from 'cc/env';
import { GeminiNanoModel, KeywordModel, ModelScheduler, OpenAICompatibleModel, AgentError } from '../runtime/oam-core.js';
import type { KeywordModelOptions, LanguageModel, ModelSchedulerOptions } from '../runtime/oam-core.js';
import { JsbBridgeTransport } from '../bridge/JsbBridgeTransport';

export type OamModelKind = 'gemini-nano' | 'openai-compatible' | 'stand-in' | 'custom';

export interface OamRuntimeConfig {
  /** Any LanguageModel; wins over everything else (a scripted model in tests, your own backend). */
  languageModel?: LanguageModel;
  /** An OpenAI-compatible API root for development, e.g. `http://127.0.0.1:8080/v1`. */
  openaiUrl?: string;
  /** The model name sent to that server (default "default"). */
  model?: string;
  apiKey?: string;
  /** Use the OpenAI-compatible server on Android builds too (default false: Gemini Nano there). */
  openaiOnDevice?: boolean;
  /** Rules of the stand-in model used in the editor and browser previews. */
  standIn?: KeywordModelOptions;
  /** Pacing of the shared scheduler (default: one at a time, 30 calls a minute). */
  scheduler?: ModelSchedulerOptions;
}

interface RuntimeState {
  kind: OamModelKind;
  base: LanguageModel;
  scheduler: ModelScheduler;
  nano: GeminiNanoModel | null;
  transport: JsbBridgeTransport | null;
}

const DEFAULT_STAND_IN: KeywordModelOptions = {
  rules: [{ when: ['hello', 'hi', 'hey'], reply: { emotion: 'happy', line: 'Well met, traveller!' } }],
  otherwise: { emotion: 'neutral', line: '(Stand-in model: on an Android phone Gemini Nano answers here.)' },
  barks: ['(A stand-in bark: Gemini Nano speaks here on a phone.)'],
};

let config: OamRuntimeConfig = {};
let state: RuntimeState | null = null;

export class OamRuntime {
  /**
   * Sets how the shared model is chosen. Call it before the first NPC loads (e.g. from a
   * component with a low executionOrder, or OamRuntimeSettings); calling it later replaces
   * the model for components created afterwards.
   */
  static configure(next: OamRuntimeConfig): void {
    if (next.openaiUrl !== undefined && (typeof next.openaiUrl !== 'string' || !/^https?:\/\//.test(next.openaiUrl))) {
      throw new AgentError('invalid_request', `openaiUrl must start with http:// or https://; got ${JSON.stringify(next.openaiUrl)}.`);
    }
    config = { ...next };
    OamRuntime.reset();
  }

  /** The configuration in force (a copy), so a caller can change one part and keep the rest. */
  static get config(): OamRuntimeConfig {
    return { ...config };
  }

  /** The shared scheduler: pass it wherever a LanguageModel is needed. */
  static get model(): ModelScheduler {
    return OamRuntime.ensure().scheduler;
  }

  static get scheduler(): ModelScheduler {
    return OamRuntime.ensure().scheduler;
  }

  /** Which backend the scheduler wraps. */
  static get kind(): OamModelKind {
    return OamRuntime.ensure().kind;
  }

  /** The Gemini Nano model (download, progress) on Android builds; null elsewhere. */
  static get nano(): GeminiNanoModel | null {
    return OamRuntime.ensure().nano;
  }

  /** True in an Android native build, where Gemini Nano is reached through the bridge. */
  static isAndroidNative(): boolean {
    return !!NATIVE && sys.platform === sys.Platform.ANDROID;
  }

  /** Drops the shared model (its bridge listener too); the next use creates a fresh one. */
  static reset(): void {
    const old = state;
    state = null;
    if (old && old.nano) old.nano.dispose();
    if (old && old.transport) old.transport.dispose();
  }

  private static ensure(): RuntimeState {
    if (!state) state = OamRuntime.create();
    return state;
  }

  private static create(): RuntimeState {
    const make = (kind: OamModelKind, base: LanguageModel, nano: GeminiNanoModel | null = null, transport: JsbBridgeTransport | null = null): RuntimeState =>
      ({ kind, base, scheduler: new ModelScheduler(base, config.scheduler), nano, transport });
    if (config.languageModel) return make('custom', config.languageModel);
    const android = OamRuntime.isAndroidNative();
    if (config.openaiUrl && (!android || config.openaiOnDevice)) {
      return make('openai-compatible', new OpenAICompatibleModel({ baseUrl: config.openaiUrl, model: config.model, apiKey: config.apiKey }));
    }
    if (android && JsbBridgeTransport.isSupported()) {
      const transport = new JsbBridgeTransport();
      const nano = new GeminiNanoModel({ transport });
      return make('gemini-nano', nano, nano, transport);
    }
    return make('stand-in', new KeywordModel(config.standIn ?? DEFAULT_STAND_IN));
  }
}
