/**
 * The line bank review in the preview page, in headless Chromium at the panel's default size:
 * Mira's bank loads with each line's intent, band, emotion and calls; the designer edits one
 * line and drops another, and the saved bank has exactly that and passes its schema; a line
 * emptied by mistake is refused before saving, naming it; and a bank is baked in the page on
 * the set-up's model from an intents file, an order line keeping its take_order call.
 * `OAM_SCREENSHOTS=1` redraws docs/images/bank-review-520x720.png.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { lineBankProblems, type LineBank } from '../../src';
import { ROOT, usePreview } from '../support/preview-browser';

jest.setTimeout(120000);

const BANK_FILE = join(ROOT, 'demo/tavern/mira.bank.json');
const BANK = JSON.parse(readFileSync(BANK_FILE, 'utf8')) as LineBank;
const dir = mkdtempSync(join(tmpdir(), 'oam-bank-review-'));

const preview = usePreview();
let page: Page;

beforeAll(async () => {
  page = await preview.open(520, 720);
  await page.click('#setup > summary');
});

async function saved(): Promise<LineBank> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#bank-save')]);
  expect(download.suggestedFilename()).toBe('mira.bank.json');
  const path = join(dir, `saved-${Date.now()}.json`);
  await download.saveAs(path);
  return JSON.parse(readFileSync(path, 'utf8')) as LineBank;
}

test("Mira's bank: keep, edit and drop, and the saved bank is exactly that and passes its schema", async () => {
  await page.setInputFiles('#bank-file', BANK_FILE);
  const total = BANK.lines.length;
  await expect(page.locator('#bank-summary').textContent()).resolves.toBe(
    `Mira: ${total} lines, ${total} kept, 0 dropped.`,
  );
  const rows = page.locator('.bank-row');
  await expect(rows.count()).resolves.toBe(total);
  const order = BANK.lines.findIndex((line) => (line.calls ?? []).some((call) => call.name === 'take_order'));
  await expect(rows.nth(order).locator('code').first().textContent()).resolves.toMatch(/^take_order\(/);
  await rows.nth(0).locator('.bank-line-input').fill('Welcome in, love. Mind the step.');
  await rows.nth(1).locator('.bank-drop').click();
  await expect(page.locator('#bank-summary').textContent()).resolves.toBe(
    `Mira: ${total} lines, ${total - 1} kept, 1 dropped.`,
  );
  if (process.env.OAM_SCREENSHOTS === '1') {
    await page.click('#setup > summary'); // closed, as a designer reviewing would have it
    await page.screenshot({ path: join(ROOT, 'docs/images/bank-review-520x720.png') });
    await page.click('#setup > summary');
  }
  const bank = await saved();
  expect(lineBankProblems(bank)).toEqual([]);
  expect(bank.lines).toHaveLength(total - 1);
  expect(bank.lines[0]).toEqual({ ...BANK.lines[0], line: 'Welcome in, love. Mind the step.' });
  expect(bank.lines.slice(1)).toEqual(BANK.lines.slice(2));
  expect(bank.intents).toEqual(BANK.intents);
});

test('a line emptied by mistake is refused before saving, naming it', async () => {
  await page.setInputFiles('#bank-file', BANK_FILE);
  await page.locator('.bank-row').nth(2).locator('.bank-line-input').fill('   ');
  let downloaded = false;
  page.once('download', () => (downloaded = true));
  await page.click('#bank-save');
  await expect(page.locator('#bank-problems').textContent()).resolves.toContain('lines[2]');
  expect(downloaded).toBe(false);
});

test('a bank baked in the page on the set-up model, from an intents file; the order keeps its call', async () => {
  const intents = join(dir, 'intents.json');
  writeFileSync(intents, JSON.stringify({ intents: { greeting: ['Evening!'], order_ale: ['Two ales, please.'] } }));
  await page.setInputFiles('#bank-file', intents);
  await expect(page.locator('#bank-summary').textContent()).resolves.toBe('A bank: 0 lines, 0 kept, 0 dropped.');
  await page.click('#bank-bake');
  await page.waitForSelector('#bank-summary');
  await expect(page.locator('#bank-summary').textContent()).resolves.toBe('Mira: 2 lines, 2 kept, 0 dropped.');
  const order = page.locator('.bank-row').nth(1);
  await expect(order.locator('.badge').first().textContent()).resolves.toBe('order_ale');
  await expect(order.locator('code').first().textContent()).resolves.toMatch(/^take_order\(.*"ale"/);
  const bank = await saved();
  expect(lineBankProblems(bank)).toEqual([]);
});
