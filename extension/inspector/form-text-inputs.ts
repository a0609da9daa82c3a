/** The form's one-value inputs: the text fields and maxSentences (typed as text too). */
import { LONG_TEXT_FIELDS } from '../persona/form-model';
import type { TextField } from '../persona/form-model';
import { FormContext, fieldRow, finishRow } from './form-rows';

export function textInput(context: FormContext, field: TextField): HTMLElement {
  const { el } = context;
  const row = fieldRow(context, field);
  const long = LONG_TEXT_FIELDS.indexOf(field) >= 0;
  const input = long
    ? el('textarea', { id: `oam-persona-${field}`, rows: '2' })
    : el('input', { id: `oam-persona-${field}`, type: 'text' });
  input.addEventListener('input', () => {
    context.form[field] = input.value;
    context.changed(field);
  });
  finishRow(context, row, { name: field, input });
  return row;
}

export function sentencesInput(context: FormContext): HTMLElement {
  const { el, sentences } = context;
  const row = fieldRow(context, 'maxSentences');
  // Text, not type=number: a number input shows "two" or "2.5" from a file as empty.
  const input = el('input', {
    id: 'oam-persona-maxSentences',
    type: 'text',
    inputmode: 'numeric',
    placeholder: `2 (${sentences.min}–${sentences.max})`,
  });
  input.addEventListener('input', () => {
    context.form.maxSentences = input.value;
    context.changed('maxSentences');
  });
  finishRow(context, row, { name: 'maxSentences', input });
  return row;
}
