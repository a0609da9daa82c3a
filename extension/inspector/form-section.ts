/**
 * The inspector's form: one row per persona field (label, help, input, messages). It owns the
 * form data while the designer types; values that are not valid stay as the file has them (an
 * unknown emotion is its own entry in the list, sentences are typed as text), so a message
 * never sits under a value that hides the problem.
 *
 * Each kind of input is built in a file of its own (form-text-inputs, form-list-input,
 * form-emotion-input) on the shared FormContext of form-rows.ts.
 */
import { LIST_FIELDS, TEXT_FIELDS, emptyForm } from '../persona/form-model';
import type { FormField, ListField, PersonaForm, TextField } from '../persona/form-model';
import { schemaBounds } from '../persona/problem-text';
import type { Translate } from '../persona/i18n';
import { PERSONA_FIELDS } from '../../src/game/persona';
import type { MakeElement } from './dom';
import { emotionInput, fillEmotion } from './form-emotion-input';
import { listInput, renderList } from './form-list-input';
import type { FormContext } from './form-rows';
import { sentencesInput, textInput } from './form-text-inputs';

export interface FormSection {
  element: HTMLElement;
  form(): PersonaForm;
  /** Shows a new form (a load); the inputs are filled from it. */
  setForm(form: PersonaForm): void;
  /** Sets every field's messages (already worded); fields not in the map have none. */
  showProblems(byField: ReadonlyMap<FormField, readonly string[]>): void;
  focus(field: FormField): void;
}

export interface FormSectionOptions {
  el: MakeElement;
  t: Translate;
  /** After every edit, with the field that changed. */
  onChange(field: FormField): void;
}

/** The row of `field`, with the input its kind takes (none for a field the form does not edit). */
function inputRow(context: FormContext, field: string): HTMLElement | null {
  if ((TEXT_FIELDS as readonly string[]).indexOf(field) >= 0) return textInput(context, field as TextField);
  if ((LIST_FIELDS as readonly string[]).indexOf(field) >= 0) return listInput(context, field as ListField);
  if (field === 'defaultEmotion') return emotionInput(context);
  if (field === 'maxSentences') return sentencesInput(context);
  return null;
}

/** Fills every input from the form just loaded. */
function fillInputs(context: FormContext): void {
  for (const field of TEXT_FIELDS) (context.inputs.get(field) as HTMLInputElement).value = context.form[field];
  fillEmotion(context);
  (context.inputs.get('maxSentences') as HTMLInputElement).value = context.form.maxSentences;
  for (const field of LIST_FIELDS) renderList(context, field);
}

function showProblems(context: FormContext, byField: ReadonlyMap<FormField, readonly string[]>): void {
  for (const [field, box] of context.problemBoxes) {
    const list = byField.get(field) ?? [];
    box.textContent = '';
    for (const text of list) box.appendChild(context.el('div', { class: 'problem' }, text));
    context.inputs.get(field)?.classList.toggle('invalid', list.length > 0);
    context.listBoxes.get(field as ListField)?.classList.toggle('invalid-list', list.length > 0);
  }
}

export function renderFormSection({ el, t, onChange }: FormSectionOptions): FormSection {
  const context: FormContext = {
    el,
    t,
    form: emptyForm(),
    inputs: new Map(),
    problemBoxes: new Map(),
    listBoxes: new Map(),
    sentences: schemaBounds('maxSentences'),
    changed: (field) => onChange(field),
  };
  const element = el('div', { class: 'form', 'data-role': 'persona-form' });
  for (const field of PERSONA_FIELDS) {
    const row = inputRow(context, field);
    if (row) element.appendChild(row);
  }

  return {
    element,
    form: () => context.form,
    setForm(next) {
      context.form = next;
      fillInputs(context);
    },
    showProblems: (byField) => showProblems(context, byField),
    focus(field) {
      context.inputs.get(field)?.focus();
    },
  };
}
