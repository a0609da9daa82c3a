/** The JSON-RPC 2.0 protocol v1.0 (reference §3) as an engine any host drives line by line. */
export { BridgeEngine } from './engine';
export type { BridgeEngineOptions } from './engine';
export { ExtensionError, EXTENSION_CODE_MIN, EXTENSION_CODE_MAX } from './extensions';
export type {
  BridgeExtension,
  ExtensionCall,
  ExtensionHandle,
  ExtensionHandler,
  ExtensionParams,
  ExtensionWorld,
} from './extensions';
export type { BridgeTimers } from './timers';
export type { ModelFactory } from './models';
export { BRIDGE_CODES, BridgeError } from './errors';
export type { BridgeErrorName, RpcErrorObject } from './errors';
export type { RequestId } from './framing';
export { PROTOCOL_VERSION, SERVER_NAME } from './core-methods';
export { LineSplitter, MAX_LINE_BYTES } from './line-splitter';
export type { LineSplitterOptions } from './line-splitter';
