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
  /** The image parts' values of the prompt (a message list with `{ type: 'image' }` parts). */
  images: unknown[];
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
  /** Whether the model takes images: false answers availability() with an image input "unavailable". Default true. */
  imageInput?: boolean;
}

/** What prompt(), promptStreaming() and measure take: a string, or messages of text and image parts. */
type StandInInput = string | Array<{ role: string; content: string | Array<{ type: string; value: unknown }> }>;

/** Tokens an image costs in the stand-in. */
const IMAGE_TOKENS = 256;

function hasImageInput(expected: unknown): boolean {
  return Array.isArray(expected) && expected.some((entry) => (entry as { type?: unknown })?.type === 'image');
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
    prompts: Array<{ input: string; constraint?: object; omitted?: boolean; system: string; images?: unknown[] }>;
    destroyed: number;
    progress: number[];
  };
  live(): number;
}

function domError(name: string, message: string, extra?: Record<string, unknown>): Error {
  const Ctor = (globalThis as { DOMException?: new (message: string, name: string) => Error }).DOMException;
  const error = Ctor ? new Ctor(message, name) : Object.assign(new Error(message), { name });
  if (extra) for (const key of Object.keys(extra)) Object.defineProperty(error, key, { value: extra[key] });
  return error;
}

const UNSUPPORTED_KEYWORDS = ['$ref', 'patternProperties', 'if', 'then', 'else', 'dependentSchemas'];

function usesUnsupported(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  for (const [key, value] of Object.entries(schema)) {
    if (UNSUPPORTED_KEYWORDS.indexOf(key) >= 0) return key;
    const inner = usesUnsupported(value);
    if (inner) return inner;
  }
  return undefined;
}

function hasStickyActivation(control: StandInControl): boolean {
  const ua = (globalThis as { navigator?: { userActivation?: { hasBeenActive?: boolean } } }).navigator?.userActivation;
  return ua && typeof ua.hasBeenActive === 'boolean' ? ua.hasBeenActive || control.activated : control.activated;
}

function tick(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface AbortSignalLike {
  aborted: boolean;
  reason?: unknown;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** What a session starts from: created fresh, or cloned from another. */
interface SessionState {
  system: string;
  usage: number;
  samplingMode: string;
  history: Array<{ tokens: number }>;
  /** Created with expectedInputs image: only then may prompts carry image parts (the spec's NotSupportedError otherwise). */
  takesImages: boolean;
}

/** Builds a fresh stand-in `LanguageModel` class and its control panel. */
export function createPromptApiStandIn(options: StandInOptions = {}): { api: unknown; control: StandInControl } {
  const count = options.count ?? ((text: string) => Math.ceil(text.length / 4) + 4);
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
    globalThis as { document?: { featurePolicy?: { allowsFeature(feature: string): boolean; features(): string[] } } }
  ).document?.featurePolicy;
  if (policy && policy.features().indexOf('language-model') >= 0)
    control.permissionsAllowed = policy.allowsFeature('language-model');

  function failIf(stage: NonNullable<StandInControl['failNext']>['stage']): void {
    if (!control.documentActive) throw domError('InvalidStateError', 'The document is not fully active.');
    const failure = control.failNext;
    if (failure && failure.stage === stage) {
      control.failNext = null;
      throw domError(
        failure.name,
        failure.message ?? `stand-in ${stage} failure`,
        failure.name === 'QuotaExceededError' ? { requested: 10000, quota: windowSize } : undefined,
      );
    }
  }

  /** The text and images of an input; image parts need a session created to take them. */
  function readInput(input: StandInInput, takesImages: boolean): { text: string; images: unknown[]; tokens: number } {
    if (typeof input === 'string') return { text: input, images: [], tokens: count(input) };
    const texts: string[] = [];
    const images: unknown[] = [];
    for (const message of input) {
      if (typeof message.content === 'string') texts.push(message.content);
      else
        for (const part of message.content) {
          if (part.type === 'text') texts.push(String(part.value));
          else if (part.type === 'image') images.push(part.value);
          else throw new TypeError(`Unknown content type ${part.type}.`);
        }
    }
    if (images.length > 0 && !takesImages)
      throw domError('NotSupportedError', 'The session was not created with an image input (expectedInputs).');
    const text = texts.join('\n');
    return { text, images, tokens: count(text) + images.length * IMAGE_TOKENS };
  }

  class StandInSession extends EventTarget {
    readonly system: string;
    readonly takesImages: boolean;
    private usage: number;
    readonly samplingMode: string;
    private history: Array<{ tokens: number }>;
    private destroyedReason: unknown;
    private readonly aborters: Set<(reason: unknown) => void>;
    constructor(state: SessionState) {
      super();
      this.system = state.system;
      this.usage = state.usage;
      this.samplingMode = state.samplingMode;
      this.history = state.history;
      this.takesImages = state.takesImages;
      this.destroyedReason = undefined;
      this.aborters = new Set();
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
      for (const abort of Array.from(this.aborters)) abort(this.destroyedReason);
    }

    async clone(callOptions: { signal?: AbortSignalLike } = {}): Promise<StandInSession> {
      this.alive();
      if (callOptions.signal?.aborted) throw callOptions.signal.reason;
      failIf('clone');
      await tick(0);
      this.alive();
      control.log.clones++;
      return new StandInSession({
        system: this.system,
        usage: this.usage,
        samplingMode: this.samplingMode,
        history: this.history.slice(),
        takesImages: this.takesImages,
      });
    }

    get measureContextUsage(): ((input: StandInInput, options?: object) => Promise<number>) | undefined {
      return legacy ? undefined : (input: StandInInput, callOptions?: object) => this.measure(input, callOptions);
    }

    private async measure(
      input: StandInInput,
      callOptions: {
        responseConstraint?: object;
        omitResponseConstraintInput?: boolean;
        signal?: AbortSignalLike;
      } = {},
    ): Promise<number> {
      this.alive();
      if (callOptions.signal?.aborted) throw callOptions.signal.reason;
      failIf('measure');
      return (
        readInput(input, this.takesImages).tokens +
        (callOptions.responseConstraint && !callOptions.omitResponseConstraintInput
          ? count(JSON.stringify(callOptions.responseConstraint))
          : 0)
      );
    }

    get measureInputUsage(): ((input: StandInInput, options?: object) => Promise<number>) | undefined {
      return legacy ? (input: StandInInput, callOptions?: object) => this.measure(input, callOptions) : undefined;
    }

    async prompt(
      input: StandInInput,
      callOptions: { responseConstraint?: object; signal?: AbortSignalLike } = {},
    ): Promise<string> {
      const reader = this.promptStreaming(input, callOptions).getReader();
      let text = '';
      for (;;) {
        const result = await reader.read();
        if (result.done) return text;
        text += result.value;
      }
    }

    promptStreaming(
      input: StandInInput,
      callOptions: {
        responseConstraint?: object;
        omitResponseConstraintInput?: boolean;
        signal?: AbortSignalLike;
      } = {},
    ): ReadableStream<string> {
      this.alive();
      if (!control.documentActive) throw domError('InvalidStateError', 'The document is not fully active.');
      if (callOptions.signal?.aborted) throw callOptions.signal.reason;
      const read = readInput(input, this.takesImages);
      let stop: ((reason: unknown) => void) | undefined;
      return new ReadableStream<string>({
        start: async (controller) => {
          let stopped = false;
          const onStop = (reason: unknown) => {
            if (!stopped) {
              stopped = true;
              controller.error(reason);
            }
          };
          stop = onStop;
          this.aborters.add(onStop);
          const onAbort = () => onStop(callOptions.signal?.reason ?? domError('AbortError', 'Aborted.'));
          callOptions.signal?.addEventListener('abort', onAbort);
          try {
            failIf('prompt');
            if (callOptions.responseConstraint !== undefined) {
              if (typeof callOptions.responseConstraint !== 'object' || callOptions.responseConstraint === null)
                throw new TypeError('responseConstraint must be a JSON Schema object or a RegExp.');
              const bad = usesUnsupported(callOptions.responseConstraint);
              if (bad) throw domError('NotSupportedError', `The JSON Schema keyword ${bad} is not supported.`);
            }
            if (callOptions.omitResponseConstraintInput && callOptions.responseConstraint === undefined)
              throw new TypeError('omitResponseConstraintInput needs a responseConstraint.');
            const needed =
              read.tokens +
              (callOptions.responseConstraint && !callOptions.omitResponseConstraintInput
                ? count(JSON.stringify(callOptions.responseConstraint))
                : 0);
            let used = this.usage;
            if (used - this.historyTokens() + needed > windowSize) {
              throw domError('QuotaExceededError', 'The input is too large.', {
                requested: needed,
                quota: windowSize - (used - this.historyTokens()),
              });
            }
            let dropped = false;
            while (used + needed > windowSize && this.history.length > 0) {
              used -= (this.history.shift() as { tokens: number }).tokens;
              dropped = true;
            }
            if (dropped || control.overflowNext) {
              control.overflowNext = false;
              this.dispatchEvent(new Event('contextoverflow'));
              this.dispatchEvent(new Event('quotaoverflow'));
            }
            control.log.prompts.push({
              input: read.text,
              ...(read.images.length > 0 ? { images: read.images } : {}),
              constraint: callOptions.responseConstraint,
              omitted: callOptions.omitResponseConstraintInput,
              system: this.system,
            });
            let answer = await brain({
              system: this.system,
              prompt: read.text,
              images: read.images,
              constraint: callOptions.responseConstraint,
              samplingMode: this.samplingMode,
            });
            if (stopped) return;
            if (callOptions.responseConstraint !== undefined) {
              // Constrained decoding cannot write a non-matching answer; the stand-in refuses to.
              let value: unknown;
              try {
                value = JSON.parse(answer);
              } catch {
                throw domError('SyntaxError', 'Could not produce a response matching the constraint.');
              }
              if (!JsonSchema.from(callOptions.responseConstraint).check(value).ok)
                throw domError('SyntaxError', 'Could not produce a response matching the constraint.');
              answer = JSON.stringify(value);
            }
            this.usage = used + needed;
            for (let index = 0; index < answer.length; index += chunkChars) {
              await tick(delay);
              if (stopped) return;
              if (index > 0) failIf('midstream');
              controller.enqueue(answer.slice(index, index + chunkChars));
            }
            // The spec counts prefilled input; the stand-in also keeps the pair in its history.
            this.history.push({ tokens: needed + count(answer) });
            this.usage += count(answer);
            if (!stopped) {
              stopped = true;
              controller.close();
            }
          } catch (error) {
            onStop(error);
          } finally {
            callOptions.signal?.removeEventListener('abort', onAbort);
            this.aborters.delete(onStop);
          }
        },
        cancel: () => {
          if (stop) this.aborters.delete(stop);
        },
      });
    }

    private historyTokens(): number {
      return this.history.reduce((total, entry) => total + entry.tokens, 0);
    }
  }

  const api = {
    async availability(availabilityOptions: { expectedInputs?: unknown } = {}): Promise<StandInAvailability> {
      if (!control.documentActive) throw domError('InvalidStateError', 'The document is not fully active.');
      failIf('availability');
      if (!control.permissionsAllowed) return 'unavailable';
      if (options.imageInput === false && hasImageInput(availabilityOptions.expectedInputs)) return 'unavailable';
      return control.availability;
    },
    async create(
      createOptions: {
        initialPrompts?: Array<{ role: string; content: string }>;
        samplingMode?: string;
        monitor?: (monitor: EventTarget) => void;
        signal?: AbortSignalLike;
        expectedInputs?: unknown;
      } = {},
    ): Promise<StandInSession> {
      if (!control.documentActive) throw domError('InvalidStateError', 'The document is not fully active.');
      if (createOptions.signal?.aborted) throw createOptions.signal.reason;
      if (!control.permissionsAllowed)
        throw domError('NotAllowedError', 'The language-model feature is not allowed in this document.');
      const monitor = new EventTarget();
      if (createOptions.monitor) createOptions.monitor(monitor);
      const fire = (loaded: number) => {
        control.log.progress.push(loaded);
        const event = new Event('downloadprogress') as Event & { loaded: number; total: number };
        Object.defineProperty(event, 'loaded', { value: loaded });
        Object.defineProperty(event, 'total', { value: 1 });
        monitor.dispatchEvent(event);
      };
      failIf('create');
      if (control.availability === 'unavailable') throw domError('NotSupportedError', 'The model is not available.');
      if (options.imageInput === false && hasImageInput(createOptions.expectedInputs))
        throw domError('NotSupportedError', 'This model does not take images.');
      if (control.availability === 'downloadable' && !hasStickyActivation(control))
        throw domError('NotAllowedError', 'Requires a user gesture when availability is "downloadable".');
      if (control.availability !== 'available') {
        control.availability = 'downloading';
        for (const step of steps) {
          await tick(5);
          fire(step);
        }
        control.availability = 'available';
      } else {
        fire(0);
        fire(1);
      }
      const prompts = createOptions.initialPrompts ?? [];
      for (let index = 0; index < prompts.length; index++) {
        if (prompts[index].role === 'system' && index > 0) throw new TypeError('A system message must come first.');
      }
      const system = prompts
        .filter((prompt) => prompt.role === 'system')
        .map((prompt) => prompt.content)
        .join('\n');
      const usage = prompts.reduce((total, prompt) => total + count(prompt.content), 0);
      if (usage > windowSize)
        throw domError('QuotaExceededError', 'The initial prompts are too large.', {
          requested: usage,
          quota: windowSize,
        });
      control.log.creates.push({
        initialPrompts: prompts,
        samplingMode: createOptions.samplingMode,
        expectedInputs: createOptions.expectedInputs,
      });
      const session = new StandInSession({
        system,
        usage,
        samplingMode: createOptions.samplingMode ?? 'balanced',
        history: [],
        takesImages: hasImageInput(createOptions.expectedInputs),
      });
      createOptions.signal?.addEventListener('abort', () => session.destroy());
      return session;
    },
  };
  return { api, control };
}
