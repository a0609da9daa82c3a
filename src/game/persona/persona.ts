/**
 * A persona: who an NPC is and how it talks. Plain JSON, authored by designers as an asset
 * and validated against schemas/persona.schema.json.
 */
import { isEmotion } from '../emotion';
import type { Emotion } from '../emotion';
import { normalizeStages, type NormalizedStage, type RelationshipStage } from './stages';
import { normalizeSampleLines, type SampleLine } from './sample-lines';

export type { RelationshipStage, SampleLine };

export interface Persona {
  /** Required: what the character is called. */
  name: string;
  role?: string;
  personality?: string;
  speakingStyle?: string;
  backstory?: string;
  goals?: string[];
  knowledge?: string[];
  secrets?: string[];
  /** Shown when the model gives no usable emotion. Default neutral. */
  defaultEmotion?: Emotion;
  /** At most this many short sentences per reply. Default 2, at least 1. */
  maxSentences?: number;
  /** An authored first line the game may show before the player speaks. */
  greeting?: string;
  /** Authored lines used in rotation when the model cannot answer. */
  fallbackLines?: string[];
  /** Named relationship bands (lowest first) with their own behaviour, greeting and secrets. */
  stages?: RelationshipStage[];
  /** A few example exchanges that set the voice, rendered within a token budget. */
  sampleLines?: SampleLine[];
}

/** A persona with every default filled in, text trimmed and empty entries dropped. */
export interface NormalizedPersona {
  name: string;
  role: string;
  personality: string;
  speakingStyle: string;
  backstory: string;
  goals: string[];
  knowledge: string[];
  secrets: string[];
  defaultEmotion: Emotion;
  maxSentences: number;
  greeting: string;
  fallbackLines: string[];
  stages: NormalizedStage[];
  sampleLines: SampleLine[];
}

export const PERSONA_DEFAULTS = {
  defaultEmotion: 'neutral' as Emotion,
  maxSentences: 2,
};

/** Fields in the order the schema lists them (used for messages and the editor). */
export const PERSONA_FIELDS: readonly (keyof Persona)[] = [
  'name',
  'role',
  'personality',
  'speakingStyle',
  'backstory',
  'goals',
  'knowledge',
  'secrets',
  'defaultEmotion',
  'maxSentences',
  'greeting',
  'fallbackLines',
];

/**
 * Persona fields that hold lists of objects (stages, sample lines): part of the persona and its
 * schema, but edited as JSON rather than in the inspector's form of plain fields.
 */
export const PERSONA_STRUCTURED_FIELDS: readonly (keyof Persona)[] = ['stages', 'sampleLines'];

/** Collapses runs of whitespace (newlines from a multi-line inspector field) to one space. */
export function tidyText(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
}

function tidyList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value) {
    const text = tidyText(item);
    if (text) out.push(text);
  }
  return out;
}

/**
 * Fills in the defaults. Expects a persona that passed validation; anything odd left in it
 * (from code that skipped validation) is read as absent rather than trusted.
 */
export function normalizePersona(persona: Persona): NormalizedPersona {
  const sentences = persona.maxSentences;
  return {
    name: tidyText(persona.name),
    role: tidyText(persona.role),
    personality: tidyText(persona.personality),
    speakingStyle: tidyText(persona.speakingStyle),
    backstory: tidyText(persona.backstory),
    goals: tidyList(persona.goals),
    knowledge: tidyList(persona.knowledge),
    secrets: tidyList(persona.secrets),
    defaultEmotion: isEmotion(persona.defaultEmotion) ? persona.defaultEmotion : PERSONA_DEFAULTS.defaultEmotion,
    maxSentences:
      typeof sentences === 'number' && isFinite(sentences)
        ? Math.max(1, Math.floor(sentences))
        : PERSONA_DEFAULTS.maxSentences,
    greeting: tidyText(persona.greeting),
    fallbackLines: tidyList(persona.fallbackLines),
    stages: normalizeStages(persona.stages),
    sampleLines: normalizeSampleLines(persona.sampleLines),
  };
}
