/**
 * The README's host example is demo/bridge-host.ts: the README's copy must match the file, and
 * the file, run as a user runs it, drives the NPC as the README says (one response per request,
 * tool/call answered, world/changed and npc/events before the npc/talk response).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Message } from './harness';

jest.setTimeout(60000);
const ROOT = resolve(__dirname, '../..');

test('docs/bridge-protocol.md shows demo/bridge-host.ts as it is', () => {
  const doc = readFileSync(join(ROOT, 'docs/bridge-protocol.md'), 'utf8');
  const block = /<!-- bridge-host -->\s*```ts\n([\s\S]*?)```/.exec(doc);
  expect(block).not.toBeNull();
  const demo = readFileSync(join(ROOT, 'demo/bridge-host.ts'), 'utf8');
  const body = demo.slice(demo.indexOf('import { BridgeEngine }')).replace("from '../src';", "from 'oam-cocos';");
  expect((block as RegExpExecArray)[1]).toBe(body);
});

test('the host drives Mira over the protocol: a tool/call, world/changed, line deltas adding up, one response each', () => {
  const run = spawnSync(process.execPath, ['scripts/run-ts.mjs', 'demo/bridge-host.ts'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const sent = run.stdout
    .split('\n')
    .filter((text) => text.startsWith('-> '))
    .map((text) => JSON.parse(text.slice(3)));
  const out = run.stdout
    .split('\n')
    .filter((text) => text.startsWith('<- '))
    .map((text) => JSON.parse(text.slice(3)));
  expect(sent.map((message) => message.method)).toEqual([
    'initialize',
    'world/create',
    'world/subscribe',
    'npc/create',
    'npc/talk',
    'tavern/purse',
  ]);
  for (const request of sent)
    expect(out.filter((message) => message.id === request.id && !message.method)).toHaveLength(1);
  const talk = out.find((message) => message.id === 5 && !message.method);
  expect(talk.result).toMatchObject({
    npc: 'mira',
    line: 'Ale is 3 gold. Here you go!',
    emotion: 'happy',
    isFallback: false,
  });
  expect(talk.result.toolCalls.map((record: Message) => [record.call.name, record.output])).toEqual([
    ['check_menu', { ale: 3, stew: 5 }],
    ['update_world_state', 'Set player.gold to 17 (was 20).'],
  ]);
  const call = out.find((message) => message.method === 'tool/call');
  expect(call).toMatchObject({ id: 't-1', params: { npc: 'mira', requestId: 5, call: { name: 'check_menu' } } });
  const changed = out.find((message) => message.method === 'world/changed');
  expect(changed.params).toEqual({
    world: 'tavern',
    subscription: 'sub1',
    path: 'player.gold',
    oldValue: 20,
    newValue: 17,
  });
  const events = out.filter((message) => message.method === 'npc/event').map((message) => message.params.event);
  expect(
    events
      .filter((entry) => entry.type === 'lineDelta')
      .map((entry) => entry.delta)
      .join(''),
  ).toBe(talk.result.line);
  const talkAt = out.indexOf(talk);
  for (const message of [call, changed, ...out.filter((message) => message.method === 'npc/event')])
    expect(out.indexOf(message)).toBeLessThan(talkAt);
  // The game's own method, a host extension: it reads the world Mira changed, its notification first.
  const purse = out.find((message) => message.id === 6 && !message.method);
  expect(purse.result).toEqual({ world: 'tavern', gold: 17 });
  const coins = out.find((message) => message.method === 'tavern/coins');
  expect(coins.params).toEqual({ gold: 17 });
  expect(out.indexOf(coins)).toBeLessThan(out.indexOf(purse));
  const initialize = out.find((message) => message.id === 1 && !message.method);
  expect(initialize.result.capabilities.methods).toContain('tavern/purse');
  expect(initialize.result.capabilities.notifications).toContain('tavern/coins');
});

test('demo/bridge-stdio.ts serves the protocol over stdin and stdout, one message per line', () => {
  const lines = [
    '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    '',
    'not json',
    JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'session/create',
      params: { model: { type: 'scripted', steps: [{ text: 'Hello over stdio.' }] } },
    }),
    '{"jsonrpc":"2.0","id":3,"method":"session/respond","params":{"session":"s1","prompt":"hi"}}',
  ];
  const run = spawnSync(process.execPath, ['scripts/run-ts.mjs', 'demo/bridge-stdio.ts'], {
    cwd: ROOT,
    encoding: 'utf8',
    input: `${lines.join('\n')}\n`,
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const out = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(out.map((message) => message.id)).toEqual([1, null, 2, 3]);
  expect(out[1].error.code).toBe(-32700);
  expect(out[3].result.text).toBe('Hello over stdio.');
});
