/**
 * Strips given characters from the ends of a text in one pass. A regex like `/[.;]+$/` is
 * tried from every position of a long run that is not at the end ("....x"), which is
 * quadratic: a 160k-dot persona role took 10 s to build an NPC.
 */
export function trimEndChars(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1])) end--;
  return end === text.length ? text : text.slice(0, end);
}

export function trimStartChars(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text[start])) start++;
  return start === 0 ? text : text.slice(start);
}
