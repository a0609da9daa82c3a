/**
 * The whole sentences of a text cut off by the token cap: everything up to the last sentence
 * end. A period after an abbreviation (`Mr.`, `Dr.`, `p.m.`, `e.g.`) or an initial (`J.`) ends
 * no sentence, so "She met Mr. Hale at 9 p.m. and" keeps nothing it should not.
 */

/** Abbreviations whose period is not a sentence end (compared lower case, without the final period). */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'st',
  'sr',
  'jr',
  'prof',
  'capt',
  'col',
  'gen',
  'lt',
  'sgt',
  'mt',
  'vs',
  'etc',
  'vol',
  'fig',
  'approx',
  'e.g',
  'i.e',
  'a.m',
  'p.m',
  'u.s',
]);
const END = /[.!?…]["'”’)\]]*(?=\s|$)|[。！？]["'”’)\]]*/g;

export function wholeSentences(text: string): string {
  const source = text.trim();
  let last = -1;
  END.lastIndex = 0;
  for (let match = END.exec(source); match; match = END.exec(source)) {
    if (
      match[0][0] === '.' &&
      beforeIsAbbreviation(source, match.index) &&
      match.index + match[0].length < source.length
    )
      continue;
    last = match.index + match[0].length;
  }
  return last < 0 ? '' : source.slice(0, last).trim();
}

function beforeIsAbbreviation(text: string, dot: number): boolean {
  const word = /([A-Za-z][A-Za-z.]*)$/.exec(text.slice(Math.max(0, dot - 12), dot));
  if (!word) return false;
  const lower = word[1].toLowerCase();
  if (ABBREVIATIONS.has(lower)) return true;
  // A single capital after a name or a title is an initial (`Dr. J. Hale`, `John F. Kennedy`);
  // after anything else it ends a sentence (`The player chose A.`).
  if (!/^[A-Z]$/.test(word[1])) return false;
  const before = /(\S+)\s+$/.exec(text.slice(Math.max(0, dot - 40), dot - 1));
  return before !== null && /^[A-Z][A-Za-z]*\.?$/.test(before[1]);
}
