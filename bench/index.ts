/**
 * `npm run bench`: per scripted scenario, the default mode and the seed-compatible mode beside
 * the floor: the time until the player's first word (for a decision or content: until the
 * value is known), the total time, model calls and prompt/cacheable/output tokens (Gemma 3's
 * tokenizer). Times come from the cost model in bench/cost-model.ts, under the conditions a
 * phone meets: a fresh conversation and one at turn 12, a cold prefix cache, a device without
 * prefix caching, slow and fast decoding. The stand-in streams one Gemma token per chunk.
 *
 * The floor of a scenario: one model call with the prompt of the default mode's last step
 * (it holds every fact the reply needs), writing only the words the player reads (or the
 * decision's id, the content's values), one token per action's name and its argument values,
 * the line first.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { COST_MODEL, COST_SOURCES, firstTokenSeconds, stepSeconds, type CostModel, type StepCost } from './cost-model';
import { gemmaTokens } from './tokenizer';
import { SCENARIOS, type Scenario, type ScenarioRun } from './scenarios';
import { benchLongOutputs } from './long-outputs';
import { benchWebBackend } from './web-backend';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 40);
const MODES = ['default', 'seed'] as const;
type Mode = (typeof MODES)[number];

interface Condition {
  name: string;
  model: CostModel;
  /** Which recording: a fresh conversation or one at turn 12. */
  turn: 1 | 12;
  /** The first step of the turn finds the prefix not cached (a first turn without prewarm()). */
  cold: boolean;
}

const CONDITIONS: Condition[] = [
  { name: 'fresh conversation, warm prefix, 15 tok/s', model: COST_MODEL, turn: 1, cold: false },
  { name: 'turn 12 (history, memory, a summary)', model: COST_MODEL, turn: 12, cold: false },
  { name: 'first turn, cold prefix cache (no prewarm)', model: COST_MODEL, turn: 1, cold: true },
  { name: 'device without prefix caching', model: { ...COST_MODEL, cachedPrefillFactor: 1 }, turn: 1, cold: false },
  { name: 'slow decode, 9.6 tok/s', model: { ...COST_MODEL, decodeTokensPerSecond: 9.6 }, turn: 1, cold: false },
  { name: 'fast decode, 19 tok/s', model: { ...COST_MODEL, decodeTokensPerSecond: 19 }, turn: 1, cold: false },
];

interface Timing {
  firstWord: number;
  total: number;
}

function stepCosts(run: ScenarioRun): StepCost[] {
  return run.requests.map((r, i) => ({
    promptTokens: gemmaTokens(r.systemInstruction ?? '') + gemmaTokens((r.promptPrefix ?? '') + r.prompt),
    cacheableTokens: gemmaTokens(r.systemInstruction ?? '') + gemmaTokens(r.promptPrefix ?? ''),
    outputTokens: gemmaTokens(run.outputs[i] ?? ''),
  }));
}

function timing(run: ScenarioRun, c: Condition): Timing {
  const steps = stepCosts(run);
  // Every step of a turn has the same stable prefix: only the first can find it cold.
  const cached = (i: number) => !(c.cold && i === 0);
  const ends: number[] = [];
  let t = 0;
  steps.forEach((s, i) => {
    t += stepSeconds(s, cached(i), c.model);
    ends.push(t);
  });
  const fw = run.firstWord;
  if (!fw || fw.step < 0) return { firstWord: t, total: t };
  const before = fw.step > 0 ? ends[fw.step - 1] : 0;
  return {
    firstWord:
      before + firstTokenSeconds(steps[fw.step], cached(fw.step), c.model) + fw.tokens / c.model.decodeTokensPerSecond,
    total: t,
  };
}

function floorTiming(run: ScenarioRun, scenario: Scenario, c: Condition): Timing & { outputTokens: number } {
  const last = stepCosts(run)[run.requests.length - 1];
  let outputTokens = gemmaTokens(run.floorText);
  for (const a of run.floorActions)
    outputTokens +=
      1 +
      Object.values(a.args).reduce<number>((n, v) => n + gemmaTokens(typeof v === 'string' ? v : JSON.stringify(v)), 0);
  const first = firstTokenSeconds(last, !c.cold, c.model);
  const total = first + outputTokens / c.model.decodeTokensPerSecond;
  return {
    firstWord: scenario.delivers === 'value' ? total : first + 1 / c.model.decodeTokensPerSecond,
    total,
    outputTokens,
  };
}

async function cpuPerStep(play: () => Promise<ScenarioRun>): Promise<number> {
  for (let i = 0; i < 30; i++) await play(); // warm-up: JIT, and ajv compiles each schema once
  const samples: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const t0 = process.cpuUsage();
    const r = await play();
    const d = process.cpuUsage(t0);
    samples.push((d.user + d.system) / 1000 / Math.max(1, r.modelCalls));
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
const sec = (x: number) => `${x.toFixed(2)} s`;

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
  const find = (s: Scenario, mode: Mode, turn: 1 | 12) =>
    recorded.find((r) => r.scenario === s && r.mode === mode && r.turn === turn) as Recorded;

  console.log('oam-cocos benchmark: scripted scenarios, default mode vs seed-compatible mode vs the floor');
  console.log('cost model (each figure with its source and strength):');
  for (const c of COST_SOURCES) console.log(`  - ${c.figure}: ${c.source} [${c.strength}]`);
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
  for (const r of recorded.filter((x) => x.turn === 1)) {
    const steps = stepCosts(r.run);
    const sum = (k: keyof StepCost) => steps.reduce((a, s) => a + s[k], 0);
    const t = timing(r.run, base);
    const f = floorTiming(find(r.scenario, 'default', 1).run, r.scenario, base);
    console.log(
      `${r.scenario.name.padEnd(28)} ${r.mode.padEnd(7)} ${pad(r.run.modelCalls, 5)} ${pad(sum('promptTokens'), 6)} ${pad(sum('cacheableTokens'), 6)} ${pad(sum('outputTokens'), 6)} ${pad(sec(t.firstWord), 8)} ${pad(sec(t.total), 7)} ${pad(`${f.firstWord.toFixed(2)}/${f.total.toFixed(2)} s`, 15)} ${pad(`${(t.firstWord / f.firstWord).toFixed(2)}/${(t.total / f.total).toFixed(2)}`, 16)} ${pad((r.coreMsPerStep ?? 0).toFixed(3), 12)}`,
    );
  }

  console.log(
    '\nunder each condition (sums over the ten scenarios; first word: the worst ratio to the floor among the conversation scenarios):',
  );
  const chead = `${'condition'.padEnd(44)} ${pad('default', 8)} ${pad('seed', 8)} ${pad('floor', 8)} ${pad('def/floor', 9)} ${pad('def/seed', 8)} ${pad('worst 1st-word ×floor', 36)} ${pad('NPC small talk 1st', 18)} ${pad('NPC memory 1st', 14)}`;
  console.log(chead);
  console.log('-'.repeat(chead.length));
  for (const c of CONDITIONS) {
    let d = 0,
      seed = 0,
      floor = 0,
      worst = 0,
      worstName = '';
    for (const s of SCENARIOS) {
      const dr = find(s, 'default', c.turn).run;
      const td = timing(dr, c);
      const f = floorTiming(dr, s, c);
      d += td.total;
      seed += timing(find(s, 'seed', c.turn).run, c).total;
      floor += f.total;
      if (s.delivers !== 'value' && td.firstWord / f.firstWord > worst) {
        worst = td.firstWord / f.firstWord;
        worstName = s.name;
      }
    }
    const npcFirst = (name: string) =>
      timing(find(SCENARIOS.find((s) => s.name === name) as Scenario, 'default', c.turn).run, c).firstWord;
    console.log(
      `${c.name.padEnd(44)} ${pad(sec(d), 8)} ${pad(sec(seed), 8)} ${pad(sec(floor), 8)} ${pad(`${(d / floor).toFixed(2)}×`, 9)} ${pad(`${(d / seed).toFixed(2)}×`, 8)} ${pad(`${worst.toFixed(2)}× (${worstName})`, 36)} ${pad(sec(npcFirst('NPC small talk')), 18)} ${pad(sec(npcFirst('NPC memory update')), 14)}`,
    );
  }

  // Prefill ahead (npc.prepare() while the player types): what it could save, from the recording.
  const small = SCENARIOS.find((x) => x.name === 'NPC small talk') as Scenario;
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

main()
  .then(benchLongOutputs)
  .then(benchWebBackend)
  .catch((e) => {
    console.error(e);
    process.exit(1);
  });
