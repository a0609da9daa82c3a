/**
 * The part of the Prompt API (webmachinelearning/prompt-api, index.bs of 22 Jun 2026) this
 * backend uses, typed here because src/ compiles without DOM types. Members renamed by the spec
 * are optional on both names (contextUsage/inputUsage, contextWindow/inputQuota,
 * measureContextUsage/measureInputUsage, contextoverflow/quotaoverflow): extension contexts
 * and older Chromes have the old ones, web pages only the new ones.
 */
import type { SignalLike } from '../../contract/abort';

export type PromptAvailability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

export type SamplingMode = 'most-predictable' | 'predictable' | 'balanced' | 'creative' | 'most-creative';

export interface PromptExpected {
  type: 'text' | 'image';
  languages?: string[];
}

/** One part of a message: text, or an image (a Blob, ImageBitmap, canvas… or the file's bytes). */
export interface PromptContentPart {
  type: 'text' | 'image';
  value: unknown;
}

export interface PromptMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | PromptContentPart[];
  prefix?: boolean;
}

/** What prompt(), promptStreaming() and measureContextUsage() take. */
export type PromptInput = string | PromptMessage[];

/** What the Prompt API calls an AbortSignal: the page's real one. */
export type DomAbortSignal = object;

export interface PromptCoreOptions {
  samplingMode?: SamplingMode;
  expectedInputs?: PromptExpected[];
  expectedOutputs?: PromptExpected[];
}

export interface PromptCreateMonitor {
  addEventListener(type: 'downloadprogress', listener: (event: { loaded: number; total?: number }) => void): void;
}

export interface PromptCreateOptions extends PromptCoreOptions {
  signal?: DomAbortSignal;
  monitor?: (monitor: PromptCreateMonitor) => void;
  initialPrompts?: PromptMessage[];
}

export interface PromptOptions {
  responseConstraint?: object;
  omitResponseConstraintInput?: boolean;
  signal?: DomAbortSignal;
}

export interface PromptStreamReader {
  read(): Promise<{ done: boolean; value?: unknown }>;
  cancel(reason?: unknown): Promise<void>;
  releaseLock?(): void;
}

export interface PromptSession {
  prompt(input: PromptInput, options?: PromptOptions): Promise<string>;
  promptStreaming(input: PromptInput, options?: PromptOptions): { getReader(): PromptStreamReader };
  clone(options?: { signal?: DomAbortSignal }): Promise<PromptSession>;
  destroy(): void;
  measureContextUsage?(input: PromptInput, options?: PromptOptions): Promise<number>;
  /** Deprecated name (extension contexts only). */
  measureInputUsage?(input: PromptInput, options?: PromptOptions): Promise<number>;
  readonly contextUsage?: number;
  readonly contextWindow?: number;
  /** Deprecated names (extension contexts only). */
  readonly inputUsage?: number;
  readonly inputQuota?: number;
  readonly samplingMode?: SamplingMode;
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

/** The static side: the global `LanguageModel`. */
export interface PromptApi {
  availability(options?: PromptCoreOptions): Promise<PromptAvailability>;
  create(options?: PromptCreateOptions): Promise<PromptSession>;
}

export interface AbortControllerLike {
  readonly signal: DomAbortSignal & { readonly aborted: boolean };
  abort(reason?: unknown): void;
}

/** The global `LanguageModel` when this runtime has one (Chrome 148+ on the desktop), else undefined. */
export function globalPromptApi(): PromptApi | undefined {
  const api = (globalThis as { LanguageModel?: unknown }).LanguageModel;
  if (typeof api !== 'function' && (typeof api !== 'object' || api === null)) return undefined;
  const candidate = api as Partial<PromptApi>;
  return typeof candidate.availability === 'function' && typeof candidate.create === 'function'
    ? (api as PromptApi)
    : undefined;
}

/** A real AbortController (the Prompt API takes only real AbortSignals), or undefined in runtimes without one. */
export function newAbortController(): AbortControllerLike | undefined {
  const Ctor = (globalThis as { AbortController?: new () => AbortControllerLike }).AbortController;
  return typeof Ctor === 'function' ? new Ctor() : undefined;
}

export function contextUsageOf(session: PromptSession): number | undefined {
  const value = session.contextUsage !== undefined ? session.contextUsage : session.inputUsage;
  return typeof value === 'number' && value >= 0 && isFinite(value) ? value : undefined;
}

/** The context window; Infinity is allowed by the spec ("no specific limit"). */
export function contextWindowOf(session: PromptSession): number | undefined {
  const value = session.contextWindow !== undefined ? session.contextWindow : session.inputQuota;
  return typeof value === 'number' && value > 0 ? value : undefined;
}

export function measureOf(
  session: PromptSession,
): ((input: PromptInput, options?: PromptOptions) => Promise<number>) | undefined {
  if (typeof session.measureContextUsage === 'function')
    return (input, options) =>
      (session.measureContextUsage as NonNullable<PromptSession['measureContextUsage']>)(input, options);
  if (typeof session.measureInputUsage === 'function')
    return (input, options) =>
      (session.measureInputUsage as NonNullable<PromptSession['measureInputUsage']>)(input, options);
  return undefined;
}

/**
 * Whether the document may use the `language-model` feature, when the browser says
 * (document.permissionsPolicy / featurePolicy); undefined when it cannot tell.
 */
export function permissionsPolicyAllows(): boolean | undefined {
  const doc = (globalThis as { document?: { permissionsPolicy?: unknown; featurePolicy?: unknown } }).document;
  const policy = (doc && (doc.permissionsPolicy || doc.featurePolicy)) as
    { allowsFeature?: (name: string) => boolean; features?: () => string[] } | undefined;
  if (!policy || typeof policy.allowsFeature !== 'function') return undefined;
  try {
    // A browser that does not know the feature answers false for it: that says nothing.
    if (typeof policy.features === 'function' && policy.features().indexOf('language-model') < 0) return undefined;
    return policy.allowsFeature('language-model');
  } catch {
    return undefined;
  }
}

/** True when this page runs in an iframe of another origin (a web game portal). */
export function inCrossOriginFrame(): boolean {
  const scope = globalThis as { top?: unknown; self?: unknown; location?: { origin?: string } };
  if (!scope.top || scope.top === scope.self) return false;
  try {
    const top = scope.top as { location: { origin: string } };
    return top.location.origin !== (scope.location && scope.location.origin);
  } catch {
    return true; // reading a cross-origin parent's location throws
  }
}

/** Destroys a session the browser may already have destroyed (then destroy() throws). */
export function destroyQuietly(session: PromptSession): void {
  try {
    session.destroy();
  } catch {
    // Already destroyed.
  }
}

/** The core's SignalLike drives a real AbortController, the only kind the Prompt API takes; returns the unlink. */
export function linkToController(signal: SignalLike | undefined, controller: AbortControllerLike): () => void {
  if (!signal) return () => undefined;
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort);
  return () => signal.removeEventListener('abort', onAbort);
}
