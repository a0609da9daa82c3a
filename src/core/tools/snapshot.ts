/**
 * Reading a lookup's `snapshot` for the prompt: what it would return now, when that is small.
 * One rule for every engine that reads ahead (a turn's parameterless lookups, a decision's
 * world-state reader).
 */
import type { AgentTool } from './agent-tool';

/** Longest snapshot (JSON characters) placed in a prompt instead of a lookup call. */
export const MAX_SNAPSHOT_CHARS = 600;

/**
 * The snapshot and its JSON, or undefined when there is none, it throws, it is not plain data,
 * it is a promise (a snapshot is read synchronously; a thenable would read as `{}`) or it is
 * longer than MAX_SNAPSHOT_CHARS. Undefined leaves the lookup to the model.
 */
export function readSnapshot(tool: AgentTool): { value: unknown; json: string } | undefined {
  if (!tool.snapshot) return undefined;
  try {
    const value = tool.snapshot();
    if (value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function')
      return undefined;
    const json = value === undefined ? undefined : JSON.stringify(value);
    return json !== undefined && json.length <= MAX_SNAPSHOT_CHARS ? { value, json } : undefined;
  } catch {
    return undefined;
  }
}
