/**
 * Approval before a model-chosen call runs (genai-agent's `AgentTool(delegate)` that confirms or
 * changes a call): a hook sees the parsed, schema-valid call and allows it, allows it with other
 * arguments (checked against the tool's schema again), or refuses it with a reason the model reads.
 */
import type { SignalLike } from '../../contract/abort';
import type { ToolCall } from './tool-call';

/**
 * What an approval answers: `undefined` or `true` allows the call as it is; `{ allow: true, args }`
 * allows it with these arguments instead; `{ refuse: reason }` refuses it (the model reads the
 * reason as the call's result and the turn goes on); `false` refuses it without a reason.
 */
export type ToolVerdict =
  void | undefined | boolean | { allow: true; args?: Record<string, unknown> } | { refuse: string };

/** Sees a call before it runs; may answer later (a promise: a dialog asking the player). */
export type ToolApproval = (call: ToolCall, context: { signal: SignalLike }) => ToolVerdict | Promise<ToolVerdict>;
