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
}
