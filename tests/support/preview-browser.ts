/**
 * The preview page served on a free loopback port and headless Chromium, for the page's browser
 * tests: `usePreview()` starts both before a file's tests and closes them after; `open()` gives a
 * page at a viewport, loaded and ready to talk.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startPreviewServer, type RunningPreview } from '../../preview/preview-server';
import { chromiumLaunchOptions } from './chromium';

export const ROOT = resolve(__dirname, '../..');

export interface PreviewBrowser {
  /** A new page at `width`×`height`, the page loaded and its Say button ready. */
  open(width: number, height: number): Promise<Page>;
}

export function usePreview(): PreviewBrowser {
  let server: RunningPreview | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startPreviewServer({ port: 0, root: ROOT, outDir: mkdtempSync(join(tmpdir(), 'oam-preview-')) });
    browser = await chromium.launch(chromiumLaunchOptions()); // throws (apt-get install -y chromium) when missing
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    async open(width, height) {
      if (!browser || !server) throw new Error('usePreview(): open() before the browser started');
      const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
      await page.goto(server.url);
      await page.waitForSelector('#send:not([disabled])');
      return page;
    },
  };
}
