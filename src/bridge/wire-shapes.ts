/** The core's records in their wire shapes (reference §3.2): calls, tool records, usage, steps. */
import type { TokenUsage } from '../contract/language-model';
import type { StepRecord, ToolRecord } from '../core/agent';
import { ToolOutput, type ToolCall } from '../core/tools';

export function callOnWire(call: ToolCall): { id: string; name: string; arguments: Record<string, unknown> } {
  return { id: call.id, name: call.name, arguments: call.args };
}

/** `output` is the text the model saw, without the `Error: ` an error output gets in the prompt. */
export function toolRecordOnWire(record: ToolRecord): Record<string, unknown> {
  const output = record.output.kind === 'error' ? record.output.message : ToolOutput.render(record.output);
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

export function stepOnWire(step: StepRecord): Record<string, unknown> {
  return {
    kind: step.kind,
    isRepair: step.isRepair,
    inputTokens: step.promptTokens,
    cachedInputTokens: step.cachedPromptTokens,
    outputTokens: step.outputTokens,
  };
}
