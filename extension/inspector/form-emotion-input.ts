/**
 * The form's default emotion: a list of the known emotions. A file's unknown emotion is shown
 * as an entry of its own (with its message below), never as the default, until a real one is
 * picked.
 */
import { EMOTION_CHOICES } from '../persona/form-model';
import { FormContext, fieldRow, finishRow } from './form-rows';

const UNKNOWN_EMOTION = 'option[data-role="unknown-emotion"]';

export function emotionInput(context: FormContext): HTMLElement {
  const { el, t } = context;
  const select = el('select', { id: 'oam-persona-defaultEmotion' });
  const row = fieldRow(context, 'defaultEmotion');
  select.appendChild(el('option', { value: '' }, t('persona.emotion.default')));
  for (const emotion of EMOTION_CHOICES)
    select.appendChild(el('option', { value: emotion }, t(`persona.emotion.${emotion}`)));
  select.addEventListener('change', () => {
    context.form.defaultEmotion = select.value;
    // The file's bad value is not offered again once a real emotion is picked.
    if (EMOTION_CHOICES.indexOf(context.form.defaultEmotion) >= 0 || context.form.defaultEmotion === '')
      select.querySelector(UNKNOWN_EMOTION)?.remove();
    context.changed('defaultEmotion');
  });
  finishRow(context, row, { name: 'defaultEmotion', input: select });
  return row;
}

/** Selects the form's emotion, adding an entry for it when the file's value is unknown. */
export function fillEmotion(context: FormContext): void {
  const select = context.inputs.get('defaultEmotion') as HTMLSelectElement;
  select.querySelector(UNKNOWN_EMOTION)?.remove();
  const emotion = context.form.defaultEmotion;
  if (emotion !== '' && EMOTION_CHOICES.indexOf(emotion) < 0) {
    // Shown as the file has it, with its message below, never as the default.
    const option = context.el(
      'option',
      { value: emotion, 'data-role': 'unknown-emotion' },
      context.t('persona.emotion.unknown', { value: emotion }),
    );
    select.insertBefore(option, select.firstChild);
  }
  select.value = emotion;
}
