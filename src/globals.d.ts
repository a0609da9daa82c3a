// The globals Cocos's native JS runtime offers on phones (and browsers and Node also have).
// src/ is type-checked with only these, so a stray fetch/AbortController/structuredClone use
// fails to compile. The OpenAI-compatible model reaches fetch through globalThis on purpose.
declare function setTimeout(handler: (...args: unknown[]) => void, ms?: number): unknown;
declare function clearTimeout(handle: unknown): void;
declare function setInterval(handler: (...args: unknown[]) => void, ms?: number): unknown;
declare function clearInterval(handle: unknown): void;
declare const console: {
  log(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
  info(...args: unknown[]): void;
  debug(...args: unknown[]): void;
};
declare const performance: { now(): number };
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string);
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
