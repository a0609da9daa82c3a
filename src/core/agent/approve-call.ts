/**
 * Runs a call past its approvals before it runs: the tool's own, then the agent's (which sees
 * the arguments the tool's changed). A refusal stops there; changed arguments must fit the
 * tool's schema. A hook that throws, or answers something else, is a bug in the game: the turn
 * fails with `tool_failed` naming it (marked unexpected, so an NPC does not hide it behind a
 * fallback line), and like any failed turn it leaves nothing behind.
 */
import { AgentError } from '../../contract/errors';
import { abortError, raceSignal, type SignalLike } from '../../contract/abort';
import type { AgentTool, ToolApproval, ToolCall, ToolVerdict } from '../tools';

export type Approval = { call: ToolCall } | { call: ToolCall; refused: string };

const DEFAULT_REASON = 'The game did not allow this.';

export async function approveCall({
  tool,
  call,
  agentApproval,
  signal,
}: {
  tool: AgentTool;
  call: ToolCall;
  agentApproval?: ToolApproval;
  signal: SignalLike;
}): Promise<Approval> {
  let current = call;
  for (const [who, approve] of [
    [`${tool.name}'s approve`, tool.approve],
    ['approveToolCall', agentApproval],
  ] as const) {
    if (!approve) continue;
    let verdict: ToolVerdict;
    try {
      verdict = await raceSignal(
        Promise.resolve().then(() => approve({ ...current, args: { ...current.args } }, { signal })),
        signal,
      );
    } catch (error) {
      if (signal.aborted) throw abortError(signal);
      throw new AgentError(
        'tool_failed',
        `${who} threw for ${tool.name}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error, unexpected: true },
      );
    }
    if (signal.aborted) throw abortError(signal);
    if (verdict === undefined || verdict === true) continue;
    if (verdict === false) return { call: current, refused: DEFAULT_REASON };
    if (typeof verdict === 'object' && verdict !== null && 'refuse' in verdict) {
      const reason =
        typeof verdict.refuse === 'string' && verdict.refuse.trim() ? verdict.refuse.trim() : DEFAULT_REASON;
      return { call: current, refused: reason };
    }
    if (typeof verdict === 'object' && verdict !== null && (verdict as { allow?: unknown }).allow === true) {
      const args = (verdict as { args?: unknown }).args;
      if (args === undefined) continue;
      const checked = tool.parameters.check(args);
      if (!checked.ok)
        throw new AgentError(
          'tool_failed',
          `${who} changed ${tool.name}'s arguments to ones its schema refuses: ${checked.problem}.`,
          { unexpected: true },
        );
      current = { ...current, args: checked.value as Record<string, unknown> };
      continue;
    }
    throw new AgentError(
      'tool_failed',
      `${who} for ${tool.name} must answer true, false, { allow: true, args? } or { refuse: "reason" }; got ${JSON.stringify(verdict)}.`,
      { unexpected: true },
    );
  }
  return { call: current };
}
