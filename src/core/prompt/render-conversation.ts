/** Conversation lines as the model reads them: `Label: text` and `[tool {args} → output]`. */
import type { TranscriptEntry } from '../transcript';
import { ToolOutput } from '../tools';
import type { AgentLabels } from './policy';
import { findBalancedEnd } from '../json/scan';

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
    .map(([key, field]) => `${key}: ${typeof field === 'string' ? field : JSON.stringify(field)}`)
    .join('; ');
}

/** What {@link entryLines} renders, and how. */
export interface EntryLinesInput {
  entries: readonly TranscriptEntry[];
  labels: AgentLabels;
  /** A tool output longer than this is cut. */
  maxOutputChars: number;
  /** How an earlier structured reply is shown. */
  renderStructured: (value: unknown) => string;
}

/** The conversation entries as prompt lines, one per entry. */
export function entryLines({ entries, labels, maxOutputChars, renderStructured }: EntryLinesInput): string[] {
  const lines: string[] = [];
  for (const entry of entries) {
    if (entry.type === 'prompt') lines.push(`${labels.user}: ${oneLine(entry.text)}`);
    else if (entry.type === 'toolUse') lines.push(toolLine(entry, maxOutputChars));
    else
      lines.push(
        `${labels.assistant}: ${oneLine(entry.structured !== undefined ? renderStructured(entry.structured) : entry.text)}`,
      );
  }
  return lines;
}

/** Keeps each conversation entry on one line so labels stay unambiguous. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n+\s*/g, ' ').trim();
}

// ---- reading a rendered turn back ---------------------------------------------------------

/** The turn in progress as a step's prompt shows it: what models that answer from rules read. */
export interface RenderedTurn {
  /** The player's words: this turn's spoken line (one line, as rendered), or the whole raw prompt. */
  prompt: string;
  /** This turn's tool uses so far, in order, with their outputs as the model saw them (clipped). */
  toolResults: Array<{ tool: string; args: unknown; output: string }>;
}

/**
 * Where a task starts after the conversation (task-lines.ts; a test holds every task line to
 * these openings). The last one is the task, unless it is a repair note: then the one before.
 */
const TASK_START =
  /\n\n(?=Next step: |Tools available now: |[^\n:]{1,200}:(?:\n\n|$)|Use [^\n]* now\. Write only its arguments |Write [^\n]*'s (?:new )?reply to |Write [^\n]*'s \w+(?: \([^)\n]*\))?(?:, using the facts from the tool results)?, as plain text\.|Write the [^\n]* asked for[ ,]|Answer with that JSON object only|Your previous answer was invalid: )/g;
const REPAIR_OPENING = 'Your previous answer was invalid: ';
/** The only tasks a raw prompt (a first turn without tools) is sent with: a structured reply's or content's. */
const RAW_TASK_START =
  /\n\n(?=Write [^\n]*'s new reply to the last message|Write the [^\n]* asked for[ ,]|Answer with that JSON object only)/g;
const CONVERSATION = 'Conversation:\n';
/** A tool line's start: `[name {`. */
const TOOL_START = /\[([^\s[\]{}]+) (?=\{)/y;

/**
 * Reads the turn in progress back from a step's prompt (buildStepPrompt: the note,
 * "Conversation:" with `Label: text` and `[tool {args} → output]` lines, the task), so models
 * that answer from scripts or rules need nothing beside the request. While a turn runs its
 * reply is not written yet: its prompt is the last line in the player's label (the label of
 * the conversation's first line, always a turn's prompt), and every line after it is one of
 * its tool uses. A tool output may hold line breaks, brackets and blank lines; what cannot be
 * told apart is an output with a line of its own that starts with the player's label (or a
 * note with a "Conversation:" paragraph). A first turn sent raw is the player's words alone.
 */
export function readRenderedTurn(prompt: string): RenderedTurn {
  const section = renderedConversation(prompt);
  if (section === undefined)
    return { prompt: prompt.slice(0, lastMatch(prompt, RAW_TASK_START) ?? prompt.length), toolResults: [] };
  return readCurrentTurn(section);
}

/** The conversation lines of a step's prompt (after "Conversation:", before the task); undefined for a raw prompt. */
export function renderedConversation(prompt: string): string | undefined {
  const after = prompt.indexOf(`\n\n${CONVERSATION}`);
  const start = prompt.startsWith(CONVERSATION) ? 0 : after >= 0 ? after + 2 : -1;
  if (start < 0) return undefined;
  const body = prompt.slice(start + CONVERSATION.length);
  return body.slice(0, taskStart(body) ?? body.length);
}

function taskStart(body: string): number | undefined {
  const starts = Array.from(body.matchAll(TASK_START), (match) => match.index as number);
  const last = starts.length - 1;
  if (last > 0 && body.startsWith(REPAIR_OPENING, starts[last] + 2)) return starts[last - 1];
  return last >= 0 ? starts[last] : undefined;
}

function lastMatch(text: string, pattern: RegExp): number | undefined {
  const starts = Array.from(text.matchAll(pattern), (match) => match.index as number);
  return starts.length > 0 ? starts[starts.length - 1] : undefined;
}

function readCurrentTurn(section: string): RenderedTurn {
  const firstLineEnd = section.indexOf('\n');
  const firstLine = section.slice(0, firstLineEnd < 0 ? section.length : firstLineEnd);
  const colon = firstLine.indexOf(': ');
  if (colon <= 0 || firstLine.startsWith('[')) return { prompt: '', toolResults: [] };
  const marker = `${firstLine.slice(0, colon)}: `;
  // The last line in the player's label that only tool lines follow is this turn's prompt.
  for (let at = section.length; at >= 0;) {
    at = section.lastIndexOf(`\n${marker}`, at - 1);
    const lineStart = at < 0 ? 0 : at + 1;
    if (at < 0 && !section.startsWith(marker)) break;
    const lineEnd = section.indexOf('\n', lineStart);
    const said = section.slice(lineStart + marker.length, lineEnd < 0 ? section.length : lineEnd);
    const tools = lineEnd < 0 ? [] : readToolLines(section, lineEnd + 1);
    if (tools) return { prompt: said, toolResults: tools };
    if (at < 0) break;
  }
  return { prompt: '', toolResults: [] };
}

/** The tool lines from `from` to the end of the section, or undefined when that is not all there is. */
function readToolLines(section: string, from: number): RenderedTurn['toolResults'] | undefined {
  const starts: Array<{ tool: string; args: unknown; outputStart: number; at: number }> = [];
  const first = toolLineStart(section, from);
  if (!first) return undefined;
  starts.push(first);
  // A later `\n[name {…} → ` starts the next tool line when the output before it ends with `]`;
  // otherwise it is part of that output.
  for (let at = section.indexOf('\n[', first.outputStart); at >= 0; at = section.indexOf('\n[', at + 1)) {
    const next = section[at - 1] === ']' ? toolLineStart(section, at + 1) : undefined;
    if (next) starts.push(next);
  }
  if (!section.endsWith(']')) return undefined;
  return starts.map((start, index) => {
    const end = index + 1 < starts.length ? starts[index + 1].at - 2 : section.length - 1;
    return { tool: start.tool, args: start.args, output: section.slice(start.outputStart, end) };
  });
}

function toolLineStart(
  section: string,
  at: number,
): { tool: string; args: unknown; outputStart: number; at: number } | undefined {
  TOOL_START.lastIndex = at;
  const head = TOOL_START.exec(section);
  if (!head) return undefined;
  const argsStart = at + head[0].length;
  const argsEnd = findBalancedEnd(section, argsStart);
  if (argsEnd < 0 || !section.startsWith(' → ', argsEnd)) return undefined;
  let args: unknown = section.slice(argsStart, argsEnd);
  try {
    args = JSON.parse(args as string);
  } catch {
    // kept as written
  }
  return { tool: head[1], args, outputStart: argsEnd + 3, at };
}
