/**
 * Where an envelope keeps an inline reply: `{"reply": "…"}` / `{"reply": {…}}` (our short
 * form), `{"action": "respond", "arguments": {"text": "…"}}` (seed form) and the obvious
 * variants. Shared by the final parse and the streaming reader so both always agree.
 */
import { parseLenient } from '../json/lenient';
import { isPlainObject } from '../json/extract';
import { ARGUMENT_KEY_SET, REPLY_KEYS } from './keys';
import { compactName } from './names';

/**
 * The inline reply of a respond envelope, or undefined when it has none. The first member
 * (in the object's order) that carries a reply decides, so a streamed, still growing object
 * never switches from one source to another:
 * - a reply key (`reply`, `text`, `message`, `response`, `content`, `say`, `line`) holding a
 *   string or an object;
 * - an arguments key holding a non-empty object: its first member when that is a reply key,
 *   else the whole object (a structured reply written as arguments); or holding plain text.
 */
export function inlineReplyOf(envelope: Record<string, unknown>): unknown {
  for (const key of Object.keys(envelope)) {
    const name = compactName(key);
    const value = envelope[key];
    if (REPLY_KEYS.has(name)) {
      if (typeof value === 'string' || isPlainObject(value)) return value;
    } else if (ARGUMENT_KEY_SET.has(name)) {
      const reply = replyFromArguments(value);
      if (reply !== undefined) return reply;
    }
  }
  return undefined;
}

function replyFromArguments(value: unknown): unknown {
  let args = value;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed === '') return undefined;
    if (!/^[{[]/.test(trimmed)) return value; // `"arguments": "Hello!"`: the text itself
    const parsed = parseLenient(trimmed, { partial: true });
    if (!parsed.ok) return undefined;
    args = parsed.value;
  }
  if (!isPlainObject(args)) return undefined;
  const keys = Object.keys(args);
  if (keys.length === 0) return undefined;
  const first = args[keys[0]];
  if (REPLY_KEYS.has(compactName(keys[0])) && (typeof first === 'string' || isPlainObject(first))) return first;
  return args;
}
