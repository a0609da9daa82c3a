/**
 * `remember_fact` and `change_relationship`: the model's way to change what the NPC remembers.
 * Both only stage their change (see MemoryStage); the NPC commits it when the turn succeeds.
 */
import { AgentError } from '../../contract/errors';
import { JsonSchema } from '../../core/schema';
import { AgentTool, ToolOutput } from '../../core/tools';
import { attitude, cutFact } from './npc-memory';
import type { NPCMemoryState } from './npc-memory';
import type { MemoryStage } from './memory-stage';

export const REMEMBER_FACT_TOOL = 'remember_fact';
export const CHANGE_RELATIONSHIP_TOOL = 'change_relationship';
export const MEMORY_TOOL_NAMES: readonly string[] = [REMEMBER_FACT_TOOL, CHANGE_RELATIONSHIP_TOOL];

export const DEFAULT_MAX_RELATIONSHIP_CHANGE = 10;

export interface MemoryToolOptions {
  facts: boolean;
  relationship: boolean;
  /** Largest change one call may make, either way. Default 10. */
  maxRelationshipChange?: number;
}

/** Which memory tools an NPC has. */
export interface MemoryToolSelection {
  facts: boolean;
  relationship: boolean;
}

export function memoryTools(
  stage: MemoryStage,
  currentMemory: () => NPCMemoryState,
  options: MemoryToolOptions,
): AgentTool[] {
  const tools: AgentTool[] = [];
  if (options.facts) tools.push(rememberFactTool(stage, currentMemory));
  if (options.relationship) {
    const limitOption = options.maxRelationshipChange;
    const limit =
      typeof limitOption === 'number' && isFinite(limitOption) && limitOption >= 0
        ? Math.floor(limitOption)
        : DEFAULT_MAX_RELATIONSHIP_CHANGE;
    tools.push(changeRelationshipTool(stage, currentMemory, limit));
  }
  return tools;
}

function rememberFactTool(stage: MemoryStage, currentMemory: () => NPCMemoryState): AgentTool {
  return AgentTool.local<{ fact?: unknown }>(
    {
      name: REMEMBER_FACT_TOOL,
      description: 'Remember a fact about the player.',
      sideEffect: true,
      parameters: JsonSchema.obj({
        fact: JsonSchema.string({ description: 'e.g. "Their name is Sam."' }),
      }),
    },
    (args) => {
      const raw = typeof args.fact === 'string' ? args.fact : typeof args.fact === 'number' ? String(args.fact) : '';
      const fact = cutFact(raw);
      const result = stage.stageFact(fact, currentMemory());
      if (result === 'empty') return ToolOutput.error('The fact is empty; give one short sentence to remember.');
      return result === 'added' ? 'Remembered.' : 'You already know that.';
    },
  );
}

/** Reads "5", "+5", "-3" or 5; undefined for anything else. */
function readDelta(value: unknown): number | undefined {
  if (typeof value === 'number') return isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*[+-]?\d+(?:\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

function changeRelationshipTool(stage: MemoryStage, currentMemory: () => NPCMemoryState, limit: number): AgentTool {
  return AgentTool.local<{ reason?: unknown; delta?: unknown }>(
    {
      name: CHANGE_RELATIONSHIP_TOOL,
      description: 'When the player helps, pleases, insults or hurts you.',
      sideEffect: true,
      parameters: JsonSchema.obj({
        // The range is described, not enforced: an overshoot is clamped here instead of sent back for repair.
        delta: JsonSchema.integer({ description: `-${limit} worse to ${limit} better` }),
        // The name says what it is: a note would cost 5 tokens in every prompt that lists the tool.
        reason: JsonSchema.string(),
      }),
    },
    (args) => {
      const delta = readDelta(args.delta);
      if (delta === undefined) {
        return ToolOutput.error(`delta must be a whole number from -${limit} to ${limit}.`);
      }
      const clamped = Math.max(-limit, Math.min(limit, Math.round(delta)));
      stage.stageRelationship(clamped, typeof args.reason === 'string' ? args.reason : '');
      const after = stage.preview(currentMemory()).relationship;
      return `You now feel ${attitude(after)} toward the player (${after}).`;
    },
  );
}

const SELECTION_WORDS: Record<string, MemoryToolSelection> = {
  all: { facts: true, relationship: true },
  both: { facts: true, relationship: true },
  none: { facts: false, relationship: false },
  remember_fact: { facts: true, relationship: false },
  rememberfact: { facts: true, relationship: false },
  facts: { facts: true, relationship: false },
  change_relationship: { facts: false, relationship: true },
  changerelationship: { facts: false, relationship: true },
  relationship: { facts: false, relationship: true },
};

/**
 * Reads the NPC's `memoryTools` option as a game or persona file writes it: true/false,
 * "all", "none", a tool name (snake or camel case), a list of names, the bit mask 1 (facts),
 * 2 (relationship) or 3, or `{ facts, relationship }`. Anything else is an `invalid_request`.
 */
export function parseMemoryToolSelection(value: unknown): MemoryToolSelection {
  const bad = (): never => {
    throw new AgentError(
      'invalid_request',
      `memoryTools: expected true, false, "all", "none", "${REMEMBER_FACT_TOOL}", "${CHANGE_RELATIONSHIP_TOOL}", a list of those, 0-3 or { facts, relationship }; got ${JSON.stringify(value)}.`,
    );
  };
  if (value === undefined || value === null || value === false) return { facts: false, relationship: false };
  if (value === true) return { facts: true, relationship: true };
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0 || value > 3) return bad();
    return { facts: (value & 1) !== 0, relationship: (value & 2) !== 0 };
  }
  if (typeof value === 'string') {
    const found = SELECTION_WORDS[value.trim().toLowerCase()];
    return found ? { ...found } : bad();
  }
  if (Array.isArray(value)) {
    const out: MemoryToolSelection = { facts: false, relationship: false };
    for (const item of value) {
      const one = typeof item === 'string' ? parseMemoryToolSelection(item) : bad();
      out.facts = out.facts || one.facts;
      out.relationship = out.relationship || one.relationship;
    }
    return out;
  }
  if (typeof value === 'object') {
    const fields = value as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      if (key !== 'facts' && key !== 'relationship') return bad();
    }
    if (
      (fields.facts !== undefined && typeof fields.facts !== 'boolean') ||
      (fields.relationship !== undefined && typeof fields.relationship !== 'boolean')
    )
      return bad();
    return { facts: fields.facts === true, relationship: fields.relationship === true };
  }
  return bad();
}
