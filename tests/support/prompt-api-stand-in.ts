/**
 * A STAND-IN FOR CHROME'S BUILT-IN MODEL: an implementation of the Prompt API's interface
 * (webmachinelearning/prompt-api index.bs, 22 Jun 2026, and the create/availability steps of
 * writing-assistance-apis) for tests and the bench. It is not Chrome's model: a `brain`
 * function writes the answers. What it follows from the spec:
 * - availability(): "unavailable" | "downloadable" | "downloading" | "available"; "unavailable"
 *   when the permissions policy disallows language-model; InvalidStateError when the document
 *   is not fully active;
 * - create(): NotAllowedError when the policy disallows it, or when the model is downloadable
 *   and the page has no sticky user activation (navigator.userActivation.hasBeenActive in a
 *   browser, `control.activated` elsewhere); NotSupportedError when unavailable; downloadprogress
 *   events on the monitor (loaded 0…1, total 1, at least 0 and 1); initialPrompts with a system
 *   message first; QuotaExceededError (requested, quota) when they do not fit;
 * - contextUsage/contextWindow (and the deprecated inputUsage/inputQuota when `legacyNames`),
 *   measureContextUsage, contextoverflow when history is dropped, clone() with the same state,
 *   destroy() aborting everything with an AbortError;
 * - promptStreaming(): a ReadableStream of new-text chunks; responseConstraint honoured (an
 *   answer that does not match the JSON Schema never comes out: SyntaxError instead, as for an
 *   unmet constraint; a schema feature it does not support: NotSupportedError); the signal
 *   errors the stream with its reason.
 */
import { JsonSchema } from '../../src/core/schema';

export type StandInAvailability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

export interface BrainInput {
  system: string;
  prompt: string;
  constraint?: object;
  samplingMode: string;
}

export interface StandInOptions {
  availability?: StandInAvailability;
  /** Writes the answer (test double: it may look at whatever the test hands it). */
  brain?: (input: BrainInput) => string | Promise<string>;
  contextWindow?: number;
  /** Characters per streamed chunk. Default 3. */
  chunkChars?: number;
  /** Milliseconds between chunks (0 = next macrotask). */
  chunkDelayMs?: number;
  /** Progress steps of a download. Default [0, 0.25, 0.5, 0.75, 1]. */
  downloadSteps?: number[];
  /** Expose only the deprecated names (inputUsage, inputQuota, measureInputUsage, quotaoverflow), as extension contexts had. */
  legacyNames?: boolean;
  /** Token count of a text; default 1 per 4 characters plus 4 turn markers. */
  count?: (text: string) => number;
}

export interface StandInControl {
  availability: StandInAvailability;
  permissionsAllowed: boolean;
  documentActive: boolean;
  /** Sticky activation outside a browser. */
  activated: boolean;
  /** The next operation at this stage fails with a DOMException of this name. */
  failNext: {
    stage: 'availability' | 'create' | 'clone' | 'measure' | 'prompt' | 'midstream';
    name: string;
    message?: string;
  } | null;
  /** Fire contextoverflow on the next prompt (as if history had been dropped). */
  overflowNext: boolean;
  readonly log: {
    creates: Array<{
      initialPrompts?: Array<{ role: string; content: string }>;
      samplingMode?: string;
      expectedInputs?: unknown;
    }>;
    clones: number;
    prompts: Array<{ input: string; constraint?: object; omitted?: boolean; system: string }>;
    destroyed: number;
    progress: number[];
  };
  live(): number;
}

function domError(name: string, message: string, extra?: Record<string, unknown>): Error {
  const Ctor = (globalThis as { DOMException?: new (m: string, n: string) => Error }).DOMException;
  const e = Ctor ? new Ctor(message, name) : Object.assign(new Error(message), { name });
  if (extra) for (const k of Object.keys(extra)) Object.defineProperty(e, k, { value: extra[k] });
  return e;
}

const UNSUPPORTED_KEYWORDS = ['$ref', 'patternProperties', 'if', 'then', 'else', 'dependentSchemas'];

function usesUnsupported(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  for (const [k, v] of Object.entries(schema)) {
    if (UNSUPPORTED_KEYWORDS.indexOf(k) >= 0) return k;
    const inner = usesUnsupported(v);
    if (inner) return inner;
  }
  return undefined;
}

function hasStickyActivation(control: StandInControl): boolean {
  const ua = (globalThis as { navigator?: { userActivation?: { hasBeenActive?: boolean } } }).navigator?.userActivation;
  return ua && typeof ua.hasBeenActive === 'boolean' ? ua.hasBeenActive || control.activated : control.activated;
}

function tick(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

interface AbortSignalLike {
  aborted: boolean;
  reason?: unknown;
  addEventListener(t: 'abort', l: () => void): void;
  removeEventListener(t: 'abort', l: () => void): void;
}

/** Builds a fresh stand-in `LanguageModel` class and its control panel. */
export function createPromptApiStandIn(options: StandInOptions = {}): { api: unknown; control: StandInControl } {
  const count = options.count ?? ((t: string) => Math.ceil(t.length / 4) + 4);
  const windowSize = options.contextWindow ?? 9216;
  const chunkChars = options.chunkChars ?? 3;
  const delay = options.chunkDelayMs ?? 0;
  const steps = options.downloadSteps ?? [0, 0.25, 0.5, 0.75, 1];
  const brain = options.brain ?? (() => 'Hello from the stand-in.');
  const sessions = new Set<object>();
  const control: StandInControl = {
    availability: options.availability ?? 'available',
    permissionsAllowed: true,
    documentActive: true,
    activated: false,
    failNext: null,
    overflowNext: false,
    log: { creates: [], clones: 0, prompts: [], destroyed: 0, progress: [] },
    live: () => sessions.size,
  };
  const legacy = !!options.legacyNames;
  // In a browser, the page's real permissions policy decides, as in Chrome (language-model defaults to 'self').
  const policy = (
    globalThis as { document?: { featurePolicy?: { allowsFeature(f: string): boolean; features(): string[] } } }
  ).document?.featurePolicy;
  if (policy && policy.features().indexOf('language-model') >= 0)
    control.permissionsAllowed = policy.allowsFeature('language-model');

  function failIf(stage: NonNullable<StandInControl['failNext']>['stage']): void {
    if (!control.documentActive) throw domError('InvalidStateError', 'The document is not fully active.');
    const f = control.failNext;
    if (f && f.stage === stage) {
      control.failNext = null;
      throw domError(
        f.name,
        f.message ?? `stand-in ${stage} failure`,
        f.name === 'QuotaExceededError' ? { requested: 10000, quota: windowSize } : undefined,
      );
    }
  }

  class StandInSession extends EventTarget {
    private destroyedReason: unknown = undefined;
    private readonly aborters = new Set<(reason: unknown) => void>();
    constructor(
      readonly system: string,
      private usage: number,
      readonly samplingMode: string,
      private history: Array<{ tokens: number }>,
    ) {
      super();
      sessions.add(this);
    }
    get contextUsage(): number | undefined {
      return legacy ? undefined : this.usage;
    }
    get contextWindow(): number | undefined {
      return legacy ? undefined : windowSize;
    }
    get inputUsage(): number | undefined {
      return legacy ? this.usage : undefined;
    }
    get inputQuota(): number | undefined {
      return legacy ? windowSize : undefined;
    }

    private alive(): void {
      if (this.destroyedReason !== undefined) throw this.destroyedReason;
    }

    destroy(): void {
      if (this.destroyedReason !== undefined) return;
      this.destroyedReason = domError('AbortError', 'The session was destroyed.');
      sessions.delete(this);
      control.log.destroyed++;
      for (const a of Array.from(this.aborters)) a(this.destroyedReason);
    }

    async clone(o: { signal?: AbortSignalLike } = {}): Promise<StandInSession> {
      this.alive();
      if (o.signal?.aborted) throw o.signal.reason;
      failIf('clone');
      await tick(0);
      this.alive();
      control.log.clones++;
      return new StandInSession(this.system, this.usage, this.samplingMode, this.history.slice());
    }

    get measureContextUsage(): ((input: string, o?: object) => Promise<number>) | undefined {
      return legacy ? undefined : (i: string, o?: object) => this.measure(i, o);
    }

    private async measure(
      input: string,
      o: { responseConstraint?: object; omitResponseConstraintInput?: boolean; signal?: AbortSignalLike } = {},
    ): Promise<number> {
      this.alive();
      if (o.signal?.aborted) throw o.signal.reason;
      failIf('measure');
      return (
        count(input) +
        (o.responseConstraint && !o.omitResponseConstraintInput ? count(JSON.stringify(o.responseConstraint)) : 0)
      );
    }

    get measureInputUsage(): ((input: string, o?: object) => Promise<number>) | undefined {
      return legacy ? (i: string, o?: object) => this.measure(i, o) : undefined;
    }

    async prompt(input: string, o: { responseConstraint?: object; signal?: AbortSignalLike } = {}): Promise<string> {
      const reader = this.promptStreaming(input, o).getReader();
      let text = '';
      for (;;) {
        const r = await reader.read();
        if (r.done) return text;
        text += r.value;
      }
    }

    promptStreaming(
      input: string,
      o: { responseConstraint?: object; omitResponseConstraintInput?: boolean; signal?: AbortSignalLike } = {},
    ): ReadableStream<string> {
      this.alive();
      if (!control.documentActive) throw domError('InvalidStateError', 'The document is not fully active.');
      if (o.signal?.aborted) throw o.signal.reason;
      const session = this;
      let stop: ((reason: unknown) => void) | undefined;
      return new ReadableStream<string>({
        async start(c) {
          let stopped = false;
          const onStop = (reason: unknown) => {
            if (!stopped) {
              stopped = true;
              c.error(reason);
            }
          };
          stop = onStop;
          session.aborters.add(onStop);
          const onAbort = () => onStop(o.signal?.reason ?? domError('AbortError', 'Aborted.'));
          o.signal?.addEventListener('abort', onAbort);
          try {
            failIf('prompt');
            if (o.responseConstraint !== undefined) {
              if (typeof o.responseConstraint !== 'object' || o.responseConstraint === null)
                throw new TypeError('responseConstraint must be a JSON Schema object or a RegExp.');
              const bad = usesUnsupported(o.responseConstraint);
              if (bad) throw domError('NotSupportedError', `The JSON Schema keyword ${bad} is not supported.`);
            }
            if (o.omitResponseConstraintInput && o.responseConstraint === undefined)
              throw new TypeError('omitResponseConstraintInput needs a responseConstraint.');
            const needed =
              count(input) +
              (o.responseConstraint && !o.omitResponseConstraintInput
                ? count(JSON.stringify(o.responseConstraint))
                : 0);
            let used = session.usage;
            if (used - session.historyTokens() + needed > windowSize) {
              throw domError('QuotaExceededError', 'The input is too large.', {
                requested: needed,
                quota: windowSize - (used - session.historyTokens()),
              });
            }
            let dropped = false;
            while (used + needed > windowSize && session.history.length > 0) {
              used -= (session.history.shift() as { tokens: number }).tokens;
              dropped = true;
            }
            if (dropped || control.overflowNext) {
              control.overflowNext = false;
              session.dispatchEvent(new Event('contextoverflow'));
              session.dispatchEvent(new Event('quotaoverflow'));
            }
            control.log.prompts.push({
              input,
              constraint: o.responseConstraint,
              omitted: o.omitResponseConstraintInput,
              system: session.system,
            });
            let answer = await brain({
              system: session.system,
              prompt: input,
              constraint: o.responseConstraint,
              samplingMode: session.samplingMode,
            });
            if (stopped) return;
            if (o.responseConstraint !== undefined) {
              // Constrained decoding cannot write a non-matching answer; the stand-in refuses to.
              let value: unknown;
              try {
                value = JSON.parse(answer);
              } catch {
                throw domError('SyntaxError', 'Could not produce a response matching the constraint.');
              }
              if (!JsonSchema.from(o.responseConstraint).check(value).ok)
                throw domError('SyntaxError', 'Could not produce a response matching the constraint.');
              answer = JSON.stringify(value);
            }
            session.usage = used + needed;
            for (let i = 0; i < answer.length; i += chunkChars) {
              await tick(delay);
              if (stopped) return;
              if (i > 0) failIf('midstream');
              c.enqueue(answer.slice(i, i + chunkChars));
            }
            // The spec counts prefilled input; the stand-in also keeps the pair in its history.
            session.history.push({ tokens: needed + count(answer) });
            session.usage += count(answer);
            if (!stopped) {
              stopped = true;
              c.close();
            }
          } catch (e) {
            onStop(e);
          } finally {
            o.signal?.removeEventListener('abort', onAbort);
            session.aborters.delete(onStop);
          }
        },
        cancel() {
          if (stop) session.aborters.delete(stop);
        },
      });
    }

    private historyTokens(): number {
      return this.history.reduce((n, h) => n + h.tokens, 0);
    }
  }

  const api = {
    async availability(_o: object = {}): Promise<StandInAvailability> {
      if (!control.documentActive) throw domError('InvalidStateError', 'The document is not fully active.');
      failIf('availability');
      if (!control.permissionsAllowed) return 'unavailable';
      return control.availability;
    },
    async create(
      o: {
        initialPrompts?: Array<{ role: string; content: string }>;
        samplingMode?: string;
        monitor?: (m: EventTarget) => void;
        signal?: AbortSignalLike;
        expectedInputs?: unknown;
      } = {},
    ): Promise<StandInSession> {
      if (!control.documentActive) throw domError('InvalidStateError', 'The document is not fully active.');
      if (o.signal?.aborted) throw o.signal.reason;
      if (!control.permissionsAllowed)
        throw domError('NotAllowedError', 'The language-model feature is not allowed in this document.');
      const monitor = new EventTarget();
      if (o.monitor) o.monitor(monitor);
      const fire = (loaded: number) => {
        control.log.progress.push(loaded);
        const e = new Event('downloadprogress') as Event & { loaded: number; total: number };
        Object.defineProperty(e, 'loaded', { value: loaded });
        Object.defineProperty(e, 'total', { value: 1 });
        monitor.dispatchEvent(e);
      };
      failIf('create');
      if (control.availability === 'unavailable') throw domError('NotSupportedError', 'The model is not available.');
      if (control.availability === 'downloadable' && !hasStickyActivation(control))
        throw domError('NotAllowedError', 'Requires a user gesture when availability is "downloadable".');
      if (control.availability !== 'available') {
        control.availability = 'downloading';
        for (const s of steps) {
          await tick(5);
          fire(s);
        }
        control.availability = 'available';
      } else {
        fire(0);
        fire(1);
      }
      const prompts = o.initialPrompts ?? [];
      for (let i = 0; i < prompts.length; i++) {
        if (prompts[i].role === 'system' && i > 0) throw new TypeError('A system message must come first.');
      }
      const system = prompts
        .filter((p) => p.role === 'system')
        .map((p) => p.content)
        .join('\n');
      const usage = prompts.reduce((n, p) => n + count(p.content), 0);
      if (usage > windowSize)
        throw domError('QuotaExceededError', 'The initial prompts are too large.', {
          requested: usage,
          quota: windowSize,
        });
      control.log.creates.push({
        initialPrompts: prompts,
        samplingMode: o.samplingMode,
        expectedInputs: o.expectedInputs,
      });
      const session = new StandInSession(system, usage, o.samplingMode ?? 'balanced', []);
      o.signal?.addEventListener('abort', () => session.destroy());
      return session;
    },
  };
  return { api, control };
}
