/**
 * What the meter shows for one measurement: a sentence (the verdict), the bar split by part
 * and the table of rows; or, for a set-up that cannot be measured, why, and no figure.
 */
import { NANO_INPUT_BUDGET, RESERVED_TOKENS } from '../token-meter/token-meter';
import type { MeterFigures } from '../token-meter/token-meter';
import type { Translate } from '../persona/i18n';
import type { MakeElement } from './dom';
import { colourOf, partLabel } from './meter-part-style';
import { drawBlankRows, drawRows } from './meter-rows';

export interface MeterDisplay {
  el: MakeElement;
  t: Translate;
  /** The whole meter: its `data-level` says ok, warn, danger, over or invalid. */
  element: HTMLElement;
  verdict: HTMLElement;
  bar: HTMLElement;
  table: HTMLTableElement;
}

/** Appends the verdict, the bar, the table and the budget note to the meter `element`. */
export function renderMeterDisplay({ el, t, element }: Pick<MeterDisplay, 'el' | 't' | 'element'>): MeterDisplay {
  const verdict = el('div', { class: 'verdict', 'data-role': 'meter-verdict' });
  const bar = el('div', { class: 'bar', 'data-role': 'meter-bar' });
  const table = el('table', { 'data-role': 'meter-rows' });
  element.append(verdict, bar, table);
  element.appendChild(
    el('div', { class: 'note' }, t('persona.meter.note', { budget: NANO_INPUT_BUDGET, reserve: RESERVED_TOKENS })),
  );
  return { el, t, element, verdict, bar, table };
}

export function drawInvalid(display: MeterDisplay, problem: { messageKey: string; reason: string }): void {
  // Nothing is measured: a broken tool list must not read as "0 tool tokens".
  display.element.setAttribute('data-level', 'invalid');
  display.verdict.textContent = display.t(problem.messageKey, { reason: problem.reason });
  display.bar.textContent = '';
  drawBlankRows(display);
}

export function drawFigures(display: MeterDisplay, figures: MeterFigures): void {
  display.element.setAttribute('data-level', figures.level);
  drawVerdict(display, figures);
  drawBar(display, figures);
  drawRows(display, figures);
}

/** One sentence: the share, and the largest part to shorten. */
function drawVerdict({ t, verdict }: MeterDisplay, figures: MeterFigures): void {
  const used = figures.prefixTokens + figures.secretsTokens;
  const largest = figures.largestPart;
  verdict.textContent = t(`persona.meter.verdict.${figures.level}`, {
    percent: Math.round(figures.share * 100),
    used,
    usable: figures.usableTokens,
    left: Math.max(0, figures.conversationTokens),
    excess: used - figures.usableTokens,
    part: partLabel(t, largest),
    tokens: largest.tokens,
  });
  verdict.setAttribute('data-largest', largest.key);
}

function drawBar({ el, t, bar }: MeterDisplay, figures: MeterFigures): void {
  const used = figures.prefixTokens + figures.secretsTokens;
  // The bar's full width is the usable budget, or the whole prompt when it is larger (then a mark shows where the budget ends).
  const scale = Math.max(figures.usableTokens, used);
  bar.textContent = '';
  for (const part of figures.parts) {
    const seg = el('div', {
      class: `seg ${part.group}`,
      'data-part': part.key,
      title: `${partLabel(t, part)}: ${part.tokens}`,
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
}
