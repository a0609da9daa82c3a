/**
 * The reply as the player should see it, while it streams and at the end: the speaker label,
 * wrapping quotes and (at the end) an echoed `[tool {…} → …]` record removed. What is shown
 * only ever grows, because the cleaner holds back text that could still become a label or a
 * closing quote, and half a surrogate pair at the end.
 */
import { cleanLine, LineCleaner } from './text-cleanup';

const ECHOED_TOOL_RECORD = /\s*\[[A-Za-z_][\w.-]* \{[^\]]*\]\s*$/;

export function cleanReplyText(raw: string, labels: readonly string[], final: boolean): string {
  if (final) return cleanLine(raw.replace(ECHOED_TOOL_RECORD, ''), labels);
  const shown = new LineCleaner(labels).push(raw);
  // A chunk may end between the two halves of a surrogate pair (an emoji): hold the first
  // half back until the second arrives, so no text delta carries half a character.
  return endsOnHighSurrogate(shown) ? shown.slice(0, -1) : shown;
}

function endsOnHighSurrogate(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff;
}
