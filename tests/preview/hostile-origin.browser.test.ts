/**
 * The preview page against a website on another origin (issue 29, item 4), in headless
 * Chromium: the site cannot frame the preview, a preview it opened ignores its set-up
 * messages, the editor's way in (a file page embedding the file preview) still works, and the
 * server refuses a Host that is not 127.0.0.1 or localhost (DNS rebinding).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { startPreviewServer, type RunningPreview } from '../../preview/preview-server';
import { EMBED_MESSAGE_TYPE } from '../../preview/page/embed-message';
import { chromiumLaunchOptions } from '../support/chromium';

jest.setTimeout(120000);

const ROOT = resolve(__dirname, '../..');
const TAKEOVER = { type: EMBED_MESSAGE_TYPE, openaiUrl: 'http://attacker.test/v1', modelKind: 'openai' };

let preview: RunningPreview;
let evil: Server;
let evilUrl: string;
let browser: Browser;
let outDir: string;

beforeAll(async () => {
  const launchOptions = chromiumLaunchOptions();
  outDir = mkdtempSync(join(tmpdir(), 'oam-hostile-'));
  preview = await startPreviewServer({ port: 0, root: ROOT, outDir: join(outDir, 'site') });
  const page = `<!doctype html><title>another site</title>
    <iframe id="framed" src="${preview.url}"></iframe>
    <script>
      window.openPreview = () => { window.opened = window.open(${JSON.stringify(preview.url)}); };
      window.post = () => { for (let i = 0; i < 5; i++) window.opened.postMessage(${JSON.stringify(TAKEOVER)}, '*'); };
    </script>`;
  evil = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
  await new Promise<void>((done) => evil.listen(0, '127.0.0.1', () => done()));
  evilUrl = `http://localhost:${(evil.address() as { port: number }).port}/`;
  browser = await chromium.launch(launchOptions);
});

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  await new Promise((done) => evil?.close(done));
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

test('another origin cannot frame the preview', async () => {
  const page = await browser.newPage();
  await page.goto(evilUrl);
  await page.waitForTimeout(500);
  const framed = page.frames().find((frame) => frame !== page.mainFrame());
  expect(framed).toBeDefined();
  // Chromium replaces a frame its frame-ancestors policy refuses with its error page.
  expect(framed!.url()).not.toBe(preview.url);
  expect(await framed!.evaluate(() => document.getElementById('openai-url') !== null).catch(() => false)).toBe(false);
  await page.close();
});

test('a preview opened by another origin ignores its set-up messages', async () => {
  const page = await browser.newPage();
  await page.goto(evilUrl);
  const [opened] = await Promise.all([
    page.waitForEvent('popup'),
    page.evaluate(() => (window as unknown as { openPreview(): void }).openPreview()),
  ]);
  await opened.waitForSelector('.msg.npc');
  await page.evaluate(() => (window as unknown as { post(): void }).post());
  await opened.waitForTimeout(500);
  expect(await opened.inputValue('#openai-url')).toBe('');
  await page.close();
});

test('the served page ignores a server address in its query: any site could open it with one', async () => {
  const page = await browser.newPage();
  await page.goto(`${preview.url}?openaiUrl=${encodeURIComponent('http://attacker.test/v1')}`);
  await page.waitForSelector('.msg.npc');
  expect(await page.inputValue('#openai-url')).toBe('');
  await page.close();
});

test("the editor's way in still works: a file page embedding the file preview sets it up", async () => {
  const parent = join(outDir, 'site', 'panel.html');
  const framedPage = pathToFileURL(join(outDir, 'site', 'index.html')).href;
  writeFileSync(
    parent,
    `<!doctype html><iframe id="f" src="${framedPage}" style="width:1000px;height:800px"></iframe>
     <script>
       window.setUp = () => document.getElementById('f').contentWindow.postMessage(
         { type: '${EMBED_MESSAGE_TYPE}', openaiUrl: 'http://127.0.0.1:8080/v1' }, '*');
     </script>`,
  );
  const page = await browser.newPage();
  await page.goto(pathToFileURL(parent).href);
  const frame = page.frames().find((candidate) => candidate.url() === framedPage);
  expect(frame).toBeDefined();
  await frame!.waitForSelector('.msg.npc');
  await page.evaluate(() => (window as unknown as { setUp(): void }).setUp());
  await frame!.waitForFunction(() => (document.getElementById('openai-url') as HTMLInputElement).value !== '');
  expect(await frame!.inputValue('#openai-url')).toBe('http://127.0.0.1:8080/v1');
  await page.close();
});

test.each([
  ['attacker.test', 403],
  ['127.0.0.1', 200],
  ['localhost', 200],
])('Host %s answers %d', async (host, status) => {
  const got = await new Promise<{ status: number; frame?: string }>((done, fail) => {
    const req = request(
      { host: '127.0.0.1', port: preview.port, path: '/', headers: { host: `${host}:${preview.port}` } },
      (res) => {
        res.resume();
        done({ status: res.statusCode ?? 0, frame: res.headers['content-security-policy'] as string | undefined });
      },
    );
    req.on('error', fail);
    req.end();
  });
  expect(got.status).toBe(status);
  if (status === 200) expect(got.frame).toBe("frame-ancestors 'self'");
});
