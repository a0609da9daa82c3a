/** The number a player's words ask for ("two ales": 2, "3 pies": 3, "a pair": 2), read the same way when a bank is baked and played. */
const NUMBER_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** The first number in the words, in digits or as a word up to ten; undefined when there is none. */
export function numberIn(said: string): number | undefined {
  const digits = /\b(\d{1,3})\b/.exec(said);
  if (digits) return Number(digits[1]);
  for (const word of said.toLowerCase().match(/[a-z]+/g) ?? []) {
    const index = NUMBER_WORDS.indexOf(word);
    if (index >= 0) return index + 1;
    if (word === 'couple' || word === 'pair') return 2;
  }
  return undefined;
}
