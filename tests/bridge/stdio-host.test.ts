/**
 * The stdio host (demo/bridge-stdio.ts) and its line splitter under a hostile client (issue 29,
 * item 9): a line past 4 MiB is dropped as it streams and answered once, 20,000 pipelined
 * requests are each answered once, and when stdin closes while a tool/call waits, the waiting
 * request is cancelled and the process exits by itself.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { LineSplitter } from '../../src';

const ROOT = join(__dirname, '..', '..');
const bytes = (text: string) => new TextEncoder().encode(text);

describe('LineSplitter', () => {
  test('splits lines across chunks, keeps multi-byte characters whole, drops a CR before the newline', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter({ onLine: (line) => lines.push(line), onTooLong: () => undefined });
    const encoded = bytes('one\r\ntwo Zoë 🍺\nthree');
    for (let at = 0; at < encoded.length; at += 3) splitter.push(encoded.subarray(at, at + 3));
    splitter.end();
    expect(lines).toEqual(['one', 'two Zoë 🍺', 'three']);
  });

  test('a line past the limit is reported once with its length and dropped; the next line is read', () => {
    const lines: string[] = [];
    const tooLong: number[] = [];
    const splitter = new LineSplitter({
      onLine: (line) => lines.push(line),
      onTooLong: (count) => tooLong.push(count),
      maxLineBytes: 10,
    });
    for (let index = 0; index < 10; index++) splitter.push(bytes('x'.repeat(10)));
    splitter.push(bytes('\nok\n'));
    expect(tooLong).toEqual([100]);
    expect(lines).toEqual(['ok']);
  });
});

interface Run {
  out: Array<Record<string, unknown>>;
  code: number | null;
  stderr: string;
}

/** Starts the host, writes `lines`, then (after `answerFirst` lines of output, if given) closes stdin. */
function runHost(lines: string[], closeAfterOutputs: number): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/run-ts.mjs', 'demo/bridge-stdio.ts'], { cwd: ROOT });
    let buffered = '';
    let stderr = '';
    const out: Array<Record<string, unknown>> = [];
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop() as string;
      for (const part of parts) if (part) out.push(JSON.parse(part));
      if (out.length >= closeAfterOutputs && child.stdin.writable) child.stdin.end();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('exit', (code) => resolve({ out, code, stderr }));
    child.stdin.write(`${lines.join('\n')}\n`);
  });
}

test('20,000 pipelined requests and a 5 MB line: every request answered once, one error for the line, exit on EOF', async () => {
  const pings = Array.from({ length: 20_000 }, (_, index) => `{"jsonrpc":"2.0","id":${index},"method":"ping"}`);
  const lines = [
    ...pings.slice(0, 10_000),
    `{"jsonrpc":"2.0","id":"big","method":"${'m'.repeat(5_000_000)}"}`,
    ...pings.slice(10_000),
  ];
  const run = await runHost(lines, 20_001);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const ids = run.out.filter((message) => typeof message.id === 'number').map((message) => message.id);
  expect(new Set(ids).size).toBe(20_000);
  expect(ids).toHaveLength(20_000);
  const dropped = run.out.filter((message) => message.id === null);
  expect(dropped).toHaveLength(1);
  expect(JSON.stringify(dropped[0]).length).toBeLessThan(300);
}, 60_000);

test('stdin closes while a tool/call waits: the request answers cancelled and the process exits', async () => {
  const tool = { name: 'open_door', description: 'Opens.', parameters: { type: 'object', properties: {} } };
  const lines = [
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'session/create',
      params: {
        session: 's',
        tools: [tool],
        model: { type: 'scripted', steps: [{ toolCalls: [{ name: 'open_door' }] }, { text: 'Open.' }] },
      },
    }),
    '{"jsonrpc":"2.0","id":2,"method":"session/respond","params":{"session":"s","prompt":"Open it."}}',
  ];
  // Close stdin once the host asked for the tool (the create response, then the tool/call).
  const run = await runHost(lines, 2);
  expect(run.code).toBe(0);
  expect(run.out.some((message) => message.method === 'tool/call')).toBe(true);
  const answer = run.out.find((message) => message.id === 2) as { error?: { code: number } } | undefined;
  expect(answer?.error?.code).toBe(-32009);
}, 30_000);
