/**
 * The meter's table of figures: the persona with one row per field, tools, reply format, the
 * prefix they add up to, secrets told later, and what is left for the conversation.
 */
import type { MeterFigures } from '../token-meter/token-meter';
import type { Translate } from '../persona/i18n';
import type { MakeElement } from './dom';
import { GROUP_COLOURS, colourOf, partLabel } from './meter-part-style';

const FIGURE_ROWS = ['persona', 'tools', 'replyFormat', 'prefix', 'secrets', 'conversation'] as const;

export interface MeterTable {
  el: MakeElement;
  t: Translate;
  table: HTMLTableElement;
}

interface RowCells {
  label: string;
  figure: string;
  value: string;
}

interface RowLook {
  /** A sum (prefix, conversation), set apart. */
  total?: boolean;
  colour?: string;
  /** The persona field this row is one part of. */
  part?: string;
}

function row({ el, table }: MeterTable, { label, figure, value }: RowCells, look: RowLook = {}): HTMLTableRowElement {
  const tr = el('tr', look.total ? { class: 'total' } : look.part ? { class: 'part', 'data-part-row': look.part } : {});
  const name = el('td');
  if (look.colour) name.appendChild(el('span', { class: 'swatch', style: `background:${look.colour}` }));
  name.appendChild(table.ownerDocument.createTextNode(label));
  tr.appendChild(name);
  tr.appendChild(el('td', { class: 'num', 'data-figure': figure }, value));
  return tr;
}

/** Every row with "—": a set-up that cannot be measured shows no figure at all. */
export function drawBlankRows(meter: MeterTable): void {
  const { t, table } = meter;
  table.textContent = '';
  for (const key of FIGURE_ROWS)
    table.appendChild(
      row(
        meter,
        { label: t(`persona.meter.row.${key}`), figure: key, value: '—' },
        { total: key === 'prefix' || key === 'conversation' },
      ),
    );
}

export function drawRows(meter: MeterTable, figures: MeterFigures): void {
  const { t, table } = meter;
  table.textContent = '';
  const add = (cells: RowCells, look?: RowLook): void => {
    table.appendChild(row(meter, cells, look));
  };
  add({ label: t('persona.meter.row.persona'), figure: 'persona', value: String(figures.personaTokens) });
  for (const part of figures.parts.filter((entry) => entry.group === 'persona'))
    add(
      { label: partLabel(t, part), figure: `part-${part.key}`, value: String(part.tokens) },
      { colour: colourOf(figures, part), part: part.key },
    );
  add(
    { label: t('persona.meter.row.tools'), figure: 'tools', value: String(figures.toolsTokens) },
    { colour: GROUP_COLOURS.tools },
  );
  add(
    { label: t('persona.meter.row.replyFormat'), figure: 'replyFormat', value: String(figures.replyFormatTokens) },
    { colour: GROUP_COLOURS.replyFormat },
  );
  add({ label: t('persona.meter.row.prefix'), figure: 'prefix', value: String(figures.prefixTokens) }, { total: true });
  add(
    { label: t('persona.meter.row.secrets'), figure: 'secrets', value: String(figures.secretsTokens) },
    { colour: GROUP_COLOURS.secrets },
  );
  add(
    { label: t('persona.meter.row.conversation'), figure: 'conversation', value: String(figures.conversationTokens) },
    { total: true },
  );
}
