/** Conversation lines as the model reads them: `Label: text` and `[tool {args} → output]`. */
import type { TranscriptEntry } from '../transcript';
import { ToolOutput } from '../tools';
import type { AgentLabels } from './policy';

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (truncated)`;
}

export function toolLine(entry: Extract<TranscriptEntry, { type: 'toolUse' }>, maxOutputChars: number): string {
  const args = JSON.stringify(entry.call.args ?? {});
  return `[${entry.call.name} ${args} → ${clip(ToolOutput.render(entry.output), maxOutputChars)}]`;
}

/** `key: value; key: value` — how an earlier structured reply is shown (never as JSON, which models copy). */
export function renderStructuredPlain(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value) ?? '';
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('; ');
}

export function entryLines(
  entries: readonly TranscriptEntry[],
  labels: AgentLabels,
  maxOutputChars: number,
  renderStructured: (value: unknown) => string,
): string[] {
  const lines: string[] = [];
  for (const e of entries) {
    if (e.type === 'prompt') lines.push(`${labels.user}: ${oneLine(e.text)}`);
    else if (e.type === 'toolUse') lines.push(toolLine(e, maxOutputChars));
    else
      lines.push(
        `${labels.assistant}: ${oneLine(e.structured !== undefined ? renderStructured(e.structured) : e.text)}`,
      );
  }
  return lines;
}

/** Keeps each conversation entry on one line so labels stay unambiguous. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n+\s*/g, ' ').trim();
}
