/**
 * The score table printed to stdout, one row per scenario and a totals row, in the shape of the
 * seed's eval tables: k/n with a percentage, plain counts, and latency p50/p90 in seconds.
 */
import type { Ratio, Score, ScenarioScore } from './scoring';

const COLUMNS = [
  'scenario',
  'items',
  'right first action',
  'check',
  'valid first try',
  'repairs',
  'fallbacks',
  'errors',
  'calls',
  'p50',
  'p90',
];

export function ratioText(ratio: Ratio): string {
  if (ratio.of === 0) return '-';
  return `${ratio.right}/${ratio.of} (${Math.round((100 * ratio.right) / ratio.of)}%)`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function cells(name: string, score: Score): string[] {
  return [
    name,
    String(score.items),
    ratioText(score.firstAction),
    ratioText(score.checks),
    ratioText(score.validFirstTry),
    String(score.repairs),
    String(score.fallbacks),
    String(score.errors),
    String(score.modelCalls),
    seconds(score.latencyMs.p50),
    seconds(score.latencyMs.p90),
  ];
}

/** The table as lines of text; the first column is left-aligned, the others right-aligned. */
export function scoreTable(scenarios: readonly ScenarioScore[], totals: Score): string {
  const rows = [COLUMNS, ...scenarios.map((score) => cells(score.title, score)), cells('total', totals)];
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const line = (row: string[]) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(rows[0]), rule, ...rows.slice(1, -1).map(line), rule, line(rows[rows.length - 1])].join('\n');
}
