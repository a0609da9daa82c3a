/** How a part of the prompt is named and coloured, the same in the meter's bar and in its rows. */
import type { MeterFigures, MeterPart } from '../token-meter/token-meter';
import type { Translate } from '../persona/i18n';

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
export const GROUP_COLOURS: Record<Exclude<MeterPart['group'], 'persona'>, string> = {
  tools: '#d29922',
  replyFormat: '#a371f7',
  secrets: '#8b949e',
};

export function partLabel(translate: Translate, part: MeterPart): string {
  if (part.key === 'rules') return translate('persona.meter.part.rules');
  if (part.key === 'extra') return translate('persona.meter.part.extra');
  if (part.group === 'secrets') return translate('persona.meter.part.secretsTold');
  if (part.group === 'tools') return translate('persona.meter.row.tools');
  if (part.group === 'replyFormat') return translate('persona.meter.row.replyFormat');
  return translate(`persona.field.${part.key}.label`);
}

export function colourOf(figures: MeterFigures, part: MeterPart): string {
  if (part.group !== 'persona') return GROUP_COLOURS[part.group];
  const index = figures.parts.filter((entry) => entry.group === 'persona').indexOf(part);
  return PERSONA_COLOURS[index % PERSONA_COLOURS.length];
}
