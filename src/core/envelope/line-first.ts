/**
 * The line-first answer of the default mode. A reply is written as plain words first, so the
 * player's first word is the model's first token (a JSON envelope costs 3–9 tokens before it);
 * what goes with the words follows, each on its own line: the reply's other keys as JSON
 * (`{"emotion":"happy"}`) and actions whose result the words do not need, in the call syntax of
 * Gemini Nano's family (`remember_fact(fact="…")`, 6 tokens shorter than the JSON envelope;
 * `{"tool":…}` is read too). An answer that opens like JSON is an envelope as before: a tool
 * whose result is needed first, or a model that kept to the JSON form.
 *
 *     Sam it is. Welcome, Sam!
 *     {"emotion":"happy"}
 *     remember_fact(fact="The player's name is Sam.")
 */
import { parseLenient } from '../json/lenient';
import { isPlainObject } from '../json/extract';
import { findBalancedEnd } from '../json/scan';
import { setOwnKey } from '../json/own-key';
import { parseEnvelope } from './parse';
import { readCallSyntax } from './call-syntax';

export type LineFirstState =
  | { kind: 'unknown' }
  /** The answer opens like JSON: the envelope readers take it. */
  | { kind: 'envelope' }
  /** The words so far (whitespace at either end not yet shown), and whether the trailer began. */
  | { kind: 'line'; text: string; closed: boolean };

export interface LineFirstAnswer {
  /** The words, trimmed. */
  line: string;
  /** The reply's other keys, merged in order from the trailer's objects. */
  fields: Record<string, unknown>;
  /** Actions written after the words, with argument candidates (best first), in order. */
  calls: Array<{ tool: string; argCandidates: unknown[] }>;
  /** Trailer objects that named a tool this step does not offer. */
  unknownCalls: string[];
}

const UNKNOWN: LineFirstState = { kind: 'unknown' };
const ENVELOPE: LineFirstState = { kind: 'envelope' };
/** Keys that make a trailer object an action rather than more of the reply. */
const CALL_KEYS = new Set(['tool', 'action', 'name', 'function']);

/** True when the answer's first visible characters open JSON (or a Markdown fence). */
export function opensLikeJson(head: string): boolean {
  return head[0] === '{' || head.startsWith('```') || /^\[\s*[{"]/.test(head) || /^\[\s*$/.test(head);
}

/**
 * Reads the growing answer; each push costs time linear in the new characters only (the
 * search for the trailer resumes where it stopped).
 */
export class LineFirstReader {
  /**
   * @param actionNames tools that may follow the words as `name(…)` lines.
   * @param tagged whether a `[value]` line after the words holds one of the reply's keys.
   */
  constructor(private readonly actionNames: readonly string[] = [], private readonly tagged = false) {}

  private head: 'unknown' | 'envelope' | 'line' = 'unknown';
  private start = 0;
  /** Index where the trailer starts, once found. */
  private cut = -1;
  /** Where the search for a trailer resumes. */
  private scanned = 0;

  push(text: string): LineFirstState {
    if (this.head === 'envelope') return ENVELOPE;
    if (this.head === 'unknown') {
      const lead = text.length - text.trimStart().length;
      const head = text.slice(lead, lead + 4);
      if (head.length === 0) return UNKNOWN;
      // `[` alone may still become `[{"tool"…` (a list of calls) or `[happy]` (a tag).
      if (head === '[' || head === '`' || head === '``') return UNKNOWN;
      if (opensLikeJson(head)) {
        this.head = 'envelope';
        return ENVELOPE;
      }
      this.head = 'line';
      this.start = lead;
      this.scanned = lead;
    }
    if (this.cut < 0) this.cut = findTrailer(text, this.scanned, { actionNames: this.actionNames, tagged: this.tagged }, (resume) => { this.scanned = resume; });
    const end = this.cut >= 0 ? this.cut : heldBackEnd(text, this.scanned);
    return { kind: 'line', text: text.slice(this.start, end), closed: this.cut >= 0 };
  }
}

/**
 * Splits a whole line-first answer; undefined when it opens like JSON (an envelope).
 * `tagKey`: the reply key a `[value]` line after the words holds (an NPC's emotion).
 */
export function readLineFirst(text: string, toolNames: readonly string[], tagKey?: string): LineFirstAnswer | undefined {
  const head = text.trimStart();
  if (head.length === 0 || opensLikeJson(head)) return undefined;
  const lead = text.length - head.length;
  const cut = findTrailer(text, lead, { actionNames: toolNames, tagged: tagKey !== undefined }, () => undefined);
  const answer: LineFirstAnswer = { line: (cut >= 0 ? text.slice(lead, cut) : text.slice(lead)).trim(), fields: {}, calls: [], unknownCalls: [] };
  if (cut >= 0) readTrailer(text, cut, { toolNames, tagKey }, answer);
  return answer;
}

/**
 * The index of the first trailer line at or after `from`, or -1: a `{` that starts a line, `{"`
 * anywhere (no one says `{"` aloud), or a line that starts `action_name(`. `onResume` gets the
 * index a later search must resume from (the end may still turn out to start one).
 */
function findTrailer(text: string, from: number, kinds: { actionNames: readonly string[]; tagged: boolean }, onResume: (index: number) => void): number {
  const { actionNames } = kinds;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '{') {
      let j = i + 1;
      while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
      if (j >= text.length) {
        onResume(i);
        return -1;
      }
      if (text[j] === '"' || startsLine(text, i)) return i;
    } else if (c === '\n' && (actionNames.length > 0 || kinds.tagged)) {
      let j = i + 1;
      while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
      const call = actionNames.length > 0 ? startsCall(text, j, actionNames) : 'no';
      const tag = kinds.tagged && call === 'no' ? startsTag(text, j) : 'no';
      if (call === 'yes' || tag === 'yes') return j;
      if (call === 'maybe' || tag === 'maybe' || j >= text.length) {
        onResume(i);
        return -1;
      }
    }
  }
  onResume(text.length);
  return -1;
}

/** A short `[word]` line at `at` (the tag of a reply key), or may still become one. */
const TAG_LINE = /^\[[^\]\n[{]{1,40}\][ \t]*(?:\r?\n|$)/;
const OPEN_TAG = /^\[[^\]\n[{]{0,40}$/;
function startsTag(text: string, at: number): 'yes' | 'no' | 'maybe' {
  const rest = text.slice(at, at + 48);
  if (TAG_LINE.test(rest)) return 'yes';
  if (OPEN_TAG.test(rest) || /^\[[^\]\n[{]{1,40}\][ \t]*$/.test(rest)) return at + rest.length >= text.length ? 'maybe' : 'no';
  return 'no';
}

/** Whether the text at `at` starts `name(` for one of the names, or may still (it ends first). */
function startsCall(text: string, at: number, names: readonly string[]): 'yes' | 'no' | 'maybe' {
  const rest = text.slice(at, at + 80);
  let maybe = false;
  for (const name of names) {
    const opener = `${name}(`;
    if (rest.startsWith(opener)) return 'yes';
    if (rest.length < opener.length && opener.startsWith(rest)) maybe = true;
  }
  return maybe ? 'maybe' : 'no';
}

function startsLine(text: string, index: number): boolean {
  for (let k = index - 1; k >= 0; k--) {
    const c = text[k];
    if (c === '\n') return true;
    if (c !== ' ' && c !== '\t' && c !== '\r') return false;
  }
  return false;
}

/** Where the shown words end while no trailer is known: a pending `{` and trailing blanks wait. */
function heldBackEnd(text: string, scanned: number): number {
  let end = Math.min(text.length, scanned);
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  return end;
}

function readTrailer(text: string, cut: number, kinds: { toolNames: readonly string[]; tagKey?: string }, answer: LineFirstAnswer): void {
  const { toolNames } = kinds;
  let i = cut;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length) return;
    if (text[i] === '{') {
      const end = findBalancedEnd(text, i);
      const piece = text.slice(i, end < 0 ? text.length : end);
      const parsed = parseLenient(piece, { partial: end < 0 });
      if (parsed.ok && isPlainObject(parsed.value)) addTrailerObject(parsed.value, piece, toolNames, answer);
      if (end < 0) return;
      i = end;
      continue;
    }
    // Anything else runs to the end of its line: an action in call syntax, or stray words.
    const eol = text.indexOf('\n', i);
    const line = text.slice(i, eol < 0 ? text.length : eol).trim();
    const tag = kinds.tagKey !== undefined ? /^\[([^\]\n[{]{1,40})\]$/.exec(line) : null;
    const call = tag ? undefined : readCallSyntax(line, toolNames);
    if (tag) setOwnKey(answer.fields, kinds.tagKey as string, tag[1].trim());
    else if (call) answer.calls.push({ tool: call.tool, argCandidates: [call.args] });
    else if (/^[A-Za-z_][\w.-]*\(/.test(line)) answer.unknownCalls.push(line.slice(0, line.indexOf('(')));
    if (eol < 0) return;
    i = eol + 1;
  }
}

function addTrailerObject(value: Record<string, unknown>, piece: string, toolNames: readonly string[], answer: LineFirstAnswer): void {
  const keys = Object.keys(value);
  if (keys.some((k) => CALL_KEYS.has(k.toLowerCase()))) {
    const env = parseEnvelope(piece, { toolNames, allowRespond: false });
    if (env.kind === 'call') answer.calls.push({ tool: env.tool, argCandidates: env.argCandidates });
    else {
      const named = value.tool ?? value.action ?? value.name;
      answer.unknownCalls.push(typeof named === 'string' ? named : JSON.stringify(named));
    }
    return;
  }
  for (const k of keys) setOwnKey(answer.fields, k, value[k]);
}
