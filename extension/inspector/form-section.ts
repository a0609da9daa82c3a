/**
 * The inspector's form: one row per persona field (label, help, input, messages). It owns the
 * form data while the designer types; values that are not valid stay as the file has them (an
 * unknown emotion is its own entry in the list, sentences are typed as text), so a message
 * never sits under a value that hides the problem.
 */
import { EMOTION_CHOICES, LIST_FIELDS, LONG_TEXT_FIELDS, TEXT_FIELDS, emptyForm } from '../persona/form-model';
import type { FormField, ListField, PersonaForm, TextField } from '../persona/form-model';
import { schemaBounds } from '../persona/problem-text';
import type { Translate } from '../persona/i18n';
import { PERSONA_FIELDS } from '../../src/game/persona';
import type { MakeElement } from './dom';

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

const LIST_ITEM_KEY: Record<ListField, string> = {
  goals: 'persona.list.goal',
  knowledge: 'persona.list.fact',
  secrets: 'persona.list.secret',
  fallbackLines: 'persona.list.line',
};

export function renderFormSection({ el, t, onChange }: FormSectionOptions): FormSection {
  let form: PersonaForm = emptyForm();
  const element = el('div', { class: 'form', 'data-role': 'persona-form' });
  const problemBoxes = new Map<FormField, HTMLElement>();
  const inputs = new Map<FormField, HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>();
  const listBoxes = new Map<ListField, HTMLElement>();
  const sentences = schemaBounds('maxSentences');

  const changed = (field: FormField): void => onChange(field);

  const fieldRow = (field: FormField): HTMLElement => {
    const row = el('div', { class: 'row', 'data-field': field });
    row.appendChild(el('label', { class: 'title', for: `oam-persona-${field}` }, t(`persona.field.${field}.label`)));
    row.appendChild(el('div', { class: 'help' }, t(`persona.field.${field}.help`, { ...sentences })));
    return row;
  };

  const addProblemBox = (row: HTMLElement, field: FormField): void => {
    const box = el('div', { class: 'problems', 'data-role': 'problems' });
    row.appendChild(box);
    problemBoxes.set(field, box);
  };

  const textInput = (field: TextField): HTMLElement => {
    const row = fieldRow(field);
    const long = LONG_TEXT_FIELDS.indexOf(field) >= 0;
    const input = long
      ? el('textarea', { id: `oam-persona-${field}`, rows: '2' })
      : el('input', { id: `oam-persona-${field}`, type: 'text' });
    input.addEventListener('input', () => {
      form[field] = input.value;
      changed(field);
    });
    inputs.set(field, input);
    row.appendChild(input);
    addProblemBox(row, field);
    return row;
  };

  const renderList = (field: ListField): void => {
    const box = listBoxes.get(field)!;
    box.textContent = '';
    form[field].forEach((value, index) => {
      const item = el('div', { class: 'list-item' });
      const input = el('input', { type: 'text', 'data-index': String(index), placeholder: t(LIST_ITEM_KEY[field]) });
      input.value = value;
      input.addEventListener('input', () => {
        form[field][index] = input.value;
        changed(field);
      });
      const remove = el('button', { type: 'button', 'data-action': 'remove', title: t('persona.list.remove') }, '×');
      remove.addEventListener('click', () => {
        form[field].splice(index, 1);
        renderList(field);
        changed(field);
      });
      item.append(input, remove);
      box.appendChild(item);
    });
  };

  const listInput = (field: ListField): HTMLElement => {
    const row = fieldRow(field);
    const box = el('div', { class: 'list', 'data-role': 'list' });
    listBoxes.set(field, box);
    row.appendChild(box);
    const add = el('button', { type: 'button', 'data-action': 'add' }, `+ ${t('persona.list.add')}`);
    add.addEventListener('click', () => {
      form[field].push('');
      renderList(field);
      const inputsNow = box.querySelectorAll('input');
      (inputsNow[inputsNow.length - 1] as HTMLInputElement | undefined)?.focus();
      changed(field);
    });
    row.appendChild(add);
    addProblemBox(row, field);
    return row;
  };

  const emotionSelect = el('select', { id: 'oam-persona-defaultEmotion' });
  const emotionInput = (): HTMLElement => {
    const row = fieldRow('defaultEmotion');
    emotionSelect.appendChild(el('option', { value: '' }, t('persona.emotion.default')));
    for (const emotion of EMOTION_CHOICES)
      emotionSelect.appendChild(el('option', { value: emotion }, t(`persona.emotion.${emotion}`)));
    emotionSelect.addEventListener('change', () => {
      form.defaultEmotion = emotionSelect.value;
      // The file's bad value is not offered again once a real emotion is picked.
      if (EMOTION_CHOICES.indexOf(form.defaultEmotion) >= 0 || form.defaultEmotion === '') removeUnknownEmotion();
      changed('defaultEmotion');
    });
    inputs.set('defaultEmotion', emotionSelect);
    row.appendChild(emotionSelect);
    addProblemBox(row, 'defaultEmotion');
    return row;
  };
  const removeUnknownEmotion = (): void => emotionSelect.querySelector('option[data-role="unknown-emotion"]')?.remove();

  const sentencesInput = (): HTMLElement => {
    const row = fieldRow('maxSentences');
    // Text, not type=number: a number input shows "two" or "2.5" from a file as empty.
    const input = el('input', {
      id: 'oam-persona-maxSentences',
      type: 'text',
      inputmode: 'numeric',
      placeholder: `2 (${sentences.min}–${sentences.max})`,
    });
    input.addEventListener('input', () => {
      form.maxSentences = input.value;
      changed('maxSentences');
    });
    inputs.set('maxSentences', input);
    row.appendChild(input);
    addProblemBox(row, 'maxSentences');
    return row;
  };

  for (const field of PERSONA_FIELDS) {
    if ((TEXT_FIELDS as readonly string[]).indexOf(field) >= 0) element.appendChild(textInput(field as TextField));
    else if ((LIST_FIELDS as readonly string[]).indexOf(field) >= 0) element.appendChild(listInput(field as ListField));
    else if (field === 'defaultEmotion') element.appendChild(emotionInput());
    else if (field === 'maxSentences') element.appendChild(sentencesInput());
  }

  const fillInputs = (): void => {
    for (const field of TEXT_FIELDS) (inputs.get(field) as HTMLInputElement).value = form[field];
    removeUnknownEmotion();
    const emotion = form.defaultEmotion;
    if (emotion !== '' && EMOTION_CHOICES.indexOf(emotion) < 0) {
      // Shown as the file has it, with its message below, never as the default.
      const option = el(
        'option',
        { value: emotion, 'data-role': 'unknown-emotion' },
        t('persona.emotion.unknown', { value: emotion }),
      );
      emotionSelect.insertBefore(option, emotionSelect.firstChild);
    }
    emotionSelect.value = emotion;
    (inputs.get('maxSentences') as HTMLInputElement).value = form.maxSentences;
    for (const field of LIST_FIELDS) renderList(field);
  };

  return {
    element,
    form: () => form,
    setForm(next) {
      form = next;
      fillInputs();
    },
    showProblems(byField) {
      for (const [field, box] of problemBoxes) {
        const list = byField.get(field) ?? [];
        box.textContent = '';
        for (const text of list) box.appendChild(el('div', { class: 'problem' }, text));
        inputs.get(field)?.classList.toggle('invalid', list.length > 0);
        listBoxes.get(field as ListField)?.classList.toggle('invalid-list', list.length > 0);
      }
    },
    focus(field) {
      inputs.get(field)?.focus();
    },
  };
}
