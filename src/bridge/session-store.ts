/**
 * Sessions by id, bounded: ids `s1`, `s2`, … when the client sends none, 1–128 printable
 * characters when it does, −32021 for a taken id and −32022 (with `data.limit`) when full.
 */
import { BridgeError, invalidParams } from './errors';

const NOT_PRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export class SessionStore<T> {
  private readonly sessions = new Map<string, T>();
  private counter = 0;

  constructor(readonly limit: number) {}

  checkId(id: string): string {
    const length = Array.from(id).length;
    if (length < 1 || length > 128 || NOT_PRINTABLE.test(id)) {
      throw invalidParams(`params.session must be 1-128 printable characters; got ${JSON.stringify(id)}.`);
    }
    return id;
  }

  nextId(): string {
    let id: string;
    do id = `s${++this.counter}`; while (this.sessions.has(id));
    return id;
  }

  get(id: string): T | undefined {
    return this.sessions.get(id);
  }

  /** Refuses a taken id or a full store before anything is built for the session. */
  checkRoom(id: string): void {
    if (this.sessions.has(id)) throw new BridgeError('session_exists', `Session "${id}" exists already.`, { session: id });
    if (this.sessions.size >= this.limit) {
      throw new BridgeError('session_limit', `At most ${this.limit} sessions; delete one first.`, { limit: this.limit });
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
