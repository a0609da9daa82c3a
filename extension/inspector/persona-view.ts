/**
 * The persona inspector's DOM, put together from the sections a designer sees: the file's
 * problems on top, the token meter, the form and the save row (form-section, meter-section
 * with its scene-NPC picker, save-section). A file that is not a persona object opens
 * read-only with its error and the text as it is, so Save cannot write a blank form over it
 * (read-only-file.ts); which messages are shown where is shown-problems.ts.
 * Creator's inspector module and the browser test both call `renderPersonaInspector`.
 */
import {
  formFromPersona,
  personaFromForm,
  personaJsonText,
  validateForm,
  withoutUnknownFields,
} from '../persona/form-model';
import { validatePersona } from '../../src/game/persona/validate-persona';
import type { PersonaProblem } from '../../src/game/persona';
import type { Translate } from '../persona/i18n';
import { elementMaker } from './dom';
import type { MakeElement } from './dom';
import { renderFormSection } from './form-section';
import type { FormSection } from './form-section';
import { renderMeterSection } from './meter-section';
import type { MeterSection } from './meter-section';
import { fillReadOnlyBox, readPersonaText } from './read-only-file';
import { renderSaveSection } from './save-section';
import type { SaveSection } from './save-section';
import type { SceneNpcSource } from './scene-npcs';
import { saveCheckOf, shownProblems } from './shown-problems';
import type { ShownProblems } from './shown-problems';

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

/** What the inspector knows of the file shown now. */
interface FileState {
  /** Problems of the file as loaded, shown for a field until it is edited (the form may read a bad value as another). */
  fileProblems: PersonaProblem[];
  edited: Set<string>;
  /** The text of a file shown read-only, or null when the form holds it. */
  brokenText: string | null;
  /** The messages shown now, counted by Save. */
  shown: Pick<ShownProblems, 'name' | 'total'>;
}

interface InspectorView {
  el: MakeElement;
  t: Translate;
  state: FileState;
  general: HTMLElement;
  broken: HTMLElement;
  formSection: FormSection;
  meter: MeterSection;
  saveSection: SaveSection;
}

export function renderPersonaInspector(root: HTMLElement, options: PersonaInspectorOptions): PersonaInspector {
  const { t } = options;
  const el = elementMaker(root.ownerDocument);
  const state: FileState = { fileProblems: [], edited: new Set(), brokenText: null, shown: { name: 0, total: 0 } };

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
      state.edited.add(field);
      saveSection.clearStatus();
      refresh(view);
    },
  });
  const meter = renderMeterSection({ el, t, sceneNpcs: options.sceneNpcs });
  const saveSection = renderSaveSection({
    el,
    t,
    save: options.save,
    check: () => saveCheckOf(state.brokenText !== null, state.shown),
    text: () => personaJsonText(formSection.form()),
    onRefused: (check) => {
      if (check.reason === 'name') formSection.focus('name');
    },
    drops: () => formSection.form().unshown ?? [],
    onRemoveUnknown: () => {
      formSection.setForm(withoutUnknownFields(formSection.form()));
      state.edited.add('general');
      refresh(view);
    },
  });
  // The meter on top: a designer sees at once when a persona is too long.
  container.append(general, broken, meter.element, formSection.element, saveSection.element);
  const view: InspectorView = { el, t, state, general, broken, formSection, meter, saveSection };

  load(view, options.text ?? '{}', options.importProblems);

  return {
    load: (text, importProblems) => load(view, text, importProblems),
    loadUnreadable: (reason) => {
      saveSection.clearStatus();
      showBroken(view, { message: t('persona.problem.unreadable', { reason }), text: '' });
    },
    currentText: () => (state.brokenText !== null ? state.brokenText : personaJsonText(formSection.form())),
    dispose: () => {
      meter.dispose();
      saveSection.dispose();
      root.textContent = '';
    },
  };
}

/** Every message where it belongs, Save's state, and the meter, for the form as it is now. */
function refresh(view: InspectorView): void {
  const { el, t, state, formSection, general } = view;
  const form = formSection.form();
  const shown = shownProblems({ form: validateForm(form).problems, file: state.fileProblems, edited: state.edited, t });
  formSection.showProblems(shown.byField);
  general.textContent = '';
  for (const text of shown.general) general.appendChild(el('div', { class: 'problem' }, text));
  general.hidden = shown.general.length === 0;
  state.shown = shown;
  view.saveSection.setState({ broken: false, unknownFields: Object.keys(form.unknown).length > 0 });
  view.meter.update(personaFromForm(form));
}

/** Read-only: the error, the text as it is, no form and no meter, Save off. */
function showBroken(view: InspectorView, file: { message: string; text: string }): void {
  view.state.brokenText = file.text;
  fillReadOnlyBox({ el: view.el, t: view.t, box: view.broken }, file);
  view.broken.hidden = false;
  view.general.hidden = true;
  view.formSection.element.hidden = true;
  view.meter.element.hidden = true;
  view.saveSection.setState({ broken: true, unknownFields: false });
}

function load(view: InspectorView, text: string, importProblems: PersonaProblem[] = []): void {
  const { state } = view;
  view.saveSection.clearStatus();
  state.edited.clear();
  const read = readPersonaText(text, view.t);
  if ('unreadable' in read) {
    showBroken(view, { message: read.unreadable, text });
    return;
  }
  state.brokenText = null;
  view.broken.hidden = true;
  view.formSection.element.hidden = false;
  view.meter.element.hidden = false;
  const own = validatePersona(read.persona);
  state.fileProblems = (own.ok ? [] : own.problems).concat(
    importProblems.filter((problem) => problem.field !== 'persona'),
  );
  view.formSection.setForm(formFromPersona(read.persona));
  refresh(view);
  view.meter.personaLoaded();
}
