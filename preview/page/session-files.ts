/// <reference lib="dom" />
/**
 * Conversations and persona tests as files: export the conversation, replay a saved one
 * against the persona as it is now (earlier and new answers side by side, changed ones marked),
 * and show a persona test's pass/fail per check.
 */
import { element, clear } from './dom';
import type { PreviewSessionExport } from './conversation-export';
import type { PersonaTestReport } from '../../src';
import type { TurnView } from './turn-view';

/** Offers a value as a JSON file download. */
export function downloadJson(value: unknown, fileName: string): void {
  const blob = new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: 'application/json' });
  const link = element('a', { href: URL.createObjectURL(blob), download: fileName });
  document.body.append(link);
  link.click();
  link.remove();
}

/** Offers the conversation as a JSON download. */
export function downloadConversation(saved: PreviewSessionExport): void {
  downloadJson(saved, `${saved.persona.name.replace(/[^\w-]+/g, '-').toLowerCase() || 'npc'}-conversation.json`);
}

/** Earlier and new answers, turn by turn; a changed line or emotion is marked. */
export function renderReplay(root: HTMLElement, saved: PreviewSessionExport, now: readonly TurnView[]): void {
  clear(root);
  let changed = 0;
  saved.turns.forEach((before, index) => {
    const after = now[index];
    const line = after ? after.line || (after.error ? `(failed: ${after.error})` : '') : '(not played)';
    const differs = !after || line !== before.line || (after.emotion ?? '') !== before.emotion;
    if (differs) changed++;
    root.append(
      element(
        'div',
        { class: 'result-row replay-row' },
        element(
          'div',
          {},
          element('span', { class: 'turn-no' }, `turn ${index + 1}`),
          ' ',
          element('q', {}, before.say),
        ),
        element(
          'div',
          { class: 'side' },
          element('div', {}, element('span', { class: 'label' }, `then · ${before.emotion || '—'}`), before.line),
          element(
            'div',
            { class: differs ? 'changed-answer' : '' },
            element('span', { class: 'label' }, `now · ${after?.emotion ?? '—'}`),
            line,
          ),
        ),
      ),
    );
  });
  root.prepend(
    element(
      'p',
      { class: 'help', id: 'replay-summary' },
      `${saved.turns.length} turns replayed against ${saved.persona.name} as it is now: ${changed} answer${changed === 1 ? '' : 's'} changed.`,
    ),
  );
}

export function renderPersonaReport(root: HTMLElement, report: PersonaTestReport, name: string): void {
  clear(root);
  root.append(
    element('p', { class: 'help', id: 'persona-test-summary' }, `${report.passed} passed, ${report.failed} failed`),
  );
  report.turns.forEach((turn, index) => {
    root.append(
      element(
        'div',
        { class: 'result-row' },
        element('div', {}, element('span', { class: 'turn-no' }, `turn ${index + 1}`), ' ', element('q', {}, turn.say)),
        element(
          'div',
          {},
          `${name}: ${turn.line || '(no answer)'} `,
          element('span', { class: `emotion e-${turn.emotion || 'none'}` }, turn.emotion || '—'),
        ),
        ...turn.checks.map((personaCheck) =>
          element(
            'div',
            { class: `check-line ${personaCheck.pass ? 'pass' : 'fail'}` },
            personaCheck.pass ? personaCheck.name : `${personaCheck.name}: ${personaCheck.detail}`,
          ),
        ),
      ),
    );
  });
}
