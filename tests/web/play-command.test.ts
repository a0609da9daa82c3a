/**
 * `npm run play` around the browser: its command line, the server that serves the site (only
 * the site folder, only to 127.0.0.1/localhost, the --url options handed to the page), and the
 * project settings it builds the engine from, which must select the legacy render pipeline the
 * browser suite plays (tests/play/). The scripts are ES modules, so they run in a child Node.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const REPO = join(__dirname, '..', '..');
const WEB = (name: string) => pathToFileURL(join(REPO, 'scripts', 'web', name)).href;

function runModule(program: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' });
}

function play(...args: string[]) {
  return spawnSync(process.execPath, [join(REPO, 'scripts', 'web', 'play.mjs'), ...args], { encoding: 'utf8' });
}

describe('the command line', () => {
  test.each([
    [['--port', 'abc'], /--port needs 0–65535, got abc/],
    [['--port'], /--port needs a value/],
    [['--url', 'ftp://x'], /--url must start with http:\/\/ or https:\/\//],
    [['--model', 'gemma'], /--model needs --url/],
    [['--open'], /unknown argument --open/],
    [['--port', ''], /--port needs a value/],
    [['--port=-1'], /--port needs 0–65535, got -1/],
  ])('%j is refused before anything is built', (args, message) => {
    const run = play(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/usage: npm run play/);
    expect(run.stdout).toBe('');
  });

  test('--help prints the usage', () => {
    const run = play('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^usage: npm run play -- \[--port N\] \[--url/);
  });

  test('a port in use is said at once, before a build that may take a minute', async () => {
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', () => done()));
    const port = (taken.address() as { port: number }).port;
    try {
      const run = await new Promise<{ status: number | null; stderr: string; stdout: string }>((done) => {
        const child = require('node:child_process').spawn(
          process.execPath,
          [join(REPO, 'scripts', 'web', 'play.mjs'), '--port', String(port)],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let stderr = '';
        let stdout = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
        child.on('exit', (status: number | null) => done({ status, stderr, stdout }));
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(`play: port ${port} on 127.0.0.1 is in use; pass --port N (0 picks a free one).\n`);
      expect(run.stdout).toBe('');
    } finally {
      taken.close();
    }
  });

  test('the arguments are read as a player gave them', () => {
    const out = runModule(`
      const { readPlayArguments } = await import(${JSON.stringify(WEB('play.mjs'))});
      console.log(JSON.stringify([
        readPlayArguments([]),
        readPlayArguments(['--port', '0', '--url', 'http://127.0.0.1:8080/v1', '--model', 'gemma-3n']),
        readPlayArguments(['--port=8000', '--url=http://127.0.0.1:8080/v1?a=b'])]));`);
    expect(JSON.parse(out)).toEqual([
      { port: 7457 },
      { port: 0, openaiUrl: 'http://127.0.0.1:8080/v1', model: 'gemma-3n' },
      { port: 8000, openaiUrl: 'http://127.0.0.1:8080/v1?a=b' },
    ]);
  });
});

describe('the server', () => {
  let site: string;
  beforeAll(() => {
    site = mkdtempSync(join(tmpdir(), 'oam-site-'));
    mkdirSync(join(site, 'src'));
    writeFileSync(join(site, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(join(site, 'src', 'settings.json'), '{"a":1}');
    writeFileSync(join(site, 'play-options.json'), '{"componentsModule":"file:///x/index.ts"}');
    writeFileSync(join(site, '..', 'outside-secret.txt'), 'secret');
  });
  afterAll(() => {
    rmSync(site, { recursive: true, force: true });
    rmSync(join(site, '..', 'outside-secret.txt'), { force: true });
  });

  test('serves the site and nothing else, to 127.0.0.1 and localhost only', () => {
    const out = runModule(`
      import { request } from 'node:http';
      const { serveSite } = await import(${JSON.stringify(WEB('serve-site.mjs'))});
      const running = await serveSite({ siteDir: ${JSON.stringify(site)}, options: { openaiUrl: 'http://127.0.0.1:8080/v1', model: 'm' } });
      const get = (path, host = '127.0.0.1:' + running.port, method = 'GET') => new Promise((resolve) => {
        const req = request({ host: '127.0.0.1', port: running.port, path, method, headers: { host } }, (res) => {
          let body = ''; res.on('data', (c) => (body += c)); res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], body }));
        });
        req.end();
      });
      const results = {
        page: await get('/'),
        settings: await get('/src/settings.json'),
        options: await get('/play-options.json'),
        traversal: await get('/../outside-secret.txt'),
        encoded: await get('/%2e%2e/outside-secret.txt'),
        folder: await get('/src/'),
        rebinding: await get('/', 'evil.example:' + running.port),
        localhost: await get('/', 'localhost:' + running.port),
        post: await get('/', undefined, 'POST'),
      };
      await running.close();
      console.log(JSON.stringify(results));`);
    const results = JSON.parse(out);
    expect(results.page).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(results.settings).toMatchObject({ status: 200, body: '{"a":1}' });
    expect(JSON.parse(results.options.body)).toEqual({
      componentsModule: 'file:///x/index.ts',
      openaiUrl: 'http://127.0.0.1:8080/v1',
      model: 'm',
    });
    expect(results.traversal.status).toBe(404);
    expect(results.encoded.status).toBe(404);
    expect(results.encoded.body).not.toContain('secret');
    expect(results.folder.status).toBe(404);
    expect(results.rebinding.status).toBe(403);
    expect(results.localhost.status).toBe(200);
    expect(results.post.status).toBe(405);
  });
});

describe('the project settings the engine is built from', () => {
  const features = (project: string) =>
    runModule(`
      const { projectEngineFeatures } = await import(${JSON.stringify(WEB('project-settings.mjs'))});
      try { console.log(JSON.stringify(projectEngineFeatures(${JSON.stringify(project)}))); }
      catch (error) { console.log(JSON.stringify({ error: error.message })); }`);

  test('the tavern selects the legacy render pipeline, so a real Creator build plays what the browser suite plays', () => {
    expect(JSON.parse(features(join(REPO, 'samples', 'tavern')))).toEqual([
      '2d',
      'base',
      'gfx-webgl',
      'gfx-webgl2',
      'legacy-pipeline',
      'ui',
    ]);
  });

  test.each([
    [
      'the custom pipeline (Creator 3.8.5’s default)',
      ['2d', 'base', 'custom-pipeline', 'ui'],
      /legacy render pipeline only/,
    ],
    ['no modules at all', [], /lists no includeModules/],
  ])('a project with %s is refused with what to change', (_what, includeModules, message) => {
    const project = mkdtempSync(join(tmpdir(), 'oam-project-'));
    mkdirSync(join(project, 'settings', 'v2', 'packages'), { recursive: true });
    writeFileSync(
      join(project, 'settings', 'v2', 'packages', 'engine.json'),
      JSON.stringify({ modules: { globalConfigKey: 'defaultConfig', configs: { defaultConfig: { includeModules } } } }),
    );
    try {
      expect(JSON.parse(features(project)).error).toMatch(message);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});

describe('the extension it installs into the sample', () => {
  test('is built first on a fresh clone, and again after its sources change', () => {
    const repo = mkdtempSync(join(tmpdir(), 'oam-repo-'));
    const write = (path: string, seconds: number) => {
      mkdirSync(join(repo, path, '..'), { recursive: true });
      writeFileSync(join(repo, path), 'x');
      utimesSync(join(repo, path), seconds, seconds);
    };
    const stale = () =>
      runModule(`
        const { staleOutputs } = await import(${JSON.stringify(WEB('ensure-built.mjs'))});
        console.log(JSON.stringify(staleOutputs(${JSON.stringify(repo)})));`);
    try {
      write('src/bundle.ts', 1000);
      write('extension/main.ts', 1000);
      expect(JSON.parse(stale())).toBe('assets/runtime/oam-core.js is missing');
      write('assets/runtime/oam-core.js', 2000);
      write('dist/main.js', 2000);
      expect(JSON.parse(stale())).toBe('');
      write('src/game/new-file.ts', 3000);
      expect(JSON.parse(stale())).toBe('src/ changed since assets/runtime/oam-core.js was built');
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
