/**
 * A line-first answer (the words, then calls and the reply's tag on lines after them) as the
 * turn's reply: its value, and the calls after the words that run or are refused.
 */
import type { AgentTool } from '../tools';
import type { LineFirstAnswer } from '../envelope/line-first';
import type { AfterReplyCall, DecideOutcome } from './decide-outcome';
import type { EngineState } from './engine-state';

/** The reply value of a line-first answer: the words, or the object with the words in its line key. */
export function lineFirstValue(engine: EngineState, written: LineFirstAnswer): unknown {
  if (!engine.lineField) return written.line;
  const value: Record<string, unknown> = { ...written.fields };
  delete value[engine.lineField]; // the words written first are the line, whatever the trailer says
  // Words without their tag are still a reply: the tag is left empty (an NPC reads that as its
  // default emotion) instead of costing a repair call over one word.
  if (engine.tagKey !== undefined && typeof value[engine.tagKey] !== 'string') value[engine.tagKey] = '';
  return { [engine.lineField]: written.line, ...value };
}

export function lineFirstReply(engine: EngineState, written: LineFirstAnswer, enabled: AgentTool[]): DecideOutcome {
  const after: AfterReplyCall[] = [];
  for (const call of written.calls) {
    const tool = enabled.find((candidate) => candidate.name === call.tool);
    if (tool) after.push({ tool, argCandidates: call.argCandidates });
  }
  // Calls that cannot run now are recorded as not made, after the words, so the next prompt
  // shows the model what did not happen.
  const notNow = {
    ...written,
    calls: written.calls.filter((call) => !enabled.some((tool) => tool.name === call.tool)),
  };
  return { kind: 'reply', inline: lineFirstValue(engine, written), after, refused: notNow };
}
