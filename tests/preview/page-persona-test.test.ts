/**
 * The same persona-test file gives the same counts on the command line (`npm run persona-test`)
 * and in the preview page (its "Run a persona test" button runs runPagePersonaTest on the file's
 * text): the test's own profile, its persona, its checks, on the stand-in of what it plays.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runPagePersonaTest } from '../../preview/page/page-persona-test';
import { loadPageProfile, sampleProfile } from '../../preview/page/page-profiles';

jest.setTimeout(120000);
const ROOT = resolve(__dirname, '../..');

function cliCounts(file: string): { passed: number; failed: number } {
  const run = spawnSync(process.execPath, ['scripts/run-ts.mjs', 'demo/persona-test.ts', file], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const match = /(\d+) passed, (\d+) failed/.exec(run.stdout);
  if (!match) throw new Error(`no counts in the CLI's output:\n${run.stdout}\n${run.stderr}`);
  return { passed: Number(match[1]), failed: Number(match[2]) };
}

test.each(['demo/profiles/hilde.persona-test.json', 'demo/profiles/mira.persona-test.json'])(
  '%s: the page counts what the CLI counts',
  async (file) => {
    // The page's set-up is Mira's sample: a test that names its profile must not care.
    const mira = loadPageProfile(sampleProfile('mira')!.profile);
    const page = await runPagePersonaTest(readFileSync(join(ROOT, file), 'utf8'), {
      parts: mira,
      persona: mira.persona,
    });
    const cli = cliCounts(file);
    expect(cli.passed).toBeGreaterThan(20);
    expect({ passed: page.report.passed, failed: page.report.failed }).toEqual(cli);
    expect(page.ranWith).toMatch(/^the test's profile \(\w+\.npc-profile\.json\)$/);
  },
);

test("the sample's own test names its persona by path: the page plays the set-up's Mira and says so, with the counts of --tavern", async () => {
  const file = 'samples/tavern/mira.persona-test.json';
  const mira = loadPageProfile(sampleProfile('mira')!.profile);
  const page = await runPagePersonaTest(readFileSync(join(ROOT, file), 'utf8'), { parts: mira, persona: mira.persona });
  const run = spawnSync(process.execPath, ['scripts/run-ts.mjs', 'demo/persona-test.ts', file, '--tavern'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(run.stdout).toContain(`${page.report.passed} passed, ${page.report.failed} failed`);
  expect(page.report.passed).toBe(27);
  expect(page.ranWith).toContain('the test names its persona by path, which a page cannot read');
});
