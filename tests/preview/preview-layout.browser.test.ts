/**
 * The preview page at the sizes a designer uses: the editor panel's minimum (360×400), its
 * default (520×720), a small window (800×600) and a laptop (1366×860). At each, after a turn
 * and with the set-up open, the input, the send button and the last reply must be inside the
 * viewport and not covered by anything (the point at the centre of each hits the element
 * itself). `OAM_SCREENSHOTS=1` regenerates docs/images/preview-<w>x<h>.png.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startPreviewServer, type RunningPreview } from '../../preview/preview-server';
import { chromiumLaunchOptions } from '../support/chromium';

jest.setTimeout(120000);

const ROOT = resolve(__dirname, '../..');
const SIZES: Array<[number, number]> = [
  [360, 400],
  [520, 720],
  [800, 600],
  [1366, 860],
];

let server: RunningPreview;
let browser: Browser;

beforeAll(async () => {
  server = await startPreviewServer({ port: 0, root: ROOT, outDir: mkdtempSync(join(tmpdir(), 'oam-layout-')) });
  browser = await chromium.launch(chromiumLaunchOptions());
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Where the element is, and whether its centre is inside the viewport and hits the element itself. */
async function reachable(page: Page, selector: string): Promise<{ inside: boolean; uncovered: boolean; what: string }> {
  return page
    .locator(selector)
    .last()
    .evaluate((el) => {
      const rect = el.getBoundingClientRect();
      const centerX = rect.left + rect.width / 2;
      const centerY = rect.top + Math.min(rect.height / 2, 12);
      const inside =
        rect.width > 0 &&
        rect.height > 0 &&
        centerX >= 0 &&
        centerY >= 0 &&
        centerX <= window.innerWidth &&
        centerY <= window.innerHeight;
      const hit = inside ? document.elementFromPoint(centerX, centerY) : null;
      const uncovered = !!hit && (hit === el || el.contains(hit));
      const what = hit
        ? `${hit.tagName.toLowerCase()}${hit.id ? `#${hit.id}` : ''}.${(hit as HTMLElement).className}`
        : 'nothing';
      return { inside, uncovered, what };
    });
}

describe.each(SIZES)('the preview page at %i×%i', (width, height) => {
  let page: Page;

  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
    await page.goto(server.url);
    await page.waitForSelector('#send:not([disabled])');
    await page.fill('#player-line', "What's warm tonight?");
    await page.press('#player-line', 'Enter');
    await page.waitForSelector('.msg.npc:not(.streaming) >> nth=1');
    await page.waitForSelector('#send:not([disabled])');
  });

  afterAll(async () => {
    await page.close();
  });

  test('the input, the send button and the last reply are visible and not covered', async () => {
    for (const selector of ['#player-line', '#send', '.msg.npc .text']) {
      const where = await reachable(page, selector);
      expect({ selector, ...where }).toMatchObject({ selector, inside: true, uncovered: true });
    }
    if (process.env.OAM_SCREENSHOTS === '1')
      await page.screenshot({ path: join(ROOT, `docs/images/preview-${width}x${height}.png`) });
  });

  test('with the set-up open the input still fits, and the header keeps to one line', async () => {
    await page.click('#setup > summary');
    for (const selector of ['#player-line', '#send']) {
      expect({ selector, ...(await reachable(page, selector)) }).toMatchObject({ inside: true, uncovered: true });
    }
    const header = await page.locator('.brand').evaluate((el) => el.getBoundingClientRect().height);
    expect(header).toBeLessThan(30);
    await page.click('#setup > summary');
  });

  test('the inspector is reachable: beside the chat when wide, a tab when narrow', async () => {
    const narrow = width < 760;
    expect(await page.locator('#tabs').isVisible()).toBe(narrow);
    if (narrow) {
      expect(await page.locator('#world-view').isVisible()).toBe(false);
      await page.click('#tab-inspector');
      expect(await page.locator('#world-view').isVisible()).toBe(true);
      expect(await page.locator('#player-line').isVisible()).toBe(false);
      await page.click('#tab-chat');
    }
    expect(await page.locator('#player-line').isVisible()).toBe(true);
    expect((await reachable(page, '#player-line')).uncovered).toBe(true);
  });
});

test('a 20,000-character word wraps inside its bubble instead of overflowing it', async () => {
  const page = await browser.newPage({ viewport: { width: 520, height: 720 }, deviceScaleFactor: 1 });
  await page.goto(server.url);
  await page.waitForSelector('#send:not([disabled])');
  await page.fill('#player-line', 'x'.repeat(20000));
  await page.press('#player-line', 'Enter');
  await page.waitForSelector('.msg.player .text');
  const fit = await page
    .locator('.msg.player .text')
    .last()
    .evaluate((el) => ({
      scroll: el.scrollWidth,
      client: el.clientWidth,
      chat: (el.closest('.chat') as HTMLElement).scrollWidth - (el.closest('.chat') as HTMLElement).clientWidth,
    }));
  expect(fit.scroll).toBeLessThanOrEqual(fit.client + 1);
  expect(fit.chat).toBeLessThanOrEqual(1);
  await page.close();
});
