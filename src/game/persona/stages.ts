/**
 * Relationship stages: named bands of the NPC's relationship with the player (−100…100), lowest
 * first, each with its own behaviour note, greeting and secrets. The NPC renders only the current
 * stage into its prompt, so the prefix stays byte-stable while the relationship moves inside a
 * band and changes once, when it crosses into the next.
 *
 *     "stages": [
 *       { "name": "stranger", "to": 9, "behaviour": "Curt; answers in few words." },
 *       { "name": "friend", "from": 10, "to": 49, "greeting": "Back again? Good." },
 *       { "name": "confidant", "from": 50, "secrets": ["She forged the duke's seal."] }
 *     ]
 */
import { RELATIONSHIP_MAX, RELATIONSHIP_MIN } from '../memory/npc-memory';

export interface RelationshipStage {
  /** What the band is called ("stranger", "friend"); unique within the persona. */
  name: string;
  /** The lowest relationship in the band, inclusive (default −100). */
  from?: number;
  /** The highest relationship in the band, inclusive (default 100). */
  to?: number;
  /** How the character treats the player at this stage, in a sentence or two. */
  behaviour?: string;
  /** The authored first line at this stage (instead of the persona's greeting). */
  greeting?: string;
  /** Told from this stage up, in the turn's note (never in the cached prefix). */
  secrets?: string[];
}

/** A stage with its bounds filled in and its texts tidied. */
export interface NormalizedStage {
  name: string;
  from: number;
  to: number;
  behaviour: string;
  greeting: string;
  secrets: string[];
}

export interface StageProblem {
  /** `persona.stages[1].from` */
  field: string;
  message: string;
}

function tidy(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
}

function bound(value: unknown, byDefault: number): number {
  return typeof value === 'number' && isFinite(value) ? value : byDefault;
}

/** The stages as the NPC reads them (anything odd left by code that skipped validation reads as absent). */
export function normalizeStages(value: unknown): NormalizedStage[] {
  if (!Array.isArray(value)) return [];
  const out: NormalizedStage[] = [];
  for (const entry of value) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) continue;
    const stage = entry as Record<string, unknown>;
    const name = tidy(stage.name);
    if (!name) continue;
    out.push({
      name,
      from: bound(stage.from, RELATIONSHIP_MIN),
      to: bound(stage.to, RELATIONSHIP_MAX),
      behaviour: tidy(stage.behaviour),
      greeting: tidy(stage.greeting),
      secrets: Array.isArray(stage.secrets) ? stage.secrets.map(tidy).filter(Boolean) : [],
    });
  }
  return out;
}

/**
 * What the schema cannot say about a persona's stages: each band's `from` at most its `to`, the
 * bands listed from the lowest up, no two overlapping, no two of one name. Gaps are allowed: a
 * relationship in no band has no stage (the persona as without stages).
 */
export function stageProblems(value: unknown): StageProblem[] {
  const stages = Array.isArray(value) ? value : [];
  const problems: StageProblem[] = [];
  const seen = new Map<string, number>();
  let previous: { index: number; name: string; from: number; to: number } | undefined;
  stages.forEach((entry, index) => {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return;
    const stage = entry as Record<string, unknown>;
    const where = `persona.stages[${index}]`;
    const name = tidy(stage.name);
    const from = bound(stage.from, RELATIONSHIP_MIN);
    const to = bound(stage.to, RELATIONSHIP_MAX);
    const key = name.toLowerCase();
    if (name && seen.has(key))
      problems.push({
        field: `${where}.name`,
        message: `is already the name of stages[${seen.get(key)}]; give every stage its own name`,
      });
    if (name && !seen.has(key)) seen.set(key, index);
    if (from > to) {
      problems.push({ field: `${where}.to`, message: `must be at least its "from" (${from}); got ${to}` });
      return;
    }
    if (previous) {
      const label = `stages[${previous.index}] (${JSON.stringify(previous.name)}, ${previous.from} to ${previous.to})`;
      if (from < previous.from)
        problems.push({
          field: `${where}.from`,
          message: `${from} is below ${label}: list the stages from the lowest relationship up`,
        });
      else if (from <= previous.to)
        problems.push({
          field: `${where}.from`,
          message: `${from} overlaps ${label}: start this stage at ${previous.to + 1} or end that one lower`,
        });
    }
    previous = { index, name, from, to };
  });
  return problems;
}

/** The index of the stage a relationship falls in, or -1 when it is in none (or there are none). */
export function stageIndexAt(stages: readonly NormalizedStage[], relationship: number): number {
  const value = relationshipValue(relationship);
  for (let index = 0; index < stages.length; index++) {
    if (value >= stages[index].from && value <= stages[index].to) return index;
  }
  return -1;
}

function relationshipValue(relationship: number): number {
  return typeof relationship === 'number' && isFinite(relationship) ? Math.round(relationship) : 0;
}

/**
 * The secrets of every stage the relationship has reached (its `from` at or below it): a stage's
 * secrets are told from that stage up, and a secret told to a friend stays told to a confidant.
 */
export function stageSecretsReached(stages: readonly NormalizedStage[], relationship: number): string[] {
  const value = relationshipValue(relationship);
  const out: string[] = [];
  for (const stage of stages) if (stage.from <= value) out.push(...stage.secrets);
  return out;
}

/** The stage secrets not told yet at this relationship (for checks that no locked secret is said). */
export function stageSecretsLocked(stages: readonly NormalizedStage[], relationship: number): string[] {
  const value = relationshipValue(relationship);
  const out: string[] = [];
  for (const stage of stages) if (stage.from > value) out.push(...stage.secrets);
  return out;
}

/** Ends a sentence with a full stop unless it already ends with punctuation. */
function sentence(text: string): string {
  return /[.!?…]["'”’)\]]*$/.test(text) ? text : `${text}.`;
}

/**
 * The current stage's line of the prompt: its name and its behaviour note (the greeting and the
 * secrets cost nothing here; secrets go in the turn's note once unlocked).
 */
export function renderStage(stage: NormalizedStage | undefined): string {
  if (!stage) return '';
  const note = stage.behaviour ? ` ${sentence(stage.behaviour)}` : '';
  return `Your standing with the player: ${stage.name}.${note}`;
}
