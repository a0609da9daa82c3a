/**
 * `npm run bake` against an OpenAI-compatible server on the loopback (a stand-in that answers each
 * chat completion in the prompt's own format from the player's last words, and orders what the
 * player asks for): the bank it writes passes the bank schema, holds a line per intent with the
 * actions the model made, and plays on the bank model. Bad input is refused before any request.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BankModel, NPC, lineBankProblems } from '../../src';
import { readRenderedTurn } from '../../src/testing';
import miraPersona from '../../demo/tavern/mira.persona.json';

const ROOT = join(__dirname, '..', '..');

/** Answers like a small model: the order first when asked for ale and not yet served, then a line. */
function answer(system: string, user: string): string {
  const turn = readRenderedTurn(user);
  const said = turn.prompt.toLowerCase();
  if (/\bales?\b/.test(said) && turn.toolResults.length === 0 && /take_order/.test(user))
    return 'take_order(item="ale", quantity=2)';
  if (/\b(sell|wares)\b/.test(said) && turn.toolResults.length === 0 && /show_wares/.test(user)) return 'show_wares()';
  if (turn.toolResults.some((result) => result.tool === 'show_wares')) return 'Horseshoes, daggers, swords.\n[annoyed]';
  const served = turn.toolResults.some((result) => result.tool === 'take_order');
  const line = served
    ? 'Two ales, poured and paid for.'
    : `You said "${turn.prompt}", love. ${system.length > 0 ? 'Noted.' : ''}`;
  return `${line.trim()}\n[happy]`;
}

function startServer(): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { requests: 0 };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
        response.writeHead(404).end();
        return;
      }
      state.requests++;
      const parsed = JSON.parse(body) as { messages: Array<{ role: string; content: string }> };
      const system = parsed.messages.find((message) => message.role === 'system')?.content ?? '';
      const user = parsed.messages.filter((message) => message.role === 'user').pop()?.content ?? '';
      const content = answer(system, user);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }),
        );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        get requests() {
          return state.requests;
        },
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/run-ts.mjs', 'demo/bake.ts', ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('npm run bake', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('writes a bank that passes its schema, a line per intent, the order with its call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oam-bake-'));
    const intents = join(dir, 'intents.json');
    require('node:fs').writeFileSync(
      intents,
      JSON.stringify({
        intents: { greeting: ['Good evening!'], order_ale: ['Two ales, please.'], who: ['Who are you?'] },
      }),
    );
    const out = join(dir, 'mira.bank.json');
    const result = await run([
      '--persona',
      'demo/tavern/mira.persona.json',
      '--intents',
      intents,
      '--url',
      server.url,
      '--tavern',
      '--per-intent',
      '1',
      '--out',
      out,
    ]);
    expect(result.stderr).toMatch(/lines for Mira written to/);
    expect(result.status).toBe(0);
    const bank = JSON.parse(readFileSync(out, 'utf8')) as {
      lines: Array<{ intent: string; line: string; calls?: unknown[] }>;
      barks?: string[];
    };
    expect(lineBankProblems(bank)).toEqual([]);
    expect(bank.lines.map((line) => line.intent).sort()).toEqual(['greeting', 'order_ale', 'who']);
    const order = bank.lines.find((line) => line.intent === 'order_ale');
    expect(order?.line).toBe('Two ales, poured and paid for.');
    expect(order?.calls).toEqual([{ name: 'take_order', args: { item: 'ale', quantity: '{count}' } }]);
    expect(bank.lines.find((line) => line.intent === 'who')?.line).toContain('Who are you?');
    expect(bank.barks?.length).toBeGreaterThan(0);
    // The baked bank plays on the bank model.
    const npc = new NPC({ persona: miraPersona, model: new BankModel(bank) });
    expect((await npc.talk('Good evening to you')).line).toContain('Good evening!');
  }, 60000);

  test("--profile: the blacksmith's own tools and world, never the tavern's; her wares line keeps its call", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oam-bake-profile-'));
    const intents = join(dir, 'intents.json');
    require('node:fs').writeFileSync(
      intents,
      JSON.stringify({ intents: { greeting: ['Hello there!'], wares: ['What do you sell?'] } }),
    );
    const out = join(dir, 'hilde.bank.json');
    const result = await run([
      '--profile',
      'demo/profiles/hilde.npc-profile.json',
      '--intents',
      intents,
      '--url',
      server.url,
      '--per-intent',
      '1',
      '--out',
      out,
    ]);
    expect(result.stderr).toMatch(/lines for Hilde written to/);
    expect(result.status).toBe(0);
    const bank = JSON.parse(readFileSync(out, 'utf8')) as {
      character: string;
      lines: Array<{ intent: string; line: string; calls?: unknown[] }>;
    };
    expect(lineBankProblems(bank)).toEqual([]);
    expect(bank.character).toBe('Hilde');
    expect(bank.lines.find((line) => line.intent === 'wares')).toMatchObject({
      line: 'Horseshoes, daggers, swords.',
      calls: [{ name: 'show_wares', args: {} }],
    });
    expect(JSON.stringify(bank)).not.toMatch(/take_order|check_menu/);
    const both = await run([
      '--profile',
      'demo/profiles/hilde.npc-profile.json',
      '--persona',
      'x',
      '--intents',
      intents,
      '--url',
      server.url,
    ]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('one of them');
  }, 60000);

  test('bad input is refused with status 2 before any request', async () => {
    const before = server.requests;
    const missing = await run(['--persona', 'demo/tavern/mira.persona.json', '--url', server.url]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--intents FILE/);
    const badPersona = await run([
      '--persona',
      'package.json',
      '--intents',
      'demo/tavern/mira.bank.json',
      '--url',
      server.url,
    ]);
    expect(badPersona.status).toBe(2);
    expect(badPersona.stderr).toMatch(/invalid_request/);
    expect(server.requests).toBe(before);
  }, 60000);
});
