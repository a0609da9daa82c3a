/**
 * Sessions by id, bounded (AgentRunner's 'refuse' rule; see docs/bridge-protocol.md for why the bridge keeps
 * its own store: each protocol session brings its own model, an AgentRunner has one): ids `s1`, `s2`, … when the client sends none, 1–128 printable
 * characters when it does, −32021 for a taken id and −32022 (with `data.limit`) when full.
 */
import { checkSessionId } from '../core/sessions';
import { BridgeError, readingParams } from './errors';

export class SessionStore<T> {
  private readonly sessions = new Map<string, T>();
  private counter = 0;

  constructor(readonly limit: number) {}

  /** AgentRunner's rule for ids: 1–128 printable characters (−32602 otherwise). */
  checkId(id: string): string {
    return readingParams(() => checkSessionId(id));
  }

  nextId(): string {
    let id: string;
    do id = `s${++this.counter}`;
    while (this.sessions.has(id));
    return id;
  }

  get(id: string): T | undefined {
    return this.sessions.get(id);
  }

  /** Refuses a taken id or a full store before anything is built for the session. */
  checkRoom(id: string): void {
    if (this.sessions.has(id))
      throw new BridgeError('session_exists', `Session "${id}" exists already.`, { session: id });
    this.checkFull();
  }

  checkFull(): void {
    if (this.sessions.size >= this.limit) {
      throw new BridgeError('session_limit', `At most ${this.limit} sessions; delete one first.`, {
        limit: this.limit,
      });
    }
  }

  add(id: string, session: T): void {
    this.checkRoom(id);
    this.sessions.set(id, session);
  }

  delete(id: string): boolean {
    return this.sessions.delete(id);
  }

  all(): T[] {
    return Array.from(this.sessions.values());
  }
}
