/**
 * The BridgeTransport GeminiNanoModel talks through on Android builds: Cocos's
 * `native.jsbBridgeWrapper` events on the one event name this project owns (BRIDGE_EVENT).
 * It never touches `native.bridge.onNative`: that single slot feeds every plugin's wrapper
 * events, and taking it would silence them all.
 *
 * Two things beyond sending and hearing:
 * - Before a JS restart (`game.restart()`, which a hot update calls; on native it restarts the
 *   JS VM) it tells the native side `detach`, synchronously, so nothing is sent into a JS
 *   context that is going away; the new context's `ready` opens the bridge again.
 * - `diagnose()` says why `ready` got no answer when that can be told: game code replaced
 *   `native.bridge.onNative` (JS side) or called `JsbBridge.setCallback` (Java side, asked
 *   through Cocos's reflection bridge, which does not depend on that callback), or the
 *   Android module is not in this APK.
 */
import { game, native } from 'cc';
import { NATIVE } from 'cc/env';
import { AgentError, BRIDGE_EVENT } from '../runtime/oam-core.js';
import type { BridgeTransport } from '../runtime/oam-core.js';

const PROBE_CLASS = 'com/oamcocos/nano/android/OamNanoProbe';
const SHARING = 'docs/bridge-protocol.md, "Sharing the bridge with other code"';
const DETACH = JSON.stringify({ jsonrpc: '2.0', method: 'detach', params: {} });

interface LooseNative {
  bridge?: { onNative?: unknown };
  reflection?: { callStaticMethod?: (className: string, method: string, signature: string) => unknown };
}

/** Wraps game.restart once per JS context so the native side hears `detach` first. */
let restartWrapped = false;
function wrapRestart(eventName: string): void {
  if (restartWrapped) return;
  const target = game as unknown as { restart?: (...args: unknown[]) => unknown } | undefined;
  const original = target?.restart;
  if (!target || typeof original !== 'function') return;
  restartWrapped = true;
  target.restart = function restartAfterDetach(this: unknown, ...args: unknown[]): unknown {
    try {
      native.jsbBridgeWrapper.dispatchEventToNative(eventName, DETACH);
    } catch (error) {
      console.error('[oam] could not tell the native side about the restart', error);
    }
    return original.apply(this, args);
  };
}

type Listener = (message: string) => void;

export class JsbBridgeTransport implements BridgeTransport {
  /** True only in a native build where the wrapper exists (never in the editor or a browser). */
  static isSupported(): boolean {
    return !!NATIVE && typeof native === 'object' && native !== null && !!native.jsbBridgeWrapper;
  }

  private readonly listeners: Listener[] = [];
  private attached = false;
  private disposed = false;
  // One native listener per transport, fanned out here, so dispose() removes exactly what we added.
  private readonly onNativeEvent = (arg?: string): void => {
    // Cocos passes `undefined` for an empty string.
    const message = typeof arg === 'string' ? arg : '';
    for (const listener of this.listeners.slice()) {
      try {
        listener(message);
      } catch (error) {
        console.error('[oam] a bridge listener threw', error);
      }
    }
  };

  /** `native.bridge.onNative` as the wrapper's getter set it (read right after that getter ran). */
  private readonly wrapperOnNative: unknown;

  constructor(readonly eventName: string = BRIDGE_EVENT) {
    if (!JsbBridgeTransport.isSupported()) {
      throw new AgentError(
        'model_unavailable',
        'JsbBridgeTransport works only in a native build (native.jsbBridgeWrapper is missing here); use the stand-in model in the editor and browser previews.',
      );
    }
    this.wrapperOnNative = (native as unknown as LooseNative).bridge?.onNative;
    wrapRestart(eventName);
  }

  diagnose(): string | undefined {
    const loose = native as unknown as LooseNative;
    const onNative = loose.bridge?.onNative;
    if (this.wrapperOnNative !== undefined && onNative !== this.wrapperOnNative) {
      return `Game code replaced native.bridge.onNative after native.jsbBridgeWrapper set it, so no jsbBridgeWrapper event (oam-cocos's included) reaches JS any more. Use native.jsbBridgeWrapper.addNativeEventListener(...) instead (${SHARING}).`;
    }
    let answer: unknown;
    try {
      answer = loose.reflection?.callStaticMethod?.(PROBE_CLASS, 'describe', '()Ljava/lang/String;');
    } catch {
      answer = undefined;
    }
    if (typeof answer !== 'string') {
      return 'The oam-cocos Android module could not be reached (com.oamcocos.nano.android.OamNanoProbe): it is not in this APK. Turn on the Gemini Nano option in the build panel and rebuild; the instant app never has Gemini Nano.';
    }
    let probe: { callback?: unknown; callbackClass?: unknown } = {};
    try {
      probe = JSON.parse(answer) as typeof probe;
    } catch {
      return undefined;
    }
    if (probe.callback === 'replaced') {
      const by = typeof probe.callbackClass === 'string' ? ` (now held by ${probe.callbackClass})` : '';
      return `Game code called JsbBridge.setCallback after JsbBridgeWrapper installed its callback${by}, so no jsbBridgeWrapper event (oam-cocos's included) reaches Java any more. Register with JsbBridgeWrapper.getInstance().addScriptEventListener(...) instead (${SHARING}).`;
    }
    return undefined;
  }

  send(message: string): void {
    if (this.disposed) throw new AgentError('model_unavailable', 'The native bridge transport was disposed.');
    native.jsbBridgeWrapper.dispatchEventToNative(this.eventName, message);
  }

  onMessage(listener: Listener): () => void {
    if (this.disposed) throw new AgentError('model_unavailable', 'The native bridge transport was disposed.');
    this.listeners.push(listener);
    if (!this.attached) {
      native.jsbBridgeWrapper.addNativeEventListener(this.eventName, this.onNativeEvent);
      this.attached = true;
    }
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  /** Removes the native listener; the transport sends and hears nothing afterwards. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.listeners.length = 0;
    if (this.attached) {
      this.attached = false;
      native.jsbBridgeWrapper.removeNativeEventListener(this.eventName, this.onNativeEvent);
    }
  }
}
