/**
 * `--chrome`: Chrome's built-in model (the Prompt API's `LanguageModel`), driven through
 * playwright-core. A loopback server serves eval/chrome-page.ts to the browser; every model
 * step the scenarios take in Node is run there by ChromePromptModel and streamed back chunk by
 * chunk. When the browser has no `LanguageModel`, or has one that cannot run here (Debian's
 * Chromium on this machine answers `device_not_eligible`), the eval stops at once and says so.
 */
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
  AgentError,
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
  type ModelAvailability,
  type ModelCapabilities,
  type SignalLike,
} from '../src';
import { TargetUnavailable, type OpenedTarget } from './target';

export const BROWSER_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

export interface ChromeTargetOptions {
  /** The browser to launch; default CHROME_PATH, CHROMIUM_PATH, then the usual Debian paths. */
  executablePath?: string;
  /** Show the window (whether Chrome's model runs headless was not checked here). */
  headed: boolean;
  env?: Record<string, string | undefined>;
  /**
   * A script the page runs before its own. The tests install the Prompt API stand-in with it
   * to check this bridge; a user has no reason to set it.
   */
  initScript?: string;
}

type ChunkMessage =
  | { id: number; chunk: GenerationChunk }
  | { id: number; error: { code: string; message: string } }
  | { id: number; done: true };

interface PageApi {
  OamEval: {
    hasPromptApi(): boolean;
    availability(): Promise<ModelAvailability>;
    capabilities(): ModelCapabilities;
    start(id: number, request: GenerationRequest): void;
    cancel(id: number): void;
  };
}

export function findBrowser(env: Record<string, string | undefined> = process.env): string {
  const fromEnv = (env.CHROME_PATH || env.CHROMIUM_PATH || '').trim();
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new TargetUnavailable(`CHROME_PATH/CHROMIUM_PATH is ${fromEnv}, but there is no file there.`);
  }
  const found = BROWSER_CANDIDATES.find((path) => existsSync(path));
  if (found) return found;
  throw new TargetUnavailable(
    `No Chrome or Chromium found (looked at ${BROWSER_CANDIDATES.join(', ')}). ` +
      'Install Chrome 148+ with its built-in model, or point CHROME_PATH at it.',
  );
}

/** Messages from the page for one generation, read in order by its generate() loop. */
class ChunkQueue {
  private readonly items: ChunkMessage[] = [];
  private wake: (() => void) | undefined;

  push(message: ChunkMessage): void {
    this.items.push(message);
    this.wake?.();
  }

  async next(): Promise<ChunkMessage> {
    while (this.items.length === 0)
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    this.wake = undefined;
    return this.items.shift() as ChunkMessage;
  }
}

/** The browser's model as a LanguageModel in Node. */
class BrowserModel implements LanguageModel {
  private nextId = 1;
  private readonly queues = new Map<number, ChunkQueue>();

  constructor(
    private readonly page: Page,
    readonly capabilities: ModelCapabilities,
  ) {}

  deliver(message: ChunkMessage): void {
    this.queues.get(message.id)?.push(message);
  }

  availability(): Promise<ModelAvailability> {
    return this.page.evaluate(() => (globalThis as unknown as PageApi).OamEval.availability());
  }

  async *generate(request: GenerationRequest, signal?: SignalLike): AsyncGenerator<GenerationChunk, void, undefined> {
    if (signal?.aborted) throw new AgentError('cancelled', 'The step was cancelled.');
    const id = this.nextId++;
    const queue = new ChunkQueue();
    this.queues.set(id, queue);
    const cancel = () => {
      void this.page
        .evaluate((which) => (globalThis as unknown as PageApi).OamEval.cancel(which), id)
        .catch(() => undefined);
    };
    signal?.addEventListener('abort', cancel);
    let finished = false;
    try {
      await this.page.evaluate(([which, sent]) => (globalThis as unknown as PageApi).OamEval.start(which, sent), [
        id,
        request,
      ] as const);
      for (;;) {
        const message = await queue.next();
        if ('done' in message) {
          finished = true;
          return;
        }
        if ('error' in message) {
          finished = true;
          throw new AgentError(message.error.code as never, message.error.message);
        }
        yield message.chunk;
      }
    } finally {
      signal?.removeEventListener('abort', cancel);
      // The library stops reading once the JSON answer is complete: stop the browser too.
      if (!finished) cancel();
      this.queues.delete(id);
    }
  }
}

/** This folder: __dirname under jest; under scripts/run-ts.mjs (an ESM bundle) the entry's folder. */
function evalFolder(): string {
  return typeof __dirname === 'string' && existsSync(join(__dirname, 'chrome-page.ts'))
    ? __dirname
    : dirname(process.argv[1]);
}

async function servePage(): Promise<{ server: Server; url: string }> {
  const bundled = await build({
    entryPoints: [join(evalFolder(), 'chrome-page.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  });
  const script = bundled.outputFiles[0].text;
  const html =
    '<!doctype html><html><head><meta charset="utf-8"><title>oam-cocos eval</title></head>' +
    '<body><script src="/page.js"></script></body></html>';
  const server = createServer((request, response) => {
    const isScript = request.url === '/page.js';
    response.writeHead(200, { 'Content-Type': isScript ? 'text/javascript' : 'text/html' });
    response.end(isScript ? script : html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

export async function openChromeTarget(options: ChromeTargetOptions): Promise<OpenedTarget> {
  const executablePath = options.executablePath ?? findBrowser(options.env);
  const { server, url } = await servePage();
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close().catch(() => undefined);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  try {
    browser = await chromium.launch({
      executablePath,
      headless: !options.headed,
      args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
    const page = await browser.newPage();
    if (options.initScript) await page.addInitScript(options.initScript);
    // Assigned once the page is ready; the chunk callback registered before then reads it late.
    // eslint-disable-next-line prefer-const -- read by the callback before its one assignment
    let model: BrowserModel | undefined;
    await page.exposeFunction('oamEvalChunk', (message: ChunkMessage) => model?.deliver(message));
    await page.goto(url);
    await page.waitForFunction(() => !!(globalThis as unknown as Partial<PageApi>).OamEval);
    const hasApi = await page.evaluate(() => (globalThis as unknown as PageApi).OamEval.hasPromptApi());
    const browserVersion = browser.version();
    if (!hasApi) {
      throw new TargetUnavailable(
        `${executablePath} (${browserVersion}) has no Prompt API: LanguageModel is not defined on the page. ` +
          "Nothing was evaluated. Chrome's built-in model needs desktop Chrome 148+ (CHROME_PATH) with the model " +
          'downloaded; or use --url with a local server.',
      );
    }
    const availability = await page.evaluate(() => (globalThis as unknown as PageApi).OamEval.availability());
    if (availability.status !== 'available') {
      const detail =
        availability.status === 'unavailable'
          ? `${availability.reason}${availability.detail ? `: ${availability.detail}` : ''}`
          : availability.status;
      throw new TargetUnavailable(
        `Chrome's built-in model is not available in ${executablePath} (${browserVersion}): the page has ` +
          `LanguageModel, but it answers ${detail}. Nothing was evaluated. Run --chrome with a desktop Chrome 148+ ` +
          '(CHROME_PATH) on a machine where chrome://on-device-internals shows the model ready, or use --url with a ' +
          'local server.',
      );
    }
    const capabilities = await page.evaluate(() => (globalThis as unknown as PageApi).OamEval.capabilities());
    model = new BrowserModel(page, capabilities);
    return {
      model,
      info: { kind: 'chrome', where: `${executablePath} (${browserVersion})`, model: capabilities.modelName },
      close,
    };
  } catch (error) {
    await close();
    if (error instanceof TargetUnavailable) throw error;
    throw new TargetUnavailable(`Could not drive ${executablePath}: ${(error as Error).message.split('\n')[0]}`);
  }
}
