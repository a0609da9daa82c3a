/**
 * `npm run bench`: per scripted scenario, the default mode and the seed-compatible mode beside
 * the floor: the time until the player's first word (for a decision or content: until the
 * value is known), the total time, model calls and prompt/cacheable/output tokens (Gemma 3's
 * tokenizer). Times come from the cost model in demo/phone-cost-model.ts, under the conditions a
 * phone meets: a fresh conversation and one at turn 12, a cold prefix cache, a device without
 * prefix caching, slow and fast decoding. The stand-in streams one Gemma token per chunk.
 *
 * The floor of a scenario is written by hand (bench/floor/, its README): the prompt a program made
 * for that one character and turn would send, counted with the same tokenizer, writing only the
 * words the player reads (or the decision's id, the content's values) and the actions' names and
 * values. It is not derived from the project's prompts, so the ratios can show a prompt too long.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { COST_SOURCES, type StepCost } from '../demo/phone-cost-model';
import { CONDITIONS, conditionSums, floorRow, floorTiming, stepCosts, timing, type FloorRow } from './measure';
import { SCENARIOS, type Scenario, type ScenarioRun } from './scenarios';
import { benchLongOutputs } from './long-outputs';
import { benchLongHistory } from './long-history';
import { benchTokenEstimate } from './token-estimate';
import { benchWebBackend } from './web-backend';
import { benchProfiles } from './profiles';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 40);
const MODES = ['default', 'seed'] as const;
type Mode = (typeof MODES)[number];

/** The goals of issue 26 against the hand floor, as PASS/MISS lines (fresh turn, default mode). */
function printFloorGoals(rows: FloorRow[]) {
  const worst = (key: 'prompt' | 'warm' | 'cold' | 'total', pick = (_: Scenario) => true) =>
    rows.filter((row) => pick(row.scenario)).reduce((top, row) => (row[key] > top[key] ? row : top));
  const mark = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  const lines = worst('prompt');
  const warm = worst('warm', (scenario) => scenario.delivers !== 'value');
  const cold = worst('cold', (scenario) => scenario.delivers !== 'value');
  const order = rows.find((row) => row.scenario.name === 'NPC order, result needed');
  console.log('goals against the hand floor (worst scenario):');
  console.log(
    `  ${mark(lines.prompt <= 1.4)} prompt tokens ≤ 1.4×: ${lines.prompt.toFixed(2)}× (${lines.scenario.name})`,
  );
  console.log(`  ${mark(warm.warm <= 1.15)} first word warm ≤ 1.15×: ${warm.warm.toFixed(2)}× (${warm.scenario.name})`);
  console.log(`  ${mark(cold.cold <= 1.3)} first word cold ≤ 1.3×: ${cold.cold.toFixed(2)}× (${cold.scenario.name})`);
  if (order)
    console.log(`  ${mark(order.warm <= 1.15)} result-needed order, first word ≤ 1.15×: ${order.warm.toFixed(2)}×`);
  const project = rows.reduce((sum, row) => sum + row.seconds.project, 0);
  const floor = rows.reduce((sum, row) => sum + row.seconds.floor, 0);
  console.log(
    `  ${mark(project / floor <= 1.15)} all scenarios' total ≤ 1.15×: ${(project / floor).toFixed(2)}× (${project.toFixed(2)} s against ${floor.toFixed(2)} s)`,
  );
}

async function cpuPerStep(play: () => Promise<ScenarioRun>): Promise<number> {
  for (let round = 0; round < 30; round++) await play(); // warm-up: JIT, and ajv compiles each schema once
  const samples: number[] = [];
  for (let round = 0; round < REPEATS; round++) {
    const t0 = process.cpuUsage();
    const run = await play();
    const cpu = process.cpuUsage(t0);
    samples.push((cpu.user + cpu.system) / 1000 / Math.max(1, run.modelCalls));
  }
  samples.sort((left, right) => left - right);
  return samples[Math.floor(samples.length / 2)];
}

const pad = (value: string | number, width: number) => String(value).padStart(width);
const sec = (seconds: number) => `${seconds.toFixed(2)} s`;

interface Recorded {
  scenario: Scenario;
  mode: Mode;
  turn: 1 | 12;
  run: ScenarioRun;
  coreMsPerStep?: number;
}

async function main(): Promise<void> {
  const recorded: Recorded[] = [];
  for (const scenario of SCENARIOS) {
    for (const mode of MODES) {
      for (const turn of [1, 12] as const) {
        const play = scenario.create({ inline: mode === 'default', earlierTurns: turn - 1 });
        const run = await play();
        recorded.push({ scenario, mode, turn, run, coreMsPerStep: turn === 1 ? await cpuPerStep(play) : undefined });
      }
    }
  }
  const find = (scenario: Scenario, mode: Mode, turn: 1 | 12) =>
    recorded.find((record) => record.scenario === scenario && record.mode === mode && record.turn === turn) as Recorded;

  console.log('oam-cocos benchmark: scripted scenarios, default mode vs seed-compatible mode vs the floor');
  console.log('cost model (each figure with its source and strength):');
  for (const cost of COST_SOURCES) console.log(`  - ${cost.figure}: ${cost.source} [${cost.strength}]`);
  console.log(
    'tokens: Gemma 3 tokenizer; the stand-in streams one token per chunk. first word: the first text delta of the line (a decision or content: when the value is known).',
  );
  console.log(
    `core ms/step: process CPU time of the whole turn (core, stand-in, tools) / model calls, median of ${REPEATS} runs (an upper bound on the core's own time)\n`,
  );

  const base = CONDITIONS[0];
  console.log(`fresh conversation, warm prefix, ${base.model.decodeTokensPerSecond} tok/s:`);
  const head = `${'scenario'.padEnd(28)} ${'mode'.padEnd(7)} ${pad('calls', 5)} ${pad('prompt', 6)} ${pad('cached', 6)} ${pad('output', 6)} ${pad('1st word', 8)} ${pad('total', 7)} ${pad('floor 1st/total', 15)} ${pad('×floor 1st/total', 16)} ${pad('core ms/step', 12)}`;
  console.log(head);
  console.log('-'.repeat(head.length));
  for (const record of recorded.filter((candidate) => candidate.turn === 1)) {
    const steps = stepCosts(record.run);
    const sum = (key: keyof StepCost) => steps.reduce((total, step) => total + step[key], 0);
    const measured = timing(record.run, base);
    const floorTime = floorTiming(find(record.scenario, 'default', 1).run, record.scenario, base);
    console.log(
      `${record.scenario.name.padEnd(28)} ${record.mode.padEnd(7)} ${pad(record.run.modelCalls, 5)} ${pad(sum('promptTokens'), 6)} ${pad(sum('cacheableTokens'), 6)} ${pad(sum('outputTokens'), 6)} ${pad(sec(measured.firstWord), 8)} ${pad(sec(measured.total), 7)} ${pad(`${floorTime.firstWord.toFixed(2)}/${floorTime.total.toFixed(2)} s`, 15)} ${pad(`${(measured.firstWord / floorTime.firstWord).toFixed(2)}/${(measured.total / floorTime.total).toFixed(2)}`, 16)} ${pad((record.coreMsPerStep ?? 0).toFixed(3), 12)}`,
    );
  }

  console.log('\nagainst the hand floor (bench/floor/), default mode, fresh conversation, Gemma 3 tokens:');
  const fhead = `${'scenario'.padEnd(28)} ${pad('prompt', 6)} ${pad('floor', 6)} ${pad('×', 5)} ${pad('1st warm ×', 10)} ${pad('1st cold ×', 10)} ${pad('total ×', 8)}`;
  console.log(fhead);
  console.log('-'.repeat(fhead.length));
  const floorRows = SCENARIOS.map((scenario) => {
    const row = floorRow(find(scenario, 'default', 1).run, scenario);
    console.log(
      `${scenario.name.padEnd(28)} ${pad(row.promptTokens, 6)} ${pad(row.floorTokens, 6)} ${pad(row.prompt.toFixed(2), 5)} ${pad(row.warm.toFixed(2), 10)} ${pad(row.cold.toFixed(2), 10)} ${pad(row.total.toFixed(2), 8)}`,
    );
    return row;
  });
  printFloorGoals(floorRows);

  console.log(
    "\nunder each condition (sums over the scenarios; first word: the worst ratio to the hand floor among the conversation scenarios; turn 12 is held to the fresh turn's floor):",
  );
  const chead = `${'condition'.padEnd(44)} ${pad('default', 8)} ${pad('seed', 8)} ${pad('floor', 8)} ${pad('def/floor', 9)} ${pad('def/seed', 8)} ${pad('worst 1st-word ×floor', 36)} ${pad('NPC small talk 1st', 18)} ${pad('NPC memory 1st', 14)}`;
  console.log(chead);
  console.log('-'.repeat(chead.length));
  for (const condition of CONDITIONS) {
    const sums = conditionSums(condition, SCENARIOS, (scenario, mode) => find(scenario, mode, condition.turn).run);
    const { own: defaultTotal, seed, floor } = sums;
    const worst = sums.worst.ratio;
    const worstName = sums.worst.scenario?.name ?? '';
    const npcFirst = (name: string) =>
      timing(
        find(SCENARIOS.find((scenario) => scenario.name === name) as Scenario, 'default', condition.turn).run,
        condition,
      ).firstWord;
    console.log(
      `${condition.name.padEnd(44)} ${pad(sec(defaultTotal), 8)} ${pad(sec(seed), 8)} ${pad(sec(floor), 8)} ${pad(`${(defaultTotal / floor).toFixed(2)}×`, 9)} ${pad(`${(defaultTotal / seed).toFixed(2)}×`, 8)} ${pad(`${worst.toFixed(2)}× (${worstName})`, 36)} ${pad(sec(npcFirst('NPC small talk')), 18)} ${pad(sec(npcFirst('NPC memory update')), 14)}`,
    );
  }

  // Prefill ahead (npc.prepare() while the player types): what it could save, from the recording.
  const small = SCENARIOS.find((scenario) => scenario.name === 'NPC small talk') as Scenario;
  const late = stepCosts(find(small, 'default', 12).run)[0];
  const uncached = late.promptTokens - late.cacheableTokens;
  console.log(
    `\nprefill ahead: at turn 12, NPC small talk's first step prefills ${uncached} tokens outside the stable prefix (memory, summary, history, note): ${(uncached / base.model.prefillTokensPerSecond).toFixed(2)} s of its first word a prepare() could move before the player's line, for one more request per turn against the per-app quota (not built; see the README)`,
  );

  const bundle = 'assets/runtime/oam-core.js';
  if (existsSync(bundle)) {
    const size = statSync(bundle).size;
    const gz = gzipSync(readFileSync(bundle)).length;
    console.log(`\nruntime bundle: ${bundle} ${(size / 1024).toFixed(1)} KiB (${(gz / 1024).toFixed(1)} KiB gzipped)`);
  } else {
    console.log('\nruntime bundle: not built (run npm run build)');
  }
}

const profileFlag = process.argv.indexOf('--profile');
if (profileFlag >= 0) {
  // One designer's profile: only its own figures, in seconds rather than minutes.
  const file = process.argv[profileFlag + 1];
  if (!file) {
    console.error('npm run bench -- --profile <file.npc-profile.json>');
    process.exit(2);
  }
  benchProfiles(file).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
} else runEverything();

function runEverything(): void {
  main()
    .then(benchLongOutputs)
    .then(() => benchLongHistory())
    .then(benchTokenEstimate)
    .then(benchWebBackend)
    .then(() => import('./background-work').then((module) => module.benchBackgroundWork()))
    .then(() => benchProfiles())
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
