export { parseLenient, MAX_DEPTH } from './lenient';
export type { LenientOptions, LenientResult } from './lenient';
export { extractJson, hasCompleteObject, compactJson, isPlainObject } from './extract';
export type { ExtractedJson } from './extract';
export { CompletionScanner } from './completion-scanner';
export { setOwnKey } from './own-key';
export { readJsonInput } from './json-input';
