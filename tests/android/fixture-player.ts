/**
 * Test doubles for the native side of the bridge: FixturePlayer replays a recorded exchange
 * from fixtures/bridge/ (it checks every JS→native message against the recording and answers
 * with the recorded native→JS messages), ScriptedNative lets a test answer by hand.
 */
import * as fs from 'fs';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';
import type { BridgeTransport } from '../../src/models/gemini-nano';

export interface FixtureStep {
  dir: 'js->native' | 'native->js';
  message: Record<string, unknown>;
}
export interface JsCall {
  call: 'availability' | 'download' | 'modelInfo' | 'generate' | 'countTokens' | 'prewarm';
  request?: Record<string, unknown>;
  text?: string;
  abortAfterChunks?: number;
  /** Disposes the model (the JS context going away) after this many chunks. */
  disposeAfterChunks?: number;
  expect: {
    result?: unknown;
    error?: { code: string; retryAfterMs?: number; nativeCode?: number };
    chunks?: string[];
    progress?: unknown[];
  };
}
export interface BridgeFixture {
  name: string;
  description: string;
  steps: FixtureStep[];
  mlkit?: unknown;
  /** GeminiNanoModel options the exchange was recorded with (beyond the transport). */
  model?: Record<string, unknown>;
  js: JsCall[];
}

export const FIXTURE_DIR = path.join(__dirname, '..', '..', 'fixtures', 'bridge');

export function loadFixtures(): BridgeFixture[] {
  return fs
    .readdirSync(FIXTURE_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(fs.readFileSync(path.join(FIXTURE_DIR, file), 'utf8')) as BridgeFixture);
}

export function loadFixture(name: string): BridgeFixture {
  return JSON.parse(fs.readFileSync(path.join(FIXTURE_DIR, `${name}.json`), 'utf8')) as BridgeFixture;
}

type Message = Record<string, unknown>;

/** A copy of `message` with its `id` and `params.id` passed through `map`. */
function mapIds(message: Message, map: (id: unknown) => unknown): Message {
  const out: Message = { ...message };
  if (out.id !== undefined && out.id !== null) out.id = map(out.id);
  const params = out.params as Message | undefined;
  if (params && typeof params === 'object' && params.id !== undefined) out.params = { ...params, id: map(params.id) };
  return out;
}

/**
 * Plays the native side of one fixture. Fixtures record ids as 1, 2, 3…; the JS side sends
 * its own unique string ids, so the player pairs each JS id with the recorded one on first
 * use and translates both ways.
 */
export class FixturePlayer implements BridgeTransport {
  private next = 0;
  private readonly jsIdOf = new Map<unknown, unknown>();
  private readonly fixtureIdOf = new Map<unknown, unknown>();
  private listeners: Array<(message: string) => void> = [];
  readonly mismatches: string[] = [];
  readonly sent: unknown[] = [];

  constructor(private readonly steps: FixtureStep[]) {}

  send(message: string): void {
    const parsed: unknown = JSON.parse(message);
    this.sent.push(parsed);
    const step = this.steps[this.next];
    if (!step || step.dir !== 'js->native') {
      this.mismatches.push(`unexpected JS message #${this.sent.length}: ${message}`);
      return;
    }
    const recordedId = step.message.id;
    const jsId = (parsed as Message).id;
    if (recordedId !== undefined && jsId !== undefined && !this.fixtureIdOf.has(jsId) && !this.jsIdOf.has(recordedId)) {
      this.fixtureIdOf.set(jsId, recordedId);
      this.jsIdOf.set(recordedId, jsId);
    }
    const translated = mapIds(parsed as Message, (id) => this.fixtureIdOf.get(id) ?? id);
    if (!isDeepStrictEqual(translated, step.message)) {
      this.mismatches.push(`step ${this.next}: expected ${JSON.stringify(step.message)}, JS sent ${message}`);
    }
    this.next++;
    this.deliverNative();
  }

  onMessage(listener: (message: string) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((other) => other !== listener);
    };
  }

  get finished(): boolean {
    return this.next === this.steps.length;
  }

  get remaining(): FixtureStep[] {
    return this.steps.slice(this.next);
  }

  /** Native messages arrive later, one per macrotask, as the engine's game-thread queue does. */
  private deliverNative(): void {
    const step = this.steps[this.next];
    if (!step || step.dir !== 'native->js') return;
    this.next++;
    setTimeout(() => {
      const text = JSON.stringify(mapIds(step.message, (id) => this.jsIdOf.get(id) ?? id));
      for (const listener of this.listeners.slice()) listener(text);
      this.deliverNative();
    }, 0);
  }
}

export interface IncomingRequest {
  id?: string;
  method: string;
  params: Record<string, unknown>;
}

/** A native side the test drives by hand: `onRequest` sees every JS message, `emit` answers. */
export class ScriptedNative implements BridgeTransport {
  private listeners: Array<(message: string) => void> = [];
  readonly received: IncomingRequest[] = [];
  onRequest: (request: IncomingRequest) => void = () => undefined;
  failSend = false;
  /** Set by a test to stand for a transport that can tell why native is silent. */
  diagnose?: () => string | undefined;

  send(message: string): void {
    if (this.failSend) throw new Error('jsbBridgeWrapper is not available');
    const parsed = JSON.parse(message) as IncomingRequest;
    this.received.push(parsed);
    this.onRequest(parsed);
  }

  onMessage(listener: (message: string) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((other) => other !== listener);
    };
  }

  get listenerCount(): number {
    return this.listeners.length;
  }

  /** Sends a raw string or a JSON value to JS, asynchronously. */
  emit(message: unknown): void {
    const text = typeof message === 'string' ? message : JSON.stringify({ jsonrpc: '2.0', ...(message as object) });
    setTimeout(() => {
      for (const listener of this.listeners.slice()) listener(text);
    }, 0);
  }

  methods(): string[] {
    return this.received.map((request) => request.method);
  }

  /** Answers ready and modelInfo like a nano-v3 device, and hands everything else to `handler`. */
  static device(
    handler: (request: IncomingRequest, native: ScriptedNative) => void,
    info: Record<string, unknown> = {},
  ): ScriptedNative {
    const native = new ScriptedNative();
    native.onRequest = (request) => {
      if (request.method === 'ready') native.emit({ id: request.id, result: { protocol: 1 } });
      else if (request.method === 'modelInfo')
        native.emit({
          id: request.id,
          result: {
            baseModelName: 'nano-v3',
            tokenLimit: 4000,
            systemInstructions: true,
            prefixCaching: true,
            thinking: false,
            ...info,
          },
        });
      else handler(request, native);
    };
    return native;
  }
}

/** Waits for pending timers and microtasks to run (real timers). */
export function settle(ms = 5): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
