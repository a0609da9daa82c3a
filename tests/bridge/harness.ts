/**
 * Drives a BridgeEngine the way a host does: JSON lines in, every line out recorded in order.
 * Timers are fake (counted, advanced by hand), so no test waits on the wall clock.
 */
import { BridgeEngine, type BridgeEngineOptions, type BridgeTimers } from '../../src/bridge';

/** A parsed message, its members read as a test reads them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Message = Record<string, any>;

export class FakeTimers implements BridgeTimers {
  private now_ = 1_700_000_000_000;
  private nextHandle = 1;
  private readonly pending = new Map<number, { at: number; callback: () => void }>();

  setTimeout(callback: () => void, ms: number): unknown {
    const handle = this.nextHandle++;
    this.pending.set(handle, { at: this.now_ + ms, callback });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  now(): number {
    return this.now_;
  }

  get count(): number {
    return this.pending.size;
  }

  /** Moves the clock on and fires every timer that is due, in order. */
  advance(ms: number): void {
    this.now_ += ms;
    const due = Array.from(this.pending.entries())
      .filter(([, tool]) => tool.at <= this.now_)
      .sort((left, right) => left[1].at - right[1].at);
    for (const [handle, timer] of due) {
      this.pending.delete(handle);
      timer.callback();
    }
  }
}

/** Every harness of a test is shut down after it, so no scripted delay outlives the test. */
const open: Harness[] = [];
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close();
});

export type ToolAnswer = (params: Message, message: Message) => Message | undefined;

export class Harness {
  readonly out: Message[] = [];
  readonly raw: string[] = [];
  readonly timers = new FakeTimers();
  readonly engine: BridgeEngine;
  /** Answers `tool/call` requests as they are sent (from inside send, as a real host may). */
  answerTools?: ToolAnswer;
  /** Sees every message as it is sent (and may send more from there, as a host may). */
  onMessage?: (message: Message) => void;
  private nextId = 1;

  constructor(options: Partial<BridgeEngineOptions> = {}) {
    open.push(this);
    this.engine = new BridgeEngine({
      timers: this.timers,
      ...options,
      send: (line) => {
        this.raw.push(line);
        const message = JSON.parse(line) as Message;
        this.out.push(message);
        if (this.onMessage) this.onMessage(message);
        if (message.method === 'tool/call' && this.answerTools) {
          const reply = this.answerTools(message.params, message);
          if (reply) this.engine.receive(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...reply }));
        }
      },
    });
  }

  /** Shuts the engine down (cancelling what still runs) unless the test already did. */
  async close(): Promise<void> {
    if (this.engine.isShutDown) return;
    const id = this.start('shutdown');
    await this.settle(5);
    if (!this.response(id)) this.timers.advance(2000);
    await this.waitFor(id);
  }

  line(text: string): void {
    this.engine.receive(text);
  }

  send(message: Message): void {
    this.engine.receive(JSON.stringify({ jsonrpc: '2.0', ...message }));
  }

  /** Sends a request without waiting; returns its id. */
  start(method: string, params?: unknown, id: string | number = `r${this.nextId++}`): string | number {
    this.send(params === undefined ? { id, method } : { id, method, params });
    return id;
  }

  /** Lets every queued task run (turns on scripted models finish within a few rounds). */
  async settle(rounds = 50): Promise<void> {
    for (let round = 0; round < rounds; round++) await new Promise((resolve) => setImmediate(resolve));
  }

  response(id: string | number): Message | undefined {
    return this.out.find(
      (message) => message.id === id && ('result' in message || 'error' in message) && message.method === undefined,
    );
  }

  async waitFor(id: string | number): Promise<Message> {
    for (let attempt = 0; attempt < 400; attempt++) {
      const found = this.response(id);
      if (found) return found;
      await new Promise((resolve) => setImmediate(resolve));
    }
    throw new Error(`no response to ${id}; got ${JSON.stringify(this.out.slice(-5))}`);
  }

  /** Sends a request and waits for its response; fails the test on an error response. */
  async call(method: string, params?: unknown): Promise<Message> {
    const message = await this.waitFor(this.start(method, params));
    if (message.error) throw new Error(`${method} failed: ${JSON.stringify(message.error)}`);
    return message.result;
  }

  async error(method: string, params?: unknown): Promise<Message> {
    const message = await this.waitFor(this.start(method, params));
    if (!message.error) throw new Error(`${method} did not fail: ${JSON.stringify(message.result)}`);
    return message.error;
  }

  notifications(method: string): Message[] {
    return this.out
      .filter((message) => message.method === method && message.id === undefined)
      .map((message) => message.params);
  }

  /** Index of the first message matching `test` in the output. */
  indexOf(test: (message: Message) => boolean): number {
    return this.out.findIndex(test);
  }
}

export const scripted = (steps: unknown[], fallback?: unknown) =>
  fallback === undefined ? { type: 'scripted', steps } : { type: 'scripted', steps, fallback };
