/// <reference lib="dom" />
/**
 * The world state as a designer edits it: click a value, type a new one, Enter. The value is
 * read as JSON when it parses (a number stays a number, "45" for a number becomes 45); a
 * refusal (an unknown path, a value that does not fit) is shown under the row.
 */
import { element } from './dom';
import { describeChange, flattenWorld } from './format';
import type { PreviewSession, WorldChangeView } from './preview-session';

export function renderEditableWorld(list: HTMLElement, session: PreviewSession, onChanged: () => void): void {
  const changed = new Set(session.worldChanges.map((change) => change.path));
  for (const row of flattenWorld(session.world.snapshot())) {
    const cls = changed.has(row.path) ? 'changed' : '';
    const value = element(
      'dd',
      { class: `${cls} editable`, tabindex: '0', 'data-path': row.path, title: 'Click to change' },
      row.value,
    );
    value.addEventListener('click', () => edit(value, row, { session, onChanged }));
    value.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') edit(value, row, { session, onChanged });
    });
    list.append(element('dt', { class: cls }, row.path), value);
  }
}

/** Turns a value cell into an input for `row`; saving goes through the session, then `onChanged`. */
function edit(
  cell: HTMLElement,
  row: { path: string; value: string },
  { session, onChanged }: { session: PreviewSession; onChanged: () => void },
): void {
  const { path, value: shown } = row;
  if (cell.querySelector('input')) return;
  const input = element('input', { type: 'text', value: shown, 'aria-label': `New value for ${path}` });
  cell.textContent = '';
  cell.append(input);
  input.focus();
  input.select();
  // Once finished, the re-render removes the input, which fires blur: that must not render again.
  let finished = false;
  const done = (save: boolean) => {
    if (finished) return;
    const problem = save ? session.setWorldValue(path, input.value) : '';
    if (problem) {
      cell.querySelector('.problem')?.remove();
      cell.append(element('div', { class: 'problem', role: 'alert' }, problem));
      return;
    }
    finished = true;
    onChanged();
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') done(true);
    if (event.key === 'Escape') done(false);
  });
  input.addEventListener('blur', () => {
    if (cell.contains(input)) done(false);
  });
}

/** The world's changes under it, by turn (or "you"): only the ones not shown yet are appended, the log is never rebuilt. */
export function renderWorldLog(log: HTMLOListElement, changes: readonly WorldChangeView[]): void {
  const shown = log.querySelectorAll('li.change').length;
  for (const worldChange of changes.slice(shown)) {
    log.append(
      element(
        'li',
        { class: 'change' },
        element('span', { class: 'turn-no' }, worldChange.byDesigner ? 'you' : `turn ${worldChange.turn}`),
        ' ',
        element('code', {}, describeChange(worldChange)),
      ),
    );
  }
  const empty = log.querySelector('li.empty');
  if (changes.length > 0) empty?.remove();
  else if (!empty) log.append(element('li', { class: 'muted empty' }, 'No changes yet.'));
}
