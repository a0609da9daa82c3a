/**
 * Fuzzy matching of the names a model writes for tools, respond words and envelope keys.
 * Small models write `Check Menu`, `takeOrder`, `TAKE-ORDER`, `` `check_menu()` `` or
 * `functions.check_menu`; all of them should reach the tool the game registered.
 */

/** Lowercase with every non-alphanumeric character removed: `Tool_Name` → `toolname`. */
export function compactName(raw: string): string {
  return raw.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** camelCase humps, spaces and hyphens become `_`, lowercase: `takeOrder` → `take_order`. */
export function wordsName(raw: string): string {
  return raw
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[\s-]+/g, '_')
    .replace(/_+/g, '_')
    .toLowerCase();
}

/** Longer than any tool name a game registers: such a "name" is garbage, not worth matching. */
const MAX_NAME_CHARS = 256;
const DECORATION = /[\s`'"*.]/;

/** `raw` without decoration characters at either end, in one pass from each side (a regex with `+$` is quadratic on long runs). */
function stripDecoration(raw: string): string {
  let start = 0;
  let end = raw.length;
  while (start < end && DECORATION.test(raw[start])) start++;
  while (end > start && DECORATION.test(raw[end - 1])) end--;
  return raw.slice(start, end);
}

/** Strips the decoration models put around a name: quotes, backticks, dots, `*`, `()`, prefixes. */
export function cleanName(raw: string): string {
  // A copied union (`check_menu | respond`): the first alternative wins.
  let name = raw.split('|').find((part) => part.trim() !== '') ?? '';
  name = name.trim();
  if (name.length > MAX_NAME_CHARS) return '';
  for (let index = 0; index < 4; index++) {
    const before = name;
    name = stripDecoration(name);
    name = name.replace(/\([^()]*\)$/, '');
    name = name.replace(/^(?:functions\.|tools\.|tool:|function:)\s*/i, '');
    if (name === before) break;
  }
  return name;
}

/**
 * The registered tool a written name refers to: exact match first, then a words match, then
 * an alphanumeric-only match. Undefined when nothing matches.
 */
export function resolveToolName(raw: string, toolNames: readonly string[]): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const name = cleanName(raw);
  if (name === '') return undefined;
  if (toolNames.indexOf(name) >= 0) return name;
  const words = wordsName(name);
  for (const tool of toolNames) if (wordsName(tool) === words) return tool;
  const compact = compactName(name);
  if (compact === '') return undefined;
  for (const tool of toolNames) if (compactName(tool) === compact) return tool;
  return undefined;
}

const RESPOND_WORDS = new Set(
  [
    'respond',
    'respond_directly',
    'reply',
    'answer',
    'final',
    'final_answer',
    'none',
    'no_tool',
    'talk',
    'say',
    'speak',
    'chat',
    'response',
    'direct_response',
    'respond_to_user',
    'reply_to_user',
    'finish',
    'done',
    'no_action',
    'nothing',
    'direct_reply',
    'reply_directly',
    'answer_directly',
  ].map(compactName),
);

/** `respond`, `Reply.`, `respondDirectly`, `final_answer` … (compared alphanumerics-only). */
export function isRespondWord(raw: string): boolean {
  return typeof raw === 'string' && RESPOND_WORDS.has(compactName(cleanName(raw)));
}

/** What a written action name means: a tool (a user tool wins over a respond word), respond, or nothing known. */
export type ResolvedAction = { kind: 'tool'; tool: string } | { kind: 'respond' } | { kind: 'unknown'; name: string };

export function resolveAction(raw: string, toolNames: readonly string[]): ResolvedAction {
  const tool = resolveToolName(raw, toolNames);
  if (tool !== undefined) return { kind: 'tool', tool };
  if (isRespondWord(raw)) return { kind: 'respond' };
  return { kind: 'unknown', name: cleanName(raw) };
}
