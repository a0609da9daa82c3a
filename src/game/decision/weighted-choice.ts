/**
 * A decision without a model: where a shipped build has no model on the player's device, a
 * character still picks one of the game's options, by the weights and conditions the designer
 * gave them. An option whose conditions on the request's facts do not hold is not picked (when
 * none holds, every option may be); among the rest, an option is picked with a chance in
 * proportion to its weight (default 1; 0 never, unless every weight is 0: then the first).
 */
import { AgentError } from '../../contract/errors';
import type { WorldCondition } from '../bank/line-bank';

/** What an option's conditions read: a dot path in the request's facts → a value or a range. */
export type OptionConditions = Record<string, WorldCondition>;

export interface WeightedOption {
  id: string;
  /** How likely it is picked without a model, relative to the others (≥ 0, default 1). */
  weight?: number;
  /** Picked without a model only while these hold on the facts (`{"enemy.hp": {"max": 30}}`). */
  when?: OptionConditions;
}

/** Checks one option's weight and conditions; throws invalid_request naming them. */
export function checkWeighting(option: WeightedOption, where: string): void {
  if (
    option.weight !== undefined &&
    !(typeof option.weight === 'number' && Number.isFinite(option.weight) && option.weight >= 0)
  )
    throw new AgentError(
      'invalid_request',
      `${where}.weight must be a number ≥ 0; got ${JSON.stringify(option.weight)}.`,
    );
  if (option.when === undefined) return;
  if (!option.when || typeof option.when !== 'object' || Array.isArray(option.when))
    throw new AgentError(
      'invalid_request',
      `${where}.when must be an object of fact paths and values or {"min", "max"}.`,
    );
  for (const [path, condition] of Object.entries(option.when)) {
    const range = condition !== null && typeof condition === 'object';
    const bad = range
      ? Object.keys(condition).some((key) => key !== 'min' && key !== 'max') ||
        Object.values(condition).some((bound) => typeof bound !== 'number')
      : !['string', 'number', 'boolean'].includes(typeof condition) && condition !== null;
    if (bad)
      throw new AgentError(
        'invalid_request',
        `${where}.when["${path}"] must be a value, or {"min": n, "max": n}; got ${JSON.stringify(condition)}.`,
      );
  }
}

function valueAt(facts: unknown, path: string): unknown {
  let value = facts;
  for (const key of path.split('.')) {
    if (!value || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function holds(when: OptionConditions | undefined, facts: unknown): boolean {
  if (!when) return true;
  return Object.entries(when).every(([path, condition]) => {
    const value = valueAt(facts, path);
    if (condition === null || typeof condition !== 'object') return value === condition;
    if (typeof value !== 'number') return false;
    return (
      (condition.min === undefined || value >= condition.min) && (condition.max === undefined || value <= condition.max)
    );
  });
}

/** The picked option's id and its chance among those that could be picked (0…1). */
export function chooseByWeight(
  options: readonly WeightedOption[],
  { facts, random = Math.random }: { facts?: unknown; random?: () => number },
): { id: string; chance: number } {
  const fitting = options.filter((option) => holds(option.when, facts));
  const pool = fitting.length > 0 ? fitting : options;
  const weights = pool.map((option) => option.weight ?? 1);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (total === 0) return { id: pool[0].id.trim(), chance: 1 / pool.length };
  let left = Math.min(Math.max(random(), 0), 0.999999999) * total;
  for (let index = 0; index < pool.length; index++) {
    left -= weights[index];
    if (left < 0) return { id: pool[index].id.trim(), chance: weights[index] / total };
  }
  const last = pool.length - 1;
  return { id: pool[last].id.trim(), chance: weights[last] / total };
}
