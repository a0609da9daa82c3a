/**
 * The reply as the player should see it, while it streams and at the end: the speaker label,
 * wrapping quotes and (at the end) an echoed `[tool {…} → …]` record removed. What is shown
 * only ever grows, because the cleaner holds back text that could still become a label or a
 * closing quote.
 */
import { cleanLine, LineCleaner } from './text-cleanup';

const ECHOED_TOOL_RECORD = /\s*\[[A-Za-z_][\w.-]* \{[^\]]*\]\s*$/;

export function cleanReplyText(raw: string, labels: readonly string[], final: boolean): string {
  if (final) return cleanLine(raw.replace(ECHOED_TOOL_RECORD, ''), labels);
  return new LineCleaner(labels).push(raw);
}
