/**
 * The line-first answer of the default mode. A reply is written as plain words first, so the
 * player's first word is the model's first token (a JSON envelope costs 3–9 tokens before it);
 * what goes with the words follows, each on its own line: the reply's other keys (one short key
 * as a tag, `[happy]`; several as JSON) and actions whose result the words do not need, in the
 * call syntax of Gemini Nano's family (`remember_fact(fact="…")`, or `[remember_fact(…)]`;
 * `{"tool":…}` is read too). An answer that opens like JSON is an envelope as before: a tool
 * whose result is needed first, or a model that kept to the JSON form.
 *
 *     Sam it is. Welcome, Sam!
 *     [happy]
 *     remember_fact(fact="The player's name is Sam.")
 */
import { parseLenient } from '../json/lenient';
import { isPlainObject } from '../json/extract';
import { findBalancedEnd } from '../json/scan';
import { setOwnKey } from '../json/own-key';
import { parseEnvelope } from './parse';
import { findCalls, withoutCallSpans } from '../calls/find-calls';
import { callArguments, callContext } from './family-call';
import { PROBLEM_CUT_OFF, PROBLEM_UNREADABLE, type WrittenCall } from '../calls/written-call';
import { REASONING_OPENERS } from '../calls/reasoning';
import {
  isTagValue,
  readTagLine,
  TAG_BODY,
  tagLineState,
  takeInlineTag,
  takeTrailingTag,
  type TagKinds,
} from './tag-forms';
import { resolveToolName } from './names';

export type LineFirstState =
  | { kind: 'unknown' }
  /** The answer opens like JSON: the envelope readers take it. */
  | { kind: 'envelope' }
  /** The words so far (whitespace at either end not yet shown), and whether the trailer began. */
  | { kind: 'line'; text: string; closed: boolean };

export interface LineFirstAnswer {
  /** The words, trimmed. */
  line: string;
  /** The reply's other keys, merged in order from the trailer (and a tag before or after the words). */
  fields: Record<string, unknown>;
  /** Actions written after the words, with argument candidates (best first), in order. */
  calls: Array<{ tool: string; argCandidates: unknown[] }>;
  /** Actions naming a known tool that could not be read (cut off, arguments unreadable): never run. */
  unread: Array<{ tool: string; problem: string }>;
}

/** What the reader looks for after the words. */
export interface TrailerKinds extends TagKinds {
  /** Tools whose calls may follow the words (every tool of the agent: a call is cut from the words even when it may not run now). */
  toolNames: readonly string[];
  /** A tool's parameter names in order, for calls written by position. */
  parameterOrder?: (tool: string) => readonly string[] | undefined;
}

const UNKNOWN: LineFirstState = { kind: 'unknown' };
const ENVELOPE: LineFirstState = { kind: 'envelope' };
/** Keys that make a trailer object an action rather than more of the reply. */
const CALL_KEYS = new Set(['tool', 'action', 'name', 'function']);
const LEADING_TAG = new RegExp(`^\\[(${TAG_BODY})\\][ \\t]*`);

/** True when the answer's first visible characters open JSON (or a Markdown fence). */
export function opensLikeJson(head: string): boolean {
  return head[0] === '{' || head.startsWith('```') || /^\[\s*[{"]/.test(head) || /^\[\s*$/.test(head);
}

/**
 * Reads the growing answer; each push costs time linear in the new characters only (the
 * search for the trailer resumes where it stopped).
 */
export class LineFirstReader {
  private head: 'unknown' | 'envelope' | 'line' = 'unknown';
  private start = 0;
  /** Index where the trailer starts, once found. */
  private cut = -1;
  /** Where the search for a trailer resumes. */
  private scanned = 0;

  constructor(private readonly kinds: TrailerKinds) {}

  push(text: string): LineFirstState {
    if (this.head === 'envelope') return ENVELOPE;
    if (this.head === 'unknown') {
      const lead = text.length - text.trimStart().length;
      const head = text.slice(lead, lead + 48);
      if (head.length === 0) return UNKNOWN;
      // `[` may still become `[{"tool"…` (a list of calls), `[check_menu()]` or a tag; `<th` a
      // reasoning block; a fence its language name.
      if (
        head === '[' ||
        head === '`' ||
        head === '``' ||
        REASONING_OPENERS.some((opener) => opener.startsWith(head) && head.length < opener.length)
      )
        return UNKNOWN;
      if (opensLikeJson(head)) {
        this.head = 'envelope';
        return ENVELOPE;
      }
      let start = lead;
      if (this.kinds.tagKey !== undefined && head[0] === '[') {
        // A tag before the words (`[happy] Welcome!`) is not shown; wait until it closes.
        const found = LEADING_TAG.exec(head);
        const tag = found && isTagValue(this.kinds, found[1]) ? found : null;
        if (!found && new RegExp(`^\\[${TAG_BODY.replace('{1,40}', '{0,40}')}$`).test(head)) return UNKNOWN;
        if (tag) start = lead + tag[0].length;
        if (tag && start >= text.length) return UNKNOWN;
      }
      this.head = 'line';
      this.start = start;
      this.scanned = start;
    }
    if (this.cut < 0) {
      const found = findTrailer(text, this.scanned, this.kinds);
      this.cut = found.index;
      if (found.resumeAt !== undefined) this.scanned = found.resumeAt;
    }
    const end =
      this.cut >= 0 ? trimEndAt(text, this.cut) : heldBackEnd(text, this.scanned, this.kinds.tagKey !== undefined);
    return { kind: 'line', text: text.slice(this.start, Math.max(this.start, end)), closed: this.cut >= 0 };
  }
}

/** Splits a whole line-first answer; undefined when it opens like JSON (an envelope). */
export function readLineFirst(written: string, kinds: TrailerKinds): LineFirstAnswer | undefined {
  const head = written.trimStart();
  if (head.length === 0 || opensLikeJson(head)) return undefined;
  const answer: LineFirstAnswer = { line: '', fields: {}, calls: [], unread: [] };
  // Calls of any family, wherever they sit (on the words' line, in backticks, in a fence, in a
  // list of several), are taken out first, in order; the rest is the words and the trailer.
  const text = takeCalls(written, kinds, answer);
  const rest = text.trimStart();
  let lead = text.length - rest.length;
  if (kinds.tagKey !== undefined) {
    const tag = LEADING_TAG.exec(rest);
    if (tag && isTagValue(kinds, tag[1])) {
      setOwnKey(answer.fields, kinds.tagKey, tag[1].trim());
      lead += tag[0].length;
    }
  }
  const found = findTrailer(text, lead, kinds);
  // The whole answer is here: an object still open at the end was cut off, so it is the trailer.
  const cut =
    found.index >= 0 || found.resumeAt === undefined || text[found.resumeAt] !== '{' ? found.index : found.resumeAt;
  let line = (cut >= 0 ? text.slice(lead, cut) : text.slice(lead)).trim();
  // A tag at the end of the words, on their line (`Hi Sam! [happy]`, `Hi Sam! (happy)`).
  const trailing = takeTrailingTag(line, kinds);
  if (trailing.value !== undefined && kinds.tagKey !== undefined) {
    setOwnKey(answer.fields, kinds.tagKey, trailing.value);
    line = trailing.line;
  }
  const inline = takeInlineTag(line, kinds);
  if (inline.value !== undefined && kinds.tagKey !== undefined && !(kinds.tagKey in answer.fields))
    setOwnKey(answer.fields, kinds.tagKey, inline.value);
  answer.line = inline.line;
  if (cut >= 0) readTrailer(text.slice(cut), kinds, answer);
  return answer;
}

/** The text with every call to a known tool cut out (a space in its place), each added to `answer` in order. */
function takeCalls(text: string, kinds: TrailerKinds, answer: LineFirstAnswer): string {
  const taken: WrittenCall[] = [];
  for (const call of findCalls(text, callContext(kinds.toolNames))) {
    const tool = resolveToolName(call.name, kinds.toolNames);
    // A JSON object naming no known tool may be the reply's own keys: the trailer reads it.
    if (!tool && call.family === 'json') continue;
    taken.push(call);
    if (!tool) continue;
    const args = callArguments(call, tool, kinds);
    if ('args' in args) answer.calls.push({ tool, argCandidates: [args.args] });
    else answer.unread.push({ tool, problem: args.problem });
  }
  return withoutCallSpans(text, taken);
}

/**
 * The index of the first trailer line at or after `from`, or -1: a `{` that starts a line, `{"`
 * anywhere (no one says `{"` aloud), a line that starts a call (`name(`, `[name(`) or a tag line.
 * With -1, `resumeAt` is the index a later search must resume from (the end may still turn out
 * to start one).
 */
function findTrailer(text: string, from: number, kinds: TrailerKinds): { index: number; resumeAt?: number } {
  const tagged = kinds.tagKey !== undefined;
  for (let cursor = from; cursor < text.length; cursor++) {
    const char = text[cursor];
    if (char === '{') {
      let next = cursor + 1;
      while (next < text.length && (text[next] === ' ' || text[next] === '\t')) next++;
      if (next >= text.length) {
        return { index: -1, resumeAt: cursor };
      }
      if (startsLine(text, cursor)) return { index: cursor };
      if (text[next] === '"') {
        // Mid-line, `{"` starts the trailer only when its object ends the line (`Hi! {"emotion":"happy"}`);
        // `{"` in speech stays words. Until the object closes it may be either: wait.
        const end = findBalancedEnd(text, cursor);
        if (end < 0) return { index: -1, resumeAt: cursor };
        if (/^[ \t]*(?:\r?\n|$)/.test(text.slice(end, end + 80))) return { index: cursor };
      }
    } else if (char === '\n' && (kinds.toolNames.length > 0 || tagged)) {
      let lineStart = cursor + 1;
      while (lineStart < text.length && (text[lineStart] === ' ' || text[lineStart] === '\t')) lineStart++;
      const call = startsCall(text, lineStart, kinds.toolNames);
      const tag = tagged && call === 'no' ? startsTag(text, lineStart, kinds) : 'no';
      if (call === 'yes' || tag === 'yes') return { index: lineStart };
      if (call === 'maybe' || tag === 'maybe' || lineStart >= text.length) {
        return { index: -1, resumeAt: cursor };
      }
    }
  }
  return { index: -1, resumeAt: text.length };
}

/** A tag line at `at` (any form, `tag-forms.ts`), or one still being written at the end of the text. */
function startsTag(text: string, at: number, kinds: TrailerKinds): 'yes' | 'no' | 'maybe' {
  return tagLineState(text.slice(at, at + 80), kinds);
}

/** Whether the text at `at` starts `name(` or `[name(` for one of the names, or may still (it ends first). */
function startsCall(text: string, at: number, names: readonly string[]): 'yes' | 'no' | 'maybe' {
  let rest = text.slice(at, at + 80);
  if (rest.startsWith('[')) rest = rest.slice(1);
  if (rest.length === 0) return names.length > 0 ? 'maybe' : 'no';
  let maybe = false;
  for (const name of names) {
    const opener = `${name}(`;
    if (rest.startsWith(opener)) return 'yes';
    if (rest.length < opener.length && opener.startsWith(rest)) maybe = true;
  }
  return maybe ? 'maybe' : 'no';
}

function startsLine(text: string, index: number): boolean {
  for (let before = index - 1; before >= 0; before--) {
    const char = text[before];
    if (char === '\n') return true;
    if (char !== ' ' && char !== '\t' && char !== '\r') return false;
  }
  return false;
}

function trimEndAt(text: string, end: number): number {
  let trimmed = end;
  while (trimmed > 0 && /\s/.test(text[trimmed - 1])) trimmed--;
  return trimmed;
}

/**
 * Where the shown words end while no trailer is known: a pending `{`, trailing blanks and, when
 * a tag may follow on the same line, an open or just-closed ` [tag` wait.
 */
function heldBackEnd(text: string, scanned: number, tagged: boolean): number {
  let end = trimEndAt(text, Math.min(text.length, scanned));
  if (tagged) {
    const from = Math.max(0, end - 48); // a tag is short: look no further back
    const found = text.slice(from, end).lastIndexOf('[');
    const open = found < 0 ? -1 : from + found;
    if (
      open > 0 &&
      /[ \t]/.test(text[open - 1]) &&
      new RegExp(`^\\[${TAG_BODY.replace('{1,40}', '{0,40}')}\\]?$`).test(text.slice(open, end))
    )
      end = trimEndAt(text, open);
  }
  return end;
}

/** Reads the trailer (the text from its first line on) into `answer`. */
function readTrailer(text: string, kinds: TrailerKinds, answer: LineFirstAnswer): void {
  const { toolNames } = kinds;
  let pos = 0;
  while (pos < text.length) {
    while (pos < text.length && /\s/.test(text[pos])) pos++;
    if (pos >= text.length) return;
    if (text[pos] === '{') {
      const end = findBalancedEnd(text, pos);
      if (end < 0) {
        // Cut off (the token limit): never acted on; a call in it is recorded as not made.
        const named = /^\{\s*"(?:tool|action|name)"\s*:\s*"([^"]+)"/.exec(text.slice(pos));
        const tool = named ? resolveToolName(named[1], toolNames) : undefined;
        if (tool) answer.unread.push({ tool, problem: PROBLEM_CUT_OFF });
        return;
      }
      addTrailerObject(text.slice(pos, end), toolNames, answer);
      pos = end;
      continue;
    }
    // Anything else runs to the end of its line: an action in call syntax, a tag, or stray words.
    const eol = text.indexOf('\n', pos);
    const line = text.slice(pos, eol < 0 ? text.length : eol).trim();
    // Calls in any family's syntax were taken out of the whole answer already (takeCalls).
    const tag = readTagLine(line, kinds);
    if (tag !== undefined) setOwnKey(answer.fields, kinds.tagKey as string, tag);
    else {
      const named = /^\[?\s*([A-Za-z_][\w.-]*)\s*\(/.exec(line);
      const tool = named ? resolveToolName(named[1], toolNames) : undefined;
      if (tool)
        answer.unread.push({
          tool,
          problem: /\)\]?$/.test(line) ? PROBLEM_UNREADABLE : PROBLEM_CUT_OFF,
        });
      // Words after the reply's keys are more of the line (`Welcome!\n{"emotion":"happy"}\nSit down.`).
      else if (line !== '') answer.line = answer.line === '' ? line : `${answer.line} ${line}`;
    }
    if (eol < 0) return;
    pos = eol + 1;
  }
}

/** A `{…}` in the trailer: a call, or reply fields (anything that does not read as an object is dropped). */
function addTrailerObject(piece: string, toolNames: readonly string[], answer: LineFirstAnswer): void {
  const parsed = parseLenient(piece);
  if (!parsed.ok || !isPlainObject(parsed.value)) return;
  const value = parsed.value;
  const keys = Object.keys(value);
  if (keys.some((key) => CALL_KEYS.has(key.toLowerCase()))) {
    const env = parseEnvelope(piece, { toolNames, allowRespond: false });
    if (env.kind === 'call') answer.calls.push({ tool: env.tool, argCandidates: env.argCandidates });
    else if (env.kind === 'invalid' && env.tool) answer.unread.push({ tool: env.tool, problem: env.problem });
    return;
  }
  for (const key of keys) setOwnKey(answer.fields, key, value[key]);
}
