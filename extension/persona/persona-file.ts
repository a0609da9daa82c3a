/**
 * A persona file as the editor sees it: the text of a `.persona` asset (or of a plain `.json`
 * persona carrying the schema marker), checked against the persona schema. Pure functions, so
 * the asset handler stays thin and everything here runs in Node tests.
 */
import { validatePersona } from '../../src/game/persona/validate-persona';
import type { Persona, PersonaProblem } from '../../src/game/persona';

/** The `$schema` value that marks a plain `.json` file as a persona (the fallback path). */
export const PERSONA_SCHEMA_URL = 'https://oam-cocos.github.io/schemas/persona.schema.json';

/**
 * How the import went:
 * - `ok`: valid; the NPC component can use it.
 * - `warning`: JSON with a name, but other fields are wrong; imported, problems shown.
 * - `error`: not usable by an NPC. `fatal` is true when the text is not a JSON object at all
 *   (nothing can be imported); false when it is JSON but the name is missing or empty.
 */
export type PersonaFileStatus = 'ok' | 'warning' | 'error';

export interface PersonaFileReport {
  status: PersonaFileStatus;
  /** True when the text is not a JSON object: the import fails. */
  fatal: boolean;
  /** Every problem, field by field (`persona.name`, `persona.goals[1]`, ...). */
  problems: PersonaProblem[];
  /** The parsed value when the text is a JSON object (valid or not). */
  value?: Record<string, unknown>;
  /** The persona without `$schema`, when valid. */
  persona?: Persona;
  /** One line for the editor's console. */
  summary: string;
}

/** What "Create → Persona" writes: every field filled with an example a designer overwrites. */
export const PERSONA_TEMPLATE: Readonly<Record<string, unknown>> = Object.freeze({
  $schema: PERSONA_SCHEMA_URL,
  name: 'Greta',
  role: 'the innkeeper of the Rusty Tankard',
  personality: 'Warm, nosy and quick to laugh.',
  speakingStyle: "Short folksy sentences; calls everyone 'love'.",
  backstory: 'Greta has run the Rusty Tankard for twenty years and knows every regular by name.',
  goals: ['Keep her guests fed and happy', 'Hear every rumour before anyone else'],
  knowledge: ['The road north is flooded', 'The blacksmith owes her three gold'],
  secrets: ['She hides smuggled wine in the cellar'],
  defaultEmotion: 'neutral',
  maxSentences: 2,
  greeting: 'Welcome to the Rusty Tankard, love! Sit, sit.',
  fallbackLines: ["Sorry love, it's loud in here. Say that again?", 'Hold that thought, the stew is boiling over.'],
});

/** The template as file text: two-space JSON with a final newline, like every saved persona. */
export function personaTemplateText(): string {
  return `${JSON.stringify(PERSONA_TEMPLATE, null, 2)}\n`;
}

/** True when a parsed `.json` file says it is a persona (its `$schema` names persona.schema.json). */
export function hasPersonaMarker(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const marker = (value as Record<string, unknown>).$schema;
  return typeof marker === 'string' && /(^|[/\\])persona\.schema\.json$/.test(marker.trim());
}

function isNameProblem(problem: PersonaProblem): boolean {
  return problem.field === 'persona.name';
}

/** Checks the text of a persona file. Never throws. */
export function readPersonaFile(text: string): PersonaFileReport {
  const result = validatePersona(typeof text === 'string' ? text : String(text));
  if (result.ok) {
    return {
      status: 'ok',
      fatal: false,
      problems: [],
      value: parseObject(text),
      persona: result.persona,
      summary: 'valid persona',
    };
  }
  const problems = result.problems;
  const value = parseObject(text);
  if (!value) {
    const message = problems.map((problem) => problem.message).join('; ');
    return { status: 'error', fatal: true, problems, summary: message };
  }
  const nameBroken = problems.some(isNameProblem);
  const list = problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
  return {
    status: nameBroken ? 'error' : 'warning',
    fatal: false,
    problems,
    value,
    summary: nameBroken ? `an NPC cannot use this persona until it has a name; ${list}` : list,
  };
}

/** The text as a JSON object, or undefined (not JSON, or JSON that is not an object). */
function parseObject(text: string): Record<string, unknown> | undefined {
  const source = typeof text === 'string' && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    const value: unknown = JSON.parse(source);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
