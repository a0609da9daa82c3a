/**
 * What GeminiNanoModel needs from the platform: send one string, hear strings back. On a
 * Cocos Android build this is `native.jsbBridgeWrapper` with the event name BRIDGE_EVENT
 * (written in assets/, where 'cc' may be imported); tests use an in-memory fake.
 */
export interface BridgeTransport {
  /** Sends one JSON-RPC message to the native side. May throw when no native side exists. */
  send(message: string): void;
  /** Listens for native→JS messages; returns the unsubscribe function. */
  onMessage(listener: (message: string) => void): () => void;
  /**
   * Optional: why the native side cannot be heard, when the transport can tell (the Android
   * module is not in this build; game code took over Cocos's bridge callback on the Java or the
   * JS side). Undefined when it cannot tell. Called after `ready` got no answer.
   */
  diagnose?(): string | undefined;
}
