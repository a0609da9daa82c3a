/** The conversation as data: what a game saves, restores and shows. */
import { AgentError } from '../../contract/errors';
import { readJsonInput } from '../json/json-input';
import type { ToolCall, ToolOutput } from '../tools';
import { isToolOutput } from '../tools';

export type TranscriptEntry =
  | { type: 'prompt'; text: string }
  | { type: 'toolUse'; call: ToolCall; output: ToolOutput; rejected?: boolean }
  | { type: 'response'; text: string; structured?: unknown };

export interface TranscriptData {
  instructions: string;
  contextNote: string;
  tools: Array<{ name: string; description: string; parameters: Record<string, unknown> }>;
  entries: TranscriptEntry[];
}

export const TRANSCRIPT_FORMAT = 'oam-cocos.Transcript';
export const TRANSCRIPT_VERSION = 1;

export function transcriptToJSON(data: TranscriptData): { type: string; version: number; transcript: TranscriptData } {
  return { type: TRANSCRIPT_FORMAT, version: TRANSCRIPT_VERSION, transcript: clone(data) };
}

/** Reads a saved transcript; throws invalid_request naming what is wrong. */
export function transcriptFromJSON(input: unknown): TranscriptData {
  const value = readJsonInput(input, 'Saved transcript');
  const wrapper = value as { type?: unknown; version?: unknown; transcript?: unknown };
  if (!wrapper || typeof wrapper !== 'object' || wrapper.type !== TRANSCRIPT_FORMAT) {
    throw new AgentError('invalid_request', `Saved transcript must have type "${TRANSCRIPT_FORMAT}".`);
  }
  if (wrapper.version !== TRANSCRIPT_VERSION) {
    throw new AgentError(
      'invalid_request',
      `Saved transcript version ${JSON.stringify(wrapper.version)} is not supported (expected ${TRANSCRIPT_VERSION}).`,
    );
  }
  const data = wrapper.transcript as Partial<TranscriptData> | undefined;
  if (!data || !Array.isArray(data.entries))
    throw new AgentError('invalid_request', 'Saved transcript has no entries list.');
  data.entries.forEach((entry, index) => checkEntry(entry, index));
  return {
    instructions: typeof data.instructions === 'string' ? data.instructions : '',
    contextNote: typeof data.contextNote === 'string' ? data.contextNote : '',
    tools: Array.isArray(data.tools) ? data.tools : [],
    entries: clone(data.entries),
  };
}

export function checkEntry(entry: unknown, index: number): void {
  const fields = entry as { type?: unknown; text?: unknown; call?: ToolCall; output?: unknown };
  const where = `transcript.entries[${index}]`;
  if (!fields || typeof fields !== 'object') throw new AgentError('invalid_request', `${where} must be an object.`);
  if (fields.type === 'prompt' || fields.type === 'response') {
    if (typeof fields.text !== 'string') throw new AgentError('invalid_request', `${where}.text must be a string.`);
  } else if (fields.type === 'toolUse') {
    if (!fields.call || typeof fields.call.name !== 'string' || typeof fields.call.id !== 'string') {
      throw new AgentError('invalid_request', `${where}.call must have an id and a name.`);
    }
    if (!isToolOutput(fields.output)) throw new AgentError('invalid_request', `${where}.output must be a tool output.`);
  } else {
    throw new AgentError('invalid_request', `${where}.type must be "prompt", "toolUse" or "response".`);
  }
}

/** Groups entries into turns: each turn starts with a prompt entry. */
export function splitTurns(entries: readonly TranscriptEntry[]): TranscriptEntry[][] {
  const turns: TranscriptEntry[][] = [];
  for (const item of entries) {
    if (item.type === 'prompt' || turns.length === 0) turns.push([item]);
    else turns[turns.length - 1].push(item);
  }
  return turns;
}

export function clone<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}
