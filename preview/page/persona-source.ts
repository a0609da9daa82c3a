/**
 * Reads a persona the designer pasted or loaded: JSON text or an already parsed value. The
 * problems come back as short lines the page can list, never as a thrown error.
 */
import { validatePersona, type Persona } from '../../src';
import miraPersona from '../../demo/tavern/mira.persona.json';

export type PersonaReading = { ok: true; persona: Persona; name: string } | { ok: false; problems: string[] };

/** The sample innkeeper of the tavern, shared with the demo. */
export const SAMPLE_PERSONA: Persona = miraPersona as Persona;

export function readPersona(input: unknown): PersonaReading {
  if (typeof input === 'string' && input.trim() === '') {
    return {
      ok: false,
      problems: ['persona: the text is empty; paste a persona JSON object such as {"name": "Mira"}.'],
    };
  }
  const result = validatePersona(input);
  if (!result.ok)
    return { ok: false, problems: result.problems.map((problem) => `${problem.field}: ${problem.message}`) };
  return { ok: true, persona: result.persona, name: result.persona.name };
}
