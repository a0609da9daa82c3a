/**
 * The game's JSON blackboard: one plain-JSON object that NPCs, decisions and game code read
 * and write by path. Every operation is synchronous and finishes before any observer runs,
 * so observers always see a consistent state. Values go in and come out as copies.
 */
import { applyMergePatch, ChangeDraft } from './merge-patch';
import {
  cloneJson,
  deepFreeze,
  describeKind,
  hasOwn,
  isJsonObject,
  isPlainObject,
  jsonEquals,
  JsonObject,
  JsonValue,
  toJsonCopy,
} from './json-value';
import { indexOf, PathSegment, WorldPath } from './world-path';
import { WorldStateError } from './world-state-error';
import { summarizeWorld } from './world-summary';
import { buildBranch, checkSlot, childOf, putChild, type Container } from './world-tree';

/** One effective change. Missing `oldValue` means the path was created; missing `newValue`, removed. */
export interface WorldStateChange {
  /** Canonical path of what changed (`party[0].name`; `""` for the whole state). */
  readonly path: string;
  readonly oldValue?: JsonValue;
  readonly newValue?: JsonValue;
  /** The state's version right after the operation that made this change. */
  readonly version: number;
}

export type WorldStateListener = (change: WorldStateChange) => void;

export interface WorldStateOptions {
  /** How many change records `changes()` keeps (default 200, oldest dropped first). */
  changeLogSize?: number;
  /** Called when an observer throws; the state and other observers carry on. Default: console.warn. */
  onListenerError?: (error: unknown, change: WorldStateChange) => void;
}

interface Observer {
  path: WorldPath | undefined; // undefined: every change
  listener: WorldStateListener;
  active: boolean;
}

const DEFAULT_LOG_SIZE = 200;

export class WorldState {
  private root: JsonObject;
  private currentVersion = 0;
  private readonly log: WorldStateChange[] = [];
  private readonly logSize: number;
  private readonly observers: Observer[] = [];
  private readonly pending: WorldStateChange[] = [];
  private delivering = false;
  private readonly onListenerError: (error: unknown, change: WorldStateChange) => void;

  constructor(initial: object = {}, options: WorldStateOptions = {}) {
    this.root = checkRoot(initial);
    const size = options.changeLogSize ?? DEFAULT_LOG_SIZE;
    if (!Number.isInteger(size) || size < 0) {
      throw new WorldStateError('', `changeLogSize must be a whole number ≥ 0 (got ${size}).`);
    }
    this.logSize = size;
    this.onListenerError =
      options.onListenerError ??
      ((error, change) => {
        console.warn(`WorldState: a listener for "${change.path}" threw`, error);
      });
  }

  /** Rebuilds a state from `toJSON()` output or its JSON text. */
  static fromJSON(json: string | object, options?: WorldStateOptions): WorldState {
    let value: unknown = json;
    if (typeof json === 'string') {
      try {
        value = JSON.parse(json);
      } catch (error) {
        throw new WorldStateError('', `fromJSON got text that is not JSON (${(error as Error).message}).`);
      }
    }
    return new WorldState(value as object, options);
  }

  /** Counts operations that changed something; unchanged writes leave it alone. */
  get version(): number {
    return this.currentVersion;
  }

  // ---- reading -------------------------------------------------------------

  /** A copy of the value at `path`, or undefined when nothing is there. */
  get<T = JsonValue>(path: string | WorldPath = ''): T | undefined {
    const found = this.lookup(WorldPath.parse(path));
    return found === undefined ? undefined : (cloneJson(found) as unknown as T);
  }

  has(path: string | WorldPath): boolean {
    return this.lookup(WorldPath.parse(path)) !== undefined;
  }

  /** The keys of the object at `path`, the indexes ("0", "1"…) of a list, or undefined for anything else. */
  keys(path: string | WorldPath = ''): string[] | undefined {
    const found = this.lookup(WorldPath.parse(path));
    if (Array.isArray(found)) return found.map((_, index) => String(index));
    return isJsonObject(found) ? Object.keys(found) : undefined;
  }

  /** A deep copy of the whole state. */
  snapshot(): JsonObject {
    return cloneJson(this.root);
  }

  toJSON(): JsonObject {
    return this.snapshot();
  }

  /** Compact `path: value` lines for a prompt; see summarizeWorld. */
  summary(paths: readonly string[], maxLines = 30): string {
    return summarizeWorld((path) => this.lookup(path), paths, maxLines);
  }

  /** Change records newer than `sinceVersion` (all that are kept when omitted), optionally only those touching `path`. */
  changes(sinceVersion = -1, path?: string | WorldPath): WorldStateChange[] {
    const filter = path === undefined ? undefined : WorldPath.parse(path);
    return this.log.filter(
      (change) => change.version > sinceVersion && (!filter || filter.overlaps(WorldPath.parse(change.path))),
    );
  }

  // ---- writing -------------------------------------------------------------

  /**
   * Stores a copy of `value` at `path`, creating missing objects on the way (a missing
   * parent followed by `[0]` becomes a list). Index n of an n-item list appends.
   * Returns whether anything changed.
   */
  set(path: string | WorldPath, value: unknown): boolean {
    const at = WorldPath.parse(path);
    const copy = toJsonCopy(value, at);
    if (at.isRoot) return this.replace(copy as object);
    const old = this.lookup(at);
    if (old !== undefined && jsonEquals(old, copy)) return false;
    this.write(at, copy);
    return this.commit([draftOf(at, old, copy)]);
  }

  /** Removes the value at `path` (a list item is spliced out). Returns whether something was there. */
  remove(path: string | WorldPath): boolean {
    const at = WorldPath.parse(path);
    if (at.isRoot) return this.replace({});
    const parentPath = at.parent as WorldPath;
    const parent = this.lookup(parentPath);
    const segment = at.last as PathSegment;
    if (Array.isArray(parent)) {
      const index = indexOf(segment);
      if (index === undefined || index >= parent.length) return false;
      // Later items shift down, so the change is reported on the whole list.
      const before = cloneJson(parent);
      parent.splice(index, 1);
      return this.commit([{ path: parentPath, oldValue: before, newValue: cloneJson(parent) }]);
    }
    if (!isJsonObject(parent)) return false;
    const key = String(segment);
    if (!hasOwn(parent, key)) return false;
    const old = parent[key];
    delete parent[key];
    return this.commit([{ path: at, oldValue: old }]);
  }

  /**
   * Replaces the value at `path` with `transform(current)`; current is a copy (undefined when
   * missing). Returning undefined removes the path. Nothing changes if `transform` throws.
   * Returns a copy of the new value.
   */
  modify<T = JsonValue>(
    path: string | WorldPath,
    transform: (current: T | undefined) => unknown,
  ): JsonValue | undefined {
    const at = WorldPath.parse(path);
    if (typeof transform !== 'function') throw new WorldStateError(at.toString(), 'modify needs a transform function.');
    const next = transform(this.get<T>(at));
    if (isThenable(next)) {
      throw new WorldStateError(
        at.toString(),
        "modify's transform returned a Promise; it must be synchronous (await first, then call set).",
      );
    }
    if (next === undefined) {
      this.remove(at);
      return undefined;
    }
    this.set(at, next);
    return this.get(at);
  }

  /** Replaces the whole state with a copy of `root` (a plain object). */
  replace(root: object): boolean {
    const next = checkRoot(root);
    if (jsonEquals(this.root, next)) return false;
    const old = this.root;
    this.root = next;
    return this.commit([{ path: WorldPath.root, oldValue: old, newValue: cloneJson(next) }]);
  }

  /**
   * Applies an RFC 7386 JSON Merge Patch at `path` (default: the root): null deletes,
   * objects merge recursively, anything else replaces. One version step; one change record
   * per key that actually changed.
   */
  merge(patch: unknown, path: string | WorldPath = ''): boolean {
    const at = WorldPath.parse(path);
    const copy = toJsonCopy(patch, at);
    if (at.isRoot && !isJsonObject(copy)) {
      throw new WorldStateError('', `a merge patch for the root must be an object (got ${describeKind(copy)}).`);
    }
    if (copy === null) return this.remove(at); // null deletes, at any level
    const { merged, changes: drafts } = applyMergePatch(this.lookup(at), copy, at);
    if (drafts.length === 0) return false;
    if (at.isRoot) this.root = merged as JsonObject;
    else this.write(at, merged as JsonValue);
    return this.commit(drafts);
  }

  // ---- observing -----------------------------------------------------------

  /**
   * Calls `listener` after each change at, inside or above `path` (a change to `player`
   * touches `player.gold` and the other way round). Returns the unsubscribe function.
   */
  observe(path: string | WorldPath, listener: WorldStateListener): () => void {
    return this.addObserver(WorldPath.parse(path), listener);
  }

  /** Calls `listener` after every change. Returns the unsubscribe function. */
  onChange(listener: WorldStateListener): () => void {
    return this.addObserver(undefined, listener);
  }

  // ---- internals -----------------------------------------------------------

  private addObserver(path: WorldPath | undefined, listener: WorldStateListener): () => void {
    if (typeof listener !== 'function')
      throw new WorldStateError(path ? path.toString() : '', 'a listener must be a function.');
    const observer: Observer = { path, listener, active: true };
    this.observers.push(observer);
    return () => {
      if (!observer.active) return;
      observer.active = false;
      this.observers.splice(this.observers.indexOf(observer), 1);
    };
  }

  /** The live value at a path (never handed out), or undefined. */
  private lookup(path: WorldPath): JsonValue | undefined {
    let node: JsonValue | undefined = this.root;
    for (const segment of path.segments) {
      node = childOf(node, segment);
      if (node === undefined) return undefined;
    }
    return node;
  }

  /**
   * Puts an already-copied value at a non-root path. Everything is checked before the first
   * mutation, so a bad path leaves the state as it was.
   */
  private write(path: WorldPath, value: JsonValue): void {
    const segments = path.segments;
    let node: Container = this.root;
    for (let index = 0; index < segments.length - 1; index++) {
      const here = path.slice(0, index + 1);
      checkSlot(node, path.slice(0, index), path);
      const next = childOf(node, segments[index]);
      if (next === undefined) {
        // Build the missing branch off to the side, then attach it in one step.
        putChild(node, segments[index], buildBranch(value, here, path));
        return;
      }
      if (typeof next !== 'object' || next === null) {
        throw new WorldStateError(
          path.toString(),
          `${here.toString()} holds ${describeKind(next)}, so it has no "${segments[index + 1]}" inside.`,
        );
      }
      node = next;
    }
    checkSlot(node, path.slice(0, -1), path);
    putChild(node, segments[segments.length - 1], value);
  }

  /** Records one operation's changes, bumps the version once, then notifies. */
  private commit(drafts: ChangeDraft[]): boolean {
    if (drafts.length === 0) return false;
    this.currentVersion++;
    for (const draft of drafts) {
      const record: { path: string; oldValue?: JsonValue; newValue?: JsonValue; version: number } = {
        path: draft.path.toString(),
        version: this.currentVersion,
      };
      if (draft.oldValue !== undefined) record.oldValue = draft.oldValue;
      if (draft.newValue !== undefined) record.newValue = draft.newValue;
      const change = deepFreeze(record as JsonValue) as unknown as WorldStateChange;
      this.log.push(change);
      this.pending.push(change);
    }
    if (this.log.length > this.logSize) this.log.splice(0, this.log.length - this.logSize);
    this.deliver();
    return true;
  }

  /**
   * Runs listeners outside any operation. A listener that writes queues its own changes
   * behind the current ones, so every listener sees changes in the order they happened.
   */
  private deliver(): void {
    if (this.delivering) return;
    this.delivering = true;
    try {
      while (this.pending.length > 0) {
        const change = this.pending.shift() as WorldStateChange;
        const changed = WorldPath.parse(change.path);
        for (const observer of this.observers.slice()) {
          if (!observer.active) continue;
          if (observer.path && !observer.path.overlaps(changed)) continue;
          try {
            observer.listener(change);
          } catch (error) {
            this.reportListenerError(error, change);
          }
        }
      }
    } finally {
      this.delivering = false;
    }
  }

  private reportListenerError(error: unknown, change: WorldStateChange): void {
    try {
      this.onListenerError(error, change);
    } catch {
      // The error reporter itself failed; the state must still carry on.
    }
  }
}

function draftOf(path: WorldPath, oldValue: JsonValue | undefined, newValue: JsonValue): ChangeDraft {
  const draft: ChangeDraft = { path, newValue: cloneJson(newValue) };
  if (oldValue !== undefined) draft.oldValue = cloneJson(oldValue);
  return draft;
}

function checkRoot(root: unknown): JsonObject {
  if (!isPlainObject(root)) {
    const kind = root === null ? 'null' : Array.isArray(root) ? 'a list' : typeof root;
    throw new WorldStateError('', `the whole state must be a plain object (got ${kind}).`);
  }
  return toJsonCopy(root, WorldPath.root) as JsonObject;
}

function isThenable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
