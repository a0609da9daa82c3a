/**
 * The bare words the lenient reader accepts for values (`true`, `None`, `nil`…), the shapes of
 * numbers and member starts it looks for, and how a word cut off by a partial input is judged.
 */

export const LITERALS: Record<string, unknown> = {
  true: true,
  false: false,
  null: null,
  none: null,
  nil: null,
  undefined: null,
};

export const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** Text at the very end of a partial input that may still grow into a number. */
export const NUMBER_PREFIX = /^[+-]?(?:\d+(?:\.\d*)?|\.\d*)?(?:[eE][+-]?\d*)?$/;
/** After a comma inside a bare word: does a new member start here (`key:` / `"key"` / `}`)? */
export const MEMBER_START = /^\s*(?:["'`},]|[^\s,:={}[\]"'`]+\s*[:=]|$)/;

/** A word cut off at the end that could still become a literal or number cannot be read yet. */
export function couldStillBecomeValue(word: string): boolean {
  if (NUMBER_PREFIX.test(word)) return true;
  const lower = word.toLowerCase();
  for (const name in LITERALS) if (name.startsWith(lower)) return true;
  return false;
}

/** A bare word as an error message quotes it: at most 40 characters. */
export function clip(text: string): string {
  return text.length > 40 ? text.slice(0, 40) + '…' : text;
}
