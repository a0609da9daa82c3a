export { GeminiNanoModel } from './gemini-nano-model';
export type { GeminiNanoModelOptions, DownloadProgress, DownloadOptions } from './gemini-nano-model';
export type { BridgeTransport } from './bridge-transport';
export { BRIDGE_EVENT, BRIDGE_PROTOCOL_VERSION } from './protocol';
export type * from './protocol';
