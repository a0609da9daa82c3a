/**
 * BridgeEngine: JSON-RPC 2.0 protocol v1.0 (reference §3) over the agent core and the game
 * layer. A host feeds it one line at a time (`receive`) and writes out every line it `send`s:
 * a native plugin, a web worker, a test tool, the editor preview. Requests are handled in
 * arrival order (their order-sensitive part before the next line is read); output is emitted
 * serially, never re-entered, and each request gets exactly one response, after every event
 * and `tool/call` it caused.
 */
import { AgentError } from '../contract/errors';
import type { LanguageModel, ModelAvailability } from '../contract/language-model';
import { ClientToolCalls } from './client-tools';
import type { BridgeContext, MethodGroup, MethodHandler } from './context';
import { coreMethods, NOTIFICATIONS } from './core-methods';
import { decisionContentMethods } from './decision-content-methods';
import { BRIDGE_CODES, BridgeError, invalidParams, toRpcError } from './errors';
import { ExtensionHost, type BridgeExtension, type ExtensionHandle } from './extensions';
import { shown } from './shown';
import { valueProblem } from './value-limits';
import {
  errorLine,
  notificationLine,
  parseLine,
  requestLine,
  resultLine,
  type Incoming,
  type RequestId,
} from './framing';
import type { ModelFactory } from './models';
import { npcMethods } from './npc-methods';
import { NpcRegistry } from './npc-registry';
import { sessionMethods } from './session-methods';
import { systemTimers, type BridgeTimers } from './timers';
import { worldMethods } from './world-methods';
import { WorldRegistry } from './world-registry';

export interface BridgeEngineOptions {
  /** Receives every outgoing message, one JSON object per call, without a newline. */
  send: (line: string) => void;
  /** The model behind `"system"`; without one, turns on it fail with model_unavailable. */
  systemModel?: LanguageModel;
  /** Builds models for custom `{"type": …}` specs (asked first, also for "scripted"). */
  modelFactory?: ModelFactory;
  /** What `model/availability` reports (default: the system model's availability()). */
  modelAvailability?: () => Promise<ModelAvailability>;
  /** Default 64. */
  maxSessions?: number;
  /** Default true. */
  allowsScriptedModels?: boolean;
  /** How long a `tool/call` waits for the client by default (seconds; 0 = forever). Default 120. */
  defaultToolTimeoutSeconds?: number;
  /** Timers and clock (injectable for tests). */
  timers?: BridgeTimers;
  /** Runs after the `shutdown` response was sent. */
  onShutdown?: () => void;
  /** Reported as `server.version`. */
  serverVersion?: string;
  /** How long `shutdown` waits for cancelled work to settle (ms). Default 2000. */
  shutdownGraceMs?: number;
  /** Told about a `send` that threw, or an extension that did (the engine carries on). Default console.warn. */
  logger?: (message: string, error?: unknown) => void;
  /** The host's own methods (src/bridge/extensions.ts), registered in order; a refused one throws. */
  extensions?: readonly BridgeExtension[];
}

const DEFAULT_MAX_SESSIONS = 64;
const DEFAULT_TOOL_TIMEOUT_SECONDS = 120;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** The result line, or an internal error when the result cannot be written as JSON (a cycle, a BigInt). */
function writtenResult(id: RequestId, result: unknown): string {
  try {
    return resultLine(id, result);
  } catch (error) {
    return writtenError(id, error);
  }
}

/** The error line; when the error's own details cannot be written, a plain internal error. */
function writtenError(id: RequestId | null, error: unknown): string {
  try {
    return errorLine(id, toRpcError(error));
  } catch {
    return errorLine(id, {
      code: BRIDGE_CODES.internal_error,
      message: 'Internal error.',
      data: { code: 'internal_error' },
    });
  }
}

export class BridgeEngine {
  private readonly options: BridgeEngineOptions;
  private readonly outbox: string[] = [];
  private flushing = false;
  /** Own names only: a method called "constructor" or "__proto__" is unknown, not Object.prototype's. */
  private readonly methods: Map<string, MethodHandler>;
  private readonly groups: MethodGroup[];
  private readonly extensions: ExtensionHost;
  private readonly inFlight = new Set<Promise<unknown>>();
  private shutDown = false;
  private readonly timers: BridgeTimers;

  constructor(options: BridgeEngineOptions) {
    if (!options || typeof options.send !== 'function')
      throw new TypeError('BridgeEngine needs a send(line) function.');
    this.options = options;
    this.timers = options.timers ?? systemTimers;
    const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    if (!Number.isInteger(maxSessions) || maxSessions < 1) {
      throw new AgentError('invalid_request', `maxSessions must be a whole number ≥ 1; got ${String(maxSessions)}.`);
    }
    const toolTimeout = options.defaultToolTimeoutSeconds ?? DEFAULT_TOOL_TIMEOUT_SECONDS;
    if (typeof toolTimeout !== 'number' || !(toolTimeout >= 0 && toolTimeout <= 86400)) {
      throw new AgentError(
        'invalid_request',
        `defaultToolTimeoutSeconds must be 0 (forever) to 86400; got ${String(toolTimeout)}.`,
      );
    }
    const context: BridgeContext = {
      notify: (method, params) => this.emit(notificationLine(method, params)),
      toolCalls: new ClientToolCalls(
        {
          request: (id, method, params) => this.emit(requestLine(id, method, params)),
          notify: (method, params) => this.emit(notificationLine(method, params)),
        },
        this.timers,
      ),
      timers: this.timers,
      models: {
        systemModel: options.systemModel,
        modelFactory: options.modelFactory,
        allowsScriptedModels: options.allowsScriptedModels ?? true,
      },
      defaultToolTimeoutSeconds: toolTimeout,
      createdAt: () => new Date(this.timers.now()).toISOString(),
    };
    this.toolCalls = context.toolCalls;
    const worlds = new WorldRegistry();
    const npcs = new NpcRegistry();
    this.groups = [
      sessionMethods(context, maxSessions),
      npcMethods(context, worlds, npcs),
      worldMethods(context, worlds),
      decisionContentMethods(context, npcs),
    ];
    const core = coreMethods({
      serverVersion: options.serverVersion ?? '1.0.0',
      maxSessions,
      methods: () => Array.from(this.methods.keys()).concat(['shutdown'], this.extensions.methodNames()),
      systemModel: options.systemModel,
      modelAvailability: options.modelAvailability,
      allowsScriptedModels: options.allowsScriptedModels ?? true,
    });
    this.methods = new Map();
    const tables: Array<Record<string, MethodHandler>> = [core, ...this.groups.map((group) => group.methods)];
    for (const table of tables) for (const name of Object.keys(table)) this.methods.set(name, table[name]);
    // initialize lists the extensions' notifications after the built-in ones, as the seed does.
    this.methods.set('initialize', async (raw) => {
      const result = await core.initialize(raw);
      const notifications = result.capabilities.notifications.concat(this.extensions.notificationNames());
      return { ...result, capabilities: { ...result.capabilities, notifications } };
    });
    this.extensions = new ExtensionHost({
      builtIns: Array.from(this.methods.keys()).concat(['shutdown', 'tool/call'], NOTIFICATIONS),
      send: (method, params) => this.emit(notificationLine(method, params)),
      world: (id) => worlds.get(id),
      log: (message, error) => this.log(message, error),
    });
    for (const extension of options.extensions ?? []) this.extensions.register(extension);
  }

  /**
   * Adds a host extension: its methods answer like built-ins and appear in `initialize`. Refused
   * (AgentError invalid_request, nothing changed) when a name collides with a built-in or another
   * extension's prefix, or lies outside its own prefix, and after shutdown.
   */
  registerExtension(extension: BridgeExtension): ExtensionHandle {
    if (this.shutDown) throw new AgentError('invalid_request', 'The bridge was shut down; no extension can be added.');
    return this.extensions.register(extension);
  }

  private handlerOf(method: string): MethodHandler | undefined {
    return this.methods.get(method) ?? this.extensions.handler(method);
  }

  private readonly toolCalls: ClientToolCalls;

  /** True once `shutdown` was received: later requests get −32023. */
  get isShutDown(): boolean {
    return this.shutDown;
  }

  /** Handles one incoming line (a request, a notification, or a reply to `tool/call`). Never throws. */
  receive(line: string): void {
    let id: RequestId | null = null;
    try {
      const incoming = parseLine(typeof line === 'string' ? line : String(line));
      if (incoming.kind === 'request') id = incoming.id;
      this.dispatch(incoming);
    } catch (error) {
      // A bug of the host's own: the request still gets its one answer, and the host carries on.
      this.emit(writtenError(id, error));
    }
  }

  private dispatch(incoming: Incoming): void {
    switch (incoming.kind) {
      case 'blank':
        return;
      case 'invalid':
        // A message that is not JSON-RPC but has a readable id gets that id back (the seed does).
        this.emit(errorLine(incoming.id ?? null, incoming.error));
        return;
      case 'reply':
        // Replies bypass every queue; one to an unknown, answered or timed-out call is ignored.
        // An answer past the value limits fails its call with the reason, as a tool error.
        if (incoming.problem)
          this.toolCalls.reply(incoming.id, undefined, {
            message: `The client's answer was refused: ${incoming.problem}`,
          });
        else this.toolCalls.reply(incoming.id, incoming.result, incoming.error);
        return;
      case 'notification':
        if (!incoming.problem) this.notification(incoming.method, incoming.params);
        return;
      case 'request':
        if (incoming.problem) {
          this.emit(errorLine(incoming.id, toRpcError(invalidParams(incoming.problem))));
          return;
        }
        this.request(incoming.id, incoming.method, incoming.params);
        return;
    }
  }

  /**
   * Sends a request as if it had arrived as a line (in-process hosts): the same limits apply, and
   * params JSON cannot write (a cycle, a BigInt) are answered as invalid params under the id,
   * never thrown.
   */
  call(method: string, params?: unknown, id: RequestId = `c-${++this.callCounter}`): void {
    const problem = valueProblem(params, 'params');
    if (problem) {
      this.emit(errorLine(id, toRpcError(invalidParams(problem))));
      return;
    }
    let line: string;
    try {
      line = JSON.stringify(
        params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params },
      );
    } catch (error) {
      this.emit(
        errorLine(id, toRpcError(invalidParams(`params cannot be written as JSON: ${(error as Error).message}`))),
      );
      return;
    }
    this.receive(line);
  }

  private callCounter = 0;

  private notification(method: string, params: unknown): void {
    const handler = this.handlerOf(method);
    if (this.shutDown || !handler || method === 'shutdown') return;
    try {
      const value = handler(params, { id: undefined });
      if (isThenable(value)) value.then(undefined, () => undefined);
    } catch {
      // A notification gets no response, not even an error.
    }
  }

  private request(id: RequestId, method: string, params: unknown): void {
    if (this.shutDown) {
      this.emit(errorLine(id, toRpcError(new BridgeError('shut_down', 'The bridge was shut down.'))));
      return;
    }
    if (method === 'shutdown') {
      this.shutdown(id);
      return;
    }
    const handler = this.handlerOf(method);
    if (handler && params !== undefined && params !== null && (typeof params !== 'object' || Array.isArray(params))) {
      // Params are by name, for every method, those that take none included.
      this.emit(errorLine(id, toRpcError(invalidParams('params must be an object (params are by name).'))));
      return;
    }
    if (!handler) {
      const name = shown(method);
      this.emit(
        errorLine(id, toRpcError(new BridgeError('method_not_found', `Unknown method "${name}".`, { method: name }))),
      );
      return;
    }
    let value: unknown;
    try {
      value = handler(params, { id });
    } catch (error) {
      this.emit(errorLine(id, toRpcError(error)));
      return;
    }
    if (!isThenable(value)) {
      this.emit(writtenResult(id, value));
      return;
    }
    const settled = Promise.resolve(value).then(
      (result) => this.emit(writtenResult(id, result)),
      (error) => this.emit(writtenError(id, error)),
    );
    this.inFlight.add(settled);
    settled.then(() => this.inFlight.delete(settled));
  }

  private shutdown(id: RequestId): void {
    this.shutDown = true;
    this.stopping = this.stopAll().then(() => {
      this.emit(resultLine(id, {}));
      if (this.options.onShutdown) this.options.onShutdown();
    });
  }

  /** The shutdown or close in progress, so a close() during a shutdown waits for it. */
  private stopping: Promise<void> | undefined;

  /**
   * Ends the engine without a `shutdown` request, for a host whose input closed (the client is
   * gone): running requests get up to `waitMs` to finish and answer, then what is left is
   * cancelled as shutdown cancels it (a tool/call nobody can answer any more among it). Later
   * requests get −32023. Resolves once it is over; onShutdown is not called.
   */
  close(waitMs = 0): Promise<void> {
    if (this.stopping) return this.stopping;
    this.shutDown = true;
    const waited =
      waitMs > 0 && this.inFlight.size > 0
        ? this.within(Promise.all(Array.from(this.inFlight)), waitMs)
        : Promise.resolve();
    this.stopping = waited.then(() => this.stopAll());
    return this.stopping;
  }

  /** Cancels everything and waits for it to settle, at most shutdownGraceMs. */
  private stopAll(): Promise<void> {
    const cancelled = Promise.all([
      ...this.groups.map((group) => group.shutdown().catch(() => undefined)),
      this.extensions.shutdown(),
    ]);
    const work = Promise.all([cancelled, Promise.all(Array.from(this.inFlight))]);
    return this.within(work, this.options.shutdownGraceMs ?? 2000);
  }

  /** `work`, or `ms` on the engine's timers, whichever comes first. */
  private within(work: Promise<unknown>, ms: number): Promise<void> {
    let timer: unknown;
    const waited = new Promise<void>((resolve) => {
      timer = this.timers.setTimeout(resolve, ms);
    });
    return Promise.race([work, waited]).then(() => this.timers.clearTimeout(timer));
  }

  private log(message: string, error?: unknown): void {
    (this.options.logger ?? ((text, cause) => console.warn(text, cause)))(message, error);
  }

  /** Queues a line and sends it unless a send is already running (a host that calls receive from send). */
  private emit(line: string): void {
    this.outbox.push(line);
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.outbox.length > 0) {
        const next = this.outbox.shift() as string;
        try {
          this.options.send(next);
        } catch (error) {
          this.log('BridgeEngine: send threw', error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
