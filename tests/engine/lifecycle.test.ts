/**
 * The component lifecycle as the real engine runs it: nothing before the node is in an active
 * scene, onLoad/onEnable when it joins, start on the next frame, and addComponent at run time
 * (onLoad runs inside addComponent, before the caller sets the persona).
 */
import { Node } from 'cc';
import { freshScene, frame, jsonAsset, mount, record } from './harness/scene';
import { guard } from './harness/guards';
import { loadOam, say, useModel, MIRA, type LoadedOam } from './harness/oam';

let oam: LoadedOam;
beforeAll(async () => {
  oam = await loadOam();
});
const guards = guard(() => oam.C.OamRuntime.reset());
beforeEach(() => freshScene());

describe('lifecycle on the real engine', () => {
  test('outside the scene nothing runs; joining it runs onLoad; start runs on the next frame and warms the model up', async () => {
    const model = useModel(oam, [say(oam, 'Welcome!', 'happy')]);
    const prewarm = jest.fn(() => Promise.resolve());
    (model as unknown as { prewarm: typeof prewarm }).prewarm = prewarm;
    const proto = oam.C.NPCComponent.prototype as unknown as Record<'onLoad' | 'start', () => void>;
    const calls: string[] = [];
    const spies = (['onLoad', 'start'] as const).map((name) => {
      const original = proto[name];
      return jest.spyOn(proto, name).mockImplementation(function (this: unknown) {
        calls.push(name);
        if (original) original.call(this);
      });
    });
    try {
      const node = new Node('mira');
      const npc = node.addComponent(oam.C.NPCComponent);
      npc.persona = jsonAsset(MIRA, 'mira.json');
      const errors = record(node, [oam.C.NPC_EVENTS.error]);
      expect(calls).toEqual([]); // not in a scene: nothing has run
      freshScene().addChild(node);
      expect(calls).toEqual(['onLoad']);
      expect(prewarm).not.toHaveBeenCalled();
      frame();
      expect(calls).toEqual(['onLoad', 'start']);
      expect(prewarm).toHaveBeenCalledTimes(1);
      await expect(npc.talk('Hello')).resolves.toMatchObject({ line: 'Welcome!', emotion: 'happy' });
      expect(errors).toEqual([]);
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
  });

  test('addComponent on a node already in the scene, persona set right after: talk() works without rebuild()', async () => {
    const model = useModel(oam, [say(oam, 'Evening, traveller.')]);
    const node = new Node('late');
    freshScene().addChild(node);
    const npc = node.addComponent(oam.C.NPCComponent); // onLoad runs here, with no persona yet
    npc.persona = jsonAsset(MIRA);
    npc.rememberFacts = true;
    const errors = record(node, [oam.C.NPC_EVENTS.error]);
    const turn = await npc.talk('Hi');
    expect(turn.line).toBe('Evening, traveller.');
    const sent = model.requests[0];
    expect(`${sent.promptPrefix || ''}${sent.prompt}`).toContain('remember_fact'); // the properties set after addComponent count
    expect(errors).toEqual([]);
    expect(guards.error).not.toHaveBeenCalled();
  });

  test('a missing persona is reported once the scene starts (next frame), not while the caller is still setting up', () => {
    const node = new Node('no-persona');
    freshScene().addChild(node);
    const errors = record(node, [oam.C.NPC_EVENTS.error]);
    node.addComponent(oam.C.NPCComponent);
    expect(errors).toEqual([]);
    frame();
    expect(errors).toHaveLength(1);
    expect((errors[0].payload as { code: string; message: string }).message).toMatch(/no persona asset/);
  });

  test('a persona asset swapped at run time is picked up by the next talk: the same character keeps its memory, another starts fresh', async () => {
    useModel(oam, [say(oam, 'I am Mira.'), say(oam, 'Still Mira.'), say(oam, 'I am Brann.')]);
    const npc = mount(oam.C.NPCComponent, { persona: jsonAsset(MIRA) });
    await npc.talk('Who are you?');
    npc.persona = jsonAsset({ ...MIRA, personality: 'tired tonight' }, 'mira-v2.json'); // an updated asset
    await npc.talk('And now?');
    expect(npc.core!.persona.personality).toBe('tired tonight');
    expect(npc.core!.history.filter((entry) => entry.type === 'prompt')).toHaveLength(2);
    npc.persona = jsonAsset({ name: 'Brann', role: 'gate guard', personality: 'gruff' }, 'brann.json');
    await npc.talk('And you?');
    expect(npc.core!.persona.name).toBe('Brann');
    expect(npc.core!.history.filter((entry) => entry.type === 'prompt')).toHaveLength(1);
  });

  test('a broken persona fixed from code works on the next talk', async () => {
    useModel(oam, [say(oam, 'Fixed.')]);
    const npc = mount(oam.C.NPCComponent, { persona: jsonAsset({ role: 'no name' }) });
    expect(npc.setupError).toMatchObject({ code: 'invalid_request' });
    await expect(npc.talk('Hi')).rejects.toMatchObject({ code: 'invalid_request' });
    npc.persona = jsonAsset(MIRA);
    await expect(npc.talk('Hi')).resolves.toMatchObject({ line: 'Fixed.' });
    expect(npc.setupError).toBeNull();
  });

  test('components are enabled and disabled with their node, as the engine does', () => {
    const store = mount(oam.C.WorldStateStore, { initialJson: '{"gold": 3}' });
    expect(store.enabledInHierarchy).toBe(true);
    store.node.active = false;
    expect(store.enabledInHierarchy).toBe(false);
    expect(store.get('gold')).toBe(3); // the state stays while the node is inactive
    store.node.active = true;
    expect(store.enabledInHierarchy).toBe(true);
  });
});
