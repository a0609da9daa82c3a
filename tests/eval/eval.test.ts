/**
 * `npm run eval` end to end against a loopback server that replays a recording
 * (tests/eval/fixtures/small-model.json: hand-written answers a small model plausibly gives,
 * with wrong first actions, a malformed envelope that needs a repair and content that ends in a
 * fallback), over server-sent events and over whole JSON answers. The assertions are on counts
 * (right first action k/n, checks, repairs, fallbacks) and on the report's shape, never on
 * times. No real model runs here.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../../eval/cli';
import { readRecording, type Recording } from '../../eval/recording';
import type { EvalReport } from '../../eval/report';
import { barkProblem } from '../../eval/scenarios';
import { firstTries, percentile } from '../../eval/scoring';
import { ReplayServer } from './replay-server';

jest.setTimeout(120000);
const ROOT = resolve(__dirname, '../..');
const FIXTURE = join(__dirname, 'fixtures', 'small-model.json');

const recordingFixture = (): Recording => readRecording(JSON.parse(readFileSync(FIXTURE, 'utf8')));

interface CliRun {
  status: number;
  out: string;
  err: string;
}

/** A clock that moves 10 ms each time it is read: times are deterministic, and never asserted. */
function steppingClock(): () => number {
  let now = 0;
  return () => (now += 10);
}

async function evalAgainst(recording: Recording, args: string[]): Promise<CliRun & { server: ReplayServer }> {
  const server = new ReplayServer({ recording });
  const url = await server.start();
  const out: string[] = [];
  const err: string[] = [];
  try {
    const status = await runCli({
      argv: ['--url', url, '--model', 'replay', ...args],
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      clock: steppingClock(),
    });
    return { status, out: out.join('\n'), err: err.join('\n'), server };
  } finally {
    await server.stop();
  }
}

/** The table's counting columns per row (the scenario's title → its cells up to `calls`), times left out. */
function countsOf(out: string): Record<string, string[]> {
  const rows: Record<string, string[]> = {};
  for (const line of out.split('\n')) {
    const match = /^(.+?)\s{2,}(\d+)\s{2,}(.+)$/.exec(line);
    if (!match || line.startsWith('scenario')) continue;
    const cells = match[3].split(/\s{2,}/);
    rows[match[1].trim()] = [match[2], ...cells.slice(0, -2)];
  }
  return rows;
}

// items, right first action, check, valid first try, repairs, fallbacks, errors, calls
const EXPECTED: Record<string, string[]> = {
  'innkeeper, right action per line': ['12', '10/12 (83%)', '10/12 (83%)', '20/21 (95%)', '1', '0', '0', '22'],
  'forced tool, arguments': ['9', '9/9 (100%)', '8/9 (89%)', '18/18 (100%)', '0', '0', '0', '18'],
  'guard, five tools': ['15', '13/15 (87%)', '13/15 (87%)', '30/30 (100%)', '0', '0', '0', '30'],
  'NPC structured reply, facts': ['9', '7/9 (78%)', '7/9 (78%)', '12/12 (100%)', '0', '0', '0', '12'],
  decisions: ['9', '-', '8/9 (89%)', '8/9 (89%)', '1', '0', '0', '10'],
  barks: ['9', '-', '7/9 (78%)', '9/9 (100%)', '0', '0', '0', '9'],
  content: ['6', '-', '5/6 (83%)', '4/6 (67%)', '2', '1', '0', '8'],
  total: ['69', '39/45 (87%)', '58/69 (84%)', '101/105 (96%)', '4', '1', '0', '109'],
};

describe('npm run eval against the replay server', () => {
  let dir: string;
  let streamed: CliRun & { server: ReplayServer };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'oam-eval-test-'));
    streamed = await evalAgainst(recordingFixture(), [
      '--report',
      join(dir, 'report.json'),
      '--record',
      join(dir, 'recording.json'),
    ]);
  });

  test('plays every recorded answer in order and prints the score table with the expected counts', () => {
    expect(streamed.status).toBe(0);
    expect(streamed.server.problems).toEqual([]);
    expect(streamed.server.remaining).toBe(0);
    expect(streamed.server.requests.filter((request) => request.body?.stream === true)).toHaveLength(109);
    expect(streamed.out).toMatch(/^Live eval: replay on http:\/\/127\.0\.0\.1:\d+\/v1, 3 runs per scenario/);
    expect(streamed.out.split('\n').find((line) => line.startsWith('scenario'))).toMatch(
      new RegExp(
        '^scenario\\s+items\\s+right first action\\s+check\\s+valid first try' +
          '\\s+repairs\\s+fallbacks\\s+errors\\s+calls\\s+p50\\s+p90$',
      ),
    );
    expect(countsOf(streamed.out)).toEqual(EXPECTED);
    // Progress goes to stderr, one line per item, misses marked.
    expect(streamed.err).toContain(
      'innkeeper #2 MISS "Good evening! Lovely fire you have going." → first: check_menu; ' +
        'check_menu first, expected reply',
    );
    expect(streamed.err).toContain(
      'content #3 MISS "Create the reward for clearing the rats out of the cellar." → fallback content',
    );
  });

  test('the JSON report has every run: scores as in the table, and each item with its model steps', () => {
    expect(streamed.out).toContain(`report: ${join(dir, 'report.json')}`);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as EvalReport;
    expect(report).toMatchObject({
      format: 'oam-eval-report',
      version: 1,
      runs: 3,
      target: { kind: 'openai-compatible', model: 'replay' },
    });
    expect(typeof report.startedAt).toBe('string');
    expect(report.scenarios.map((scenario) => scenario.id)).toEqual([
      'innkeeper',
      'forced-tool',
      'guard',
      'npc-facts',
      'decision',
      'bark',
      'content',
    ]);
    expect(report.totals).toMatchObject({
      items: 69,
      firstAction: { right: 39, of: 45 },
      checks: { right: 58, of: 69 },
      repairs: 4,
      fallbacks: 1,
      errors: 0,
      modelCalls: 109,
    });
    for (const scenario of report.scenarios) {
      expect(scenario.details).toHaveLength(scenario.items);
      expect(typeof scenario.rule).toBe('string');
      expect(Object.keys(scenario.latencyMs).sort()).toEqual(['p50', 'p90']);
      expect(new Set(scenario.details.map((item) => item.run))).toEqual(new Set([1, 2, 3]));
    }
    const innkeeper = report.scenarios[0];
    expect(innkeeper).toMatchObject({ firstAction: { right: 10, of: 12 }, repairs: 1, fallbacks: 0 });
    // The malformed envelope and its repair, as the model wrote them.
    const repaired = innkeeper.details.find((item) => item.steps.some((step) => step.isRepair));
    expect(repaired).toMatchObject({ run: 2, input: 'Two ales, please.', firstAction: 'take_order', pass: true });
    expect(repaired?.steps.map((step) => [step.kind, step.isRepair, step.output])).toEqual([
      ['decide', false, '{"tool": "take_order", "args": {"item": "ale", "quantity": "two"}}'],
      ['decide', true, '{"tool": "take_order", "args": {"item": "ale", "quantity": 2}}'],
      ['decide', false, 'Here you go, two ales for 6 gold.'],
    ]);
    const fallback = report.scenarios[6].details.find((item) => item.fallback);
    expect(fallback).toMatchObject({
      run: 3,
      pass: false,
      detail: 'fallback content',
      output: '{"name":"Dusty bottle","rarity":"common","value":2}',
    });
    expect(fallback?.steps.filter((step) => step.isRepair)).toHaveLength(1);
  });

  test('--record writes a recording that replays to the same scores, over whole JSON answers too', async () => {
    expect(streamed.out).toContain(`recording: ${join(dir, 'recording.json')}`);
    const recorded = readRecording(JSON.parse(readFileSync(join(dir, 'recording.json'), 'utf8')));
    expect(recorded.exchanges).toHaveLength(109);
    // Each answer as far as the library read it: it stops at the closing brace, before a fence's closing ```.
    const original = recordingFixture().exchanges;
    const cut = recorded.exchanges.filter((exchange, index) => exchange.output !== original[index].output);
    expect(cut.map((exchange) => exchange.output)).toEqual([
      '```json\n{"name": "Cellar Master\'s Ring", "rarity": "rare", "value": 35}\n',
    ]);
    expect(
      recorded.exchanges.map((exchange) => [
        exchange.scenario,
        exchange.run,
        exchange.expect,
        exchange.kind,
        exchange.isRepair,
      ]),
    ).toEqual(
      original.map((exchange) => [exchange.scenario, exchange.run, exchange.expect, exchange.kind, exchange.isRepair]),
    );
    const whole = await evalAgainst(recorded, ['--no-stream', '--report', join(dir, 'again.json')]);
    expect(whole.status).toBe(0);
    expect(whole.server.problems).toEqual([]);
    expect(whole.server.requests.filter((request) => request.body?.stream === false)).toHaveLength(109);
    expect(countsOf(whole.out)).toEqual(EXPECTED);
  });
});

describe('npm run eval refuses clearly', () => {
  const run = async (argv: string[]): Promise<CliRun> => {
    const out: string[] = [];
    const err: string[] = [];
    const status = await runCli({
      argv,
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      checkTimeoutMs: 2000,
    });
    return { status, out: out.join('\n'), err: err.join('\n') };
  };

  test('--url where nothing listens: exit 1 with what to start', async () => {
    const server = new ReplayServer({ recording: recordingFixture() });
    const url = await server.start();
    await server.stop(); // the port is free again: nothing answers there
    const result = await run(['--url', url, '--model', 'qwen']);
    expect(result.status).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toContain(`Nothing usable answers at ${url}`);
    expect(result.err).toContain('llama-server -m');
    expect(result.err).toContain('ollama serve');
    expect(result.err).toContain('LM Studio');
  });

  test('--url where a server accepts and never answers: the short check gives up and says so', async () => {
    const hanging: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/v1`;
    try {
      const out: string[] = [];
      const err: string[] = [];
      const status = await runCli({
        argv: ['--url', url, '--model', 'qwen'],
        out: (line) => out.push(line),
        err: (line) => err.push(line),
        checkTimeoutMs: 300,
      });
      expect(status).toBe(1);
      expect(err.join('\n')).toContain(`checking ${url} (up to 0.3 s)`);
      expect(err.join('\n')).toContain(
        `Nothing usable answers at ${url} (GET /models: no answer: nothing came back within 0.3 s)`,
      );
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });

  test('usage errors: exit 2 with the usage', async () => {
    expect((await run([])).err).toContain('give either --url (an OpenAI-compatible server) or --chrome');
    expect((await run(['--url', 'http://127.0.0.1:9/v1'])).err).toContain('--url needs --model');
    const unknown = await run(['--chrome', '--only', 'dragons']);
    expect(unknown.status).toBe(2);
    expect(unknown.err).toContain('unknown scenario dragons');
    expect(unknown.err).toContain('usage: npm run eval --');
    expect((await run(['--url', 'http://127.0.0.1:9/v1', '--model', 'm', '--runs', '0'])).status).toBe(2);
  });

  test('a replay that goes out of step is refused by the server and counted as errors', async () => {
    const recording = recordingFixture();
    const result = await evalAgainst(
      { ...recording, exchanges: recording.exchanges.filter((exchange) => exchange.scenario === 'content') },
      ['--only', 'bark', '--runs', '1'],
    );
    expect(result.status).toBe(0);
    expect(result.server.problems[0]).toContain('replay out of step at exchange 0 (content run 1, structured)');
    expect(countsOf(result.out).barks).toEqual(['3', '-', '0/3 (0%)', '0/3 (0%)', '0', '0', '3', '3']);
  });
});

test('the package script runs eval/index.ts as a user runs it', async () => {
  const recording = recordingFixture();
  const server = new ReplayServer({
    recording: {
      ...recording,
      exchanges: recording.exchanges.filter((exchange) => exchange.scenario === 'bark' && exchange.run === 1),
    },
  });
  const url = await server.start();
  try {
    const result = await new Promise<CliRun>((done) => {
      const child = spawn(
        process.execPath,
        [
          'scripts/run-ts.mjs',
          'eval/index.ts',
          '--url',
          url,
          '--model',
          'replay',
          '--only',
          'bark',
          '--runs',
          '1',
          '--report',
          join(mkdtempSync(join(tmpdir(), 'oam-eval-cli-')), 'r.json'),
        ],
        { cwd: ROOT },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (data) => {
        out += String(data);
      });
      child.stderr.on('data', (data) => {
        err += String(data);
      });
      child.on('close', (status) => done({ status: status ?? -1, out, err }));
    });
    expect(result.err).toContain('eval: 1 scenarios × 1 runs');
    expect(result.status).toBe(0);
    expect(countsOf(result.out).barks).toEqual(['3', '-', '3/3 (100%)', '3/3 (100%)', '0', '0', '0', '3']);
    expect(server.remaining).toBe(0);
  } finally {
    await server.stop();
  }
});

describe('scoring rules', () => {
  test('a bark is one plain line: labels, tags, quotes, extra lines and long lines are misses', () => {
    expect(barkProblem('Rain again! Bring those boots in.', 'Mira')).toBeUndefined();
    expect(barkProblem('Mira: "Ah, music!"', 'Mira')).toBe('speaker label');
    expect(barkProblem('[happy] Ah, music!', 'Mira')).toBe('tag in front');
    expect(barkProblem('"Ah, music!"', 'Mira')).toBe('quoted');
    expect(barkProblem('Oh no!\nA cloth!', 'Mira')).toBe('2 lines');
    expect(barkProblem('word '.repeat(30), 'Mira')).toBe('30 words');
    expect(barkProblem('  ', 'Mira')).toBe('empty');
  });

  test('a first try is valid unless a repair follows it or it failed; percentiles are nearest-rank', () => {
    const step = (isRepair: boolean, error?: boolean) => ({
      kind: 'decide' as const,
      isRepair,
      output: '',
      ms: 0,
      ...(error ? { error: { code: 'busy', message: 'busy' } } : {}),
    });
    expect(firstTries([step(false), step(true), step(false)])).toEqual({ right: 1, of: 2 });
    expect(firstTries([step(false, true), step(false)])).toEqual({ right: 1, of: 2 });
    expect(percentile([5, 1, 4, 2, 3], 0.5)).toBe(3);
    expect(percentile([5, 1, 4, 2, 3], 0.9)).toBe(5);
    expect(percentile([], 0.5)).toBe(0);
  });
});
