/**
 * Reads an inline reply out of a decide step while it streams, so the player sees the words
 * as they are generated and a small-talk turn costs one model call. It recognises
 * `{"reply": "…` (short form), `{"reply": {…` (structured), and the seed's
 * `{"action": "respond", "arguments": {"text": "…` as early as the text allows.
 *
 * Reply text only ever grows: a trailing partial escape (`\u00`) or half a surrogate pair is
 * held back until it is complete, and a re-read that would shorten or change the text
 * already returned is ignored.
 *
 * Cost: while the reply is a string still open at the end of the text, each push only decodes
 * the new characters; the whole text is parsed again only when that string closes or the text
 * is something else (an object reply, the action still being written).
 */
import { isPlainObject } from '../json/extract';
import { parsePartialWithCut } from '../json/lenient';
import { decodeStringTail, extendsText, isHighSurrogate, withoutHalfSurrogate } from '../json/string-tail';
import { inlineReplyOf } from './inline-reply';
import { ACTION_KEYS, REPLY_KEYS } from './keys';
import { compactName, isRespondWord, resolveToolName } from './names';

export type InlineReplyState =
  | { kind: 'unknown' }
  | { kind: 'call' }
  | { kind: 'reply-text'; text: string }
  | { kind: 'reply-object'; value: Record<string, unknown> };

const UNKNOWN: InlineReplyState = { kind: 'unknown' };
const CALL: InlineReplyState = { kind: 'call' };
const ACTION_KEY_SET = new Set(ACTION_KEYS);

/** The reply string being streamed: where its undecoded text starts, and what it says so far. */
interface OpenReply {
  quote: string;
  next: number;
  text: string;
}

/** Appended by the probe that checks the reply really is the string open at the end. */
const PROBE = 'x';

export class InlineReplyReader {
  private state: InlineReplyState = UNKNOWN;
  private lastInput = '';
  private open: OpenReply | undefined;

  /**
   * @param toolNames the tools offered, when known: a key or action naming one of them is a
   *   call even when it is also a reply word.
   */
  constructor(private readonly toolNames: readonly string[] = []) {}

  /** Give the whole text generated so far; returns what it is known to be. */
  push(fullTextSoFar: string): InlineReplyState {
    const text = typeof fullTextSoFar === 'string' ? fullTextSoFar : String(fullTextSoFar);
    if (text === this.lastInput || this.state.kind === 'call') return this.state;
    const extendsLast = text.length > this.lastInput.length && extendsText(text, this.lastInput);
    this.lastInput = text;
    if (this.open && extendsLast && this.extendOpenReply(text, this.open)) return this.state;
    this.open = undefined;
    const start = text.indexOf('{');
    if (start < 0) return this.state;
    const body = text.slice(start);
    const read = this.read(body);
    if (read === undefined) return this.state;
    if (read.found === 'call') {
      // A reply already shown cannot be taken back; keep reporting it.
      if (this.state.kind === 'unknown') this.state = CALL;
      return this.state;
    }
    this.accept(read.found.reply);
    if (typeof read.found.reply === 'string' && this.state.kind === 'reply-text') {
      this.open = this.openReplyAt(body, start, { reply: read.found.reply, cutValueAt: read.cutValueAt });
    }
    return this.state;
  }

  /** Parses the envelope so far and classifies it. */
  private read(body: string): { found: 'call' | { reply: unknown }; cutValueAt: number } | undefined {
    const { result, cutValueAt } = parsePartialWithCut(body);
    if (!result.ok || !isPlainObject(result.value)) return undefined;
    const found = this.classify(result.value, cutValueAt);
    return found === undefined ? undefined : { found, cutValueAt };
  }

  /**
   * Only new characters of a reply string still open at the end: decode them onto the text
   * so far. False when the string closed, so that a full read decides what comes next.
   */
  private extendOpenReply(text: string, open: OpenReply): boolean {
    const piece = decodeStringTail(text, open.next, open.quote);
    if (piece.closed) return false;
    open.next = piece.next;
    if (piece.decoded === '') return true;
    open.text += piece.decoded;
    // The text only grew at its end, so it extends what is shown: no comparison needed. The
    // surrogate check reads the new piece: reading the end of the grown text would flatten it,
    // a copy of the whole reply per chunk.
    const shown = isHighSurrogate(piece.decoded.charCodeAt(piece.decoded.length - 1))
      ? open.text.slice(0, -1)
      : open.text;
    if (this.state.kind === 'reply-text' && shown.length > this.state.text.length)
      this.state = { kind: 'reply-text', text: shown };
    return true;
  }

  /**
   * When the reply is the string cut off at the end of the text, the state for extending it
   * incrementally. The probe (one more character) rules out another open string that merely
   * reads the same, e.g. `{"reply": "ha", "mood": "ha`.
   */
  private openReplyAt(
    body: string,
    offset: number,
    { reply, cutValueAt }: { reply: string; cutValueAt: number },
  ): OpenReply | undefined {
    const quote = body[cutValueAt];
    if (cutValueAt < 0 || (quote !== '"' && quote !== "'" && quote !== '`')) return undefined;
    // Extending is only safe from text that is exactly what is shown.
    if (this.state.kind !== 'reply-text' || this.state.text !== withoutHalfSurrogate(reply)) return undefined;
    const piece = decodeStringTail(body, cutValueAt + 1, quote);
    if (piece.closed || piece.next !== body.length || piece.decoded !== reply) return undefined;
    const probe = this.read(body + PROBE);
    if (!probe || probe.found === 'call' || probe.found.reply !== reply + PROBE) return undefined;
    return { quote, next: offset + piece.next, text: reply };
  }

  /** 'call', the reply so far, or undefined when it cannot be told yet. */
  private classify(envelope: Record<string, unknown>, cutValueAt: number): 'call' | { reply: unknown } | undefined {
    const keys = Object.keys(envelope);
    for (const key of keys) {
      if (!ACTION_KEY_SET.has(compactName(key))) continue;
      const value = envelope[key];
      if (typeof value !== 'string') continue;
      // The action's value may still grow while it is the last member and the text cut it off.
      if (keys[keys.length - 1] === key && cutValueAt >= 0) return undefined;
      if (this.isTool(value) || !isRespondWord(value)) return 'call';
      const reply = inlineReplyOf(envelope);
      return reply === undefined ? undefined : { reply };
    }
    if (keys.length === 0) return undefined;
    const first = keys[0];
    if (this.isTool(first)) return undefined;
    const value = envelope[first];
    if (typeof value !== 'string' && !isPlainObject(value)) return undefined;
    if (REPLY_KEYS.has(compactName(first)) || isRespondWord(first)) return { reply: value };
    return undefined;
  }

  private isTool(name: string): boolean {
    return this.toolNames.length > 0 && resolveToolName(name, this.toolNames) !== undefined;
  }

  private accept(reply: unknown): void {
    if (typeof reply === 'string') {
      if (this.state.kind === 'reply-object') return;
      const text = withoutHalfSurrogate(reply);
      const previous = this.state.kind === 'reply-text' ? this.state.text : '';
      if (this.state.kind === 'reply-text' && !extendsText(text, previous)) return;
      if (this.state.kind === 'reply-text' && text === previous) return;
      this.state = { kind: 'reply-text', text };
    } else if (isPlainObject(reply)) {
      if (this.state.kind === 'reply-text') return;
      this.state = { kind: 'reply-object', value: reply };
    }
  }
}
