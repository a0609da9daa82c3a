/**
 * A tool call's arguments checked against the tool's parameters, candidate by candidate.
 */
import type { AgentTool } from '../tools';

/** Coerces and validates argument candidates in order; the first valid one wins. */
export function checkArguments(
  tool: AgentTool,
  candidates: unknown[],
): { ok: true; args: Record<string, unknown> } | { ok: false; problem: string; firstArgs: Record<string, unknown> } {
  const list = candidates.length > 0 ? candidates : [{}];
  let firstProblem = '';
  for (const candidate of list) {
    const checked = tool.parameters.check(candidate);
    if (checked.ok) return { ok: true, args: (checked.value ?? {}) as Record<string, unknown> };
    if (!firstProblem) firstProblem = checked.problem;
  }
  const first = list[0];
  const firstArgs =
    first && typeof first === 'object' && !Array.isArray(first) ? (first as Record<string, unknown>) : {};
  return { ok: false, problem: `the arguments for ${tool.name} are invalid: ${firstProblem}`, firstArgs };
}
