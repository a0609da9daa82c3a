/**
 * `npm run demo` as a user runs it: with another persona it answers from that persona (never
 * Mira's tavern lines), and a server that accepts the connection but never answers is reported
 * after the connection check instead of leaving the terminal silent.
 */
import { spawnSync, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

jest.setTimeout(120000);
const ROOT = resolve(__dirname, '../..');

function runDemo(args: string[]): Promise<{ status: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['scripts/run-ts.mjs', 'demo/tavern.ts', '--fast', ...args], { cwd: ROOT });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      out += String(chunk);
    });
    child.on('close', (status) => done({ status, out }));
  });
}

test('--persona: a blacksmith answers as the blacksmith, from his own lines, and the page says it is a stand-in', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oam-demo-'));
  const file = join(dir, 'gorm.persona');
  writeFileSync(
    file,
    JSON.stringify({
      name: 'Gorm',
      role: 'the village blacksmith',
      greeting: 'Mind the sparks.',
      knowledge: ['The old mine in the hills still has iron'],
      fallbackLines: ['Hrm.'],
    }),
  );
  const { status, out } = await runDemo(['--persona', file]);
  expect(status).toBe(0);
  expect(out).toContain('Keyword stand-in: it answers by matching words');
  expect(out).toContain("Gorm: I'm Gorm, the village blacksmith.");
  expect(out).toContain('Gorm: The old mine in the hills still has iron.');
  expect(out).not.toMatch(/ale|stew|Crooked Lantern|Mira/);
});

test('--url: a server that never answers is reported after the connection check', async () => {
  const hanging: Server = createServer(() => undefined);
  await new Promise<void>((done) => hanging.listen(0, '127.0.0.1', () => done()));
  const port = (hanging.address() as { port: number }).port;
  try {
    const { status, out } = await runDemo(['--url', `http://127.0.0.1:${port}/v1`]);
    expect(status).toBe(1);
    expect(out).toContain(`checking http://127.0.0.1:${port}/v1 (up to 5 s)`);
    expect(out).toContain('is not reachable (no answer: nothing came back within 5 s)');
  } finally {
    hanging.closeAllConnections();
    hanging.close();
  }
});

test('a broken persona file is refused with its problems before anything runs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oam-demo-'));
  const file = join(dir, 'bad.persona');
  writeFileSync(file, JSON.stringify({ role: 'no name' }));
  const run = spawnSync(process.execPath, ['scripts/run-ts.mjs', 'demo/tavern.ts', '--fast', '--persona', file], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(run.status).toBe(1);
  expect(`${run.stdout}${run.stderr}`).toMatch(/demo: .*name/);
});

test('a persona file with a byte-order mark plays; one with a syntax error names its line and column', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oam-demo-'));
  const withBom = join(dir, 'ferry.persona');
  writeFileSync(withBom, `\ufeff${JSON.stringify({ name: 'Zoë', role: 'the ferry keeper' })}`);
  const played = spawnSync(process.execPath, ['scripts/run-ts.mjs', 'demo/tavern.ts', '--fast', '--persona', withBom], {
    cwd: ROOT,
    encoding: 'utf8',
    input: '',
  });
  expect(played.status).toBe(0);
  expect(played.stdout).toContain('Zoë');
  const broken = join(dir, 'broken.persona');
  writeFileSync(broken, '{"name": "Zoë",\n "role": }');
  const refused = spawnSync(process.execPath, ['scripts/run-ts.mjs', 'demo/tavern.ts', '--fast', '--persona', broken], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(refused.status).toBe(1);
  expect(`${refused.stdout}${refused.stderr}`).toMatch(/line 2, column 10/);
});
