/** Short text forms of values for the inspector. */
import type { JsonValue } from '../../src';
import type { WorldChangeView } from './preview-session';
import type { TurnView } from './turn-view';

/** One-line JSON, cut to `max` characters. */
export function compactJson(value: unknown, max = 200): string {
  const text = value === undefined ? '—' : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `player.gold: 20 → 14`; an added or removed value shows as `—` on its missing side. */
export function describeChange(change: Pick<WorldChangeView, 'path' | 'oldValue' | 'newValue'>): string {
  return `${change.path || '(whole state)'}: ${compactJson(change.oldValue, 60)} → ${compactJson(change.newValue, 60)}`;
}

/** The world as `path: value` lines, leaves only (arrays shown whole), for the live view. */
export function flattenWorld(value: JsonValue, prefix = ''): Array<{ path: string; value: string }> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const rows: Array<{ path: string; value: string }> = [];
    for (const key of Object.keys(value))
      rows.push(...flattenWorld(value[key] as JsonValue, prefix ? `${prefix}.${key}` : key));
    return rows;
  }
  return [{ path: prefix || '(root)', value: compactJson(value, 80) }];
}

/** `2 model calls · 1289 prompt tokens · 38 output tokens` for a turn so far. */
export function turnTotals(view: TurnView): string {
  const prompt = view.steps.reduce((sum, step) => sum + step.promptTokens, 0);
  const output = view.steps.reduce((sum, step) => sum + (step.outputTokens ?? 0), 0);
  const calls = view.steps.length;
  return `${calls} model call${calls === 1 ? '' : 's'} · ${prompt} prompt tokens · ${output} output tokens`;
}
