/**
 * The inspector's save row: Save (refused, with the reason, for a persona an NPC would refuse
 * or a file the form could not read), "Remove unknown fields" and the save status.
 */
import type { Translate } from '../persona/i18n';
import { errorMessage } from './dom';
import type { MakeElement } from './dom';

/** Whether the form may be written now; `count`: the problems shown. */
export type SaveCheck = { ok: true } | { ok: false; reason: 'broken' | 'name' | 'problems'; count: number };

export interface SaveSection {
  element: HTMLElement;
  /** Shows the state the next Save would meet (Save is off for a file the form could not read). */
  setState(state: { broken: boolean; unknownFields: boolean }): void;
  clearStatus(): void;
  dispose(): void;
}

export interface SaveSectionOptions {
  el: MakeElement;
  t: Translate;
  save: (jsonText: string) => Promise<unknown>;
  check: () => SaveCheck;
  text: () => string;
  onRefused: (check: Exclude<SaveCheck, { ok: true }>) => void;
  onRemoveUnknown: () => void;
  /** What the file holds that this Save would drop or change (the form cannot show it): asked first. */
  drops: () => string[];
}

const REFUSED_KEY = {
  broken: 'persona.refusedBroken',
  name: 'persona.refusedName',
  problems: 'persona.refusedProblems',
} as const;

export function renderSaveSection(options: SaveSectionOptions): SaveSection {
  const { el, t } = options;
  let disposed = false;
  let broken = false;
  let saving = false;
  const element = el('div', { class: 'actions' });
  const saveButton = el('button', { type: 'button', class: 'primary', 'data-action': 'save' }, t('persona.save'));
  const removeUnknown = el('button', { type: 'button', 'data-action': 'remove-unknown' }, t('persona.removeUnknown'));
  const status = el('span', { 'data-role': 'save-status' });
  element.append(saveButton, removeUnknown, status);

  /** The drops the designer confirmed with a second click (a different list asks again). */
  let confirmed = '';
  saveButton.addEventListener('click', () => {
    const check = options.check();
    if (!check.ok) {
      status.textContent = t(REFUSED_KEY[check.reason], { count: check.count });
      status.setAttribute('data-refused', check.reason);
      options.onRefused(check);
      return;
    }
    const drops = options.drops();
    const key = drops.join('\n');
    if (drops.length > 0 && confirmed !== key) {
      confirmed = key;
      status.textContent = t('persona.confirmDrops', { list: drops.join('; ') });
      status.setAttribute('data-refused', 'drops');
      return;
    }
    status.removeAttribute('data-refused');
    saving = true;
    saveButton.disabled = true;
    status.textContent = t('persona.saving');
    options
      .save(options.text())
      .then(
        () => {
          if (!disposed) status.textContent = t('persona.saved');
        },
        (error: unknown) => {
          if (!disposed) status.textContent = t('persona.saveFailed', { reason: errorMessage(error) });
        },
      )
      .then(() => {
        saving = false;
        saveButton.disabled = broken;
      });
  });
  removeUnknown.addEventListener('click', () => options.onRemoveUnknown());

  return {
    element,
    setState(state) {
      broken = state.broken;
      saveButton.disabled = broken || saving;
      saveButton.title = broken ? t('persona.refusedBroken') : '';
      removeUnknown.hidden = broken || !state.unknownFields;
    },
    clearStatus() {
      status.textContent = '';
      status.removeAttribute('data-refused');
      confirmed = '';
    },
    dispose: () => {
      disposed = true;
    },
  };
}
