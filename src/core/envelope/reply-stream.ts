/**
 * Reads an inline reply out of a decide step while it streams, so the player sees the words
 * as they are generated and a small-talk turn costs one model call. It recognises
 * `{"reply": "…` (short form), `{"reply": {…` (structured), and the seed's
 * `{"action": "respond", "arguments": {"text": "…` as early as the text allows.
 *
 * Reply text only ever grows: a trailing partial escape (`\u00`) or half a surrogate pair is
 * held back until it is complete, and a re-read that would shorten or change the text
 * already returned is ignored.
 */
import { isPlainObject } from '../json/extract';
import { parseLenient } from '../json/lenient';
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

export class InlineReplyReader {
  private state: InlineReplyState = UNKNOWN;
  private lastInput = '';

  /**
   * @param toolNames the tools offered, when known: a key or action naming one of them is a
   *   call even when it is also a reply word.
   */
  constructor(private readonly toolNames: readonly string[] = []) {}

  /** Give the whole text generated so far; returns what it is known to be. */
  push(fullTextSoFar: string): InlineReplyState {
    const text = typeof fullTextSoFar === 'string' ? fullTextSoFar : String(fullTextSoFar);
    if (text === this.lastInput || this.state.kind === 'call') return this.state;
    this.lastInput = text;
    const start = text.indexOf('{');
    if (start < 0) return this.state;
    const body = text.slice(start);
    const parsed = parseLenient(body, { partial: true });
    if (!parsed.ok || !isPlainObject(parsed.value)) return this.state;
    const found = this.classify(parsed.value, body);
    if (found === 'call') {
      // A reply already shown cannot be taken back; keep reporting it.
      if (this.state.kind === 'unknown') this.state = CALL;
    } else if (found !== undefined) {
      this.accept(found);
    }
    return this.state;
  }

  /** 'call', the reply so far, or undefined when it cannot be told yet. */
  private classify(envelope: Record<string, unknown>, body: string): 'call' | { reply: unknown } | undefined {
    const keys = Object.keys(envelope);
    for (const key of keys) {
      if (!ACTION_KEY_SET.has(compactName(key))) continue;
      const value = envelope[key];
      if (typeof value !== 'string') continue;
      if (!this.settled(envelope, key, body)) return undefined;
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

  /** Whether the action's string value is complete (more text could not extend it). */
  private settled(envelope: Record<string, unknown>, key: string, body: string): boolean {
    const keys = Object.keys(envelope);
    if (keys[keys.length - 1] !== key) return true;
    const probe = parseLenient(body + ',', { partial: true });
    return probe.ok && isPlainObject(probe.value) && probe.value[key] === envelope[key];
  }

  private isTool(name: string): boolean {
    return this.toolNames.length > 0 && resolveToolName(name, this.toolNames) !== undefined;
  }

  private accept(found: { reply: unknown }): void {
    const reply = found.reply;
    if (typeof reply === 'string') {
      if (this.state.kind === 'reply-object') return;
      const text = withoutHalfSurrogate(reply);
      const previous = this.state.kind === 'reply-text' ? this.state.text : '';
      if (this.state.kind === 'reply-text' && !text.startsWith(previous)) return;
      if (this.state.kind === 'reply-text' && text === previous) return;
      this.state = { kind: 'reply-text', text };
    } else if (isPlainObject(reply)) {
      if (this.state.kind === 'reply-text') return;
      this.state = { kind: 'reply-object', value: reply };
    }
  }
}

/** Drops a trailing high surrogate whose partner has not arrived yet. */
function withoutHalfSurrogate(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}
