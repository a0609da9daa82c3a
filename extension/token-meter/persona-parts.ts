/** The persona's share of the meter, field by field (what each field's addition costs). */
import { estimateTokens } from '../../src/contract/language-model';
import type { Persona } from '../../src/game/persona';
import type { MeterPart, MeterPartKey } from './meter-types';

/** Persona fields that show in the instructions, in the schema's order (the others cost nothing). */
const PART_FIELDS = [
  'role',
  'personality',
  'speakingStyle',
  'backstory',
  'goals',
  'knowledge',
  'secrets',
  'maxSentences',
  'sampleLines',
  'stages',
] as const;

/**
 * The persona instructions split by field: rendered with the fields added one by one, each
 * field getting the tokens its addition costs (by cumulative texts, so the slices add up to
 * the instructions' own count). A field whose addition shortens the text (one sentence
 * instead of two) gives its difference back to the fixed rules.
 */
export function personaParts(
  persona: Persona,
  render: (p: Persona, extra: string | undefined) => string,
  extra: string | undefined,
): MeterPart[] {
  const source = persona as unknown as Record<string, unknown>;
  const partial: Record<string, unknown> = { name: source.name };
  let before = estimateTokens(render(partial as unknown as Persona, undefined));
  const rules: MeterPart = { key: 'rules', group: 'persona', tokens: before };
  const parts: MeterPart[] = [rules];
  const add = (key: MeterPartKey, text: string): void => {
    const after = estimateTokens(text);
    const tokens = after - before;
    before = after;
    if (tokens < 0) rules.tokens += tokens;
    else parts.push({ key, group: 'persona', tokens });
  };
  for (const field of PART_FIELDS) {
    if (source[field] === undefined) continue;
    partial[field] = source[field];
    add(field, render(partial as unknown as Persona, undefined));
  }
  if (extra) add('extra', render(partial as unknown as Persona, extra));
  return parts;
}
