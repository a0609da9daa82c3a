/**
 * What a decide or arguments step comes to: a call to run, the reply (with any calls written
 * after its words), a call that stays invalid, or nothing usable.
 */
import type { AgentTool } from '../tools';
import type { LineFirstAnswer } from '../envelope/line-first';

/** A side-effect call written after the words of a line-first reply. */
export interface AfterReplyCall {
  tool: AgentTool;
  argCandidates: unknown[];
}

export type DecideOutcome =
  | { kind: 'call'; tool: AgentTool; args: Record<string, unknown> }
  | {
      kind: 'reply';
      inline?: unknown;
      envelope?: unknown;
      after?: AfterReplyCall[];
      refused?: Pick<LineFirstAnswer, 'calls' | 'unread'>;
    }
  | { kind: 'rejected'; tool: AgentTool; args: Record<string, unknown>; problem: string }
  | { kind: 'gaveUp' };
