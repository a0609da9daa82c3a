/**
 * A small stand-in for Creator's 'cc' module, enough to run the mounted components under jest:
 * Node events with listener counts, Component lifecycle (onLoad/onEnable/start on activation,
 * onDisable/onDestroy on destroy), JsonAsset, EventTarget, Enum, recording no-op decorators,
 * `sys`, and `native` (absent unless a test installs a fake wrapper). `env` doubles 'cc/env'.
 *
 * Tests map it with `jest.mock('cc', () => require('./cc-double'), { virtual: true })`.
 * ts-jest compiles the components without experimentalDecorators (the root tsconfig), so the
 * decorators here accept both the legacy (target, key) and the standard (value, context) forms.
 */

type Listener = { callback: (...args: unknown[]) => void; target?: unknown; once: boolean };

export class EventTarget {
  private readonly listeners = new Map<string, Listener[]>();

  on<T extends (...args: any[]) => void>(type: string, callback: T, target?: unknown): T {
    this.list(type).push({ callback: callback as Listener['callback'], target, once: false });
    return callback;
  }

  once<T extends (...args: any[]) => void>(type: string, callback: T, target?: unknown): T {
    this.list(type).push({ callback: callback as Listener['callback'], target, once: true });
    return callback;
  }

  off(type: string, callback?: (...args: any[]) => void, target?: unknown): void {
    const list = this.listeners.get(type);
    if (!list) return;
    const keep = list.filter((l) => (callback !== undefined && l.callback !== callback) || (target !== undefined && l.target !== target));
    if (keep.length > 0) this.listeners.set(type, keep);
    else this.listeners.delete(type);
  }

  targetOff(target: unknown): void {
    for (const type of Array.from(this.listeners.keys())) {
      const keep = (this.listeners.get(type) as Listener[]).filter((l) => l.target !== target);
      if (keep.length > 0) this.listeners.set(type, keep);
      else this.listeners.delete(type);
    }
  }

  emit(type: string, ...args: unknown[]): void {
    const list = this.listeners.get(type);
    if (!list) return;
    for (const l of list.slice()) {
      if (l.once) this.off(type, l.callback, l.target);
      l.callback.apply(l.target, args);
    }
  }

  hasEventListener(type: string): boolean {
    return this.listenerCount(type) > 0;
  }

  /** Test helper: listeners for one type, or all of them. */
  listenerCount(type?: string): number {
    if (type !== undefined) return (this.listeners.get(type) || []).length;
    let n = 0;
    for (const list of this.listeners.values()) n += list.length;
    return n;
  }

  removeAll(): void {
    this.listeners.clear();
  }

  private list(type: string): Listener[] {
    let list = this.listeners.get(type);
    if (!list) this.listeners.set(type, (list = []));
    return list;
  }
}

export class Component {
  node!: Node;
  enabled = true;
  private _valid = true;
  /** @internal lifecycle bookkeeping of the double */
  _loaded = false;
  _started = false;

  get isValid(): boolean {
    return this._valid && !!this.node && this.node.isValid;
  }

  get name(): string {
    return this.node ? this.node.name : '';
  }

  getComponent<T extends Component>(ctor: new () => T): T | null {
    return this.node ? this.node.getComponent(ctor) : null;
  }

  destroy(): boolean {
    if (!this._valid) return false;
    if (this.node) this.node._removeComponent(this);
    return true;
  }

  /** @internal */
  _invalidate(): void {
    this._valid = false;
  }
}

type Lifecycle = { onLoad?(): void; onEnable?(): void; start?(): void; onDisable?(): void; onDestroy?(): void };

export class Node extends EventTarget {
  readonly components: Component[] = [];
  parent: Node | null = null;
  private _active = true;
  private _valid = true;

  constructor(public name = 'New Node') {
    super();
  }

  get isValid(): boolean {
    return this._valid;
  }

  get active(): boolean {
    return this._active;
  }

  /** Activating a node runs onLoad / onEnable / start of components added while it was inactive. */
  set active(value: boolean) {
    if (value === this._active) return;
    this._active = value;
    for (const c of this.components.slice()) {
      const l = c as Component & Lifecycle;
      if (value) this.activate(c);
      else if (l.onDisable) l.onDisable();
    }
  }

  addComponent<T extends Component>(ctor: new () => T): T {
    const c = new ctor();
    c.node = this;
    this.components.push(c);
    if (this._active) this.activate(c);
    return c;
  }

  getComponent<T extends Component>(ctor: new () => T): T | null {
    return (this.components.find((c) => c instanceof ctor) as T | undefined) || null;
  }

  destroy(): boolean {
    if (!this._valid) return false;
    for (const c of this.components.slice()) this._removeComponent(c);
    this._valid = false;
    this.removeAll();
    return true;
  }

  /** @internal */
  _removeComponent(c: Component): void {
    const i = this.components.indexOf(c);
    if (i < 0) return;
    const l = c as Component & Lifecycle;
    if (this._active && c._loaded && l.onDisable) l.onDisable();
    if (c._loaded && l.onDestroy) l.onDestroy();
    this.components.splice(i, 1);
    c._invalidate();
  }

  private activate(c: Component): void {
    const l = c as Component & Lifecycle;
    if (!c._loaded) {
      c._loaded = true;
      if (l.onLoad) l.onLoad();
    }
    if (l.onEnable) l.onEnable();
    if (!c._started) {
      c._started = true;
      if (l.start) l.start();
    }
  }
}

export class Asset {
  name = '';
}

export class JsonAsset extends Asset {
  json: Record<string, any> | null = null;

  /** Test helper. */
  static of(json: unknown, name = 'asset.json'): JsonAsset {
    const a = new JsonAsset();
    a.json = json as Record<string, any> | null;
    a.name = name;
    return a;
  }
}

export function Enum<T extends object>(obj: T): T {
  return obj;
}

export const CCString = { name: 'String' };
export const CCInteger = { name: 'Integer' };
export const CCFloat = { name: 'Float' };
export const CCBoolean = { name: 'Boolean' };

/** What the decorators saw: ccclass names and property options per class. */
export const registry = {
  classes: new Map<string, Function>(),
  properties: new Map<Function, Map<string, unknown>>(),
};

function recordProperty(owner: Function, key: string, options: unknown): void {
  let map = registry.properties.get(owner);
  if (!map) registry.properties.set(owner, (map = new Map()));
  map.set(key, options);
}

type DecoratorContext = { kind: string; name: string | symbol; addInitializer?(f: (this: unknown) => void): void };

function isContext(value: unknown): value is DecoratorContext {
  return typeof value === 'object' && value !== null && 'kind' in value && 'name' in value;
}

function propertyDecorator(options: unknown) {
  return (target: unknown, keyOrContext: unknown): void => {
    if (isContext(keyOrContext)) {
      const name = String(keyOrContext.name);
      if (keyOrContext.addInitializer) {
        keyOrContext.addInitializer(function (this: unknown) {
          recordProperty((this as object).constructor, name, options);
        });
      }
      return;
    }
    recordProperty((target as object).constructor, String(keyOrContext), options);
  };
}

function classDecorator(name?: string) {
  return (ctor: Function): void => {
    registry.classes.set(name || ctor.name, ctor);
  };
}

function passThrough(..._args: unknown[]) {
  return (..._inner: unknown[]): void => undefined;
}

export const _decorator = {
  ccclass(nameOrCtor?: unknown, context?: unknown): any {
    if (typeof nameOrCtor === 'function') return classDecorator()(nameOrCtor as Function);
    void context;
    return classDecorator(nameOrCtor as string | undefined);
  },
  property(optionsOrTarget?: unknown, keyOrContext?: unknown): any {
    // `@property` without a call, or `@property(options)`.
    if (keyOrContext !== undefined && (typeof keyOrContext === 'string' || isContext(keyOrContext))) {
      return propertyDecorator({})(optionsOrTarget, keyOrContext);
    }
    return propertyDecorator(optionsOrTarget);
  },
  menu: passThrough,
  executionOrder: passThrough,
  requireComponent: passThrough,
  executeInEditMode: (..._a: unknown[]): any => undefined,
  disallowMultiple: (..._a: unknown[]): any => undefined,
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
    const list = (this.listeners.get(event) || []).filter((l) => l !== listener);
    if (list.length > 0) this.listeners.set(event, list);
    else this.listeners.delete(event);
  }

  dispatchEventToNative(event: string, arg?: string): void {
    this.sent.push({ event, arg });
  }

  /** Native → script; like the engine, an empty string arrives as undefined. */
  dispatchEventToScript(event: string, arg?: string): void {
    for (const l of (this.listeners.get(event) || []).slice()) l((arg === '' ? undefined : arg) as string);
  }

  listenerCount(event: string): number {
    return (this.listeners.get(event) || []).length;
  }
}

// eslint-disable-next-line import/no-mutable-exports
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
