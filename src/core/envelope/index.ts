export {
  parseEnvelope,
  argumentCandidates,
  PROBLEM_NOT_JSON,
  PROBLEM_NO_ACTION,
  PROBLEM_REPLY_NOT_ALLOWED,
  PROBLEM_CUT_OFF,
} from './parse';
export type { EnvelopeContext, EnvelopeParse } from './parse';
export { resolveToolName, isRespondWord } from './names';
export { inlineReplyOf } from './inline-reply';
export { InlineReplyReader } from './reply-stream';
export type { InlineReplyState } from './reply-stream';
