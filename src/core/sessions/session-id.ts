/**
 * Ids as the protocol defines them (1–128 printable characters), for sessions, NPCs and worlds
 * alike: checked before any model call so a host's typo fails at once with a message that names
 * the id, and so a 10 MB id or one with NUL, a newline or half a surrogate pair never becomes a
 * key, a log line or an echo in an error.
 */
import { AgentError } from '../../contract/errors';

export const MAX_SESSION_ID_CHARS = 128;

/** Control characters (C0, DEL, C1), line and paragraph separators, and halves of a surrogate pair. */
const NOT_PRINTABLE =
  // eslint-disable-next-line no-control-regex -- control characters are what this pattern exists to reject
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;

/** A session id when it is 1–128 printable characters (counted as code points); else invalid_request. */
export function checkSessionId(id: unknown): string {
  return checkId(id, 'session');
}

/** The same rule for any id (`kind` names it in the message: "session", "NPC", "world"). */
export function checkId(id: unknown, kind: string): string {
  if (typeof id !== 'string') {
    throw new AgentError(
      'invalid_request',
      `A ${kind} id must be a string of 1–${MAX_SESSION_ID_CHARS} printable characters; got ${describe(id)}.`,
    );
  }
  // Counted without splitting a huge string into an array first.
  const length = id.length > MAX_SESSION_ID_CHARS * 2 ? id.length : Array.from(id).length;
  if (length < 1 || length > MAX_SESSION_ID_CHARS) {
    throw new AgentError(
      'invalid_request',
      `A ${kind} id must be 1–${MAX_SESSION_ID_CHARS} characters long; got ${length}.`,
    );
  }
  if (NOT_PRINTABLE.test(id)) {
    throw new AgentError(
      'invalid_request',
      `The ${kind} id ${JSON.stringify(id)} contains a character that is not printable ` +
        '(a control character or a broken surrogate pair).',
    );
  }
  return id;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
