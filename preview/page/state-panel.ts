/// <reference lib="dom" />
/**
 * The NPC state panel: the relationship on its -100…100 band with the secret's unlock point
 * marked, the attitude word, remembered facts and the summary, and the emotion of each turn.
 */
import { element, clear } from './dom';
import type { NpcStateView } from './preview-session';

/** Where a relationship sits on the bar, in percent. */
const position = (value: number) => `${Math.max(0, Math.min(100, (value + 100) / 2))}%`;

export function renderState(root: HTMLElement, state: NpcStateView): void {
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
    element('h3', {}, 'Remembered'),
    state.facts.length > 0
      ? element('ul', { class: 'facts', id: 'state-facts' }, ...state.facts.map((fact) => element('li', {}, fact)))
      : element(
          'p',
          { class: 'muted help', id: 'state-facts' },
          'No facts yet: they appear when the NPC calls remember_fact.',
        ),
    summary,
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
