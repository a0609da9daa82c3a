export { findCalls, CALL_READERS } from './find-calls';
export { stripReasoning, REASONING_OPENERS } from './reasoning';
export { hasMarkup, withoutMarkup, MARKUP_TOKENS } from './markup';
export { PROBLEM_CUT_OFF, PROBLEM_UNREADABLE } from './written-call';
export type { WrittenCall, CallFamily, CallReadContext } from './written-call';
