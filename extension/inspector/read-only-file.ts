/**
 * A file the form cannot edit: not JSON, not a persona object, or nested deeper than the form
 * can write back. It is shown read-only with its error and its text as it is, so Save cannot
 * write a blank form over it.
 */
import { canWriteBack } from '../persona/form-model';
import { problemText } from '../persona/problem-text';
import { validatePersona } from '../../src/game/persona/validate-persona';
import type { Translate } from '../persona/i18n';
import type { MakeElement } from './dom';

/** Longest file text shown in the read-only view (the rest is cut, with "…"). */
const SHOWN_TEXT_CHARS = 4000;

/** The persona object in `text`, or the message saying why the form cannot show it. */
export function readPersonaText(text: string, translate: Translate): { persona: object } | { unreadable: string } {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  let parsed = true;
  try {
    value = JSON.parse(source);
  } catch {
    parsed = false;
  }
  if (!parsed || typeof value !== 'object' || value === null || Array.isArray(value)) {
    // validatePersona words it: "not JSON: … (line 3, column 5)" or "must be an object …".
    const check = validatePersona(text);
    const problem = !check.ok ? check.problems[0] : { field: 'persona', message: 'persona is not JSON' };
    return { unreadable: problemText(problem, translate, false) };
  }
  if (!canWriteBack(value)) return { unreadable: translate('persona.problem.tooDeep') };
  return { persona: value };
}

/** Fills `box` with the error, the read-only note and the file's text (cut when long). */
export function fillReadOnlyBox(
  { el, t, box }: { el: MakeElement; t: Translate; box: HTMLElement },
  file: { message: string; text: string },
): void {
  const { message, text } = file;
  box.textContent = '';
  box.appendChild(el('div', { class: 'problem', 'data-role': 'file-error-message' }, message));
  box.appendChild(el('div', { class: 'note' }, t('persona.problem.readOnly')));
  if (text.trim()) {
    box.appendChild(el('div', { class: 'note' }, t('persona.problem.fileText')));
    box.appendChild(
      el(
        'pre',
        { 'data-role': 'file-text' },
        text.length > SHOWN_TEXT_CHARS ? `${text.slice(0, SHOWN_TEXT_CHARS)}…` : text,
      ),
    );
  }
}
