/// <reference lib="dom" />
/**
 * The persona as a form: one box per field a designer writes (lists one entry per line),
 * over the persona's JSON. Editing a box rewrites the JSON (keeping every field the form does
 * not show: stages, sample lines, the schema link), and editing the JSON refills the boxes, so
 * either can be used. JSON that does not parse leaves the form read-only until it is fixed.
 */
import { element, clear } from './dom';

type FieldKind = 'line' | 'text' | 'list';

const FIELDS: Array<{ key: string; label: string; kind: FieldKind; help: string }> = [
  { key: 'name', label: 'Name', kind: 'line', help: 'Required. What the player calls them.' },
  { key: 'role', label: 'Role', kind: 'line', help: 'Their job or place, in a few words.' },
  { key: 'personality', label: 'Personality', kind: 'text', help: 'Temper and manner, one sentence.' },
  { key: 'speakingStyle', label: 'Speaking style', kind: 'text', help: 'Word choice, accent, length.' },
  { key: 'backstory', label: 'Background', kind: 'text', help: 'History they know about themselves.' },
  { key: 'greeting', label: 'Greeting', kind: 'line', help: 'The first line they say.' },
  { key: 'goals', label: 'Goals', kind: 'list', help: 'One per line.' },
  { key: 'knowledge', label: 'Knowledge', kind: 'list', help: 'Facts they may tell, one per line.' },
  { key: 'secrets', label: 'Secrets', kind: 'list', help: 'Told only once the relationship allows.' },
  { key: 'fallbackLines', label: 'Fallback lines', kind: 'list', help: 'Said when no model answers.' },
];

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function shown(value: unknown, kind: FieldKind): string {
  if (kind === 'list') return Array.isArray(value) ? value.map(String).join('\n') : '';
  return typeof value === 'string' ? value : '';
}

/** Fills `root` with the form for the persona JSON in `source`; every edit is written back to it. */
export function renderPersonaForm(root: HTMLElement, source: HTMLTextAreaElement, onEdited: () => void): void {
  clear(root);
  const persona = parsed(source.value);
  if (!persona) {
    root.append(
      element('p', { class: 'help', id: 'persona-form-note' }, 'Fix the JSON below to edit the persona as a form.'),
    );
    return;
  }
  for (const field of FIELDS) {
    const id = `pf-${field.key}`;
    const box =
      field.kind === 'line'
        ? element('input', { type: 'text', id, value: shown(persona[field.key], field.kind) })
        : element('textarea', { id, rows: field.kind === 'list' ? '3' : '2', spellcheck: 'true' });
    if (box instanceof HTMLTextAreaElement) box.value = shown(persona[field.key], field.kind);
    box.addEventListener('input', () => {
      const current = parsed(source.value) ?? {};
      const text = box.value;
      const next =
        field.kind === 'list'
          ? text
              .split('\n')
              .map((line) => line.trim())
              .filter(Boolean)
          : text;
      if ((Array.isArray(next) && next.length === 0) || next === '') delete current[field.key];
      else current[field.key] = next;
      source.value = `${JSON.stringify(current, null, 2)}\n`;
      onEdited();
    });
    root.append(
      element(
        'label',
        { class: 'field form-field', for: id },
        element('span', {}, field.label, element('small', { class: 'muted' }, ` ${field.help}`)),
        box,
      ),
    );
  }
}
