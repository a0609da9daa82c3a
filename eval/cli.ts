/**
 * `npm run eval`'s flags and main program, kept apart from eval/index.ts so the tests run the
 * same code path in-process with their own output and clock. Exit status: 0 when the eval ran
 * (its scores are a measurement, not a verdict), 1 when the target cannot be used, 2 for a
 * usage error.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Clock } from './probe';
import { runEval, type ItemRecord } from './runner';
import { SCENARIOS, type EvalScenario } from './scenarios';
import { scoreScenarios } from './scoring';
import { scoreTable } from './table';
import { buildReport, writeReport } from './report';
import { recordingOf, writeRecording } from './recording';
import { openServerTarget } from './server-target';
import { openChromeTarget } from './chrome-target';
import { TargetUnavailable, type OpenedTarget } from './target';

export const USAGE = [
  'usage: npm run eval -- --url http://127.0.0.1:8080/v1 --model NAME [options]',
  '       npm run eval -- --chrome [--headed] [options]',
  'options:',
  '  --runs N           play each scenario N times (default 3)',
  '  --only a,b         only these scenarios: ' + SCENARIOS.map((scenario) => scenario.id).join(', '),
  '  --report FILE      write the JSON report there (default: eval-report.json in a new temporary folder)',
  '  --record FILE      also write a recording of every answer, to share or replay',
  '  --no-stream        ask the server for whole answers instead of server-sent events',
  '  --timeout-ms N     how long each model step may wait for the server (default 60000)',
].join('\n');

export interface Flags {
  url?: string;
  model?: string;
  chrome: boolean;
  headed: boolean;
  runs: number;
  only?: string[];
  report?: string;
  record?: string;
  streaming: boolean;
  timeoutMs: number;
}

class UsageError extends Error {}

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new UsageError(`${flag} needs a whole number ≥ 1, got ${JSON.stringify(text)}.`);
  return value;
}

export function parseFlags(argv: readonly string[]): Flags {
  const flags: Flags = { chrome: false, headed: false, runs: 3, streaming: true, timeoutMs: 60000 };
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index];
    const value = (): string => {
      const next = argv[++index];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${flag} needs a value.`);
      return next;
    };
    if (flag === '--url') flags.url = value();
    else if (flag === '--model') flags.model = value();
    else if (flag === '--chrome') flags.chrome = true;
    else if (flag === '--headed') flags.headed = true;
    else if (flag === '--runs') flags.runs = positiveInteger(flag, value());
    else if (flag === '--only')
      flags.only = value()
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean);
    else if (flag === '--report') flags.report = value();
    else if (flag === '--record') flags.record = value();
    else if (flag === '--no-stream') flags.streaming = false;
    else if (flag === '--timeout-ms') flags.timeoutMs = positiveInteger(flag, value());
    else throw new UsageError(`unknown option ${flag}.`);
  }
  if (flags.chrome === (flags.url !== undefined))
    throw new UsageError('give either --url (an OpenAI-compatible server) or --chrome.');
  if (flags.url !== undefined && flags.model === undefined) {
    throw new UsageError(
      '--url needs --model: the name the server knows the model by ' +
        '(Ollama and LM Studio need it; llama.cpp ignores it).',
    );
  }
  const known = new Set(SCENARIOS.map((scenario) => scenario.id));
  const unknown = (flags.only ?? []).filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new UsageError(`unknown scenario ${unknown.join(', ')}; the scenarios are ${[...known].join(', ')}.`);
  return flags;
}

export interface CliIo {
  argv: readonly string[];
  /** Writes a line to stdout (the table) and to stderr (progress, problems). */
  out(line: string): void;
  err(line: string): void;
  /** Default: performance.now(), the wall time. */
  clock?: Clock;
  /** How long the --url check may take (ms); default 5000. */
  checkTimeoutMs?: number;
}

function progressLine(scenario: EvalScenario, item: ItemRecord): string {
  const action = item.firstAction !== undefined ? ` first: ${item.firstAction};` : '';
  const error = item.error ? ` (${item.error.message.split('\n')[0]})` : '';
  const mark = item.pass ? 'ok  ' : 'MISS';
  return `  ${scenario.id} #${item.run} ${mark} ${JSON.stringify(item.input)} →${action} ${item.detail}${error}`;
}

async function openTarget(flags: Flags, io: CliIo): Promise<OpenedTarget> {
  if (flags.chrome) {
    io.err('eval: launching the browser to look for its built-in model (LanguageModel)…');
    return openChromeTarget({ headed: flags.headed });
  }
  const checkTimeoutMs = io.checkTimeoutMs ?? 5000;
  io.err(`eval: checking ${flags.url} (up to ${checkTimeoutMs / 1000} s)…`);
  return openServerTarget({
    url: flags.url as string,
    model: flags.model as string,
    streaming: flags.streaming,
    checkTimeoutMs,
    stepTimeoutMs: flags.timeoutMs,
  });
}

export async function runCli(io: CliIo): Promise<number> {
  let flags: Flags;
  try {
    flags = parseFlags(io.argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`eval: ${error.message}\n${USAGE}`);
    return 2;
  }
  const clock = io.clock ?? (() => performance.now());
  let target: OpenedTarget;
  try {
    target = await openTarget(flags, io);
  } catch (error) {
    if (!(error instanceof TargetUnavailable)) throw error;
    io.err(`eval: ${error.message}`);
    return 1;
  }
  try {
    const scenarios = flags.only ? SCENARIOS.filter((scenario) => flags.only?.includes(scenario.id)) : SCENARIOS;
    const startedAt = new Date().toISOString();
    io.err(`eval: ${scenarios.length} scenarios × ${flags.runs} runs on ${target.info.where} (${target.info.model})`);
    const records = await runEval({
      model: target.model,
      scenarios,
      runs: flags.runs,
      clock,
      onItem: (scenario, item) => io.err(progressLine(scenario, item)),
    });
    const { scenarios: scores, totals } = scoreScenarios(records);
    io.out(`Live eval: ${target.info.model} on ${target.info.where}, ${flags.runs} runs per scenario\n`);
    io.out(scoreTable(scores, totals));
    io.out('');
    for (const scenario of scenarios) io.out(`  ${scenario.title}: ${scenario.checks}.`);
    const reportPath = flags.report
      ? resolve(flags.report)
      : join(mkdtempSync(join(tmpdir(), 'oam-eval-')), 'eval-report.json');
    writeReport(reportPath, buildReport({ target: target.info, runs: flags.runs, startedAt, records }));
    io.out(`\nreport: ${reportPath}`);
    if (flags.record) {
      const recordPath = resolve(flags.record);
      writeRecording(recordPath, recordingOf({ model: `${target.info.model} on ${target.info.where}`, records }));
      io.out(`recording: ${recordPath}`);
    }
    return 0;
  } finally {
    await target.close();
  }
}
