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
  const w = value as { type?: unknown; version?: unknown; transcript?: unknown };
  if (!w || typeof w !== 'object' || w.type !== TRANSCRIPT_FORMAT) {
    throw new AgentError('invalid_request', `Saved transcript must have type "${TRANSCRIPT_FORMAT}".`);
  }
  if (w.version !== TRANSCRIPT_VERSION) {
    throw new AgentError(
      'invalid_request',
      `Saved transcript version ${JSON.stringify(w.version)} is not supported (expected ${TRANSCRIPT_VERSION}).`,
    );
  }
  const t = w.transcript as Partial<TranscriptData> | undefined;
  if (!t || !Array.isArray(t.entries)) throw new AgentError('invalid_request', 'Saved transcript has no entries list.');
  t.entries.forEach((e, i) => checkEntry(e, i));
  return {
    instructions: typeof t.instructions === 'string' ? t.instructions : '',
    contextNote: typeof t.contextNote === 'string' ? t.contextNote : '',
    tools: Array.isArray(t.tools) ? t.tools : [],
    entries: clone(t.entries),
  };
}

export function checkEntry(e: unknown, i: number): void {
  const x = e as { type?: unknown; text?: unknown; call?: ToolCall; output?: unknown };
  const where = `transcript.entries[${i}]`;
  if (!x || typeof x !== 'object') throw new AgentError('invalid_request', `${where} must be an object.`);
  if (x.type === 'prompt' || x.type === 'response') {
    if (typeof x.text !== 'string') throw new AgentError('invalid_request', `${where}.text must be a string.`);
  } else if (x.type === 'toolUse') {
    if (!x.call || typeof x.call.name !== 'string' || typeof x.call.id !== 'string') {
      throw new AgentError('invalid_request', `${where}.call must have an id and a name.`);
    }
    if (!isToolOutput(x.output)) throw new AgentError('invalid_request', `${where}.output must be a tool output.`);
  } else {
    throw new AgentError('invalid_request', `${where}.type must be "prompt", "toolUse" or "response".`);
  }
}

/** Groups entries into turns: each turn starts with a prompt entry. */
export function splitTurns(entries: readonly TranscriptEntry[]): TranscriptEntry[][] {
  const turns: TranscriptEntry[][] = [];
  for (const e of entries) {
    if (e.type === 'prompt' || turns.length === 0) turns.push([e]);
    else turns[turns.length - 1].push(e);
  }
  return turns;
}

export function clone<T>(v: T): T {
  return v === undefined ? v : JSON.parse(JSON.stringify(v));
}
