/**
 * The inspector's token meter: which set-up to measure with (by default what the NPC really
 * sends: the open scene's NPC using this persona, else a new NPCComponent as it comes), a bar
 * split by persona field, tools and reply format, the rows of figures and one sentence saying
 * what the share means and which part to shorten. A set-up that is not valid is reported as
 * such and nothing is measured (never 0 tool tokens).
 */
import {
  componentDefaultsSetup,
  customToolsSetup,
  measurePersona,
  tavernSetup,
  NANO_INPUT_BUDGET,
  RESERVED_TOKENS,
} from '../token-meter/token-meter';
import type { MeterFigures, MeterPart, MeterSetup, ToolPreset } from '../token-meter/token-meter';
import type { Translate } from '../persona/i18n';
import type { SceneNpcSource } from './scene-npcs';
import { renderNpcPicker } from './npc-picker';
import type { NpcPicker } from './npc-picker';
import type { MakeElement } from './dom';

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

const FIGURE_ROWS = ['persona', 'tools', 'replyFormat', 'prefix', 'secrets', 'conversation'] as const;

/** Bar colours: persona fields in blues (alternating, so neighbours differ), the rest their own. */
const PERSONA_COLOURS = [
  '#388bfd',
  '#79c0ff',
  '#1f6feb',
  '#a5d6ff',
  '#4493f8',
  '#6cb6ff',
  '#316dca',
  '#9ecbff',
  '#58a6ff',
];
const GROUP_COLOURS: Record<Exclude<MeterPart['group'], 'persona'>, string> = {
  tools: '#d29922',
  replyFormat: '#a371f7',
  secrets: '#8b949e',
};

export function renderMeterSection({ el, t, sceneNpcs }: MeterSectionOptions): MeterSection {
  let preset: ToolPreset = 'none';
  /** Set once the designer picks a set-up: the default no longer moves under them. */
  let presetChosen = false;
  /** Whether an NPC of the open scene uses this persona (null: unknown or no scene). */
  let sceneUsesPersona: boolean | null = null;
  let customText = '';
  let persona: Record<string, unknown> = {};

  const element = el('div', { class: 'meter', 'data-role': 'token-meter' });
  element.appendChild(el('label', { class: 'title' }, t('persona.meter.title')));

  // ---- the set-up ----
  const presetRow = el('div', { class: 'row' });
  presetRow.appendChild(el('div', { class: 'help' }, t('persona.meter.tools')));
  const presetSelect = el('select', { 'data-role': 'tool-preset' });
  const presets: ToolPreset[] = sceneNpcs ? ['none', 'npc', 'tavern', 'custom'] : ['none', 'tavern', 'custom'];
  for (const value of presets) presetSelect.appendChild(el('option', { value }, t(`persona.meter.preset.${value}`)));
  const customBox = el('textarea', {
    'data-role': 'custom-tools',
    rows: '4',
    placeholder: '[{"name": "open_gate", "description": "Opens the town gate."}]',
  });
  customBox.hidden = true;
  const customProblem = el('div', { class: 'problem', 'data-role': 'custom-tools-problem' });
  const picker: NpcPicker | undefined = sceneNpcs
    ? renderNpcPicker({ el, t, source: sceneNpcs, onChange: () => redraw() })
    : undefined;
  if (picker) picker.element.hidden = true;
  const sourceNote = el('div', { class: 'note', 'data-role': 'meter-source' });
  presetRow.append(presetSelect, customBox, customProblem);
  if (picker) presetRow.appendChild(picker.element);
  presetRow.appendChild(sourceNote);
  element.appendChild(presetRow);

  const showPreset = (value: ToolPreset): void => {
    preset = value;
    presetSelect.value = value;
    customBox.hidden = value !== 'custom';
    if (picker) picker.element.hidden = value !== 'npc';
  };

  presetSelect.addEventListener('change', () => {
    presetChosen = true;
    showPreset(presetSelect.value as ToolPreset);
    if (preset === 'npc') void listNpcs();
    redraw();
  });
  customBox.addEventListener('input', () => {
    customText = customBox.value;
    redraw();
  });

  // ---- the verdict, the bar and the rows ----
  const verdict = el('div', { class: 'verdict', 'data-role': 'meter-verdict' });
  const bar = el('div', { class: 'bar', 'data-role': 'meter-bar' });
  const table = el('table', { 'data-role': 'meter-rows' });
  element.append(verdict, bar, table);
  element.appendChild(
    el('div', { class: 'note' }, t('persona.meter.note', { budget: NANO_INPUT_BUDGET, reserve: RESERVED_TOKENS })),
  );

  async function listNpcs(): Promise<void> {
    if (!picker) return;
    sceneUsesPersona = await picker.list();
    redraw();
  }

  const partLabel = (part: MeterPart): string => {
    if (part.key === 'rules') return t('persona.meter.part.rules');
    if (part.key === 'extra') return t('persona.meter.part.extra');
    if (part.group === 'secrets') return t('persona.meter.part.secretsTold');
    if (part.group === 'tools') return t('persona.meter.row.tools');
    if (part.group === 'replyFormat') return t('persona.meter.row.replyFormat');
    return t(`persona.field.${part.key}.label`);
  };

  const colourOf = (figures: MeterFigures, part: MeterPart): string => {
    if (part.group !== 'persona') return GROUP_COLOURS[part.group];
    const index = figures.parts.filter((entry) => entry.group === 'persona').indexOf(part);
    return PERSONA_COLOURS[index % PERSONA_COLOURS.length];
  };

  /** The set-up to measure with, or why it cannot be measured. */
  const currentSetup = (): { setup: MeterSetup } | { problem: string; reason: string } => {
    if (preset === 'tavern') return { setup: tavernSetup() };
    if (preset === 'custom') {
      const result = customToolsSetup(customText);
      return result.ok ? { setup: result.setup } : { problem: 'persona.meter.invalid.custom', reason: result.message };
    }
    if (preset === 'npc' && picker) {
      const chosen = picker.setup();
      if (typeof chosen === 'string') return { problem: 'persona.meter.invalid.npc', reason: chosen };
      if (chosen) return { setup: chosen };
    }
    return { setup: componentDefaultsSetup() };
  };

  const sourceText = (): string => {
    if (preset === 'npc' && picker && picker.setup() && typeof picker.setup() !== 'string')
      return t('persona.meter.source.npc', { npc: picker.chosenLabel() });
    if (preset === 'none' || (preset === 'npc' && !picker?.setup())) {
      return sceneUsesPersona === false
        ? t('persona.meter.source.component')
        : t('persona.meter.source.componentNoScene');
    }
    return '';
  };

  const row = (
    { label, figure, value }: { label: string; figure: string; value: string },
    options: { total?: boolean; colour?: string; part?: string } = {},
  ): HTMLTableRowElement => {
    const tr = el(
      'tr',
      options.total ? { class: 'total' } : options.part ? { class: 'part', 'data-part-row': options.part } : {},
    );
    const name = el('td');
    if (options.colour) name.appendChild(el('span', { class: 'swatch', style: `background:${options.colour}` }));
    name.appendChild(element.ownerDocument.createTextNode(label));
    tr.appendChild(name);
    tr.appendChild(el('td', { class: 'num', 'data-figure': figure }, value));
    return tr;
  };

  const drawInvalid = (messageKey: string, reason: string): void => {
    // Nothing is measured: a broken tool list must not read as "0 tool tokens".
    element.setAttribute('data-level', 'invalid');
    verdict.textContent = t(messageKey, { reason });
    bar.textContent = '';
    table.textContent = '';
    for (const key of FIGURE_ROWS)
      table.appendChild(
        row(
          { label: t(`persona.meter.row.${key}`), figure: key, value: '—' },
          { total: key === 'prefix' || key === 'conversation' },
        ),
      );
  };

  const drawFigures = (figures: MeterFigures): void => {
    const used = figures.prefixTokens + figures.secretsTokens;
    element.setAttribute('data-level', figures.level);
    const largest = figures.largestPart;
    verdict.textContent = t(`persona.meter.verdict.${figures.level}`, {
      percent: Math.round(figures.share * 100),
      used,
      usable: figures.usableTokens,
      left: Math.max(0, figures.conversationTokens),
      excess: used - figures.usableTokens,
      part: partLabel(largest),
      tokens: largest.tokens,
    });
    verdict.setAttribute('data-largest', largest.key);

    // The bar's full width is the usable budget, or the whole prompt when it is larger (then a mark shows where the budget ends).
    const scale = Math.max(figures.usableTokens, used);
    bar.textContent = '';
    for (const part of figures.parts) {
      const seg = el('div', {
        class: `seg ${part.group}`,
        'data-part': part.key,
        title: `${partLabel(part)}: ${part.tokens}`,
      });
      seg.style.width = `${(part.tokens / scale) * 100}%`;
      seg.style.backgroundColor = colourOf(figures, part);
      bar.appendChild(seg);
    }
    if (used > figures.usableTokens) {
      const mark = el('div', { class: 'mark', 'data-role': 'budget-mark', title: t('persona.meter.budgetMark') });
      mark.style.left = `${(figures.usableTokens / scale) * 100}%`;
      bar.appendChild(mark);
    }

    table.textContent = '';
    const personaParts = figures.parts.filter((part) => part.group === 'persona');
    table.appendChild(
      row({ label: t('persona.meter.row.persona'), figure: 'persona', value: String(figures.personaTokens) }),
    );
    for (const part of personaParts)
      table.appendChild(
        row(
          { label: partLabel(part), figure: `part-${part.key}`, value: String(part.tokens) },
          {
            colour: colourOf(figures, part),
            part: part.key,
          },
        ),
      );
    table.appendChild(
      row(
        { label: t('persona.meter.row.tools'), figure: 'tools', value: String(figures.toolsTokens) },
        { colour: GROUP_COLOURS.tools },
      ),
    );
    table.appendChild(
      row(
        { label: t('persona.meter.row.replyFormat'), figure: 'replyFormat', value: String(figures.replyFormatTokens) },
        {
          colour: GROUP_COLOURS.replyFormat,
        },
      ),
    );
    table.appendChild(
      row(
        { label: t('persona.meter.row.prefix'), figure: 'prefix', value: String(figures.prefixTokens) },
        { total: true },
      ),
    );
    table.appendChild(
      row(
        { label: t('persona.meter.row.secrets'), figure: 'secrets', value: String(figures.secretsTokens) },
        { colour: GROUP_COLOURS.secrets },
      ),
    );
    table.appendChild(
      row(
        {
          label: t('persona.meter.row.conversation'),
          figure: 'conversation',
          value: String(figures.conversationTokens),
        },
        { total: true },
      ),
    );
  };

  function redraw(): void {
    const chosen = currentSetup();
    customProblem.textContent =
      'problem' in chosen && preset === 'custom' ? t('persona.meter.customProblem', { reason: chosen.reason }) : '';
    sourceNote.textContent = sourceText();
    if ('problem' in chosen) drawInvalid(chosen.problem, chosen.reason);
    else drawFigures(measurePersona(persona, chosen.setup));
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
        sceneUsesPersona = uses;
        if (!presetChosen) showPreset(uses ? 'npc' : 'none');
        redraw();
      });
    },
    dispose: () => picker?.dispose(),
  };
}
