/** A list field of the form (goals, knowledge, secrets, fallback lines): one input per entry, remove and add buttons. */
import type { ListField } from '../persona/form-model';
import { FormContext, addProblemBox, fieldRow } from './form-rows';

const LIST_ITEM_KEY: Record<ListField, string> = {
  goals: 'persona.list.goal',
  knowledge: 'persona.list.fact',
  secrets: 'persona.list.secret',
  fallbackLines: 'persona.list.line',
};

export function listInput(context: FormContext, field: ListField): HTMLElement {
  const { el, t } = context;
  const row = fieldRow(context, field);
  const box = el('div', { class: 'list', 'data-role': 'list' });
  context.listBoxes.set(field, box);
  row.appendChild(box);
  const add = el('button', { type: 'button', 'data-action': 'add' }, `+ ${t('persona.list.add')}`);
  add.addEventListener('click', () => {
    context.form[field].push('');
    renderList(context, field);
    const inputsNow = box.querySelectorAll('input');
    (inputsNow[inputsNow.length - 1] as HTMLInputElement | undefined)?.focus();
    context.changed(field);
  });
  row.appendChild(add);
  addProblemBox(context, row, field);
  return row;
}

/** Redraws the entries of `field` from the form (after a load, an add or a remove). */
export function renderList(context: FormContext, field: ListField): void {
  const { el, t } = context;
  const box = context.listBoxes.get(field)!;
  box.textContent = '';
  context.form[field].forEach((value, index) => {
    const item = el('div', { class: 'list-item' });
    const input = el('input', { type: 'text', 'data-index': String(index), placeholder: t(LIST_ITEM_KEY[field]) });
    input.value = value;
    input.addEventListener('input', () => {
      context.form[field][index] = input.value;
      context.changed(field);
    });
    const remove = el('button', { type: 'button', 'data-action': 'remove', title: t('persona.list.remove') }, '×');
    remove.addEventListener('click', () => {
      context.form[field].splice(index, 1);
      renderList(context, field);
      context.changed(field);
    });
    item.append(input, remove);
    box.appendChild(item);
  });
}
