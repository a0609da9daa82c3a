/**
 * What an NPC remembers about the player across turns: facts (oldest first), a relationship
 * from −100 (hostile) to 100 (trusting), and a summary of earlier conversation. Saved as
 * plain JSON in the NPC's save state.
 */
import { AgentError } from '../../contract/errors';

export interface NPCMemoryState {
  facts: string[];
  relationship: number;
  summary: string;
}

export type Attitude = 'hostile' | 'unfriendly' | 'neutral' | 'friendly' | 'trusting';

export const RELATIONSHIP_MIN = -100;
export const RELATIONSHIP_MAX = 100;
export const DEFAULT_MAX_FACTS = 12;

export function emptyMemory(): NPCMemoryState {
  return { facts: [], relationship: 0, summary: '' };
}

/** A whole number in −100…100; anything not a finite number is 0. */
export function clampRelationship(value: number): number {
  if (typeof value !== 'number' || !isFinite(value)) return 0;
  return Math.max(RELATIONSHIP_MIN, Math.min(RELATIONSHIP_MAX, Math.round(value)));
}

/** < −60 hostile; < −20 unfriendly; ≤ 20 neutral; ≤ 60 friendly; otherwise trusting. */
export function attitude(relationship: number): Attitude {
  const clamped = clampRelationship(relationship);
  if (clamped < -60) return 'hostile';
  if (clamped < -20) return 'unfriendly';
  if (clamped <= 20) return 'neutral';
  if (clamped <= 60) return 'friendly';
  return 'trusting';
}

/** Collapses whitespace; the form a fact is stored in. */
/** A fact longer than this is cut: memory is re-sent every turn and the prompt budget is small. */
export const MAX_FACT_LENGTH = 200;

/** The fact within MAX_FACT_LENGTH, marked with "..." where it was cut. */
export function cutFact(fact: string): string {
  return fact.length > MAX_FACT_LENGTH ? `${fact.slice(0, MAX_FACT_LENGTH - 3).trimEnd()}...` : fact;
}

export function tidyFact(fact: unknown): string {
  return typeof fact === 'string' ? fact.replace(/\s+/g, ' ').trim() : '';
}

/** Two facts are the same when they differ only in case, punctuation and spacing. */
export function factKey(fact: string): string {
  return fact
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function knowsFact(facts: readonly string[], fact: string): boolean {
  const key = factKey(fact);
  if (!key) return false;
  for (const known of facts) {
    if (factKey(known) === key) return true;
  }
  return false;
}

/**
 * Adds a fact unless it is already known, then keeps the newest `maxFacts` (the oldest go first).
 * Returns a new list; the input is not changed.
 */
export function addFact(
  facts: readonly string[],
  fact: string,
  maxFacts: number = DEFAULT_MAX_FACTS,
): { facts: string[]; added: boolean } {
  const tidy = tidyFact(fact);
  const limit = Math.max(0, Math.floor(isFinite(maxFacts) ? maxFacts : DEFAULT_MAX_FACTS));
  const added = factKey(tidy) !== '' && !knowsFact(facts, tidy);
  const next = added ? facts.concat([tidy]) : facts.slice();
  return { facts: next.length > limit ? next.slice(next.length - limit) : next, added };
}

/**
 * Reads a saved memory leniently enough to survive an older save (missing keys become
 * defaults) but rejects values of the wrong kind with an `invalid_request` naming the key.
 */
export function parseMemoryState(value: unknown): NPCMemoryState {
  if (value === undefined || value === null) return emptyMemory();
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new AgentError('invalid_request', 'memory: must be an object with facts, relationship and summary.');
  }
  const fields = value as Record<string, unknown>;
  const facts = fields.facts ?? [];
  if (!Array.isArray(facts) || facts.some((fact) => typeof fact !== 'string')) {
    throw new AgentError('invalid_request', 'memory.facts: must be a list of strings.');
  }
  const relationship = fields.relationship ?? 0;
  if (typeof relationship !== 'number' || !isFinite(relationship)) {
    throw new AgentError(
      'invalid_request',
      `memory.relationship: must be a number from -100 to 100; got ${JSON.stringify(relationship)}.`,
    );
  }
  const summary = fields.summary ?? '';
  if (typeof summary !== 'string') {
    throw new AgentError('invalid_request', 'memory.summary: must be a string.');
  }
  const kept: string[] = [];
  for (const fact of facts as string[]) {
    // A save's facts obey the same length as the remember_fact tool's (a save may be edited by hand).
    const tidy = cutFact(tidyFact(fact));
    if (factKey(tidy) && !knowsFact(kept, tidy)) kept.push(tidy);
  }
  return { facts: kept, relationship: clampRelationship(relationship), summary: summary.trim() };
}

/** A mutable memory for one NPC. Every change keeps the state valid (clamped, de-duplicated). */
export class NPCMemory {
  private state: NPCMemoryState;

  constructor(initial?: Partial<NPCMemoryState>) {
    this.state = parseMemoryState(initial ?? emptyMemory());
  }

  static from(state: unknown): NPCMemory {
    return new NPCMemory(parseMemoryState(state));
  }

  get facts(): readonly string[] {
    return this.state.facts;
  }

  get relationship(): number {
    return this.state.relationship;
  }

  set relationship(value: number) {
    this.state = { ...this.state, relationship: clampRelationship(value) };
  }

  get summary(): string {
    return this.state.summary;
  }

  set summary(value: string) {
    this.state = { ...this.state, summary: typeof value === 'string' ? value.trim() : '' };
  }

  get attitude(): Attitude {
    return attitude(this.state.relationship);
  }

  /** True when the fact was new; the oldest facts beyond `maxFacts` are dropped either way. */
  remember(fact: string, maxFacts: number = DEFAULT_MAX_FACTS): boolean {
    const result = addFact(this.state.facts, fact, maxFacts);
    this.state = { ...this.state, facts: result.facts };
    return result.added;
  }

  knows(fact: string): boolean {
    return knowsFact(this.state.facts, fact);
  }

  /** Adds `delta` and returns the clamped relationship. */
  adjustRelationship(delta: number): number {
    this.relationship = this.state.relationship + (isFinite(delta) ? delta : 0);
    return this.state.relationship;
  }

  /** Replaces the whole state (validated like a saved memory). */
  replace(state: NPCMemoryState): void {
    this.state = parseMemoryState(state);
  }

  forget(): void {
    this.state = emptyMemory();
  }

  /** A copy, safe to store. */
  snapshot(): NPCMemoryState {
    return { facts: this.state.facts.slice(), relationship: this.state.relationship, summary: this.state.summary };
  }

  toJSON(): NPCMemoryState {
    return this.snapshot();
  }
}
