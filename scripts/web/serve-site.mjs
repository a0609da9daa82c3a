// Serves a built site on 127.0.0.1: static files only, no directory listings, nothing outside
// the site folder, and only requests addressed to 127.0.0.1 or localhost (a website whose name
// resolves to 127.0.0.1 would otherwise reach it: DNS rebinding). `play-options.json` carries
// what `npm run play` was given (--url, --model) to the page.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.map': 'application/json; charset=utf-8',
};

function fileFor(siteDir, url) {
  let path;
  try {
    path = decodeURIComponent(new URL(url, 'http://127.0.0.1').pathname);
  } catch {
    return null;
  }
  if (path.endsWith('/')) path += 'index.html';
  const full = normalize(join(siteDir, path));
  if (!full.startsWith(siteDir + sep)) return null;
  return existsSync(full) && statSync(full).isFile() ? full : null;
}

/**
 * Starts the server; resolves { url, port, close() }. `options`: { openaiUrl?, model? } for the
 * page. Port 0 picks a free one.
 */
export function serveSite({ siteDir, port = 0, options = {} }) {
  const root = resolve(siteDir);
  let allowedHosts = [];
  const server = createServer((req, res) => {
    if (!allowedHosts.includes(String(req.headers.host || '').toLowerCase())) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('Only 127.0.0.1 and localhost.\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const file = fileFor(root, req.url || '/');
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.\n');
      return;
    }
    const headers = { 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' };
    if (file === join(root, 'play-options.json')) {
      const body = JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), ...options });
      res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    if (req.method === 'HEAD') {
      res.writeHead(200, headers).end();
      return;
    }
    // The file may go between the look and the read (a rebuild of the site): answer 404, do not crash.
    const stream = createReadStream(file);
    stream.once('open', () => {
      res.writeHead(200, headers);
      stream.pipe(res);
    });
    stream.once('error', () => {
      if (!res.headersSent) res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not found.\n');
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const bound = server.address().port;
      allowedHosts = [`127.0.0.1:${bound}`, `localhost:${bound}`];
      resolve({
        url: `http://127.0.0.1:${bound}/`,
        port: bound,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
