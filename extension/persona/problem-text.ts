/**
 * Every persona problem in one voice for the inspector: a sentence that starts with a capital
 * and ends with a full stop, the bad value quoted as the file has it, in the editor's language.
 * The core words its problems in English (validate-persona.ts); the known shapes are mapped to
 * i18n keys here, anything else is kept and only given the same punctuation.
 */
import { PERSONA_SCHEMA } from '../../src/game/persona/validate-persona';
import type { PersonaProblem } from '../../src/game/persona';
import type { Translate } from './i18n';

interface NumberBounds {
  min: number;
  max: number;
}

/** The schema's bounds of a whole-number field, so the form and the schema cannot disagree. */
export function schemaBounds(field: 'maxSentences'): NumberBounds {
  const property = (PERSONA_SCHEMA as { properties: Record<string, { minimum?: number; maximum?: number }> })
    .properties[field];
  return { min: property.minimum ?? 1, max: property.maximum ?? Number.MAX_SAFE_INTEGER };
}

/** The core's type words (validate-persona.ts TYPE_WORDS) back to the schema type. */
const TYPE_OF_WORDS: Record<string, string> = {
  'text (a string)': 'string',
  'a whole number': 'integer',
  'a number': 'number',
  'a list': 'array',
  'an object': 'object',
  'true or false': 'boolean',
};

/** `Sentence-case, with a full stop.` */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?。！？]["'”’)]*$/.test(first) ? first : `${first}.`;
}

/** The persona field a problem path names (`persona.goals[2]` → goals), or '' for the whole file. */
function fieldKey(path: string): string {
  const match = /^persona\.([A-Za-z$_][\w$]*)/.exec(path);
  return match ? match[1] : '';
}

/** The message alone, as shown under its own field. */
function messageText(problem: PersonaProblem, translate: Translate): string {
  const field = fieldKey(problem.field);
  const raw = problem.message;
  if (field === 'name' && (raw === 'is required' || raw === 'must not be empty'))
    return translate('persona.problem.name');
  if (raw === 'is required') return translate('persona.problem.required');
  if (raw === 'must not be empty') return translate('persona.problem.empty');
  if (field === 'maxSentences') {
    // Too small, too large or not whole: one message with the range the schema allows.
    const got = /; got (.+)$/.exec(raw);
    if (got && /^must be (at least|at most|a whole number)/.test(raw))
      return translate('persona.problem.range', { ...schemaBounds('maxSentences'), got: got[1] });
  }
  let match = /^must be at least (\S+); got (.+)$/.exec(raw);
  if (match) return translate('persona.problem.min', { min: match[1], got: match[2] });
  match = /^must be at most (\S+); got (.+)$/.exec(raw);
  if (match) return translate('persona.problem.max', { max: match[1], got: match[2] });
  match = /^must be one of .+; got (.+?)(?: \(did you mean "(\w+)"\?\))?$/.exec(raw);
  if (match) {
    const text = translate('persona.problem.emotion', { got: match[1] });
    return match[2] ? `${text} ${translate('persona.problem.didYouMean', { guess: match[2] })}` : text;
  }
  match = /^must be (.+); got (.+)$/.exec(raw);
  if (match && TYPE_OF_WORDS[match[1]])
    return translate('persona.problem.type', {
      type: translate(`persona.problem.types.${TYPE_OF_WORDS[match[1]]}`),
      got: match[2],
    });
  match = /^is not a persona field; (?:did you mean "(\w+)"\?|known fields: .*)$/.exec(raw);
  if (match) {
    const text = translate('persona.problem.unknownField', { key: problem.field.replace(/^persona\./, '') });
    return match[1] ? `${text} ${translate('persona.problem.didYouMean', { guess: match[1] })}` : text;
  }
  match = /^persona is not JSON: (.+)$/.exec(raw);
  if (match) return translate('persona.problem.notJson', { reason: match[1] });
  match = /^must be an object with at least a "name"; got (.+)$/.exec(raw);
  if (match) return translate('persona.problem.notObject', { got: match[1] });
  return asSentence(raw);
}

/**
 * A problem as the inspector shows it. Under its own field (`underField`) the field is not
 * named again; a list entry says which entry; in the box at the top the field is named.
 */
export function problemText(problem: PersonaProblem, translate: Translate, underField: boolean): string {
  const text = messageText(problem, translate);
  const entry = /^persona\.\w+\[(\d+)\]/.exec(problem.field);
  if (entry) return translate('persona.problem.entry', { n: Number(entry[1]) + 1, message: text });
  const field = fieldKey(problem.field);
  // Unknown keys and whole-file problems already say what they are about.
  if (underField || !field || /^is not a persona field/.test(problem.message)) return text;
  return `${translate(`persona.field.${field}.label`)}: ${text}`;
}
