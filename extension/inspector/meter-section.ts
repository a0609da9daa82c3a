/**
 * The inspector's token meter: which set-up to measure with (by default what the NPC really
 * sends: the open scene's NPC using this persona, else a new NPCComponent as it comes), a bar
 * split by persona field, tools and reply format, the rows of figures and one sentence saying
 * what the share means and which part to shorten. A set-up that is not valid is reported as
 * such and nothing is measured (never 0 tool tokens).
 *
 * The set-up row is meter-setup.ts, the verdict, bar and rows meter-figures.ts and
 * meter-rows.ts; this file keeps the designer's choice and redraws on every change.
 */
import { measurePersona } from '../token-meter/token-meter';
import type { ToolPreset } from '../token-meter/token-meter';
import type { Translate } from '../persona/i18n';
import type { SceneNpcSource } from './scene-npcs';
import type { MakeElement } from './dom';
import { drawFigures, drawInvalid, renderMeterDisplay } from './meter-figures';
import { chosenSetup, renderSetupControls, showPresetControls, sourceText } from './meter-setup';
import type { SetupChoice } from './meter-setup';

export interface MeterSection {
  element: HTMLElement;
  /** Measures the persona as the form holds it now. */
  update(persona: Record<string, unknown>): void;
  /** A persona was shown: measure with the scene's NPC using it, unless the designer chose a set-up. */
  personaLoaded(): void;
  dispose(): void;
}

export interface MeterSectionOptions {
  el: MakeElement;
  t: Translate;
  sceneNpcs?: SceneNpcSource;
}

export function renderMeterSection({ el, t, sceneNpcs }: MeterSectionOptions): MeterSection {
  const choice: SetupChoice = { preset: 'none', customText: '', sceneUsesPersona: null };
  /** Set once the designer picks a set-up: the default no longer moves under them. */
  let presetChosen = false;
  let persona: Record<string, unknown> = {};

  const element = el('div', { class: 'meter', 'data-role': 'token-meter' });
  element.appendChild(el('label', { class: 'title' }, t('persona.meter.title')));
  const controls = renderSetupControls({ el, t, sceneNpcs, onPickerChange: () => redraw() });
  const { picker } = controls;
  element.appendChild(controls.row);
  const display = renderMeterDisplay({ el, t, element });

  const showPreset = (value: ToolPreset): void => {
    choice.preset = value;
    showPresetControls(controls, value);
  };

  controls.select.addEventListener('change', () => {
    presetChosen = true;
    showPreset(controls.select.value as ToolPreset);
    if (choice.preset === 'npc') void listNpcs();
    redraw();
  });
  controls.customBox.addEventListener('input', () => {
    choice.customText = controls.customBox.value;
    redraw();
  });

  async function listNpcs(): Promise<void> {
    if (!picker) return;
    choice.sceneUsesPersona = await picker.list();
    redraw();
  }

  function redraw(): void {
    const chosen = chosenSetup(choice, picker);
    controls.customProblem.textContent =
      'problem' in chosen && choice.preset === 'custom'
        ? t('persona.meter.customProblem', { reason: chosen.reason })
        : '';
    controls.sourceNote.textContent = sourceText(choice, picker, t);
    if ('problem' in chosen) drawInvalid(display, { messageKey: chosen.problem, reason: chosen.reason });
    else drawFigures(display, measurePersona(persona, chosen.setup));
  }

  return {
    element,
    update(next) {
      persona = next;
      redraw();
    },
    personaLoaded() {
      if (!picker) return;
      // Another persona may be selected: its NPCs are marked and preferred.
      void picker.list().then((uses) => {
        choice.sceneUsesPersona = uses;
        if (!presetChosen) showPreset(uses ? 'npc' : 'none');
        redraw();
      });
    },
    dispose: () => picker?.dispose(),
  };
}
