/**
 * The calls a line-first reply writes after its words: run in order within the turn's call
 * budget (a repeat runs once), or recorded as not made when they cannot run; either way they
 * sit after the words in the transcript (TurnEngine.finish moves them there).
 */
import { ToolOutput } from '../tools';
import { isPlainObject } from '../json';
import type { LineFirstAnswer } from '../envelope/line-first';
import { checkArguments } from './check-arguments';
import type { AfterReplyCall } from './decide-outcome';
import type { EngineState } from './engine-state';

/** Records the calls written after the words that will not run (unreadable, or tools off). */
export function refuseCalls(
  engine: EngineState,
  written: Pick<LineFirstAnswer, 'calls' | 'unread'>,
  problem: string,
): void {
  const from = engine.current.length;
  for (const call of written.calls) {
    const tool = engine.setup.tools.find((candidate) => candidate.name === call.tool);
    if (tool) engine.reject(tool, firstObject(call.argCandidates), problem);
  }
  for (const bad of written.unread) {
    const tool = engine.setup.tools.find((candidate) => candidate.name === bad.tool);
    if (tool) engine.reject(tool, {}, bad.problem);
  }
  if (engine.current.length > from)
    engine.afterReply = { from: engine.afterReply?.from ?? from, to: engine.current.length };
}

/** Runs the actions written after the words, in order, within the turn's call budget; a repeat runs once. */
export async function runAfterReply(engine: EngineState, calls: AfterReplyCall[]): Promise<void> {
  const from = engine.current.length;
  const seen = new Set<string>();
  for (const call of calls) {
    const checked = checkArguments(call.tool, call.argCandidates);
    const args = checked.ok ? checked.args : checked.firstArgs;
    const key = `${call.tool.name} ${JSON.stringify(args)}`;
    // A repeat runs once, also of a call that already ran earlier in this turn.
    if (seen.has(key) || (engine.turn.config.dedupesToolCalls && engine.succeeded.has(key))) continue;
    seen.add(key);
    if (engine.calls >= engine.turn.config.toolPolicy.maxToolCalls)
      engine.reject(
        call.tool,
        args,
        `the turn already used its ${engine.turn.config.toolPolicy.maxToolCalls} tool calls`,
      );
    else if (!checked.ok) engine.reject(call.tool, args, checked.problem);
    else if (!ToolOutput.isError((await engine.execute(call.tool, checked.args)).output)) engine.succeeded.add(key);
  }
  if (engine.current.length > from) engine.afterReply = { from, to: engine.current.length };
}

/** The first candidate that is an object, for a record of a call that was not made. */
function firstObject(candidates: unknown[]): Record<string, unknown> {
  const first = candidates.find((candidate) => isPlainObject(candidate));
  return (first as Record<string, unknown> | undefined) ?? {};
}
