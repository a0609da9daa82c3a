/**
 * The JSON report `--report` writes: the target, the scores (as the table shows them) and every
 * run's details — each item's input, first action, check, output, model steps with the model's
 * own words, and time — so a surprising score can be read back to the answers behind it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ScenarioRecord, ItemRecord } from './runner';
import { scoreScenarios, type Score, type ScenarioScore } from './scoring';

export const REPORT_FORMAT = 'oam-eval-report';

export interface EvalTarget {
  kind: 'openai-compatible' | 'chrome';
  /** The server's URL, or the browser's path. */
  where: string;
  model: string;
}

export interface EvalReport {
  format: typeof REPORT_FORMAT;
  version: 1;
  startedAt: string;
  target: EvalTarget;
  runs: number;
  scenarios: Array<ScenarioScore & { rule: string; details: ItemRecord[] }>;
  totals: Score;
}

export function buildReport(input: {
  target: EvalTarget;
  runs: number;
  startedAt: string;
  records: readonly ScenarioRecord[];
}): EvalReport {
  const { scenarios, totals } = scoreScenarios(input.records);
  return {
    format: REPORT_FORMAT,
    version: 1,
    startedAt: input.startedAt,
    target: input.target,
    runs: input.runs,
    scenarios: scenarios.map((score, index) => ({
      ...score,
      rule: input.records[index].checks,
      details: input.records[index].items,
    })),
    totals,
  };
}

export function writeReport(path: string, report: EvalReport): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}
