/**
 * Memory changes made during one turn. The memory tools write here, not to the NPC's memory,
 * so a turn that fails, falls back or is cancelled leaves the memory exactly as it was: the
 * NPC calls `commit` only when the turn succeeds and `discard` otherwise.
 */
import { addFact, clampRelationship, DEFAULT_MAX_FACTS, knowsFact, tidyFact, NPCMemory } from './npc-memory';
import type { NPCMemoryState } from './npc-memory';

export interface RelationshipChange {
  reason: string;
  delta: number;
}

export interface MemoryStageOptions {
  /** Facts kept after a commit; the oldest go first. Default 12. */
  maxFacts?: number;
}

export class MemoryStage {
  private stagedFacts: string[] = [];
  private stagedChanges: RelationshipChange[] = [];
  readonly maxFacts: number;

  constructor(options: MemoryStageOptions = {}) {
    const max = options.maxFacts;
    this.maxFacts = typeof max === 'number' && isFinite(max) ? Math.max(0, Math.floor(max)) : DEFAULT_MAX_FACTS;
  }

  get facts(): readonly string[] {
    return this.stagedFacts;
  }

  get relationshipChanges(): readonly RelationshipChange[] {
    return this.stagedChanges;
  }

  /** The sum of the staged deltas. */
  get relationshipDelta(): number {
    let total = 0;
    for (const change of this.stagedChanges) total += change.delta;
    return total;
  }

  get isEmpty(): boolean {
    return this.stagedFacts.length === 0 && this.stagedChanges.length === 0;
  }

  /**
   * Stages a fact. `known` when the memory or this turn already has it (ignoring case and
   * punctuation), `empty` when there is no text.
   */
  stageFact(fact: string, current: NPCMemoryState): 'added' | 'known' | 'empty' {
    const tidy = tidyFact(fact);
    if (!/[\p{L}\p{N}]/u.test(tidy)) return 'empty';
    if (knowsFact(current.facts, tidy) || knowsFact(this.stagedFacts, tidy)) return 'known';
    this.stagedFacts.push(tidy);
    return 'added';
  }

  /** Stages a (whole-number) relationship change; the caller clamps it to its limit. */
  stageRelationship(delta: number, reason: string): void {
    const whole = isFinite(delta) ? Math.round(delta) : 0;
    this.stagedChanges.push({ reason: reason.trim(), delta: whole });
  }

  /** The memory as it would be after a commit, without changing anything. */
  preview(current: NPCMemoryState): NPCMemoryState {
    let facts = current.facts.slice();
    for (const fact of this.stagedFacts) facts = addFact(facts, fact, Number.MAX_SAFE_INTEGER).facts;
    if (facts.length > this.maxFacts) facts = facts.slice(facts.length - this.maxFacts);
    return {
      facts,
      relationship: clampRelationship(current.relationship + this.relationshipDelta),
      summary: current.summary,
    };
  }

  /**
   * Applies the staged changes (facts capped at maxFacts, relationship clamped) and empties
   * the stage. An NPCMemory is updated in place; a plain state gives back the new state.
   */
  commit(memory: NPCMemory): NPCMemory;
  commit(memory: NPCMemoryState): NPCMemoryState;
  commit(memory: NPCMemory | NPCMemoryState): NPCMemory | NPCMemoryState {
    if (memory instanceof NPCMemory) {
      memory.replace(this.preview(memory.snapshot()));
      this.discard();
      return memory;
    }
    const next = this.preview(memory);
    this.discard();
    return next;
  }

  /** Drops everything staged this turn. */
  discard(): void {
    this.stagedFacts = [];
    this.stagedChanges = [];
  }
}
