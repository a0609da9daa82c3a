/**
 * Turns the runner's records into the seed-style scores: right first action, the scenario's
 * check, envelopes valid on the first try, repairs, fallbacks, errors and latency p50/p90.
 * Counts only; the times come from whatever clock the runner was given.
 */
import type { ItemRecord, ScenarioRecord } from './runner';
import type { StepTrace } from './probe';

export interface Ratio {
  right: number;
  of: number;
}

export interface Score {
  items: number;
  /** Over the items that have an expected first action; `of` 0 when the scenario has none. */
  firstAction: Ratio;
  checks: Ratio;
  /** Model steps answered validly the first time (not followed by a repair, not failed), of all first tries. */
  validFirstTry: Ratio;
  repairs: number;
  fallbacks: number;
  errors: number;
  modelCalls: number;
  latencyMs: { p50: number; p90: number };
}

export interface ScenarioScore extends Score {
  id: string;
  title: string;
}

/** Nearest-rank percentile of the values (0 for none). */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = values.slice().sort((left, right) => left - right);
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1];
}

/** First tries and how many of them were valid, in one item's steps. */
export function firstTries(steps: readonly StepTrace[]): Ratio {
  let of = 0;
  let right = 0;
  steps.forEach((step, index) => {
    if (step.isRepair) return;
    of++;
    const repaired = steps[index + 1]?.isRepair === true;
    if (!repaired && !step.error) right++;
  });
  return { right, of };
}

export function scoreItems(items: readonly ItemRecord[]): Score {
  const withAction = items.filter((item) => item.expectedFirstAction !== undefined);
  const valid = items.map((item) => firstTries(item.steps));
  const latencies = items.map((item) => item.latencyMs);
  return {
    items: items.length,
    firstAction: {
      right: withAction.filter((item) => item.firstAction === item.expectedFirstAction).length,
      of: withAction.length,
    },
    checks: { right: items.filter((item) => item.pass).length, of: items.length },
    validFirstTry: {
      right: valid.reduce((sum, ratio) => sum + ratio.right, 0),
      of: valid.reduce((sum, ratio) => sum + ratio.of, 0),
    },
    repairs: items.reduce((sum, item) => sum + item.steps.filter((step) => step.isRepair).length, 0),
    fallbacks: items.filter((item) => item.fallback).length,
    errors: items.filter((item) => item.error !== undefined).length,
    modelCalls: items.reduce((sum, item) => sum + item.steps.length, 0),
    latencyMs: { p50: percentile(latencies, 0.5), p90: percentile(latencies, 0.9) },
  };
}

export function scoreScenarios(records: readonly ScenarioRecord[]): { scenarios: ScenarioScore[]; totals: Score } {
  const scenarios = records.map((record) => ({ id: record.id, title: record.title, ...scoreItems(record.items) }));
  const totals = scoreItems(records.reduce<ItemRecord[]>((all, record) => all.concat(record.items), []));
  return { scenarios, totals };
}
