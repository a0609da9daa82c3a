/**
 * The BridgeTransport GeminiNanoModel talks through on Android builds: Cocos's
 * `native.jsbBridgeWrapper` events on the one event name this project owns (BRIDGE_EVENT).
 * It never touches `native.bridge.onNative`: that single slot feeds every plugin's wrapper
 * events, and taking it would silence them all.
 */
import { native } from 'cc';
import { NATIVE } from 'cc/env';
import { AgentError, BRIDGE_EVENT } from '../runtime/oam-core.js';
import type { BridgeTransport } from '../runtime/oam-core.js';

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

  constructor(readonly eventName: string = BRIDGE_EVENT) {
    if (!JsbBridgeTransport.isSupported()) {
      throw new AgentError('model_unavailable', 'JsbBridgeTransport works only in a native build (native.jsbBridgeWrapper is missing here); use the stand-in model in the editor and browser previews.');
    }
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
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
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
