/**
 * The preview page offers Chrome's built-in model only when the browser has it. Debian's
 * Chromium has the Prompt API with no model behind it (unavailable): not offered. With the
 * Prompt API STAND-IN (not Chrome's model) installed before the page's scripts, it is offered,
 * and a conversation runs through ChromePromptModel with the same step inspector.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { startPreviewServer, type RunningPreview } from '../../preview/preview-server';
import { chromiumLaunchOptions } from '../support/chromium';

jest.setTimeout(120000);

const ROOT = resolve(__dirname, '../..');
let server: RunningPreview;
let browser: Browser;
let outDir: string;
let standIn = '';

beforeAll(async () => {
  const launchOptions = chromiumLaunchOptions();
  outDir = mkdtempSync(join(tmpdir(), 'oam-preview-chrome-'));
  server = await startPreviewServer({ port: 0, root: ROOT, outDir });
  // The stand-in as a script that runs before the page's own, like a browser's built-in global.
  const out = await build({
    stdin: {
      contents:
        "import { createPromptApiStandIn } from './bench/web/prompt-api-stand-in';\n" +
        "const made = createPromptApiStandIn({ brain: () => 'Welcome to the stand-in of Chrome, traveller.', chunkChars: 4 });\n" +
        'globalThis.LanguageModel = made.api; globalThis.promptStandIn = made.control;',
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'warning',
  });
  standIn = out.outputFiles[0].text;
  browser = await chromium.launch(launchOptions);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

const options = (page: import('playwright-core').Page) =>
  page.locator('#model-kind option').evaluateAll((os) => os.map((option) => (option as HTMLOptionElement).value));

test('Chromium without a model: the list has no Chrome option', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForSelector('.msg.npc');
  await page.waitForTimeout(300); // the availability check is asynchronous
  expect(await options(page)).toEqual(['standin', 'script', 'openai']);
  await page.close();
});

test('with the Prompt API: offered, chosen, and a turn runs through it with its steps shown', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.addInitScript({ content: standIn });
  await page.goto(server.url);
  await page.waitForSelector('#model-kind option[value="chrome-nano"]', { state: 'attached' });
  expect(await options(page)).toEqual(['standin', 'script', 'openai', 'chrome-nano']);
  if (!(await page.locator('#setup').evaluate((details) => (details as HTMLDetailsElement).open)))
    await page.click('#setup > summary');
  await page.selectOption('#model-kind', 'chrome-nano');
  await page.click('#apply-setup');
  await expect(page.textContent('#now-talking')).resolves.toContain("Chrome's built-in Gemini Nano");
  await page.fill('#player-line', 'Hello!');
  await page.press('#player-line', 'Enter');
  await page.waitForFunction(() =>
    (document.querySelector('.msg.npc:last-of-type .text')?.textContent ?? '').includes('stand-in of Chrome'),
  );
  const seen = await page.evaluate(() => {
    const stub = (globalThis as unknown as { promptStandIn: { log: { creates: unknown[]; prompts: unknown[] } } })
      .promptStandIn;
    return { creates: stub.log.creates.length, prompts: stub.log.prompts.length };
  });
  expect(seen.prompts).toBeGreaterThan(0);
  expect(await page.locator('.turn-group').first().locator('.item.step').count()).toBeGreaterThan(0);
  expect(errors).toEqual([]);
  await page.close();
});
