/**
 * The base sessions that hold each stable prefix prefilled. A request never prompts a base: it
 * clones it, so the browser reuses the prefix it already read, and destroys the clone after.
 * One base per distinct prefix, sampling mode and image input, the least recently used
 * destroyed past `maxBases` (each holds its prefix in the browser's memory); a base still in use
 * is destroyed when its last user lets go.
 */
import { raceSignal, type SignalLike } from '../../contract/abort';
import { nameOf } from './errors';
import {
  destroyQuietly,
  type AbortControllerLike,
  type PromptApi,
  type PromptSession,
  type SamplingMode,
} from './prompt-api';

/** What a base session is for: its stable prefix, sampling mode, and whether it takes images. */
export interface BaseSpec {
  stable: string;
  mode: SamplingMode | undefined;
  images?: boolean;
}

export interface BaseEntry {
  key: string;
  ready: Promise<PromptSession>;
  users: number;
  evicted: boolean;
}

export interface BaseSessionPoolOptions {
  /** Most bases kept alive at once. */
  maxBases: number;
  /** Creates the base session of a spec (availability checks included); called once per spec. */
  create: (api: PromptApi, spec: BaseSpec) => Promise<PromptSession>;
}

/** What a clone needs: the base to replace if the browser destroyed it, and the request's abort. */
export interface CloneContext {
  api: PromptApi;
  spec: BaseSpec;
  controller: AbortControllerLike;
  signal: SignalLike | undefined;
}

/** The system message of a base session: the instruction, then the byte-stable prefix. */
export function stableOf(systemInstruction: string | undefined, promptPrefix: string | undefined): string {
  const system = systemInstruction || '';
  const prefix = promptPrefix || '';
  return system && prefix ? `${system}\n\n${prefix}` : system || prefix;
}

export class BaseSessionPool {
  /** In use order: the most recently used last. */
  private readonly bases = new Map<string, BaseEntry>();
  private wasDisposed = false;

  constructor(private readonly options: BaseSessionPoolOptions) {}

  /** Base sessions alive now. */
  get size(): number {
    return this.bases.size;
  }

  /** dispose() emptied the pool and nothing has asked for a base since. */
  get disposed(): boolean {
    return this.wasDisposed;
  }

  /** The base session of a spec (created once, shared), with the caller counted as a user: release() it. */
  acquire(api: PromptApi, spec: BaseSpec): BaseEntry {
    this.wasDisposed = false;
    const key = `${spec.images ? 'image' : ''}\u0000${spec.mode ?? ''}\u0000${spec.stable}`;
    const found = this.bases.get(key);
    if (found) {
      this.bases.delete(key); // most recently used last
      this.bases.set(key, found);
      found.users++;
      return found;
    }
    const entry: BaseEntry = { key, users: 0, evicted: false, ready: this.options.create(api, spec) };
    // A failed creation is not kept: the next request tries again (after a download, say).
    entry.ready.catch(() => {
      if (this.bases.get(key) === entry) this.bases.delete(key);
    });
    this.bases.set(key, entry);
    for (const old of Array.from(this.bases.values())) {
      if (this.bases.size <= this.options.maxBases) break;
      if (old !== entry) this.evict(old);
    }
    entry.users++;
    return entry;
  }

  /** The most recently used base, if any, with the caller counted as a user: release() it. */
  shareNewest(): BaseEntry | undefined {
    let last: BaseEntry | undefined;
    this.bases.forEach((entry) => {
      last = entry;
    });
    if (last) last.users++;
    return last;
  }

  /** Clones the base; a base the browser destroyed under us (AbortError) is replaced once. */
  async clone(entry: BaseEntry, ctx: CloneContext): Promise<PromptSession> {
    const base = await raceSignal(entry.ready, ctx.signal);
    try {
      return await base.clone({ signal: ctx.controller.signal });
    } catch (error) {
      // Only a base the browser destroyed under us is replaced; anything else is this request's failure.
      if (ctx.signal?.aborted || nameOf(error) !== 'AbortError') throw error;
      this.evict(entry);
      const fresh = this.acquire(ctx.api, ctx.spec);
      try {
        const again = await raceSignal(fresh.ready, ctx.signal);
        return await again.clone({ signal: ctx.controller.signal });
      } finally {
        this.release(fresh);
      }
    }
  }

  release(entry: BaseEntry): void {
    entry.users = Math.max(0, entry.users - 1);
    if (entry.evicted && entry.users === 0) entry.ready.then(destroyQuietly, () => undefined);
  }

  /** Destroys every base session (those in use once released); the next acquire starts afresh. */
  dispose(): void {
    this.wasDisposed = true;
    for (const entry of Array.from(this.bases.values())) this.evict(entry);
  }

  private evict(entry: BaseEntry): void {
    if (this.bases.get(entry.key) === entry) this.bases.delete(entry.key);
    if (entry.evicted) return;
    entry.evicted = true;
    if (entry.users === 0) entry.ready.then(destroyQuietly, () => undefined);
  }
}
