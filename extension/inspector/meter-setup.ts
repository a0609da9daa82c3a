/**
 * The meter's set-up row: which tools to measure with (none, the scene's NPC, the demo
 * tavern's, or pasted JSON), the scene-NPC picker, and a note saying what "none" stands for.
 * It also decides which set-up that choice means, or why it cannot be measured.
 */
import { componentDefaultsSetup, customToolsSetup, tavernSetup } from '../token-meter/token-meter';
import type { MeterSetup, ToolPreset } from '../token-meter/token-meter';
import type { Translate } from '../persona/i18n';
import type { SceneNpcSource } from './scene-npcs';
import { renderNpcPicker } from './npc-picker';
import type { NpcPicker } from './npc-picker';
import type { MakeElement } from './dom';

export interface SetupControls {
  row: HTMLElement;
  select: HTMLSelectElement;
  customBox: HTMLTextAreaElement;
  customProblem: HTMLElement;
  /** Only with a scene to list NPCs from. */
  picker?: NpcPicker;
  sourceNote: HTMLElement;
}

/** What the designer chose, as the section keeps it. */
export interface SetupChoice {
  preset: ToolPreset;
  customText: string;
  /** Whether an NPC of the open scene uses this persona (null: unknown or no scene). */
  sceneUsesPersona: boolean | null;
}

export type ChosenSetup = { setup: MeterSetup } | { problem: string; reason: string };

export function renderSetupControls(options: {
  el: MakeElement;
  t: Translate;
  sceneNpcs?: SceneNpcSource;
  /** The picker's NPC or its set-up changed. */
  onPickerChange(): void;
}): SetupControls {
  const { el, t, sceneNpcs } = options;
  const row = el('div', { class: 'row' });
  row.appendChild(el('div', { class: 'help' }, t('persona.meter.tools')));
  const select = el('select', { 'data-role': 'tool-preset' });
  const presets: ToolPreset[] = sceneNpcs ? ['none', 'npc', 'tavern', 'custom'] : ['none', 'tavern', 'custom'];
  for (const value of presets) select.appendChild(el('option', { value }, t(`persona.meter.preset.${value}`)));
  const customBox = el('textarea', {
    'data-role': 'custom-tools',
    rows: '4',
    placeholder: '[{"name": "open_gate", "description": "Opens the town gate."}]',
  });
  customBox.hidden = true;
  const customProblem = el('div', { class: 'problem', 'data-role': 'custom-tools-problem' });
  const picker: NpcPicker | undefined = sceneNpcs
    ? renderNpcPicker({ el, t, source: sceneNpcs, onChange: options.onPickerChange })
    : undefined;
  if (picker) picker.element.hidden = true;
  const sourceNote = el('div', { class: 'note', 'data-role': 'meter-source' });
  row.append(select, customBox, customProblem);
  if (picker) row.appendChild(picker.element);
  row.appendChild(sourceNote);
  return { row, select, customBox, customProblem, picker, sourceNote };
}

/** Shows the controls of `preset` only: the text box for custom tools, the picker for an NPC. */
export function showPresetControls(controls: SetupControls, preset: ToolPreset): void {
  controls.select.value = preset;
  controls.customBox.hidden = preset !== 'custom';
  if (controls.picker) controls.picker.element.hidden = preset !== 'npc';
}

/** The set-up to measure with, or why it cannot be measured. */
export function chosenSetup(choice: SetupChoice, picker: NpcPicker | undefined): ChosenSetup {
  const { preset } = choice;
  if (preset === 'tavern') return { setup: tavernSetup() };
  if (preset === 'custom') {
    const result = customToolsSetup(choice.customText);
    return result.ok ? { setup: result.setup } : { problem: 'persona.meter.invalid.custom', reason: result.message };
  }
  if (preset === 'npc' && picker) {
    const chosen = picker.setup();
    if (typeof chosen === 'string') return { problem: 'persona.meter.invalid.npc', reason: chosen };
    if (chosen) return { setup: chosen };
  }
  return { setup: componentDefaultsSetup() };
}

/** Whose set-up is measured: the chosen NPC's, or a new NPCComponent's (said as such). */
export function sourceText(choice: SetupChoice, picker: NpcPicker | undefined, translate: Translate): string {
  const { preset } = choice;
  if (preset === 'npc' && picker && picker.setup() && typeof picker.setup() !== 'string')
    return translate('persona.meter.source.npc', { npc: picker.chosenLabel() });
  if (preset === 'none' || (preset === 'npc' && !picker?.setup())) {
    return choice.sceneUsesPersona === false
      ? translate('persona.meter.source.component')
      : translate('persona.meter.source.componentNoScene');
  }
  return '';
}
