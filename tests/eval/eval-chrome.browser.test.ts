/**
 * `npm run eval -- --chrome` in this machine's Chromium (playwright-core). First as a user
 * meets it: the page has the Prompt API's `LanguageModel`, but no model can run here, so the
 * eval says so plainly and exits non-zero before any scenario. Then the bridge itself, with the
 * Prompt API STAND-IN installed in the page (not Chrome's model): the scenarios run in Node and
 * every step streams back from the browser. Chrome's real model was not run here.
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import { runCli } from '../../eval/cli';
import { openChromeTarget } from '../../eval/chrome-target';
import { runEval } from '../../eval/runner';
import { SCENARIOS } from '../../eval/scenarios';
import { scoreScenarios } from '../../eval/scoring';
import { findChromium } from '../support/chromium';

jest.setTimeout(120000);

test('--chrome without a usable built-in model: exit 1, nothing evaluated, and what to use instead', async () => {
  const browser = findChromium();
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli({
    argv: ['--chrome', '--runs', '1'],
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  expect(status).toBe(1);
  expect(out).toEqual([]);
  const said = err.join('\n');
  expect(said).toContain('launching the browser to look for its built-in model (LanguageModel)');
  expect(said).toMatch(
    new RegExp(
      `Chrome's built-in model is not available in ${browser} \\([\\d.]+\\)|${browser} \\([\\d.]+\\) has no Prompt API`,
    ),
  );
  expect(said).toContain('Nothing was evaluated.');
});

test('the bridge: scenarios in Node, each step answered in the page by ChromePromptModel (stand-in)', async () => {
  const bundled = await build({
    entryPoints: [join(__dirname, 'chrome-stand-in-entry.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  });
  const target = await openChromeTarget({
    executablePath: findChromium(),
    headed: false,
    initScript: bundled.outputFiles[0].text,
  });
  try {
    expect(target.info.kind).toBe('chrome');
    let now = 0;
    const records = await runEval({
      model: target.model,
      scenarios: SCENARIOS.filter((scenario) => scenario.id === 'decision' || scenario.id === 'bark'),
      runs: 2,
      clock: () => (now += 5),
    });
    const { scenarios, totals } = scoreScenarios(records);
    expect(scenarios.map((score) => [score.id, score.checks, score.repairs, score.fallbacks, score.errors])).toEqual([
      ['decision', { right: 6, of: 6 }, 0, 0, 0],
      ['bark', { right: 6, of: 6 }, 0, 0, 0],
    ]);
    expect(totals.modelCalls).toBe(12);
    const bark = records[1].items[0];
    expect(bark).toMatchObject({
      input: 'It starts to rain hard outside.',
      output: 'Rain again! Bring those wet boots by the fire.',
    });
    expect(bark.steps).toEqual([
      expect.objectContaining({ kind: 'text', output: 'Rain again! Bring those wet boots by the fire.' }),
    ]);
  } finally {
    await target.close();
  }
});
