/// <reference lib="dom" />
/**
 * The NPC state panel: the relationship on its -100…100 band with the secret's unlock point
 * marked, the attitude word and the persona's stage, remembered facts and the summary, and the
 * emotion of each turn. With an editor, the designer changes them between turns: the
 * relationship with a slider (to try a stage or a secret), facts added and removed, the summary
 * rewritten; the next turn plays the edited memory.
 */
import { element, clear } from './dom';
import type { MemoryEdit, NpcStateView } from './preview-session';

/** Applies a change and says what was wrong ('' when it was applied); the panel is re-rendered after. */
export type StateEditor = (edit: MemoryEdit) => string;

/** Where a relationship sits on the bar, in percent. */
const position = (value: number) => `${Math.max(0, Math.min(100, (value + 100) / 2))}%`;

export function renderState(root: HTMLElement, state: NpcStateView, editor?: StateEditor): void {
  clear(root);
  const unlock = state.secretsUnlockAt;
  const secret =
    unlock === null
      ? 'secrets: never told (or always, if the persona keeps them in its instructions)'
      : state.secretsUnlocked
        ? `secret unlocked (at ${unlock})`
        : `secret unlocks at ${unlock} (${unlock - state.relationship} to go)`;
  const summary = state.summary ? element('p', { class: 'help' }, `Summary of older turns: ${state.summary}`) : '';
  root.append(
    element(
      'div',
      { class: 'rel-head' },
      element('strong', { id: 'state-relationship' }, `Relationship ${state.relationship} · ${state.attitude}`),
      element('span', { class: 'muted', id: 'state-secret' }, secret),
    ),
    element(
      'div',
      {
        class: 'rel-bar',
        role: 'meter',
        'aria-valuemin': '-100',
        'aria-valuemax': '100',
        'aria-valuenow': String(state.relationship),
        'aria-label': 'Relationship',
      },
      unlock === null
        ? null
        : element('span', {
            class: 'unlock',
            style: `left: ${position(unlock)}`,
            title: `secrets unlock at ${unlock}`,
          }),
      element('span', { class: 'now', style: `left: calc(${position(state.relationship)} - 2px)` }),
    ),
    element(
      'div',
      { class: 'rel-legend' },
      element('span', {}, '-100 hostile'),
      element('span', {}, '0'),
      element('span', {}, 'devoted 100'),
    ),
    state.stage
      ? element(
          'p',
          { class: 'stage-line', id: 'state-stage' },
          'Stage ',
          element('strong', {}, state.stage.name),
          element('span', { class: 'muted' }, ` (${state.stage.from} to ${state.stage.to})`),
        )
      : '',
    editor ? relationshipEditor(state, editor) : '',
    element('h3', {}, 'Remembered'),
    state.facts.length > 0
      ? element(
          'ul',
          { class: 'facts', id: 'state-facts' },
          ...state.facts.map((fact, index) => factItem({ fact, index, state, editor })),
        )
      : element(
          'p',
          { class: 'muted help', id: 'state-facts' },
          'No facts yet: they appear when the NPC calls remember_fact.',
        ),
    editor ? factAdder(state, editor) : '',
    editor ? summaryEditor(state, editor) : summary,
    element('h3', {}, 'Emotions, turn by turn'),
    state.emotions.length > 0
      ? element(
          'div',
          { class: 'timeline-row', id: 'state-emotions' },
          ...state.emotions.map((mood, index) =>
            element('span', { class: `emotion e-${mood || 'none'}`, title: `turn ${index + 1}` }, mood || '—'),
          ),
        )
      : element('p', { class: 'muted help', id: 'state-emotions' }, 'No turns yet.'),
  );
}

function problemLine(): HTMLElement {
  return element('p', { class: 'problems state-problem', role: 'alert', hidden: true });
}

function apply(editor: StateEditor, edit: MemoryEdit, problem: HTMLElement): void {
  const message = editor(edit);
  problem.textContent = message;
  problem.hidden = !message;
}

function relationshipEditor(state: NpcStateView, editor: StateEditor): HTMLElement {
  const value = element('output', { class: 'rel-value', for: 'state-relationship-slider' }, String(state.relationship));
  const slider = element('input', {
    type: 'range',
    id: 'state-relationship-slider',
    min: '-100',
    max: '100',
    step: '1',
    value: String(state.relationship),
    'aria-label': 'Set the relationship',
  });
  const problem = problemLine();
  slider.addEventListener('input', () => (value.textContent = slider.value));
  slider.addEventListener('change', () => apply(editor, { relationship: Number(slider.value) }, problem));
  return element(
    'div',
    { class: 'rel-edit' },
    element('label', { for: 'state-relationship-slider' }, 'Set relationship '),
    slider,
    value,
    problem,
  );
}

function factItem(input: { fact: string; index: number; state: NpcStateView; editor?: StateEditor }): HTMLElement {
  const { fact, index, state, editor } = input;
  if (!editor) return element('li', {}, fact);
  const remove = element('button', { type: 'button', class: 'quiet small', 'aria-label': `Forget "${fact}"` }, '×');
  remove.addEventListener('click', () => {
    editor({ facts: state.facts.filter((_, at) => at !== index) });
  });
  return element('li', {}, fact, ' ', remove);
}

function factAdder(state: NpcStateView, editor: StateEditor): HTMLElement {
  const input = element('input', {
    type: 'text',
    id: 'state-fact-input',
    placeholder: 'A fact the NPC knows about the player',
  });
  const problem = problemLine();
  const form = element(
    'form',
    { class: 'row fact-add' },
    input,
    element('button', { type: 'submit', class: 'small', id: 'state-fact-add' }, 'Add'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!input.value.trim()) {
      problem.textContent = 'Type the fact first.';
      problem.hidden = false;
      return;
    }
    apply(editor, { facts: [...state.facts, input.value] }, problem);
  });
  return element('div', {}, form, problem);
}

function summaryEditor(state: NpcStateView, editor: StateEditor): HTMLElement {
  const box = element('textarea', {
    id: 'state-summary',
    rows: '2',
    placeholder: 'Summary of older turns (empty: none)',
  });
  box.value = state.summary;
  const problem = problemLine();
  const save = element('button', { type: 'button', class: 'small', id: 'state-summary-save' }, 'Save summary');
  save.addEventListener('click', () => apply(editor, { summary: box.value }, problem));
  return element(
    'div',
    { class: 'summary-edit' },
    element('h3', {}, 'Summary'),
    box,
    element('div', { class: 'row end' }, save),
    problem,
  );
}
