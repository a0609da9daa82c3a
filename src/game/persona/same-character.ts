/**
 * Whether two persona names are the same character: a save belongs to its character, and a
 * persona asset of another name is another character. Compared after Unicode normalisation
 * (NFC), with runs of blanks as one space and case ignored, so "Old  Tom" and "old tom" match
 * and a retyped accent does not turn Zoë into a stranger.
 */
export function isSameCharacter(left: string, right: string): boolean {
  return characterKey(left) === characterKey(right);
}

function characterKey(name: string): string {
  return name.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}
