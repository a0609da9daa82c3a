/**
 * The persona inspector's form as plain data: persona JSON → form fields → persona JSON, and
 * the validation messages grouped by the field they belong to. No DOM here.
 */
import { PERSONA_FIELDS, PERSONA_STRUCTURED_FIELDS } from '../../src/game/persona';
import { validatePersona } from '../../src/game/persona/validate-persona';
import type { PersonaProblem } from '../../src/game/persona';
import { EMOTIONS } from '../../src/game/emotion';
import { setOwnKey } from '../../src/core/json';

export const TEXT_FIELDS = ['name', 'role', 'personality', 'speakingStyle', 'backstory', 'greeting'] as const;
export const LIST_FIELDS = ['goals', 'knowledge', 'secrets', 'fallbackLines'] as const;
/** Multi-line text fields (the rest are one-line inputs). */
export const LONG_TEXT_FIELDS: readonly TextField[] = ['personality', 'speakingStyle', 'backstory'];
export const EMOTION_CHOICES: readonly string[] = EMOTIONS;

export type TextField = (typeof TEXT_FIELDS)[number];
export type ListField = (typeof LIST_FIELDS)[number];
export type FormField = TextField | ListField | 'defaultEmotion' | 'maxSentences';

export interface PersonaForm {
  name: string;
  role: string;
  personality: string;
  speakingStyle: string;
  backstory: string;
  greeting: string;
  goals: string[];
  knowledge: string[];
  secrets: string[];
  fallbackLines: string[];
  /** '' = the default (neutral). */
  defaultEmotion: string;
  /** As typed; '' = the default (2). */
  maxSentences: string;
  /** The file's `$schema` marker, kept so a plain `.json` persona stays recognisable. */
  schemaMarker?: string;
  /** Keys that are not persona fields: kept on save (so nothing is lost) and reported. */
  unknown: Record<string, unknown>;
  /**
   * Persona fields the form has no inputs for (relationship stages, sample lines: lists of
   * objects), kept as the file has them and written back in the schema's order.
   */
  structured?: Record<string, unknown>;
  /**
   * What the file holds that the form cannot show, so Save would drop or change it (`backstory:
   * an object`, `goals[0]: an object`, `role: the number 3, saved as text`). Save asks first.
   */
  unshown?: string[];
}

export function emptyForm(): PersonaForm {
  return {
    name: '',
    role: '',
    personality: '',
    speakingStyle: '',
    backstory: '',
    greeting: '',
    goals: [],
    knowledge: [],
    secrets: [],
    fallbackLines: [],
    defaultEmotion: '',
    maxSentences: '',
    unknown: {},
  };
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

function listOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(textOf);
  // A single string where a list belongs: keep it as the list's one entry.
  return typeof value === 'string' && value.trim() ? [value] : [];
}

/** The form for a persona value (anything: a file being fixed may have wrong types). */
export function formFromPersona(value: unknown): PersonaForm {
  const form = emptyForm();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return form;
  const fields = value as Record<string, unknown>;
  for (const field of TEXT_FIELDS) form[field] = textOf(fields[field]);
  for (const field of LIST_FIELDS) form[field] = listOf(fields[field]);
  form.defaultEmotion = textOf(fields.defaultEmotion);
  form.maxSentences = textOf(fields.maxSentences);
  if (typeof fields.$schema === 'string') form.schemaMarker = fields.$schema;
  const known = new Set<string>(['$schema', ...PERSONA_FIELDS, ...PERSONA_STRUCTURED_FIELDS]);
  for (const key of Object.keys(fields)) if (!known.has(key)) setOwnKey(form.unknown, key, fields[key]);
  for (const key of PERSONA_STRUCTURED_FIELDS) {
    if (fields[key] !== undefined) (form.structured ??= {})[key] = fields[key];
  }
  form.unshown = unshownValues(fields);
  return form;
}

/** A value as the designer reads it in a message. */
function described(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean')
    return `${typeof value === 'number' ? 'the number' : ''} ${String(value)}`.trim();
  return typeof value;
}

/** The values of persona fields that the form's inputs cannot hold as they are. */
function unshownValues(fields: Record<string, unknown>): string[] {
  const out: string[] = [];
  const asText = (field: string, value: unknown) => {
    if (value === undefined || typeof value === 'string') return;
    out.push(
      typeof value === 'number' || typeof value === 'boolean'
        ? `${field}: ${described(value)}, saved as text`
        : `${field}: ${described(value)}, dropped`,
    );
  };
  for (const field of TEXT_FIELDS) asText(field, fields[field]);
  asText('defaultEmotion', fields.defaultEmotion);
  const sentences = fields.maxSentences;
  if (typeof sentences === 'boolean') out.push(`maxSentences: ${described(sentences)}, saved as text`);
  else if (sentences !== undefined && typeof sentences !== 'number' && typeof sentences !== 'string')
    out.push(`maxSentences: ${described(sentences)}, dropped`);
  if (fields.$schema !== undefined && typeof fields.$schema !== 'string')
    out.push(`$schema: ${described(fields.$schema)}, dropped`);
  for (const field of LIST_FIELDS) {
    const value = fields[field];
    if (value === undefined || typeof value === 'string') continue;
    if (!Array.isArray(value)) {
      out.push(`${field}: ${described(value)}, dropped`);
      continue;
    }
    value.forEach((entry, index) => {
      if (typeof entry === 'string' && !entry.trim()) out.push(`${field}[${index}]: an empty entry, dropped`);
      else asText(`${field}[${index}]`, entry);
    });
  }
  return out;
}

/** A whole number as typed stays a number; anything else stays text so validation names it. */
function sentencesValue(typed: string): number | string | undefined {
  const trimmed = typed.trim();
  if (trimmed === '') return undefined;
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * The persona JSON for a form: `$schema` first, then the fields in the schema's order, then any
 * unknown keys. Empty optional fields and blank list entries are left out; the name is always
 * written (an empty name is reported, not hidden).
 */
export function personaFromForm(form: PersonaForm): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (form.schemaMarker !== undefined) out.$schema = form.schemaMarker;
  for (const field of PERSONA_FIELDS) {
    if (field === 'name') {
      out.name = form.name.trim();
    } else if ((TEXT_FIELDS as readonly string[]).indexOf(field) >= 0) {
      const text = form[field as TextField].trim();
      if (text) out[field] = text;
    } else if ((LIST_FIELDS as readonly string[]).indexOf(field) >= 0) {
      const items = form[field as ListField].map((item) => item.trim()).filter((item) => item !== '');
      if (items.length > 0) out[field] = items;
    } else if (field === 'defaultEmotion') {
      if (form.defaultEmotion.trim()) out.defaultEmotion = form.defaultEmotion.trim();
    } else if (field === 'maxSentences') {
      const sentences = sentencesValue(form.maxSentences);
      if (sentences !== undefined) out.maxSentences = sentences;
    }
  }
  for (const key of PERSONA_STRUCTURED_FIELDS) {
    if (form.structured && form.structured[key] !== undefined) out[key] = form.structured[key];
  }
  for (const key of Object.keys(form.unknown)) setOwnKey(out, key, form.unknown[key]);
  return out;
}

/** Whether `value` can be written back as JSON at all (a value nested thousands deep cannot). */
export function canWriteBack(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

/** What the inspector saves: two-space JSON with a final newline. */
export function personaJsonText(form: PersonaForm): string {
  return `${JSON.stringify(personaFromForm(form), null, 2)}\n`;
}

/** Problems per form field; `general` holds those about the whole persona or unknown keys. */
export type FieldProblems = Partial<Record<FormField | 'general', PersonaProblem[]>>;

/** The form field a problem's path belongs to (`persona.goals[2]` → goals). */
export function fieldOfProblem(problem: PersonaProblem): FormField | 'general' {
  const match = /^persona\.([A-Za-z$_][\w$]*)/.exec(problem.field);
  if (!match) return 'general';
  const key = match[1];
  return (PERSONA_FIELDS as readonly string[]).indexOf(key) >= 0 ? (key as FormField) : 'general';
}

export interface FormValidation {
  ok: boolean;
  problems: PersonaProblem[];
  byField: FieldProblems;
}

export function validateForm(form: PersonaForm): FormValidation {
  const result = validatePersona(personaFromForm(form));
  const problems = result.ok ? [] : result.problems;
  const byField: FieldProblems = {};
  for (const problem of problems) {
    const key = fieldOfProblem(problem);
    (byField[key] ??= []).push(problem);
  }
  return { ok: result.ok, problems, byField };
}

/** Removes the keys that are not persona fields (the inspector's "remove unknown fields"). */
export function withoutUnknownFields(form: PersonaForm): PersonaForm {
  return { ...form, unknown: {} };
}

/** Index of a list entry `persona.goals[2]` points at, or -1. */
export function listIndexOfProblem(problem: PersonaProblem): number {
  const match = /^persona\.\w+\[(\d+)\]/.exec(problem.field);
  return match ? Number(match[1]) : -1;
}
