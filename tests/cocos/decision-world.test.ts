jest.mock('cc', () => require('./cc-double'), { virtual: true });
jest.mock('cc/env', () => require('./cc-double').env, { virtual: true });
jest.mock('../../assets/runtime/oam-core.js', () => jest.requireActual('../../src'), { virtual: true });

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentError, Script, ScriptedLanguageModel } from '../../src';
import { Node } from './cc-double';
import { loadComponents } from './load';
import { flush, mount, persona, record } from './mocks';

const C = loadComponents();

function options(...pairs: Array<[string, string]>) {
  return pairs.map(([id, description]) => Object.assign(new C.DecisionOptionEntry(), { id, description }));
}

let error: jest.SpyInstance;
beforeEach(() => { error = jest.spyOn(console, 'error').mockImplementation(() => undefined); });
afterEach(() => { error.mockRestore(); C.OamRuntime.reset(); });

describe('DecisionComponent', () => {
  test('picks one of the Inspector options and emits decision', async () => {
    const model = new ScriptedLanguageModel([Script.dynamic((r) => {
      const answer = { choice: 'flee', reason: 'Outnumbered.', confidence: 80 };
      return JSON.stringify(r.kind === 'decide' ? { reply: answer } : answer);
    })]);
    C.OamRuntime.configure({ languageModel: model });
    const d = mount(C.DecisionComponent, { options: options(['attack', 'Charge'], ['flee', 'Run away']), actor: persona({ name: 'Goblin', personality: 'cowardly' }) }, new Node('goblin'));
    const seen = record(d.node, [C.DECISION]);
    const decision = await d.decide('Three knights approach.', { hp: 3 });
    expect(decision).toMatchObject({ optionId: 'flee', isFallback: false });
    expect(seen).toEqual([{ type: C.DECISION, payload: { situation: 'Three knights approach.', decision } }]);
    expect(model.requests[0].prompt).toMatch(/"hp":3/);
  });

  test('the time budget runs out: the fallback option is used', async () => {
    C.OamRuntime.configure({ languageModel: new ScriptedLanguageModel([Script.hang()]) });
    const d = mount(C.DecisionComponent, { options: options(['attack', 'Charge'], ['wait', 'Hold']), fallbackOption: 'wait', timeBudgetMs: 20 });
    await expect(d.decide('A noise in the dark.')).resolves.toMatchObject({ optionId: 'wait', isFallback: true });
  });

  test('bad Inspector set-ups reject with invalid_request and emit decision-error', async () => {
    C.OamRuntime.configure({ languageModel: new ScriptedLanguageModel([]) });
    const d = mount(C.DecisionComponent, { options: options(['a', 'x'], ['a', 'y']) });
    const errors = record(d.node, [C.DECISION_ERROR]);
    await expect(d.decide('now')).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/appears twice/) });
    d.options = options(['a', 'x'], ['b', 'y']);
    d.timeBudgetMs = 100;
    await expect(d.decide('now')).rejects.toThrow(/fallback/);
    d.timeBudgetMs = 0;
    d.actor = persona({ name: '' }, 'nobody.json');
    await expect(d.decide('now')).rejects.toThrow(/nobody\.json/);
    expect(errors).toHaveLength(3);
  });

  test('destroying the component cancels a decision in progress', async () => {
    const model = new ScriptedLanguageModel([Script.hang()]);
    C.OamRuntime.configure({ languageModel: model });
    const d = mount(C.DecisionComponent, { options: options(['a', 'x'], ['b', 'y']) });
    const pending = d.decide('now');
    while (model.calls === 0) await flush();
    d.node.destroy();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    await expect(d.decide('again')).rejects.toBeInstanceOf(AgentError);
  });
});

describe('WorldStateStore', () => {
  test('initial state from a JsonAsset wins over inline JSON; save and restore', () => {
    const store = mount(C.WorldStateStore, { initialState: persona({ gold: 5 }, 'world.json'), initialJson: '{"gold":1}' }, new Node('world'));
    const changes = record(store.node, [C.WORLD_CHANGED]);
    expect(store.get('gold')).toBe(5);
    expect(store.set('gold', 6)).toBe(true);
    expect(store.set('gold', 6)).toBe(false); // unchanged: no event
    const saved = store.save();
    store.restore('{"gold":0,"quest":"started"}');
    expect(store.get('quest')).toBe('started');
    store.restore(saved);
    expect(store.get('gold')).toBe(6);
    expect(changes.length).toBe(3);
    expect(() => store.restore('nope')).toThrow(/not JSON/);
    expect(() => store.restore('[1]')).toThrow(/object/);
    expect(store.get('gold')).toBe(6);
  });

  test('broken inline JSON starts empty with a clear console error; destroy stops the events', () => {
    const store = mount(C.WorldStateStore, { initialJson: '{gold: 1' }, new Node('world'));
    expect(store.save()).toEqual({});
    expect(error.mock.calls.join(' ')).toMatch(/inline JSON does not parse/);
    const changes = record(store.node, [C.WORLD_CHANGED]);
    const world = store.world;
    store.destroy();
    world.set('x', 1);
    expect(changes).toHaveLength(0);
  });
});

describe('check-babel-limits', () => {
  const script = join(__dirname, '..', '..', 'scripts', 'check-babel-limits.mjs');
  const run = (dir: string) => {
    try {
      return { code: 0, out: execFileSync(process.execPath, [script, dir], { encoding: 'utf8', stdio: 'pipe' }) };
    } catch (e) {
      const err = e as { status: number; stderr: string };
      return { code: err.status, out: err.stderr };
    }
  };

  test('the mounted assets pass', () => {
    expect(run(join(__dirname, '..', '..', 'assets')).code).toBe(0);
  });

  test('each construct Creator\'s Babel rejects is reported with file:line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oam-babel-'));
    try {
      writeFileSync(join(dir, 'lib.d.ts'), 'export interface Shape { a: number }\nexport declare class Box {}\n');
      writeFileSync(join(dir, 'lib.js'), 'export class Box {}\n');
      writeFileSync(join(dir, 'bad.ts'), [
        "export { Shape, Box } from './lib.js';",
        'export const enum Mode { A }',
        'const o = { a: 1 } satisfies object;',
        'class K { accessor v = 1; }',
        "window.alert('x');",
        'export = K;',
      ].join('\n'));
      writeFileSync(join(dir, 'good.ts'), "export type { Shape } from './lib.js';\nexport { Box } from './lib.js';\nexport const g = globalThis;\n");
      const { code, out } = run(dir);
      expect(code).toBe(1);
      expect(out).toMatch(/bad\.ts:1: "Shape" is a type/);
      expect(out).not.toMatch(/"Box"/);
      expect(out).toMatch(/bad\.ts:2: const enum/);
      expect(out).toMatch(/bad\.ts:3: `satisfies`/);
      expect(out).toMatch(/bad\.ts:4: `accessor`/);
      expect(out).toMatch(/bad\.ts:5: `window\.`/);
      expect(out).toMatch(/bad\.ts:6: `export =`/);
      expect(out).not.toMatch(/good\.ts/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
