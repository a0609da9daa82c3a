/**
 * A small stand-in for Creator's 'cc' module, kept only for what the real engine cannot do
 * headlessly: a native build (`native.jsbBridgeWrapper`, `sys.platform`, 'cc/env' NATIVE), which
 * tests/cocos/runtime-bridge.test.ts needs. Everything else runs on the real engine v3.8.5
 * (tests/engine/). Where the double models the engine it follows it, and
 * tests/engine/double-agreement.test.ts runs the same scenarios on both:
 * - events: a second on() with the same callback and target is ignored; off(type, cb) without a
 *   target leaves listeners registered with one; emit passes exactly 5 arguments (the missing ones undefined); listeners
 *   whose target was destroyed are skipped and pruned (hasEventListener says true until then);
 * - lifecycle: onLoad and onEnable when the component is added to an active node (or the node
 *   becomes active), start on the next frame (`tick()`);
 * - destroy is deferred: onDisable at once, isValid true until the end of the frame (`tick()`),
 *   then onDestroy, and every object field of the component becomes null and every string ''.
 * Differences left, on purpose: the double has no scene graph (an active node counts as in the
 * active scene; a component is enabled in the hierarchy while enabled, valid and on an active node),
 * no pause beyond the flags `game`/`director` report, no CCClass attributes or class ids (the decorators record their options in
 * `registry`), no executionOrder, no scheduler (scheduleOnce/schedule), no UI classes.
 *
 * Tests map it with `jest.mock('cc', () => require('./cc-double'), { virtual: true })`.
 * ts-jest compiles the components without experimentalDecorators (the root tsconfig), so the
 * decorators here accept both the legacy (target, key) and the standard (value, context) forms.
 */

/** Any listener, whatever its parameters (the engine types them per event). */
type AnyCallback = (...args: never[]) => void;

type Listener = { callback: AnyCallback; target?: unknown; once: boolean };

/** The engine's CallbacksInvoker calls every listener with this many arguments. */
const MAX_EMIT_ARGS = 5;

function isDestroyedTarget(target: unknown): boolean {
  return (
    !!target && typeof target === 'object' && 'isValid' in target && (target as { isValid: boolean }).isValid === false
  );
}

export class EventTarget {
  private readonly listeners = new Map<string, Listener[]>();

  on<T extends AnyCallback>(type: string, callback: T, target?: unknown): T {
    const list = this.list(type);
    if (!list.some((listener) => listener.callback === callback && listener.target === target))
      list.push({ callback, target, once: false });
    return callback;
  }

  once<T extends AnyCallback>(type: string, callback: T, target?: unknown): T {
    const list = this.list(type);
    if (!list.some((listener) => listener.callback === callback && listener.target === target))
      list.push({ callback, target, once: true });
    return callback;
  }

  /** As the engine: without a callback, every listener of the type; with one, those with that callback and exactly that target. */
  off(type: string, callback?: AnyCallback, target?: unknown): void {
    const list = this.listeners.get(type);
    if (!list) return;
    const keep =
      callback === undefined
        ? []
        : list.filter((listener) => listener.callback !== callback || listener.target !== target);
    this.store(type, keep);
  }

  targetOff(target: unknown): void {
    for (const type of Array.from(this.listeners.keys()))
      this.store(
        type,
        (this.listeners.get(type) as Listener[]).filter((listener) => listener.target !== target),
      );
  }

  emit(type: string, ...args: unknown[]): void {
    const list = this.listeners.get(type);
    if (!list) return;
    // The engine calls every listener with exactly five arguments (undefined when not given).
    const passed = Array.from({ length: MAX_EMIT_ARGS }, (_, index) => args[index]);
    for (const listener of list.slice()) {
      if (isDestroyedTarget(listener.target)) {
        this.store(
          type,
          (this.listeners.get(type) || []).filter((other) => other !== listener),
        );
        continue;
      }
      if (listener.once)
        this.store(
          type,
          (this.listeners.get(type) || []).filter((other) => other !== listener),
        );
      Reflect.apply(listener.callback, listener.target, passed);
    }
  }

  hasEventListener(type: string): boolean {
    return this.listenerCount(type) > 0;
  }

  /** Test helper: listeners for one type, or all of them. */
  listenerCount(type?: string): number {
    if (type !== undefined) return (this.listeners.get(type) || []).length;
    let count = 0;
    for (const list of this.listeners.values()) count += list.length;
    return count;
  }

  removeAll(): void {
    this.listeners.clear();
  }

  private list(type: string): Listener[] {
    let list = this.listeners.get(type);
    if (!list) this.listeners.set(type, (list = []));
    return list;
  }

  private store(type: string, list: Listener[]): void {
    if (list.length > 0) this.listeners.set(type, list);
    else this.listeners.delete(type);
  }
}

type Lifecycle = { onLoad?(): void; onEnable?(): void; start?(): void; onDisable?(): void; onDestroy?(): void };

/** Components waiting for start() and objects waiting for their deferred destroy, as the engine keeps them per frame. */
const frameQueue = { toStart: [] as Component[], toDestroy: [] as Array<Component | Node> };

/**
 * The end of one frame: start() of components enabled since the last frame, then the deferred
 * destroys (onDestroy, then the fields reset as the engine's `_destruct()` does).
 */
export function tick(): void {
  for (const component of frameQueue.toStart.splice(0)) {
    const hooks = component as Component & Lifecycle;
    if (component._valid && !component._started) {
      component._started = true;
      if (hooks.start) hooks.start();
    }
  }
  for (const destroyed of frameQueue.toDestroy.splice(0)) destroyed._destroyNow();
}

/** What the engine's `_destruct()` does to a destroyed component: objects and functions become null, strings ''. */
function destruct(target: object): void {
  const fields = target as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (key === 'node' || key === '_valid') continue;
    const value = fields[key];
    if (typeof value === 'string') fields[key] = '';
    else if ((typeof value === 'object' && value !== null) || typeof value === 'function') fields[key] = null;
  }
}

export class Component {
  node!: Node;
  enabled = true;
  /** @internal lifecycle bookkeeping of the double */
  _valid = true;
  _loaded = false;
  _started = false;
  _toDestroy = false;

  get isValid(): boolean {
    return this._valid;
  }

  get name(): string {
    return this.node ? this.node.name : '';
  }

  get enabledInHierarchy(): boolean {
    return this.enabled && this._valid && !this._toDestroy && !!this.node && this.node.active;
  }

  getComponent<T extends Component>(ctor: new () => T): T | null {
    return this.node ? this.node.getComponent(ctor) : null;
  }

  /** Deferred, as in the engine: onDisable now, onDestroy at the end of the frame. */
  destroy(): boolean {
    if (!this._valid || this._toDestroy) return false;
    this._toDestroy = true;
    const hooks = this as Component & Lifecycle;
    if (this.node && this.node.active && this._loaded && hooks.onDisable) hooks.onDisable();
    frameQueue.toDestroy.push(this);
    return true;
  }

  /** @internal */
  _destroyNow(): void {
    if (!this._valid) return;
    const hooks = this as Component & Lifecycle;
    if (this._loaded && hooks.onDestroy) hooks.onDestroy();
    if (this.node) this.node._forget(this);
    this._valid = false;
    destruct(this);
  }
}

export class Node extends EventTarget {
  readonly components: Component[] = [];
  parent: Node | null = null;
  private _active = true;
  private _valid = true;
  private _toDestroy = false;

  constructor(public name = 'New Node') {
    super();
  }

  get isValid(): boolean {
    return this._valid;
  }

  get active(): boolean {
    return this._active;
  }

  /** Activating a node runs onLoad / onEnable of its components now; start waits for the next frame. */
  set active(value: boolean) {
    if (value === this._active) return;
    this._active = value;
    for (const component of this.components.slice()) {
      const hooks = component as Component & Lifecycle;
      if (value) this.activate(component);
      else if (component._loaded && hooks.onDisable) hooks.onDisable();
    }
  }

  addComponent<T extends Component>(ctor: new () => T): T {
    const component = new ctor();
    component.node = this;
    this.components.push(component);
    if (this._active) this.activate(component);
    return component;
  }

  getComponent<T extends Component>(ctor: new () => T): T | null {
    return (
      (this.components.find((component) => component instanceof ctor && component.isValid) as T | undefined) || null
    );
  }

  /** Deferred, as in the engine: components get onDisable now; onDestroy and the clean-up at the end of the frame. */
  destroy(): boolean {
    if (!this._valid || this._toDestroy) return false;
    this._toDestroy = true;
    for (const component of this.components.slice()) {
      const hooks = component as Component & Lifecycle;
      if (this._active && component._loaded && hooks.onDisable) hooks.onDisable();
      component._toDestroy = true;
    }
    frameQueue.toDestroy.push(this);
    return true;
  }

  /** @internal */
  _destroyNow(): void {
    for (const component of this.components.slice()) component._destroyNow();
    this._valid = false;
    this.removeAll();
  }

  /** @internal */
  _forget(component: Component): void {
    const index = this.components.indexOf(component);
    if (index >= 0) this.components.splice(index, 1);
  }

  private activate(component: Component): void {
    const hooks = component as Component & Lifecycle;
    if (!component._loaded) {
      component._loaded = true;
      if (hooks.onLoad) hooks.onLoad();
    }
    if (hooks.onEnable) hooks.onEnable();
    if (!component._started) frameQueue.toStart.push(component);
  }
}

export class Asset {
  name = '';
}

export class JsonAsset extends Asset {
  json: Record<string, unknown> | null = null;

  /** Test helper. */
  static of(json: unknown, name = 'asset.json'): JsonAsset {
    const asset = new JsonAsset();
    asset.json = json as Record<string, unknown> | null;
    asset.name = name;
    return asset;
  }
}

export function Enum<T extends object>(obj: T): T {
  return obj;
}

export const CCString = { name: 'String' };
export const CCInteger = { name: 'Integer' };
export const CCFloat = { name: 'Float' };
export const CCBoolean = { name: 'Boolean' };

/** As the engine's isValid: false for null and destroyed objects; strict, also for those marked for destruction. */
export function isValid(value: unknown, strictMode = false): boolean {
  if (!value || typeof value !== 'object') return false;
  const target = value as { isValid?: boolean; _toDestroy?: boolean };
  if (target.isValid === false) return false;
  return !(strictMode && target._toDestroy === true);
}

/** Only the pause flags the components read (the double runs no main loop). */
function pausable(): { pause(): void; resume(): void; isPaused(): boolean } {
  let paused = false;
  return {
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
    },
    isPaused: () => paused,
  };
}

export const game = pausable();
export const director = pausable();

/** A class, as a decorator sees it. */
type Constructor = abstract new (...args: never[]) => unknown;
type ClassDecorator = (ctor: Constructor) => void;
type PropertyDecorator = (target: unknown, keyOrContext: unknown) => void;

/** What the decorators saw: ccclass names and property options per class. */
export const registry = {
  classes: new Map<string, Constructor>(),
  properties: new Map<Constructor, Map<string, unknown>>(),
};

function recordProperty(owner: Constructor, key: string, options: unknown): void {
  let map = registry.properties.get(owner);
  if (!map) registry.properties.set(owner, (map = new Map()));
  map.set(key, options);
}

type DecoratorContext = {
  kind: string;
  name: string | symbol;
  addInitializer?(initializer: (this: unknown) => void): void;
};

function isContext(value: unknown): value is DecoratorContext {
  return typeof value === 'object' && value !== null && 'kind' in value && 'name' in value;
}

function propertyDecorator(options: unknown): PropertyDecorator {
  return (target: unknown, keyOrContext: unknown): void => {
    if (isContext(keyOrContext)) {
      const name = String(keyOrContext.name);
      if (keyOrContext.addInitializer) {
        keyOrContext.addInitializer(function (this: unknown) {
          recordProperty((this as object).constructor as Constructor, name, options);
        });
      }
      return;
    }
    recordProperty((target as object).constructor as Constructor, String(keyOrContext), options);
  };
}

function classDecorator(name?: string): ClassDecorator {
  return (ctor: Constructor): void => {
    registry.classes.set(name || ctor.name, ctor);
  };
}

function passThrough(..._args: unknown[]) {
  return (..._inner: unknown[]): void => undefined;
}

export const _decorator = {
  /** `@ccclass` on a class (decorates it, returns nothing), or `@ccclass(name)` (returns the decorator). */
  ccclass(nameOrCtor?: unknown, context?: unknown): ClassDecorator | undefined {
    if (typeof nameOrCtor === 'function') {
      classDecorator()(nameOrCtor as Constructor);
      return undefined;
    }
    void context;
    return classDecorator(nameOrCtor as string | undefined);
  },
  property(optionsOrTarget?: unknown, keyOrContext?: unknown): PropertyDecorator | undefined {
    // `@property` without a call, or `@property(options)`.
    if (keyOrContext !== undefined && (typeof keyOrContext === 'string' || isContext(keyOrContext))) {
      propertyDecorator({})(optionsOrTarget, keyOrContext);
      return undefined;
    }
    return propertyDecorator(optionsOrTarget);
  },
  menu: passThrough,
  executionOrder: passThrough,
  requireComponent: passThrough,
  executeInEditMode: (..._args: unknown[]): undefined => undefined,
  disallowMultiple: (..._args: unknown[]): undefined => undefined,
  help: passThrough,
  icon: passThrough,
  type: passThrough,
};

const Platform = {
  EDITOR_PAGE: 'EDITOR_PAGE',
  EDITOR_CORE: 'EDITOR_CORE',
  MOBILE_BROWSER: 'MOBILE_BROWSER',
  DESKTOP_BROWSER: 'DESKTOP_BROWSER',
  ANDROID: 'ANDROID',
  IOS: 'IOS',
};

export const sys = {
  Platform,
  platform: Platform.DESKTOP_BROWSER as string,
  isNative: false,
  isBrowser: true,
};

/** A fake `native.jsbBridgeWrapper` for transport tests. */
export class FakeBridgeWrapper {
  readonly sent: Array<{ event: string; arg?: string }> = [];
  private readonly listeners = new Map<string, Array<(arg: string) => void>>();

  addNativeEventListener(event: string, listener: (arg: string) => void): void {
    const list = this.listeners.get(event) || [];
    list.push(listener);
    this.listeners.set(event, list);
  }

  removeNativeEventListener(event: string, listener: (arg: string) => void): void {
    const list = (this.listeners.get(event) || []).filter((other) => other !== listener);
    if (list.length > 0) this.listeners.set(event, list);
    else this.listeners.delete(event);
  }

  dispatchEventToNative(event: string, arg?: string): void {
    this.sent.push({ event, arg });
  }

  /** Native → script; like the engine, an empty string arrives as undefined. */
  dispatchEventToScript(event: string, arg?: string): void {
    for (const listener of (this.listeners.get(event) || []).slice())
      listener((arg === '' ? undefined : arg) as string);
  }

  listenerCount(event: string): number {
    return (this.listeners.get(event) || []).length;
  }
}

/** Set by simulatePlatform() below; importers read it as a live binding, hence `let`. */
export let native: { jsbBridgeWrapper: FakeBridgeWrapper; bridge: { onNative: unknown } } | undefined;

/** 'cc/env' constants; tests flip NATIVE to simulate a native build. */
export const env = {
  NATIVE: false,
  EDITOR: false,
  PREVIEW: true,
  BUILD: false,
  DEV: true,
  DEBUG: true,
  JSB: false,
  HTML5: true,
  ANDROID: false,
};

/** Simulates an Android or iOS native build (with a fake wrapper) or goes back to a browser preview. */
export function simulatePlatform(kind: 'android' | 'ios' | 'browser'): FakeBridgeWrapper | undefined {
  if (kind === 'ios') {
    const wrapper = new FakeBridgeWrapper();
    native = { jsbBridgeWrapper: wrapper, bridge: { onNative: undefined } };
    Object.assign(env, { NATIVE: true, JSB: true, HTML5: false, PREVIEW: false, BUILD: true, ANDROID: false });
    Object.assign(sys, { platform: Platform.IOS, isNative: true, isBrowser: false });
    return wrapper;
  }
  if (kind === 'android') {
    const wrapper = new FakeBridgeWrapper();
    native = { jsbBridgeWrapper: wrapper, bridge: { onNative: undefined } };
    Object.assign(env, { NATIVE: true, JSB: true, HTML5: false, PREVIEW: false, BUILD: true, ANDROID: true });
    Object.assign(sys, { platform: Platform.ANDROID, isNative: true, isBrowser: false });
    return wrapper;
  }
  native = undefined;
  Object.assign(env, { NATIVE: false, JSB: false, HTML5: true, PREVIEW: true, BUILD: false, ANDROID: false });
  Object.assign(sys, { platform: Platform.DESKTOP_BROWSER, isNative: false, isBrowser: true });
  return undefined;
}
