/**
 * DecisionComponent and WorldStateStore on the real engine, compiled by Creator's pipeline:
 * decisions from Inspector options, the time budget's fallback, bad set-ups, the store's
 * initial state, save/restore and its node event.
 */
import { Node } from 'cc';
import { freshScene, frame, jsonAsset, mount, record, settle } from './harness/scene';
import { guard } from './harness/guards';
import { loadOam, type LoadedOam } from './harness/oam';

let oam: LoadedOam;
let components: LoadedOam['C'];
let Script: LoadedOam['core']['Script'];
let ScriptedLanguageModel: LoadedOam['core']['ScriptedLanguageModel'];
let AgentError: LoadedOam['core']['AgentError'];
beforeAll(async () => {
  oam = await loadOam();
  ({ C: components } = oam);
  ({ Script, ScriptedLanguageModel, AgentError } = oam.core);
});
const guards = guard(() => components.OamRuntime.reset());
beforeEach(() => freshScene());
const persona = (json: unknown, name = 'asset.json') => jsonAsset(json, name);
const flush = () => settle(1);

function options(...pairs: Array<[string, string]>) {
  return pairs.map(([id, description]) => Object.assign(new components.DecisionOptionEntry(), { id, description }));
}

describe('DecisionComponent', () => {
  test('picks one of the Inspector options and emits decision', async () => {
    const model = new ScriptedLanguageModel([
      Script.dynamic((request) => {
        const answer = { choice: 'flee', reason: 'Outnumbered.', confidence: 80 };
        return JSON.stringify(request.kind === 'decide' ? { reply: answer } : answer);
      }),
    ]);
    components.OamRuntime.configure({ languageModel: model });
    const goblin = mount(
      components.DecisionComponent,
      {
        options: options(['attack', 'Charge'], ['flee', 'Run away']),
        actor: persona({ name: 'Goblin', personality: 'cowardly' }),
      },
      new Node('goblin'),
    );
    const seen = record(goblin.node, [components.DECISION]);
    const decision = await goblin.decide('Three knights approach.', { hp: 3 });
    expect(decision).toMatchObject({ optionId: 'flee', isFallback: false });
    expect(seen).toEqual([{ type: components.DECISION, payload: { situation: 'Three knights approach.', decision } }]);
    expect(model.requests[0].prompt).toMatch(/"hp":3/);
  });

  test('the time budget runs out: the fallback option is used', async () => {
    components.OamRuntime.configure({ languageModel: new ScriptedLanguageModel([Script.hang()]) });
    const decision = mount(components.DecisionComponent, {
      options: options(['attack', 'Charge'], ['wait', 'Hold']),
      fallbackOption: 'wait',
      timeBudgetMs: 20,
    });
    await expect(decision.decide('A noise in the dark.')).resolves.toMatchObject({
      optionId: 'wait',
      isFallback: true,
    });
  });

  test('bad Inspector set-ups reject with invalid_request and emit decision-error', async () => {
    components.OamRuntime.configure({ languageModel: new ScriptedLanguageModel([]) });
    const decision = mount(components.DecisionComponent, { options: options(['a', 'x'], ['a', 'y']) });
    const errors = record(decision.node, [components.DECISION_ERROR]);
    await expect(decision.decide('now')).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/appears twice/),
    });
    decision.options = options(['a', 'x'], ['b', 'y']);
    decision.timeBudgetMs = 100;
    await expect(decision.decide('now')).rejects.toThrow(/fallback/);
    decision.timeBudgetMs = 0;
    decision.actor = persona({ name: '' }, 'nobody.json');
    await expect(decision.decide('now')).rejects.toThrow(/nobody\.json/);
    expect(errors).toHaveLength(3);
  });

  test('destroying the component cancels a decision in progress', async () => {
    const model = new ScriptedLanguageModel([Script.hang()]);
    components.OamRuntime.configure({ languageModel: model });
    const decision = mount(components.DecisionComponent, { options: options(['a', 'x'], ['b', 'y']) });
    const pending = decision.decide('now');
    while (model.calls === 0) await flush();
    decision.node.destroy();
    frame(); // the engine destroys at the end of the frame
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    await expect(decision.decide('again')).rejects.toBeInstanceOf(AgentError);
  });
});

describe('WorldStateStore', () => {
  test('initial state from a JsonAsset wins over inline JSON; save and restore', () => {
    const store = mount(
      components.WorldStateStore,
      { initialState: persona({ gold: 5 }, 'world.json'), initialJson: '{"gold":1}' },
      new Node('world'),
    );
    const changes = record(store.node, [components.WORLD_CHANGED]);
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
    const store = mount(components.WorldStateStore, { initialJson: '{gold: 1' }, new Node('world'));
    expect(store.save()).toEqual({});
    expect(guards.error.mock.calls.join(' ')).toMatch(/inline JSON does not parse/);
    const changes = record(store.node, [components.WORLD_CHANGED]);
    const world = store.world;
    store.destroy();
    frame();
    world.set('x', 1);
    expect(changes).toHaveLength(0);
  });
});
