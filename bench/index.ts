/**
 * `npm run bench`: per scripted scenario, in the default mode and the seed-compatible mode side
 * by side: model calls, prompt tokens, cacheable-prefix tokens, output tokens (Gemma 3's
 * tokenizer, with the runtime's 4-characters-per-token estimate beside it), the estimated time
 * on a phone from bench/cost-model.ts, and the core's own CPU time per model step.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { estimateTokens } from '../src';
import { COST_MODEL, stepSeconds } from './cost-model';
import { gemmaTokens } from './tokenizer';
import { SCENARIOS, type ScenarioRun } from './scenarios';
import { benchLongOutputs } from './long-outputs';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 40);

interface Row {
  scenario: string;
  mode: 'default' | 'seed';
  calls: number;
  promptTokens: number;
  promptEstimate: number;
  cacheableTokens: number;
  outputTokens: number;
  outputEstimate: number;
  seconds: number;
  coreMsPerStep: number;
}

function measure(run: ScenarioRun): Omit<Row, 'scenario' | 'mode' | 'coreMsPerStep'> {
  let promptTokens = 0, promptEstimate = 0, cacheableTokens = 0, outputTokens = 0, outputEstimate = 0, seconds = 0;
  run.requests.forEach((r, i) => {
    const stable = (r.systemInstruction ?? '') + (r.promptPrefix ?? '');
    const full = stable + r.prompt;
    const p = gemmaTokens(r.systemInstruction ?? '') + gemmaTokens((r.promptPrefix ?? '') + r.prompt);
    const c = gemmaTokens(r.systemInstruction ?? '') + gemmaTokens(r.promptPrefix ?? '');
    const o = gemmaTokens(run.outputs[i] ?? '');
    promptTokens += p;
    promptEstimate += estimateTokens(full);
    cacheableTokens += c;
    outputTokens += o;
    outputEstimate += estimateTokens(run.outputs[i] ?? '');
    // Steady state: the byte-stable prefix was already seen by earlier turns, so it is cached.
    seconds += stepSeconds({ promptTokens: p, cacheableTokens: c, outputTokens: o }, true);
  });
  return { calls: run.modelCalls, promptTokens, promptEstimate, cacheableTokens, outputTokens, outputEstimate, seconds };
}

async function cpuPerStep(run: () => Promise<ScenarioRun>): Promise<number> {
  for (let i = 0; i < 30; i++) await run(); // warm-up: JIT, and ajv compiles each schema once
  const samples: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const t0 = process.cpuUsage();
    const r = await run();
    const d = process.cpuUsage(t0);
    samples.push((d.user + d.system) / 1000 / Math.max(1, r.modelCalls));
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const pad = (s: string | number, n: number) => String(s).padStart(n);

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const s of SCENARIOS) {
    for (const inline of [true, false]) {
      const play = s.create(inline);
      const metrics = measure(await play());
      const coreMsPerStep = await cpuPerStep(play);
      rows.push({ scenario: s.name, mode: inline ? 'default' : 'seed', ...metrics, coreMsPerStep });
    }
  }

  console.log('oam-cocos benchmark: scripted scenarios, default (inline replies) vs seed-compatible mode');
  console.log(`cost model: prefill ${COST_MODEL.prefillTokensPerSecond} tok/s, decode ${COST_MODEL.decodeTokensPerSecond} tok/s, ${COST_MODEL.perCallSeconds} s per call, cached prefix at ${COST_MODEL.cachedPrefillFactor}× (sources in bench/cost-model.ts)`);
  console.log(`tokens: Gemma 3 tokenizer (runtime estimate at 4 chars/token in parentheses); core ms/step: process CPU time of the whole turn (core, stand-in model, tools) divided by its model calls, median of ${REPEATS} runs: an upper bound on the core's own time\n`);
  const head = `${'scenario'.padEnd(28)} ${'mode'.padEnd(7)} ${pad('calls', 5)} ${pad('prompt tok', 14)} ${pad('cacheable', 9)} ${pad('output tok', 12)} ${pad('est. phone', 10)} ${pad('core ms/step', 12)}`;
  console.log(head);
  console.log('-'.repeat(head.length));
  for (const r of rows) {
    console.log(`${r.scenario.padEnd(28)} ${r.mode.padEnd(7)} ${pad(r.calls, 5)} ${pad(`${r.promptTokens} (${r.promptEstimate})`, 14)} ${pad(r.cacheableTokens, 9)} ${pad(`${r.outputTokens} (${r.outputEstimate})`, 12)} ${pad(`${r.seconds.toFixed(2)} s`, 10)} ${pad(r.coreMsPerStep.toFixed(3), 12)}`);
  }

  console.log('\ndefault vs seed-compatible, per scenario:');
  for (const s of SCENARIOS) {
    const d = rows.find((r) => r.scenario === s.name && r.mode === 'default') as Row;
    const seed = rows.find((r) => r.scenario === s.name && r.mode === 'seed') as Row;
    console.log(`  ${s.name.padEnd(28)} calls ${d.calls} vs ${seed.calls}; output tokens ${d.outputTokens} vs ${seed.outputTokens}; est. ${d.seconds.toFixed(2)} s vs ${seed.seconds.toFixed(2)} s (${(d.seconds / seed.seconds).toFixed(2)}×)`);
  }
  const sum = (mode: string, k: keyof Row) => rows.filter((r) => r.mode === mode).reduce((a, r) => a + (r[k] as number), 0);
  console.log(`  all scenarios: calls ${sum('default', 'calls')} vs ${sum('seed', 'calls')}; est. ${sum('default', 'seconds').toFixed(2)} s vs ${sum('seed', 'seconds').toFixed(2)} s (${(sum('default', 'seconds') / sum('seed', 'seconds')).toFixed(2)}×)`);

  const pe = rows.reduce((a, r) => a + r.promptEstimate, 0), pt = rows.reduce((a, r) => a + r.promptTokens, 0);
  const oe = rows.reduce((a, r) => a + r.outputEstimate, 0), ot = rows.reduce((a, r) => a + r.outputTokens, 0);
  console.log(`\nthe 4-chars-per-token estimate vs Gemma 3's tokenizer: prompts ${pe} vs ${pt} (${(((pe - pt) / pt) * 100).toFixed(1)}%), outputs ${oe} vs ${ot} (${(((oe - ot) / ot) * 100).toFixed(1)}%)`);

  const bundle = 'assets/runtime/oam-core.js';
  if (existsSync(bundle)) {
    const size = statSync(bundle).size;
    const gz = gzipSync(readFileSync(bundle)).length;
    console.log(`runtime bundle: ${bundle} ${(size / 1024).toFixed(1)} KiB (${(gz / 1024).toFixed(1)} KiB gzipped)`);
  } else {
    console.log('runtime bundle: not built (run npm run build)');
  }
}

main().then(benchLongOutputs).catch((e) => { console.error(e); process.exit(1); });
