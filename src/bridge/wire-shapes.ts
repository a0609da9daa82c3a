/** The core's records in their wire shapes (reference §3.2): calls, tool records, usage, steps. */
import type { TokenUsage } from '../contract/language-model';
import type { StepRecord, ToolRecord } from '../core/agent';
import { ToolOutput, type ToolCall } from '../core/tools';

export function callOnWire(call: ToolCall): { id: string; name: string; arguments: Record<string, unknown> } {
  return { id: call.id, name: call.name, arguments: call.args };
}

/**
 * `output` is what the tool answered, as the seed records it: a JSON answer as that JSON (the
 * model saw it compacted), a text as the text, an error as its message without the `Error: `
 * the prompt puts in front.
 */
export function toolRecordOnWire(record: ToolRecord): Record<string, unknown> {
  const output =
    record.output.kind === 'error'
      ? record.output.message
      : record.output.kind === 'json'
        ? record.output.value
        : ToolOutput.render(record.output);
  const wire: Record<string, unknown> = {
    call: callOnWire(record.call),
    output,
    isError: ToolOutput.isError(record.output),
    durationSeconds: record.durationMs / 1000,
  };
  if (record.rejected) wire.notMade = true;
  return wire;
}

export function usageOnWire(usage: TokenUsage): Record<string, number> {
  return {
    inputTokens: usage.inputTokens,
    cachedInputTokens: usage.cachedInputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.inputTokens + usage.outputTokens,
  };
}

/** What a turn offered its decide and argument steps: the tools and whether a call was forced. */
export interface TurnTools {
  enabledTools: string[];
  /** toolChoice "required" or a named tool: the decide step must call one. */
  forced: boolean;
}

/**
 * A step as the seed's `steps[]` has it: `toolCallingMode` "allowed" for a decide step,
 * "required" for a forced call (a required decide step, an argument step), "disallowed" for
 * the reply; `enabledTools` the tools the step offered (none for a reply).
 */
export function stepOnWire(
  step: StepRecord,
  turn: TurnTools = { enabledTools: [], forced: false },
): Record<string, unknown> {
  const offers = step.kind === 'decide' || step.kind === 'toolArguments';
  const mode = !offers ? 'disallowed' : step.kind === 'toolArguments' || turn.forced ? 'required' : 'allowed';
  return {
    kind: step.kind,
    toolCallingMode: mode,
    enabledTools: offers ? turn.enabledTools : [],
    isRepair: step.isRepair,
    inputTokens: step.promptTokens,
    cachedInputTokens: step.cachedPromptTokens,
    outputTokens: step.outputTokens,
  };
}
