/**
 * A replay bundle exported by the QA overlay in the engine test run (a shipped Android debug
 * build on the real engine, tests/engine/selection-native.test.ts, which keeps this committed
 * copy equal to what it exports) replays in the preview page, in headless Chromium, with the
 * same lines; a bundle whose recorded prompt was changed is reported as diverging, a broken one
 * is refused with the path of its problem, and the bundle is kept as a persona test and script.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT, usePreview } from '../support/preview-browser';

jest.setTimeout(120000);

const FIXTURE = join(ROOT, 'tests/fixtures/engine/qa-replay-bundle.json');
const BUNDLE = JSON.parse(readFileSync(FIXTURE, 'utf8')) as {
  turns: Array<{ said: string; line: string; steps: Array<{ prompt: string }> }>;
};
const dir = mkdtempSync(join(tmpdir(), 'oam-bundle-'));

const preview = usePreview();
let page: Page;

beforeAll(async () => {
  page = await preview.open(520, 720);
  await page.click('#setup > summary');
});

async function replay(path: string): Promise<void> {
  await page.setInputFiles('#replay-file', path);
  await page.waitForSelector('#results :is(#bundle-summary, .problems)');
}

test("the engine run's bundle replays with the same lines, from the Chat tab", async () => {
  await replay(FIXTURE);
  await expect(page.locator('#bundle-summary').textContent()).resolves.toBe(
    '2 turns of Mira recorded on shipped, ANDROID, node "mira": replayed exactly: the same lines, prompts and tool results.',
  );
  const rows = page.locator('.bundle-turn');
  await expect(rows.count()).resolves.toBe(BUNDLE.turns.length);
  for (let index = 0; index < BUNDLE.turns.length; index++) {
    const [then, now] = await rows.nth(index).locator('.side > div').allTextContents();
    expect(then).toContain(BUNDLE.turns[index].line);
    expect(now).toContain(BUNDLE.turns[index].line);
    await expect(rows.nth(index).locator('q').textContent()).resolves.toBe(BUNDLE.turns[index].said);
  }
  expect(await page.locator('.bundle-turn .changed-answer').count()).toBe(0);
  expect(await page.locator('#results-card').isVisible()).toBe(true);
  expect(await page.locator('#player-line').isVisible()).toBe(true);
});

test('a recorded prompt that differs from what the NPC sends now is reported, not hidden', async () => {
  const changed = JSON.parse(JSON.stringify(BUNDLE));
  changed.turns[1].steps[0].prompt = `${changed.turns[1].steps[0].prompt} (edited on the phone)`;
  const path = join(dir, 'changed.json');
  writeFileSync(path, JSON.stringify(changed));
  await replay(path);
  await expect(page.locator('#bundle-summary').textContent()).resolves.toContain(
    'the same lines, but not the same prompts or tool results',
  );
  await expect(page.locator('#bundle-divergences').textContent()).resolves.toContain(
    'turn 2, step 1: the prompt differs from the recorded one',
  );
});

test('a broken bundle is refused with the path of its problem', async () => {
  const broken = JSON.parse(JSON.stringify(BUNDLE));
  broken.turns[0].said = 42;
  const path = join(dir, 'broken.json');
  writeFileSync(path, JSON.stringify(broken));
  await replay(path);
  await expect(page.locator('#results .problems').textContent()).resolves.toMatch(/turns\/0\/said|turns\[0\]\.said/);
});

test('the bundle is kept as a persona test and its script of recorded outputs', async () => {
  await replay(FIXTURE);
  const downloads: string[] = [];
  page.on('download', (download) => downloads.push(download.suggestedFilename()));
  await page.click('#bundle-as-test');
  await page.waitForTimeout(300);
  expect(downloads.sort()).toEqual(['mira.replay.persona-test.json', 'mira.replay.script.json']);
});
