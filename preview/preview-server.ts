/**
 * A tiny static server for the built preview page, on the loopback interface only. The page
 * talks to OpenAI-compatible servers itself (from the browser), so this server has no API. It
 * answers only requests addressed to 127.0.0.1 or localhost (DNS rebinding), and its page may
 * be framed by its own origin only.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildPreviewPage, PAGE_FILES, type BuildPageOptions } from './build-page';

export interface PreviewServerOptions extends BuildPageOptions {
  /** 0 picks a free port. */
  port: number;
}

export interface RunningPreview {
  url: string;
  port: number;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

export async function startPreviewServer(options: PreviewServerOptions): Promise<RunningPreview> {
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new Error(`port must be a whole number from 0 to 65535, got ${String(options.port)}.`);
  }
  const dir = await buildPreviewPage(options);
  let allowedHosts: string[] = [];
  const server = createServer((req, res) => {
    // DNS rebinding: a website whose name resolves to 127.0.0.1 reaches this port with its own Host.
    if (!allowedHosts.includes(String(req.headers.host ?? '').toLowerCase())) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('Only 127.0.0.1 and localhost.\n');
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    const name = path === '/' ? 'index.html' : path.slice(1);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (!(PAGE_FILES as readonly string[]).includes(name)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`Not found: ${path}\n`);
      return;
    }
    readFile(join(dir, name)).then(
      (body) => {
        res.writeHead(200, {
          'content-type': TYPES[name.split('.').pop() as string],
          'cache-control': 'no-store',
          // Another origin may not frame the preview (it could read what the designer types).
          'content-security-policy': "frame-ancestors 'self'",
          'x-frame-options': 'SAMEORIGIN',
          'x-content-type-options': 'nosniff',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: Error) => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${error.message}\n`);
      },
    );
  });
  const port = await listen(server, options.port);
  allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const url = `http://127.0.0.1:${port}/`;
  return {
    url,
    port,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolvePort, reject) => {
    server.once('error', (failure: NodeJS.ErrnoException) => {
      reject(failure.code === 'EADDRINUSE' ? new Error(`Port ${port} is in use; pick another with --port.`) : failure);
    });
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolvePort(typeof address === 'object' && address ? address.port : port);
    });
  });
}
