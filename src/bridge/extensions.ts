/**
 * Host extensions (the seed's `BridgeExtension`, reference §1.3): a host adds protocol methods
 * of its own under a prefix it owns (`"game/"`, `"mygame."`), with the notifications they may
 * send and a `shutdown()`. Unlike the seed, an extension cannot replace a built-in method: a
 * prefix that reaches a built-in namespace, overlaps another extension's, or a name outside the
 * extension's own prefix is refused when the extension is registered, and a refused
 * registration leaves the engine as it was.
 *
 * An extension method is framed, checked and answered like a built-in: params by name (a
 * ParamReader, whose type errors are −32602), an AgentError keeps its code, an ExtensionError
 * passes its own code (−32057…−32099) through, and anything else is −32603 internal_error. Its
 * call can be cancelled (by the extension itself, its host, or shutdown): the request is then
 * answered −32009 at once and whatever the handler does later is dropped.
 */
import { abortError, Canceller, type SignalLike } from '../contract/abort';
import { AGENT_ERROR_CODES, AgentError } from '../contract/errors';
import { WorldStateError, type WorldState } from '../game/world';
import type { MethodHandler } from './context';
import { BRIDGE_CODES, BridgeError } from './errors';
import type { RequestId } from './framing';
import { ParamReader, isRecord } from './params';
import { valueProblem } from './value-limits';

/** The seed's range for extensions other than its game layer (which has −32050…−32056). */
export const EXTENSION_CODE_MIN = -32099;
export const EXTENSION_CODE_MAX = -32057;

/** A request's params as an extension reads them (absent = `{}`, null members count as absent). */
export type ExtensionParams = ParamReader;

/** Read access to one of the bridge's worlds (`world/create`), e.g. the game's state. */
export interface ExtensionWorld {
  readonly id: string;
  /** Counts the changes made so far. */
  readonly version: number;
  /** A copy of the value at `path` (`""` is the whole state), or undefined when nothing is there. */
  get(path?: string): unknown;
}

/** What an extension can do outside any one call (returned by `registerExtension`). */
export interface ExtensionHandle {
  readonly prefix: string;
  /**
   * Sends one of the extension's declared notifications (`params` an object, `{}` when left
   * out). Dropped once the engine shuts down; a name not declared throws.
   */
  notify(method: string, params?: Record<string, unknown>): void;
  /** Cancels this extension's running call(s) with that request id: each is answered −32009. */
  cancel(requestId: RequestId, reason?: string): boolean;
  /** A bridge world by id; a missing one throws −32052 world_not_found. */
  world(id: string): ExtensionWorld;
}

/** The one call an extension handler serves. */
export interface ExtensionCall extends ExtensionHandle {
  /** The request's id; undefined when the client sent it as a notification (it gets no answer). */
  readonly id: RequestId | undefined;
  readonly method: string;
  /** Aborts when the call is cancelled or the engine shuts down; the call is answered −32009 then. */
  readonly signal: SignalLike;
  /**
   * As the handle's notify, for this call: it is sent before the call's response, and dropped
   * once the call was answered or cancelled.
   */
  notify(method: string, params?: Record<string, unknown>): void;
}

/** Returns the result (any JSON value), or a promise of it; throws to answer with an error. */
export type ExtensionHandler = (params: ExtensionParams, call: ExtensionCall) => unknown;

export interface BridgeExtension {
  /** The namespace the extension owns: a name ending in "/" or ".", e.g. "game/", "mygame.". */
  prefix: string;
  /** Its methods by full name, each starting with `prefix`. */
  methods: Record<string, ExtensionHandler>;
  /** The notifications it may send, by full name, each starting with `prefix`. */
  notifications?: readonly string[];
  /** Runs when the engine shuts down (or closes), after the extension's running calls were cancelled. */
  shutdown?(): void | Promise<void>;
}

/** An error an extension answers with: its own code in −32057…−32099 and `data.code` name. */
export class ExtensionError extends BridgeError {
  constructor(error: { code: number; message: string; data: { code: string; [key: string]: unknown } }) {
    const problem = extensionErrorProblem(error);
    if (problem) throw new AgentError('invalid_request', problem, { unexpected: true });
    const { code: dataCode, ...rest } = error.data;
    super('internal_error', error.message, rest);
    this.name = 'ExtensionError';
    const own = this as unknown as { rpcCode: number; dataCode: string };
    own.rpcCode = error.code;
    own.dataCode = dataCode;
    Object.setPrototypeOf(this, ExtensionError.prototype);
  }
}

const BUILT_IN_ERROR_NAMES: readonly string[] = [...AGENT_ERROR_CODES, ...Object.keys(BRIDGE_CODES)];

function extensionErrorProblem(error: { code: unknown; message: unknown; data: unknown }): string | undefined {
  if (!isRecord(error)) return 'An ExtensionError needs {code, message, data: {code}}.';
  const { code, message, data } = error;
  if (typeof code !== 'number' || !Number.isInteger(code) || code < EXTENSION_CODE_MIN || code > EXTENSION_CODE_MAX)
    return `An extension's error code must be a whole number from ${EXTENSION_CODE_MAX} to ${EXTENSION_CODE_MIN}; got ${String(code)}.`;
  if (typeof message !== 'string') return 'An ExtensionError needs a message (a string).';
  const name = isRecord(data) ? data.code : undefined;
  if (typeof name !== 'string' || !/^[a-z][a-z0-9_]{0,63}$/.test(name))
    return `An ExtensionError needs data.code, a snake_case name (a-z, 0-9, _); got ${JSON.stringify(name)}.`;
  if (BUILT_IN_ERROR_NAMES.indexOf(name) >= 0)
    return `data.code "${name}" is a built-in error name; an extension's error needs a name of its own.`;
  return undefined;
}

const PREFIX_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*(?:[./][A-Za-z0-9_-]+)*[./]$/;
const NAME_TAIL_PATTERN = /^[A-Za-z0-9_-]+(?:[./][A-Za-z0-9_-]+)*$/;
const MAX_PREFIX_LENGTH = 64;
const MAX_NAME_LENGTH = 128;
/** JSON-RPC 2.0 keeps names starting "rpc." for itself. */
const RESERVED_WORDS = ['rpc'];

const firstWord = (name: string) => name.split(/[./]/)[0].toLowerCase();

interface RunningCall {
  id: RequestId | undefined;
  canceller: Canceller;
}

interface Registered {
  extension: BridgeExtension;
  prefix: string;
  methods: Map<string, ExtensionHandler>;
  notifications: string[];
  running: Set<RunningCall>;
  handle: ExtensionHandle;
}

export interface ExtensionHostSettings {
  /** Every built-in name: methods, notifications, client requests. */
  builtIns: readonly string[];
  send(method: string, params: Record<string, unknown>): void;
  world(id: string): { id: string; state: WorldState };
  log(message: string, error?: unknown): void;
}

function refuse(message: string): AgentError {
  return new AgentError('invalid_request', message);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** The extensions of one engine: their registration, their calls and their shutdown. */
export class ExtensionHost {
  private readonly registered: Registered[] = [];
  private readonly handlers = new Map<string, { entry: Registered; handler: ExtensionHandler }>();
  private closed = false;

  constructor(private readonly settings: ExtensionHostSettings) {}

  /** Checks the whole extension, then adds it; a refusal (AgentError invalid_request) changes nothing. */
  register(extension: BridgeExtension): ExtensionHandle {
    if (this.closed) throw refuse('The bridge was shut down; no extension can be registered any more.');
    const entry = this.checked(extension);
    this.registered.push(entry);
    for (const [name, handler] of entry.methods) this.handlers.set(name, { entry, handler });
    return entry.handle;
  }

  /** The handler the engine dispatches an extension method to. */
  handler(method: string): MethodHandler | undefined {
    const found = this.handlers.get(method);
    if (!found) return undefined;
    return (params, request) => this.run({ ...found, method, params, id: request.id });
  }

  methodNames(): string[] {
    return this.registered.flatMap((entry) => Array.from(entry.methods.keys()));
  }

  notificationNames(): string[] {
    return this.registered.flatMap((entry) => entry.notifications);
  }

  /** Cancels every running call, then runs each extension's shutdown (its failure is logged). */
  shutdown(): Promise<void> {
    this.closed = true;
    const stopping = this.registered.map((entry) => {
      for (const call of Array.from(entry.running))
        call.canceller.abort(new AgentError('cancelled', 'The bridge is shutting down.'));
      return Promise.resolve()
        .then(() => (entry.extension.shutdown ? entry.extension.shutdown() : undefined))
        .then(undefined, (error) =>
          this.settings.log(`BridgeEngine: the shutdown of extension "${entry.prefix}" threw`, error),
        );
    });
    return Promise.all(stopping).then(() => undefined);
  }

  private checked(extension: BridgeExtension): Registered {
    if (!isRecord(extension)) throw refuse('An extension must be an object with a prefix and methods.');
    const prefix = extension.prefix;
    if (typeof prefix !== 'string' || prefix.length > MAX_PREFIX_LENGTH || !PREFIX_PATTERN.test(prefix)) {
      throw refuse(
        `An extension's prefix must be a name ending in "/" or "." (e.g. "game/", "mygame."), at most ${MAX_PREFIX_LENGTH} characters; got ${JSON.stringify(prefix)}.`,
      );
    }
    const word = firstWord(prefix);
    const builtIn = this.settings.builtIns.find((name) => firstWord(name) === word);
    if (builtIn !== undefined || RESERVED_WORDS.indexOf(word) >= 0) {
      throw refuse(
        `Extension prefix "${prefix}" collides with the built-in ${builtIn !== undefined ? `"${builtIn}"` : `"${word}." names`}; choose a namespace of your own.`,
      );
    }
    const lower = prefix.toLowerCase();
    const other = this.registered.find(
      (entry) => entry.prefix.toLowerCase().startsWith(lower) || lower.startsWith(entry.prefix.toLowerCase()),
    );
    if (other) throw refuse(`Extension prefix "${prefix}" overlaps the prefix "${other.prefix}" of another extension.`);
    if (!isRecord(extension.methods))
      throw refuse(`Extension "${prefix}" needs methods: an object of handlers by full method name.`);
    const methods = new Map<string, ExtensionHandler>();
    for (const name of Object.keys(extension.methods)) {
      this.checkName(prefix, name, 'method');
      const handler = extension.methods[name];
      if (typeof handler !== 'function') throw refuse(`Extension method "${name}" needs a handler function.`);
      methods.set(name, handler);
    }
    const declared = extension.notifications ?? [];
    if (!Array.isArray(declared)) throw refuse(`Extension "${prefix}": notifications must be a list of names.`);
    const notifications: string[] = [];
    for (const name of declared) {
      this.checkName(prefix, name, 'notification');
      if (methods.has(name) || notifications.indexOf(name) >= 0)
        throw refuse(`Extension "${prefix}" names "${name}" twice (a name is one method or one notification).`);
      notifications.push(name);
    }
    if (extension.shutdown !== undefined && typeof extension.shutdown !== 'function')
      throw refuse(`Extension "${prefix}": shutdown must be a function.`);
    const entry = { extension, prefix, methods, notifications, running: new Set<RunningCall>() };
    return { ...entry, handle: this.handleOf(entry) };
  }

  private checkName(prefix: string, name: unknown, kind: string): void {
    if (typeof name !== 'string' || !name.startsWith(prefix)) {
      throw refuse(
        `Extension "${prefix}" does not own the ${kind} ${JSON.stringify(name)}: its names start "${prefix}".`,
      );
    }
    if (name.length > MAX_NAME_LENGTH || !NAME_TAIL_PATTERN.test(name.slice(prefix.length))) {
      throw refuse(
        `Extension ${kind} "${name}" must be "${prefix}" and a name of letters, digits, _ - . /, at most ${MAX_NAME_LENGTH} characters in all.`,
      );
    }
  }

  private handleOf(entry: Omit<Registered, 'handle'>): ExtensionHandle {
    return {
      prefix: entry.prefix,
      notify: (method, params) => {
        this.checkNotification(entry, method, params);
        if (!this.closed) this.settings.send(method, params ?? {});
      },
      cancel: (requestId, reason) => {
        let cancelled = false;
        for (const call of Array.from(entry.running)) {
          if (call.id === undefined || call.id !== requestId || call.canceller.signal.aborted) continue;
          call.canceller.abort(new AgentError('cancelled', reason ?? 'The request was cancelled.'));
          cancelled = true;
        }
        return cancelled;
      },
      world: (id) => this.worldView(id),
    };
  }

  private checkNotification(entry: Omit<Registered, 'handle'>, method: string, params: unknown): void {
    if (entry.notifications.indexOf(method) < 0) {
      throw new AgentError(
        'invalid_request',
        `Extension "${entry.prefix}" did not declare the notification "${String(method)}" (declare it in notifications).`,
        { unexpected: true },
      );
    }
    if (params !== undefined && !isRecord(params))
      throw new AgentError('invalid_request', `The params of "${method}" must be an object.`, { unexpected: true });
    const problem = params === undefined ? undefined : valueProblem(params, 'params');
    if (problem) throw new AgentError('invalid_request', `"${method}": ${problem}`, { unexpected: true });
  }

  private worldView(id: string): ExtensionWorld {
    const world = this.settings.world(id);
    return {
      id: world.id,
      get version() {
        return world.state.version;
      },
      get: (path = '') => {
        try {
          return world.state.get(path);
        } catch (error) {
          if (error instanceof WorldStateError)
            throw new BridgeError('world_error', error.message, { world: world.id, path: error.path });
          throw error;
        }
      },
    };
  }

  private run(call: {
    entry: Registered;
    handler: ExtensionHandler;
    method: string;
    params: unknown;
    id: RequestId | undefined;
  }): unknown {
    const { entry } = call;
    const running: RunningCall = { id: call.id, canceller: new Canceller() };
    const signal = running.canceller.signal;
    let over = false;
    const end = () => {
      over = true;
      entry.running.delete(running);
    };
    const context: ExtensionCall = {
      ...entry.handle,
      id: call.id,
      method: call.method,
      signal,
      notify: (method, params) => {
        this.checkNotification(entry, method, params);
        if (!over && !signal.aborted && !this.closed) this.settings.send(method, params ?? {});
      },
    };
    entry.running.add(running);
    let value: unknown;
    try {
      value = call.handler(new ParamReader(call.params), context);
    } catch (error) {
      end();
      throw this.reported(call.method, error);
    }
    if (!isThenable(value)) {
      end();
      return value;
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        end();
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort);
      Promise.resolve(value).then(
        (result) => {
          if (over) return;
          signal.removeEventListener('abort', onAbort);
          end();
          resolve(result);
        },
        (error) => {
          if (over) return;
          signal.removeEventListener('abort', onAbort);
          end();
          reject(this.reported(call.method, error));
        },
      );
    });
  }

  /** An extension's bug (not an AgentError or a bridge error) is logged for the host; the client gets −32603. */
  private reported(method: string, error: unknown): unknown {
    const known = (error instanceof AgentError && !error.unexpected) || error instanceof BridgeError;
    if (!known) this.settings.log(`BridgeEngine: extension method "${method}" threw`, error);
    return error;
  }
}
