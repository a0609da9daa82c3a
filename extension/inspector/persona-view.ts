/**
 * The persona inspector's DOM, put together from the sections a designer sees: the file's
 * problems on top, the token meter, the form and the save row (form-section, meter-section
 * with its scene-NPC picker, save-section). A file that is not a persona object opens
 * read-only with its error and the text as it is, so Save cannot write a blank form over it.
 * Creator's inspector module and the browser test both call `renderPersonaInspector`.
 */
import {
  formFromPersona,
  personaFromForm,
  personaJsonText,
  validateForm,
  withoutUnknownFields,
  fieldOfProblem,
  canWriteBack,
} from '../persona/form-model';
import type { FormField } from '../persona/form-model';
import { problemText } from '../persona/problem-text';
import { validatePersona } from '../../src/game/persona/validate-persona';
import type { PersonaProblem } from '../../src/game/persona';
import type { Translate } from '../persona/i18n';
import { elementMaker } from './dom';
import { renderFormSection } from './form-section';
import { renderMeterSection } from './meter-section';
import { renderSaveSection } from './save-section';
import type { SaveCheck } from './save-section';
import type { SceneNpcSource } from './scene-npcs';

export { sceneNpcSource } from './scene-npcs';
export type { SceneNpc, SceneNpcSource, EditorRequest, ReadTextFile } from './scene-npcs';
export { PERSONA_INSPECTOR_STYLE } from './style';

export interface PersonaInspectorOptions {
  /** Translates an i18n key below `oam-cocos.` (e.g. `persona.field.name.label`). */
  t: Translate;
  /** Writes the persona file; the inspector passes the JSON text. */
  save: (jsonText: string) => Promise<unknown>;
  /** The file's text to start with. */
  text?: string;
  /** Problems found on import (from the meta's userData), shown with the file's own until the field is edited. */
  importProblems?: PersonaProblem[];
  /** The open scene's NPCs; without it "An NPC in the open scene" is not offered. */
  sceneNpcs?: SceneNpcSource;
}

export interface PersonaInspector {
  /** Shows another file's text (a new selection or a reimport). */
  load(text: string, importProblems?: PersonaProblem[]): void;
  /** Shows a file that could not be read at all: read-only, Save off. */
  loadUnreadable(reason: string): void;
  /** The JSON text Save would write now (the file's own text while it is shown read-only). */
  currentText(): string;
  dispose(): void;
}

/** Longest file text shown in the read-only view (the rest is cut, with "…"). */
const SHOWN_TEXT_CHARS = 4000;

export function renderPersonaInspector(root: HTMLElement, options: PersonaInspectorOptions): PersonaInspector {
  const { t } = options;
  const el = elementMaker(root.ownerDocument);
  /** Problems of the file as loaded, shown for a field until it is edited (the form may read a bad value as another). */
  let fileProblems: PersonaProblem[] = [];
  const edited = new Set<string>();
  /** The text of a file shown read-only, or null when the form holds it. */
  let brokenText: string | null = null;
  /** The messages shown now, counted by Save. */
  let shownProblems = { name: 0, total: 0 };

  root.textContent = '';
  const container = el('div', { class: 'oam-persona' });
  root.appendChild(container);

  const general = el('div', { class: 'general', 'data-role': 'general-problems' });
  general.hidden = true;
  const broken = el('div', { class: 'broken', 'data-role': 'file-error' });
  broken.hidden = true;

  const formSection = renderFormSection({
    el,
    t,
    onChange: (field) => {
      edited.add(field);
      saveSection.clearStatus();
      refresh();
    },
  });
  const meter = renderMeterSection({ el, t, sceneNpcs: options.sceneNpcs });
  const saveSection = renderSaveSection({
    el,
    t,
    save: options.save,
    check: saveCheck,
    text: () => personaJsonText(formSection.form()),
    onRefused: (check) => {
      if (check.reason === 'name') formSection.focus('name');
    },
    drops: () => formSection.form().unshown ?? [],
    onRemoveUnknown: () => {
      formSection.setForm(withoutUnknownFields(formSection.form()));
      edited.add('general');
      refresh();
    },
  });
  // The meter on top: a designer sees at once when a persona is too long.
  container.append(general, broken, meter.element, formSection.element, saveSection.element);

  function saveCheck(): SaveCheck {
    if (brokenText !== null) return { ok: false, reason: 'broken', count: 1 };
    if (shownProblems.name > 0) return { ok: false, reason: 'name', count: shownProblems.total };
    if (shownProblems.total > 0) return { ok: false, reason: 'problems', count: shownProblems.total };
    return { ok: true };
  }

  function refresh(): void {
    const form = formSection.form();
    const validation = validateForm(form);
    // The form's own problems, then the file's for fields not edited since it was loaded.
    const merged = validation.problems.concat(fileProblems.filter((problem) => !edited.has(fieldOfProblem(problem))));
    const byField = new Map<FormField, string[]>();
    const generalTexts: string[] = [];
    let nameProblems = 0;
    for (const problem of merged) {
      const key = fieldOfProblem(problem);
      const text = problemText(problem, t, key !== 'general');
      const list = key === 'general' ? generalTexts : (byField.get(key) ?? byField.set(key, []).get(key)!);
      if (list.indexOf(text) >= 0) continue;
      list.push(text);
      if (key === 'name') nameProblems++;
    }
    formSection.showProblems(byField);
    general.textContent = '';
    for (const text of generalTexts) general.appendChild(el('div', { class: 'problem' }, text));
    general.hidden = generalTexts.length === 0;
    let total = generalTexts.length;
    for (const list of byField.values()) total += list.length;
    shownProblems = { name: nameProblems, total };
    saveSection.setState({ broken: false, unknownFields: Object.keys(form.unknown).length > 0 });
    meter.update(personaFromForm(form));
  }

  /** Read-only: the error, the text as it is, no form and no meter, Save off. */
  const showBroken = (message: string, text: string): void => {
    brokenText = text;
    broken.textContent = '';
    broken.appendChild(el('div', { class: 'problem', 'data-role': 'file-error-message' }, message));
    broken.appendChild(el('div', { class: 'note' }, t('persona.problem.readOnly')));
    if (text.trim()) {
      broken.appendChild(el('div', { class: 'note' }, t('persona.problem.fileText')));
      broken.appendChild(
        el(
          'pre',
          { 'data-role': 'file-text' },
          text.length > SHOWN_TEXT_CHARS ? `${text.slice(0, SHOWN_TEXT_CHARS)}…` : text,
        ),
      );
    }
    broken.hidden = false;
    general.hidden = true;
    formSection.element.hidden = true;
    meter.element.hidden = true;
    saveSection.setState({ broken: true, unknownFields: false });
  };

  const load = (text: string, importProblems: PersonaProblem[] = []): void => {
    saveSection.clearStatus();
    edited.clear();
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
      showBroken(problemText(problem, t, false), text);
      return;
    }
    if (!canWriteBack(value)) {
      showBroken(t('persona.problem.tooDeep'), text);
      return;
    }
    brokenText = null;
    broken.hidden = true;
    formSection.element.hidden = false;
    meter.element.hidden = false;
    const own = validatePersona(value);
    fileProblems = (own.ok ? [] : own.problems).concat(importProblems.filter((problem) => problem.field !== 'persona'));
    formSection.setForm(formFromPersona(value));
    refresh();
    meter.personaLoaded();
  };

  load(options.text ?? '{}', options.importProblems);

  return {
    load,
    loadUnreadable: (reason) => {
      saveSection.clearStatus();
      showBroken(t('persona.problem.unreadable', { reason }), '');
    },
    currentText: () => (brokenText !== null ? brokenText : personaJsonText(formSection.form())),
    dispose: () => {
      meter.dispose();
      saveSection.dispose();
      root.textContent = '';
    },
  };
}
