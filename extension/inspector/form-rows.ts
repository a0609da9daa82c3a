/**
 * What the form's field inputs share: the form being edited (replaced on every load, so
 * handlers read it when they run), the maps the section looks inputs and message boxes up in,
 * and the row every field sits in (label, help, input, messages).
 */
import type { FormField, ListField, PersonaForm } from '../persona/form-model';
import { schemaBounds } from '../persona/problem-text';
import type { Translate } from '../persona/i18n';
import type { MakeElement } from './dom';

export type FieldInput = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export interface FormContext {
  el: MakeElement;
  t: Translate;
  form: PersonaForm;
  inputs: Map<FormField, FieldInput>;
  problemBoxes: Map<FormField, HTMLElement>;
  listBoxes: Map<ListField, HTMLElement>;
  /** The schema's bounds of maxSentences, shown in the help and the placeholder. */
  sentences: ReturnType<typeof schemaBounds>;
  /** After every edit, with the field that changed. */
  changed(field: FormField): void;
}

/** The row of `field` with its label and help. */
export function fieldRow({ el, t, sentences }: FormContext, field: FormField): HTMLElement {
  const row = el('div', { class: 'row', 'data-field': field });
  row.appendChild(el('label', { class: 'title', for: `oam-persona-${field}` }, t(`persona.field.${field}.label`)));
  row.appendChild(el('div', { class: 'help' }, t(`persona.field.${field}.help`, { ...sentences })));
  return row;
}

/** The input of `field`, then the box its messages go in, at the end of its row. */
export function finishRow(context: FormContext, row: HTMLElement, field: { name: FormField; input: FieldInput }): void {
  context.inputs.set(field.name, field.input);
  row.appendChild(field.input);
  addProblemBox(context, row, field.name);
}

export function addProblemBox(context: FormContext, row: HTMLElement, field: FormField): void {
  const box = context.el('div', { class: 'problems', 'data-role': 'problems' });
  row.appendChild(box);
  context.problemBoxes.set(field, box);
}
