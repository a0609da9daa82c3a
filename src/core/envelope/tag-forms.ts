/**
 * The ways a small model writes the reply's one short key (an NPC's emotion) next to its words,
 * asked for `[happy]`: `[happy]`, `**[happy]**`, `(happy)`, `Emotion: happy`, on a line of its
 * own, at the end of the words' line, or (with the values known) in the middle of it. Only a
 * listed value is a tag in the looser forms; any other bracketed word is a stage direction
 * (`[waves]`, `(laughs)`) and stays in the words.
 */

export interface TagKinds {
  /** The reply key the tag holds. */
  tagKey?: string;
  /** The values it may hold; unknown means any short word in square brackets. */
  tagValues?: readonly string[];
}

/** A tag's body: a short word or two, nothing that could be a call or JSON. */
export const TAG_BODY = '[^\\]\\n[{}()"]{1,40}';
const SQUARE = new RegExp(`^\\[(${TAG_BODY})\\]$`);
const DECORATED =
  /^[*_]{1,2}\s*[[(]\s*([^\])\n]{1,40}?)\s*[\])]\s*[*_]{1,2}$|^[*_]{1,2}([A-Za-z][\w -]{0,39})[*_]{1,2}$|^\(\s*([^()\n]{1,40}?)\s*\)$/;
const MAX_TAG_LINE = 64;

/** Whether a word is one of the tag's values (any word when the values are not known). */
export function isTagValue(kinds: TagKinds, raw: string): boolean {
  if (!kinds.tagValues) return true;
  const value = raw.trim().toLowerCase();
  return kinds.tagValues.some((allowed) => allowed.toLowerCase() === value);
}

/** The value of a line that is only a tag, in any of the forms; undefined for anything else. */
export function readTagLine(line: string, kinds: TagKinds): string | undefined {
  if (kinds.tagKey === undefined) return undefined;
  const text = line.trim().replace(/\.$/, '');
  if (text.length === 0 || text.length > MAX_TAG_LINE) return undefined;
  const square = SQUARE.exec(text);
  if (square) {
    const inner = keyed(square[1], kinds) ?? square[1].trim();
    return isTagValue(kinds, inner) ? inner : undefined;
  }
  // The looser forms count only for a listed value.
  if (!kinds.tagValues) return undefined;
  const decorated = DECORATED.exec(text);
  const value = decorated ? (decorated[1] ?? decorated[2] ?? decorated[3]).trim() : keyed(text, kinds);
  return value !== undefined && isTagValue(kinds, value) ? value : undefined;
}

/** `Emotion: happy`, `**Emotion:** happy`, `emotion = happy` → `happy`. */
function keyed(text: string, kinds: TagKinds): string | undefined {
  const key = kinds.tagKey;
  if (key === undefined) return undefined;
  const match =
    /^[*_]{0,2}\s*([A-Za-z_][\w ]{0,24}?)\s*[*_]{0,2}\s*[:=]\s*[*_]{0,2}\s*([^*_\n]{1,40}?)\s*[*_]{0,2}$/.exec(text);
  if (!match || match[1].toLowerCase().replace(/\s+/g, '_') !== key.toLowerCase()) return undefined;
  return match[2].trim();
}

/** Whether the text at the start of a line is a tag line, is not one, or may still become one (it is being written). */
export function tagLineState(rest: string, kinds: TagKinds): 'yes' | 'no' | 'maybe' {
  const eol = rest.indexOf('\n');
  const line = (eol < 0 ? rest : rest.slice(0, eol)).replace(/\r$/, '');
  if (readTagLine(line, kinds) !== undefined) return eol < 0 && !kinds.tagValues ? 'maybe' : 'yes';
  if (eol >= 0 || line.length > MAX_TAG_LINE) return 'no';
  // Still being written: could it still become one?
  const trimmed = line.trim();
  if (trimmed === '') return 'maybe';
  if (/^\[[^\]\n]*$/.test(trimmed)) return 'maybe';
  if (kinds.tagValues && /^(?:[*_]{1,2}|\()/.test(trimmed) && !/[.!?]\s/.test(trimmed)) return 'maybe';
  const key = kinds.tagKey ?? '';
  if (kinds.tagValues && key.length > 0 && startsKey(trimmed, key)) return 'maybe';
  return 'no';
}

function startsKey(text: string, key: string): boolean {
  const bare = text.replace(/^[*_]{1,2}/, '').toLowerCase();
  const name = key.toLowerCase();
  return name.startsWith(bare) || (bare.startsWith(name) && /^[*_\s]*[:=]?[^.!?]*$/.test(bare.slice(name.length)));
}

/** A tag at the end of the words' line (`Hi Sam! [happy]`, `Hi Sam! (happy)`), taken off. */
export function takeTrailingTag(line: string, kinds: TagKinds): { line: string; value?: string } {
  if (kinds.tagKey === undefined) return { line };
  // A tag is short: only the end of the line is searched (a regex over a long run of blanks is quadratic).
  const from = Math.max(0, line.length - 64);
  const match = /[ \t]((?:[*_]{1,2})?[[(][^\])\n]{1,40}[\])](?:[*_]{1,2})?)[ \t]*$/.exec(line.slice(from));
  if (!match) return { line };
  const value = readTagLine(match[1], kinds);
  return value === undefined ? { line } : { line: line.slice(0, from + match.index).trimEnd(), value };
}

/** A listed value in square brackets inside the words (`Oh [happy] welcome!`), taken out. */
export function takeInlineTag(line: string, kinds: TagKinds): { line: string; value?: string } {
  if (kinds.tagKey === undefined || !kinds.tagValues) return { line };
  const pattern = new RegExp(`\\[(${TAG_BODY})\\]`, 'g');
  let value: string | undefined;
  const out = line.replace(pattern, (whole, inner: string) => {
    if (!isTagValue(kinds, inner)) return whole;
    value = value ?? inner.trim();
    return '';
  });
  if (value === undefined) return { line };
  return {
    line: out
      .replace(/[ \t]{2,}/g, ' ')
      .replace(/ ([.,!?;:])/g, '$1')
      .trim(),
    value,
  };
}
