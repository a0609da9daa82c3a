/**
 * The persona inspector's DOM: a form for every persona field, validation messages under each
 * field, the live token meter and a save button. It only wires elements to the plain models
 * (form-model, token-meter); Creator's inspector module and the browser test both call
 * `renderPersonaInspector` with a root element.
 */
import {
  EMOTION_CHOICES, LIST_FIELDS, LONG_TEXT_FIELDS, TEXT_FIELDS, formFromPersona, personaJsonText, personaFromForm,
  validateForm, withoutUnknownFields,
} from '../persona/form-model';
import type { FormField, ListField, PersonaForm, TextField } from '../persona/form-model';
import {
  customToolsSetup, measurePersona, noToolsSetup, tavernSetup, NANO_INPUT_BUDGET, RESERVED_TOKENS,
} from '../token-meter/token-meter';
import type { MeterSetup, ToolPreset } from '../token-meter/token-meter';
import type { SceneNpc, SceneNpcSource } from './scene-npcs';
import { PERSONA_FIELDS } from '../../src/game/persona';
import type { PersonaProblem } from '../../src/game/persona';

export { sceneNpcSource } from './scene-npcs';
export type { SceneNpc, SceneNpcSource, EditorRequest, ReadTextFile } from './scene-npcs';

export interface PersonaInspectorOptions {
  /** Translates an i18n key below `oam-cocos.` (e.g. `persona.field.name.label`). */
  t: (key: string, vars?: Record<string, string | number>) => string;
  /** Writes the persona file; the inspector passes the JSON text. */
  save: (jsonText: string) => Promise<unknown>;
  /** The file's text to start with. */
  text?: string;
  /** Problems found on import (from the meta's userData), shown until the first edit. */
  importProblems?: PersonaProblem[];
  /** The open scene's NPCs; without it "An NPC in the open scene" is not offered. */
  sceneNpcs?: SceneNpcSource;
}

export interface PersonaInspector {
  /** Shows another file's text (a new selection or a reimport). */
  load(text: string, importProblems?: PersonaProblem[]): void;
  /** The JSON text the form would save now. */
  currentText(): string;
  dispose(): void;
}

export const PERSONA_INSPECTOR_STYLE = `
.oam-persona { font-size: 12px; color: var(--color-normal-contrast, #ddd); padding: 4px 0; }
.oam-persona .row { margin: 6px 0 10px; }
.oam-persona label.title { display: block; font-weight: bold; margin-bottom: 3px; }
.oam-persona .help { color: var(--color-normal-contrast-weakest, #999); font-size: 11px; margin-bottom: 3px; }
.oam-persona input[type=text], .oam-persona input[type=number], .oam-persona textarea, .oam-persona select {
  width: 100%; box-sizing: border-box; background: #1e1e1e; color: inherit; border: 1px solid #444;
  border-radius: 3px; padding: 3px 5px; font: inherit; }
.oam-persona textarea { min-height: 44px; resize: vertical; }
.oam-persona .invalid { border-color: #e0554d !important; }
.oam-persona .problem { color: #ff7b72; font-size: 11px; margin-top: 2px; }
.oam-persona .list-item { display: flex; gap: 4px; margin-bottom: 3px; }
.oam-persona .list-item input { flex: 1; }
.oam-persona button { background: #3a3a3a; color: inherit; border: 1px solid #555; border-radius: 3px; padding: 2px 8px; cursor: pointer; font: inherit; }
.oam-persona button.primary { background: #2f6fb3; border-color: #3c82cc; }
.oam-persona .general { border: 1px solid #7a3a36; background: #3a2220; padding: 4px 6px; border-radius: 3px; }
.oam-persona .meter { border: 1px solid #444; border-radius: 4px; padding: 6px 8px; margin: 10px 0; background: #262626; }
.oam-persona .bar { height: 10px; background: #3a3a3a; border-radius: 5px; overflow: hidden; margin: 6px 0; }
.oam-persona .fill { height: 100%; width: 0; background: #3fb950; }
.oam-persona .meter.warn .fill { background: #d29922; }
.oam-persona .meter.danger .fill { background: #f85149; }
.oam-persona .meter.warn .share { color: #d29922; }
.oam-persona .meter.danger .share { color: #f85149; }
.oam-persona table { width: 100%; border-collapse: collapse; }
.oam-persona td { padding: 1px 0; }
.oam-persona td.num { text-align: right; font-variant-numeric: tabular-nums; }
.oam-persona tr.total td { border-top: 1px solid #444; font-weight: bold; }
.oam-persona .note { color: #999; font-size: 11px; margin-top: 4px; }
.oam-persona .npc-choice { margin-top: 4px; display: flex; flex-wrap: wrap; gap: 4px; }
.oam-persona .npc-choice select { flex: 1; width: auto; }
.oam-persona .npc-choice .problem, .oam-persona .npc-choice .note { flex-basis: 100%; }
.oam-persona .actions { display: flex; align-items: center; gap: 8px; margin-top: 8px; }
`;

const LIST_ITEM_KEY: Record<ListField, string> = {
  goals: 'persona.list.goal',
  knowledge: 'persona.list.fact',
  secrets: 'persona.list.secret',
  fallbackLines: 'persona.list.line',
};

/** Common validation messages in the editor's language; the rest come from the core in English. */
function problemText(problem: PersonaProblem, t: PersonaInspectorOptions['t']): string {
  if (problem.message === 'is required') return t('persona.problem.required');
  if (problem.message === 'must not be empty') return t('persona.problem.empty');
  return `${problem.field}: ${problem.message}`;
}

export function renderPersonaInspector(root: HTMLElement, options: PersonaInspectorOptions): PersonaInspector {
  const { t } = options;
  const doc = root.ownerDocument;
  let form: PersonaForm = formFromPersona({});
  let importProblems: PersonaProblem[] = [];
  let preset: ToolPreset = 'none';
  let customText = '';
  /** The chosen scene NPC's set-up (a string: why it cannot be measured), null before a choice. */
  let npcSetup: MeterSetup | string | null = null;
  let npcRequest = 0;
  let disposed = false;

  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] => {
    const node = doc.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };

  root.textContent = '';
  const container = el('div', { class: 'oam-persona' });
  root.appendChild(container);

  const general = el('div', { class: 'general', 'data-role': 'general-problems' });
  general.hidden = true;
  container.appendChild(general);

  const problemBoxes = new Map<FormField, HTMLElement>();
  const inputs = new Map<FormField, HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>();
  const listBoxes = new Map<ListField, HTMLElement>();

  const changed = (): void => {
    importProblems = [];
    refresh();
  };

  const fieldRow = (field: FormField): HTMLElement => {
    const row = el('div', { class: 'row', 'data-field': field });
    const id = `oam-persona-${field}`;
    row.appendChild(el('label', { class: 'title', for: id }, t(`persona.field.${field}.label`)));
    row.appendChild(el('div', { class: 'help' }, t(`persona.field.${field}.help`)));
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
    const input = long ? el('textarea', { id: `oam-persona-${field}`, rows: '2' }) : el('input', { id: `oam-persona-${field}`, type: 'text' });
    input.addEventListener('input', () => {
      form[field] = input.value;
      changed();
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
        changed();
      });
      const remove = el('button', { type: 'button', 'data-action': 'remove', title: t('persona.list.remove') }, '×');
      remove.addEventListener('click', () => {
        form[field].splice(index, 1);
        renderList(field);
        changed();
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
      changed();
    });
    row.appendChild(add);
    addProblemBox(row, field);
    return row;
  };

  const emotionInput = (): HTMLElement => {
    const row = fieldRow('defaultEmotion');
    const select = el('select', { id: 'oam-persona-defaultEmotion' });
    select.appendChild(el('option', { value: '' }, t('persona.emotion.default')));
    for (const emotion of EMOTION_CHOICES) select.appendChild(el('option', { value: emotion }, t(`persona.emotion.${emotion}`)));
    select.addEventListener('change', () => {
      form.defaultEmotion = select.value;
      changed();
    });
    inputs.set('defaultEmotion', select);
    row.appendChild(select);
    addProblemBox(row, 'defaultEmotion');
    return row;
  };

  const sentencesInput = (): HTMLElement => {
    const row = fieldRow('maxSentences');
    const input = el('input', { id: 'oam-persona-maxSentences', type: 'number', min: '1', step: '1', placeholder: '2' });
    input.addEventListener('input', () => {
      form.maxSentences = input.value;
      changed();
    });
    inputs.set('maxSentences', input);
    row.appendChild(input);
    addProblemBox(row, 'maxSentences');
    return row;
  };

  for (const field of PERSONA_FIELDS) {
    if ((TEXT_FIELDS as readonly string[]).indexOf(field) >= 0) container.appendChild(textInput(field as TextField));
    else if ((LIST_FIELDS as readonly string[]).indexOf(field) >= 0) container.appendChild(listInput(field as ListField));
    else if (field === 'defaultEmotion') container.appendChild(emotionInput());
    else if (field === 'maxSentences') container.appendChild(sentencesInput());
  }

  // ---- the token meter ----
  const meter = el('div', { class: 'meter', 'data-role': 'token-meter' });
  meter.appendChild(el('label', { class: 'title' }, t('persona.meter.title')));
  const presetRow = el('div', { class: 'row' });
  presetRow.appendChild(el('div', { class: 'help' }, t('persona.meter.tools')));
  const presetSelect = el('select', { 'data-role': 'tool-preset' });
  const presets: ToolPreset[] = options.sceneNpcs ? ['none', 'tavern', 'custom', 'npc'] : ['none', 'tavern', 'custom'];
  for (const value of presets) presetSelect.appendChild(el('option', { value }, t(`persona.meter.preset.${value}`)));
  const customBox = el('textarea', { 'data-role': 'custom-tools', rows: '4', placeholder: '[{"name": "open_gate", "description": "Opens the town gate."}]' });
  customBox.hidden = true;
  const customProblem = el('div', { class: 'problem', 'data-role': 'custom-tools-problem' });
  // The scene NPC chooser: listed when chosen, and again on demand (the scene changes).
  const npcBox = el('div', { class: 'npc-choice', 'data-role': 'scene-npc-box' });
  npcBox.hidden = true;
  const npcSelect = el('select', { 'data-role': 'scene-npc' });
  const npcRefresh = el('button', { type: 'button', 'data-action': 'refresh-npcs' }, t('persona.meter.npc.refresh'));
  const npcStatus = el('div', { class: 'problem', 'data-role': 'scene-npc-problem' });
  const npcNotes = el('div', { class: 'note', 'data-role': 'scene-npc-notes' });
  npcBox.append(npcSelect, npcRefresh, npcStatus, npcNotes);
  presetSelect.addEventListener('change', () => {
    preset = presetSelect.value as ToolPreset;
    customBox.hidden = preset !== 'custom';
    npcBox.hidden = preset !== 'npc';
    if (preset === 'npc') listSceneNpcs();
    refresh();
  });
  npcRefresh.addEventListener('click', () => listSceneNpcs());
  npcSelect.addEventListener('change', () => chooseSceneNpc(npcSelect.value));
  customBox.addEventListener('input', () => {
    customText = customBox.value;
    refresh();
  });
  presetRow.append(presetSelect, customBox, customProblem, npcBox);
  meter.appendChild(presetRow);
  const share = el('div', { class: 'share', 'data-role': 'meter-share' });
  const bar = el('div', { class: 'bar' });
  const fill = el('div', { class: 'fill', 'data-role': 'meter-fill' });
  bar.appendChild(fill);
  meter.append(share, bar);
  const table = el('table');
  const figureCells = new Map<string, HTMLElement>();
  for (const key of ['persona', 'tools', 'replyFormat', 'prefix', 'secrets', 'conversation']) {
    const tr = el('tr', key === 'prefix' || key === 'conversation' ? { class: 'total' } : {});
    tr.appendChild(el('td', {}, t(`persona.meter.row.${key}`)));
    const cell = el('td', { class: 'num', 'data-figure': key });
    figureCells.set(key, cell);
    tr.appendChild(cell);
    table.appendChild(tr);
  }
  meter.appendChild(table);
  meter.appendChild(el('div', { class: 'note' }, t('persona.meter.note', { budget: NANO_INPUT_BUDGET, reserve: RESERVED_TOKENS })));
  // On top: a designer sees at once when a persona is too long.
  container.insertBefore(meter, general.nextSibling);

  // ---- save ----
  const actions = el('div', { class: 'actions' });
  const saveButton = el('button', { type: 'button', class: 'primary', 'data-action': 'save' }, t('persona.save'));
  const removeUnknown = el('button', { type: 'button', 'data-action': 'remove-unknown' }, t('persona.removeUnknown'));
  const status = el('span', { 'data-role': 'save-status' });
  actions.append(saveButton, removeUnknown, status);
  container.appendChild(actions);

  saveButton.addEventListener('click', () => {
    const text = personaJsonText(form);
    const valid = validateForm(form).ok;
    saveButton.disabled = true;
    status.textContent = t('persona.saving');
    options.save(text).then(
      () => { if (!disposed) status.textContent = valid ? t('persona.saved') : t('persona.savedWithProblems'); },
      (error: unknown) => {
        if (!disposed) status.textContent = t('persona.saveFailed', { reason: error instanceof Error ? error.message : String(error) });
      },
    ).then(() => { saveButton.disabled = false; });
  });
  removeUnknown.addEventListener('click', () => {
    form = withoutUnknownFields(form);
    changed();
  });

  const npcLabel = (npc: SceneNpc): string => {
    const where = npc.path && npc.path !== npc.name ? `${npc.name} (${npc.path})` : npc.name || npc.nodeUuid;
    return npc.usesThisPersona ? `★ ${where} · ${t('persona.meter.npc.thisPersona')}` : where;
  };

  function listSceneNpcs(): void {
    const source = options.sceneNpcs;
    if (!source) return;
    const ticket = ++npcRequest;
    const previous = npcSelect.value;
    npcStatus.textContent = t('persona.meter.npc.listing');
    source.list().then(
      (list) => {
        if (disposed || ticket !== npcRequest) return;
        npcSelect.textContent = '';
        npcSelect.appendChild(el('option', { value: '' }, t('persona.meter.npc.choose')));
        for (const npc of list) {
          const option = el('option', { value: npc.nodeUuid, 'data-this-persona': String(npc.usesThisPersona) }, npcLabel(npc));
          npcSelect.appendChild(option);
        }
        npcStatus.textContent = list.length === 0 ? t('persona.meter.npc.none') : '';
        // Keep the choice across a re-list; else take the first NPC using this persona.
        const keep = list.find((n) => n.nodeUuid === previous) ?? list.find((n) => n.usesThisPersona);
        if (keep) {
          npcSelect.value = keep.nodeUuid;
          chooseSceneNpc(keep.nodeUuid);
        } else {
          chooseSceneNpc('');
        }
      },
      (error: unknown) => {
        if (disposed || ticket !== npcRequest) return;
        npcSelect.textContent = '';
        npcStatus.textContent = t('persona.meter.npc.noScene', { reason: error instanceof Error ? error.message : String(error) });
        chooseSceneNpc('');
      },
    );
  }

  function chooseSceneNpc(nodeUuid: string): void {
    const source = options.sceneNpcs;
    const ticket = ++npcRequest;
    npcNotes.textContent = '';
    npcSetup = null;
    if (!source || !nodeUuid) {
      refresh();
      return;
    }
    npcStatus.textContent = t('persona.meter.npc.loading');
    source.load(nodeUuid).then(
      (result) => {
        if (disposed || ticket !== npcRequest) return;
        npcStatus.textContent = '';
        npcSetup = result.ok ? result.setup : result.message;
        npcNotes.textContent = result.ok ? result.notes.join(' · ') : '';
        refresh();
      },
      (error: unknown) => {
        if (disposed || ticket !== npcRequest) return;
        npcStatus.textContent = '';
        npcSetup = error instanceof Error ? error.message : String(error);
        refresh();
      },
    );
    refresh();
  }

  const meterSetup = (): MeterSetup | string => {
    if (preset === 'tavern') return tavernSetup();
    if (preset === 'npc') return npcSetup ?? noToolsSetup();
    if (preset === 'custom') {
      const result = customToolsSetup(customText);
      return result.ok ? result.setup : result.message;
    }
    return noToolsSetup();
  };

  function refresh(): void {
    const validation = validateForm(form);
    const byField = new Map<string, PersonaProblem[]>();
    for (const [field, list] of Object.entries(validation.byField)) byField.set(field, list ?? []);
    for (const [field, box] of problemBoxes) {
      const list = byField.get(field) ?? [];
      box.textContent = '';
      for (const problem of list) box.appendChild(el('div', { class: 'problem' }, problemText(problem, t)));
      inputs.get(field)?.classList.toggle('invalid', list.length > 0);
    }
    // A file that is not JSON loads as an empty form: say why until the designer edits it.
    const generalList = importProblems.filter((p) => p.field === 'persona').concat(byField.get('general') ?? []);
    general.textContent = '';
    for (const problem of generalList) general.appendChild(el('div', { class: 'problem' }, problemText(problem, t)));
    general.hidden = generalList.length === 0;
    removeUnknown.hidden = Object.keys(form.unknown).length === 0;

    const setup = meterSetup();
    const problemKey = preset === 'npc' ? 'persona.meter.npc.problem' : 'persona.meter.customProblem';
    customProblem.textContent = typeof setup === 'string' ? t(problemKey, { reason: setup }) : '';
    const figures = measurePersona(personaFromForm(form), typeof setup === 'string' ? noToolsSetup() : setup);
    figureCells.get('persona')!.textContent = String(figures.personaTokens);
    figureCells.get('tools')!.textContent = String(figures.toolsTokens);
    figureCells.get('replyFormat')!.textContent = String(figures.replyFormatTokens);
    figureCells.get('prefix')!.textContent = String(figures.prefixTokens);
    figureCells.get('secrets')!.textContent = String(figures.secretsTokens);
    figureCells.get('conversation')!.textContent = String(figures.conversationTokens);
    const percent = Math.round(figures.share * 100);
    share.textContent = t('persona.meter.share', { percent, used: figures.prefixTokens + figures.secretsTokens, usable: figures.usableTokens });
    fill.style.width = `${Math.min(100, Math.max(0, figures.share * 100))}%`;
    meter.classList.toggle('warn', figures.level === 'warn');
    meter.classList.toggle('danger', figures.level === 'danger');
    meter.setAttribute('data-level', figures.level);
  }

  const fillInputs = (): void => {
    for (const field of TEXT_FIELDS) (inputs.get(field) as HTMLInputElement).value = form[field];
    (inputs.get('defaultEmotion') as HTMLSelectElement).value = EMOTION_CHOICES.indexOf(form.defaultEmotion) >= 0 ? form.defaultEmotion : '';
    (inputs.get('maxSentences') as HTMLInputElement).value = form.maxSentences;
    for (const field of LIST_FIELDS) renderList(field);
  };

  const load = (text: string, problems: PersonaProblem[] = []): void => {
    let value: unknown = {};
    try { value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text); } catch { value = {}; }
    form = formFromPersona(value);
    importProblems = problems;
    fillInputs();
    refresh();
    status.textContent = '';
    // Another persona may be selected: its NPCs are marked and preferred.
    if (preset === 'npc') listSceneNpcs();
  };

  load(options.text ?? '{}', options.importProblems);

  return {
    load,
    currentText: () => personaJsonText(form),
    dispose: () => {
      disposed = true;
      root.textContent = '';
    },
  };
}
