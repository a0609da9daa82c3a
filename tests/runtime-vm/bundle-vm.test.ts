/**
 * Runs the built runtime bundle (assets/runtime/oam-core.js) in a bare `vm` context holding only
 * what Cocos's native runtime offers on a phone: timers, TextEncoder/TextDecoder,
 * performance.now and console. No fetch, AbortController, structuredClone, queueMicrotask,
 * URL, crypto or DOM.
 *
 * The bundle is an ES module; `vm.SourceTextModule` needs --experimental-vm-modules, which
 * jest cannot easily pass, so the test rewraps the *built file itself* as an IIFE with
 * esbuild's transform (format 'iife', target 'esnext': only the final export statement
 * changes, the syntax is left exactly as built) and runs that as a script.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vm from 'node:vm';
import { transform } from 'esbuild';

const root = join(__dirname, '..', '..');
const bundlePath = join(root, 'assets', 'runtime', 'oam-core.js');

interface Sandbox {
  run<T>(code: string): T;
}

async function loadBundle(): Promise<Sandbox> {
  if (!existsSync(bundlePath))
    execFileSync(process.execPath, [join(root, 'scripts', 'build-runtime.mjs')], { cwd: root, stdio: 'inherit' });
  const source = readFileSync(bundlePath, 'utf8');
  const { code } = await transform(source, { format: 'iife', globalName: 'oam', target: 'esnext', loader: 'js' });
  const perf = { now: () => performance.now() };
  const context = vm.createContext({
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    TextEncoder,
    TextDecoder,
    performance: perf,
    console,
  });
  vm.runInContext(code, context, { filename: 'oam-core.js' });
  return { run: <T>(snippet: string) => vm.runInContext(snippet, context) as T };
}

let box: Sandbox;
beforeAll(async () => {
  box = await loadBundle();
}, 120000);

test("the context has only the native runtime's globals", () => {
  const missing = [
    'fetch',
    'AbortController',
    'AbortSignal',
    'structuredClone',
    'queueMicrotask',
    'URL',
    'crypto',
    'window',
    'document',
    'process',
    'require',
    'Buffer',
  ];
  const kinds = box.run<Record<string, string>>(`({ ${missing.map((name) => `${name}: typeof ${name}`).join(', ')} })`);
  for (const name of missing) expect([name, kinds[name]]).toEqual([name, 'undefined']);
  expect(box.run<string>('typeof oam.NPC')).toBe('function');
});

test('a scripted NPC conversation with a tool call, an external tool answered late, and a cancel', async () => {
  const result = await box.run<Promise<Record<string, unknown>>>(`(async () => {
    const { NPC, AgentTool, ScriptedLanguageModel, Script, ModelScheduler, WorldState, AgentError } = oam;
    const say = (line, emotion) => Script.dynamic((r) => r.kind === 'decide'
      ? JSON.stringify({ reply: { emotion: emotion || 'neutral', line } })
      : JSON.stringify({ emotion: emotion || 'neutral', line }));
    const model = new ScriptedLanguageModel([
      Script.call('check_menu'), say('Stew is 5 gold, ale 3.', 'happy'),
      Script.call('give_item', { item: 'key' }), say('Here is your room key.'),
      Script.hang(),
      say('Still here.'),
    ], { chunkDelayMs: 1 });
    const scheduler = new ModelScheduler(model);
    const world = new WorldState({ player: { gold: 10 } });
    const tools = [
      AgentTool.local({ name: 'check_menu', description: 'Lists the menu with prices.' }, () => ({ stew: 5, ale: 3 })),
      AgentTool.external({ name: 'give_item', description: 'Gives the player an item.', parameters: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] } }),
    ];
    const npc = new NPC({ persona: { name: 'Mira', role: 'innkeeper' }, model: scheduler, tools, world, options: { worldContextPaths: ['player.gold'] } });
    const out = {};

    const first = npc.talkStream('What is on the menu?');
    const lines = [];
    first.on('line', (e) => lines.push(e.delta));
    const t1 = await first.turn();
    out.first = { line: t1.line, emotion: t1.emotion, tool: t1.toolCalls[0].call.name, streamed: lines.join('') };

    const second = npc.talkStream('Can I have a room?');
    second.on('externalToolCall', (e) => {
      // answered later, from a timer, like a game finishing an animation first
      setTimeout(() => { out.submitted = second.submit(e.call.id, { given: e.call.args.item }); }, 20);
    });
    const t2 = await second.turn();
    out.second = { line: t2.line, output: t2.toolCalls[0].output };
    out.lateAgain = second.submit(t2.toolCalls[0].call.id, 'again');

    const third = npc.talkStream('Tell me a long story');
    setTimeout(() => third.cancel('player walked away'), 10);
    try { await third.turn(); out.third = 'not cancelled'; } catch (e) { out.third = { isAgentError: e instanceof AgentError, code: e.code }; }

    const t4 = await npc.talk('Hello?');
    out.fourth = t4.line;
    out.turnCount = npc.turnCount;
    out.stats = scheduler.stats();
    out.bytes = new TextEncoder().encode('\u00e9').length;
    return JSON.parse(JSON.stringify(out));
  })()`);
  expect(result.first).toEqual({
    line: 'Stew is 5 gold, ale 3.',
    emotion: 'happy',
    tool: 'check_menu',
    streamed: 'Stew is 5 gold, ale 3.',
  });
  expect(result.submitted).toBe(true);
  expect(result.second).toEqual({ line: 'Here is your room key.', output: { kind: 'json', value: { given: 'key' } } });
  expect(result.lateAgain).toBe(false);
  expect(result.third).toEqual({ isAgentError: true, code: 'cancelled' });
  expect(result.fourth).toBe('Still here.');
  expect(result.turnCount).toBe(3); // the cancelled turn left nothing in the history
  expect(result.stats).toMatchObject({ running: 0, queued: 0, cancelled: 1 });
  expect(result.bytes).toBe(2);
});
