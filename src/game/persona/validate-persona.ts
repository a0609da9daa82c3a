/**
 * Checks a persona (an object or its JSON text) against the published schema and says, per
 * field, what is wrong in words a designer can act on: `persona.maxSentences: must be at
 * least 1; got 0`.
 */
import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { AgentError } from '../../contract/errors';
import { EMOTIONS, matchEmotion } from '../emotion';
import personaSchema from '../../../schemas/persona.schema.json';
import { findJsonSyntaxError } from './json-syntax-error';
import { PERSONA_FIELDS, PERSONA_STRUCTURED_FIELDS } from './persona';
import { stageProblems } from './stages';
import type { Persona } from './persona';

export interface PersonaProblem {
  /** `persona.name`, `persona.goals[2]`, or `persona` for the whole value. */
  field: string;
  message: string;
}

export type PersonaValidation = { ok: true; persona: Persona } | { ok: false; problems: PersonaProblem[] };

export { personaSchema as PERSONA_SCHEMA };

let compiled: ValidateFunction | undefined;

/** Compiled once, on first use: ajv compiles to a function, which costs a few milliseconds. */
function validator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true, strict: true });
    compiled = ajv.compile(personaSchema as object);
  }
  return compiled;
}

/** Never throws: the inspector shows every problem at once. */
export function validatePersona(input: unknown): PersonaValidation {
  let value = input;
  if (typeof input === 'string') {
    const parsed = parseJsonText(input);
    if (!parsed.ok) return { ok: false, problems: [{ field: 'persona', message: parsed.message }] };
    value = parsed.value;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      problems: [{ field: 'persona', message: `must be an object with at least a "name"; got ${describe(value)}` }],
    };
  }
  const validate = validator();
  if (validate(value)) {
    // What the schema cannot say: stages in order, not overlapping, of distinct names.
    const staged = stageProblems((value as Record<string, unknown>).stages);
    if (staged.length > 0) return { ok: false, problems: staged };
    return { ok: true, persona: copyPersona(value as Record<string, unknown>) };
  }
  const problems: PersonaProblem[] = [];
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    const problem = toProblem(error, value);
    if (!problem) continue;
    const key = `${problem.field}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  if (problems.length === 0) problems.push({ field: 'persona', message: 'does not match the persona schema' });
  return { ok: false, problems };
}

/**
 * The validated persona (without a `$schema` key), or an `invalid_request` AgentError whose
 * message lists every bad field. Defaults are not filled in here (see normalizePersona), so a
 * saved persona stays as the designer wrote it.
 */
export function parsePersona(input: unknown): Persona {
  const result = validatePersona(input);
  if (result.ok) return result.persona;
  throw new AgentError('invalid_request', formatPersonaProblems(result.problems));
}

export function formatPersonaProblems(problems: readonly PersonaProblem[]): string {
  return problems
    .map((problem) =>
      problem.field === 'persona' && problem.message.startsWith('persona ')
        ? problem.message
        : `${problem.field}: ${problem.message}`,
    )
    .join('; ');
}

function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (source.trim() === '') return { ok: false, message: 'persona is not JSON: the text is empty' };
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch (error) {
    const found = findJsonSyntaxError(source);
    const engineMessage = error instanceof Error ? error.message : String(error);
    if (!found) return { ok: false, message: `persona is not JSON: ${engineMessage}` };
    return {
      ok: false,
      message: `persona is not JSON: ${found.message} at position ${found.position} (line ${found.line}, column ${found.column})`,
    };
  }
}

/** A shallow copy with only the persona's own fields, lists copied so callers cannot share them. */
function copyPersona(value: Record<string, unknown>): Persona {
  const out: Record<string, unknown> = {};
  for (const field of PERSONA_FIELDS) {
    const fieldValue = value[field];
    if (fieldValue === undefined) continue;
    out[field] = Array.isArray(fieldValue) ? fieldValue.slice() : fieldValue;
  }
  // Lists of objects, copied whole: a caller changing a stage must not change the NPC's.
  for (const field of PERSONA_STRUCTURED_FIELDS) {
    if (value[field] !== undefined) out[field] = JSON.parse(JSON.stringify(value[field]));
  }
  return out as unknown as Persona;
}

function fieldName(instancePath: string): string {
  let out = 'persona';
  for (const raw of instancePath.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : `.${part}`;
  }
  return out;
}

function valueAt(root: unknown, instancePath: string): unknown {
  let current = root;
  for (const raw of instancePath.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string': {
      const clipped = value.length > 40 ? `${value.slice(0, 37)}...` : value;
      return JSON.stringify(clipped);
    }
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text (a string)',
  integer: 'a whole number',
  number: 'a number',
  array: 'a list',
  object: 'an object',
  boolean: 'true or false',
};

/** "speaking_style" → speakingStyle: the field a designer probably meant. */
function closestField(name: string): string | undefined {
  const squash = (text: string): string => text.toLowerCase().replace(/[^a-z]/g, '');
  const key = squash(name);
  for (const field of ALL_FIELDS) {
    if (squash(field) === key) return field;
  }
  const aliases: Record<string, string> = {
    style: 'speakingStyle',
    background: 'backstory',
    history: 'backstory',
    secret: 'secrets',
    goal: 'goals',
    facts: 'knowledge',
    emotion: 'defaultEmotion',
    sentences: 'maxSentences',
    greetings: 'greeting',
    fallback: 'fallbackLines',
    fallbacks: 'fallbackLines',
    title: 'role',
    job: 'role',
    traits: 'personality',
    stage: 'stages',
    relationshipstages: 'stages',
    bands: 'stages',
    samples: 'sampleLines',
    examples: 'sampleLines',
    sampleline: 'sampleLines',
    examplelines: 'sampleLines',
  };
  // Own keys only: a field named "constructor" must not find Object.prototype's.
  return Object.prototype.hasOwnProperty.call(aliases, key) ? aliases[key] : undefined;
}

const ALL_FIELDS: readonly string[] = [...PERSONA_FIELDS, ...PERSONA_STRUCTURED_FIELDS];

/** The keys of a stage and of a sample line, for a key that is neither. */
const INNER_FIELDS: Record<string, { what: string; keys: string[]; aliases: Record<string, string> }> = {
  stages: {
    what: 'a stage field',
    keys: ['name', 'from', 'to', 'behaviour', 'greeting', 'secrets'],
    aliases: { behavior: 'behaviour', notes: 'behaviour', min: 'from', max: 'to', below: 'to', secret: 'secrets' },
  },
  sampleLines: {
    what: 'a sample line field',
    keys: ['player', 'npc'],
    aliases: { line: 'npc', reply: 'npc', answer: 'npc', says: 'player', prompt: 'player' },
  },
};

/** `persona.stages[0].behavior`: not a stage field (did you mean "behaviour"?). */
function innerFieldProblem(field: string, extra: string): PersonaProblem | undefined {
  const match = /^persona\.(stages|sampleLines)\[\d+\]$/.exec(field);
  if (!match) return undefined;
  const inner = INNER_FIELDS[match[1]];
  const key = extra.toLowerCase();
  const guess = Object.prototype.hasOwnProperty.call(inner.aliases, key) ? inner.aliases[key] : undefined;
  const hint = guess ? `did you mean "${guess}"?` : `known fields: ${inner.keys.join(', ')}`;
  return { field: `${field}.${extra}`, message: `is not ${inner.what}; ${hint}` };
}

function toProblem(error: ErrorObject, root: unknown): PersonaProblem | undefined {
  const field = fieldName(error.instancePath);
  const value = valueAt(root, error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { field: `${field}.${String(params.missingProperty)}`, message: 'is required' };
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const inner = innerFieldProblem(field, extra);
      if (inner) return inner;
      const guess = closestField(extra);
      const hint = guess ? `did you mean "${guess}"?` : `known fields: ${ALL_FIELDS.join(', ')}`;
      return { field: `${field}.${extra}`, message: `is not a persona field; ${hint}` };
    }
    case 'type': {
      const wanted = String(params.type);
      return { field, message: `must be ${TYPE_WORDS[wanted] ?? wanted}; got ${describe(value)}` };
    }
    case 'minimum':
      return { field, message: `must be at least ${String(params.limit)}; got ${describe(value)}` };
    case 'maximum':
      return { field, message: `must be at most ${String(params.limit)}; got ${describe(value)}` };
    case 'minLength':
    case 'pattern':
      return { field, message: 'must not be empty' };
    case 'maxLength':
      // A long text costs every turn's prompt, and some text functions slow down on it.
      return {
        field,
        message: `must be at most ${String(params.limit)} characters; got ${String((value as string).length)}`,
      };
    case 'maxItems':
      return {
        field,
        message: `must have at most ${String(params.limit)} entries; got ${String((value as unknown[]).length)}`,
      };
    case 'enum': {
      const guess = matchEmotion(value, EMOTIONS, 'neutral');
      const allowed = (params.allowedValues as unknown[]).join(', ');
      const hint = typeof value === 'string' && guess !== 'neutral' ? ` (did you mean "${guess}"?)` : '';
      return { field, message: `must be one of ${allowed}; got ${describe(value)}${hint}` };
    }
    default:
      return { field, message: `${error.message ?? 'is not valid'}; got ${describe(value)}` };
  }
}
