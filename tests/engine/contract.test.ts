/**
 * The components' contract (docs/components.md), line by line, on the real engine v3.8.5: each
 * test is named after its line of the table ("Component · engine event: what happens"), and
 * tests/readme/components-doc.test.ts checks that every line has its test and that it passed.
 * Destroy at every point of a turn is destroy.test.ts; the first steps of a life, lifecycle.test.ts.
 */
import { director, game, instantiate, Label, Node } from 'cc';
import type { ScriptStep } from '../../assets/runtime/oam-core.js';
import type { ExternalToolRequest, NPCComponent } from '../../assets/index';
import { freshScene, frame, jsonAsset, mount, record, settle, until } from './harness/scene';
import { guard, newTimers, pendingTimerIds } from './harness/guards';
import { loadOam, say, MIRA, type LoadedOam } from './harness/oam';

let oam: LoadedOam;
beforeAll(async () => {
  oam = await loadOam();
});
const guards = guard(() => {
  game.resume();
  director.resume();
  for (const node of Object.values(persistRoots())) director.removePersistRootNode(node);
  oam.C.OamRuntime.reset();
});
beforeEach(() => freshScene());

/** An hour: a call that is not refused at once would hold the test until jest's timeout. */
const NEVER = 3_600_000;

function persistRoots(): Record<string, Node> {
  return (director as unknown as { _persistRootNodes$: Record<string, Node> })._persistRootNodes$;
}

function useScript(steps: ScriptStep[], chunkDelayMs = 0) {
  const model = new oam.core.ScriptedLanguageModel(steps, { chunkDelayMs });
  oam.C.OamRuntime.configure({ languageModel: model, scheduler: { callsPerMinute: 0 } });
  return model;
}

function giveItem(timeoutMs = 0): InstanceType<LoadedOam['C']['ToolDeclaration']> {
  return Object.assign(new oam.C.ToolDeclaration(), {
    name: 'give_item',
    description: 'Gives the player an item.',
    parametersSchema: JSON.stringify({ type: 'object', properties: { item: { type: 'string' } }, required: ['item'] }),
    timeoutMs,
  });
}

function mira(props: Partial<NPCComponent> = {}, node = new Node('mira')): NPCComponent {
  return mount(oam.C.NPCComponent, { persona: jsonAsset(MIRA, 'mira.json'), ...props }, node);
}

function outcome<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code?: string }> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: { code?: string }) => ({ ok: false as const, code: error.code }),
  );
}

/** Waits `ms` of wall time in small steps, so timers that should not fire had every chance to. */
async function wallWait(ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
}

function options(): InstanceType<LoadedOam['C']['DecisionOptionEntry']>[] {
  return [
    ['attack', 'Draw the sword.'],
    ['wait', 'Stand still.'],
  ].map(([id, description]) => Object.assign(new oam.C.DecisionOptionEntry(), { id, description }));
}

describe('NPCComponent', () => {
  test('NPCComponent · external tool, no live listener: refused at once, whether never added, removed, or its target destroyed', async () => {
    useScript([
      oam.core.Script.call('give_item', { item: 'map' }),
      say(oam, 'Another time.'),
      oam.core.Script.call('give_item', { item: 'map' }),
      say(oam, 'Not now.'),
      oam.core.Script.call('give_item', { item: 'map' }),
      say(oam, 'The shop is shut.'),
    ]);
    const npc = mira({ externalTools: [giveItem()], externalToolTimeoutMs: NEVER });
    director.addPersistRootNode(npc.node);
    // Never added.
    expect((await npc.talk('A map?')).toolCalls[0].output).toMatchObject({ kind: 'error' });
    // Added, then removed.
    const listener = () => undefined;
    npc.node.on(oam.C.NPC_EXTERNAL_TOOL, listener);
    npc.node.off(oam.C.NPC_EXTERNAL_TOOL, listener);
    expect((await npc.talk('A map?')).toolCalls[0].output).toMatchObject({ kind: 'error' });
    // The shop UI of the previous scene registered with its Label as target; the scene is gone.
    const shop = new Node('shop');
    director.getScene()!.addChild(shop);
    const label = shop.addComponent(Label);
    const heard: unknown[] = [];
    npc.node.on(oam.C.NPC_EXTERNAL_TOOL, (request: ExternalToolRequest) => heard.push(request), label);
    freshScene('next');
    frame();
    expect(label.isValid).toBe(false);
    expect(npc.node.hasEventListener(oam.C.NPC_EXTERNAL_TOOL)).toBe(true); // what the engine says
    const turn = await npc.talk('A map?');
    expect(turn.line).toBe('The shop is shut.');
    expect(turn.toolCalls[0].output).toEqual({ kind: 'error', message: 'The game cannot do give_item right now.' });
    expect(heard).toEqual([]);
    expect(guards.warn.mock.calls.join(' ')).toMatch(/tool_failed.*give_item.*destroyed target/);
  });

  test('NPCComponent · external tool, the listener throws: the call fails at once with its message', async () => {
    const model = useScript([oam.core.Script.call('give_item', { item: 'ale' }), say(oam, 'The tap is stuck.')]);
    const npc = mira({ externalTools: [giveItem()], externalToolTimeoutMs: NEVER });
    npc.node.on(oam.C.NPC_EXTERNAL_TOOL, () => {
      throw new Error('inventory is null');
    });
    const turn = await npc.talk('An ale!');
    expect(turn.line).toBe('The tap is stuck.');
    expect(turn.toolCalls[0].output).toEqual({ kind: 'error', message: 'give_item failed: inventory is null' });
    expect(model.calls).toBe(2);
    expect(guards.error).toHaveBeenCalled();
  });

  test('NPCComponent · external tool, answered twice, late or after cancel: refused (answer() returns false)', async () => {
    useScript([oam.core.Script.call('give_item', { item: 'key' }), say(oam, 'There.'), oam.core.Script.hang()]);
    const npc = mira({ externalTools: [giveItem()] });
    let request: ExternalToolRequest | undefined;
    npc.node.on(oam.C.NPC_EXTERNAL_TOOL, (received: ExternalToolRequest) => {
      request = received;
    });
    const turn = npc.talk('The key');
    await until(() => request !== undefined, 'the request');
    expect(request!.answer('a key')).toBe(true);
    expect(request!.answer('again')).toBe(false);
    await turn;
    expect(request!.fail('late')).toBe(false);
    const second = outcome(npc.talk('Another'));
    npc.cancel();
    expect(await second).toEqual({ ok: false, code: 'cancelled' });
    expect(npc.answerTool(request!.call.id, 'after cancel')).toBe(false);
  });

  test('NPCComponent · external tool, only a capture-phase listener: refused at once (node.emit never reaches it)', async () => {
    useScript([oam.core.Script.call('give_item', { item: 'map' }), say(oam, 'Another time.')]);
    const npc = mira({ externalTools: [giveItem()], externalToolTimeoutMs: NEVER });
    const heard: unknown[] = [];
    npc.node.on(oam.C.NPC_EXTERNAL_TOOL, (request: unknown) => heard.push(request), undefined, true);
    expect(npc.node.hasEventListener(oam.C.NPC_EXTERNAL_TOOL)).toBe(true);
    const turn = await npc.talk('A map?');
    expect(turn.toolCalls[0].output).toMatchObject({ kind: 'error' });
    expect(heard).toEqual([]);
  });

  test('NPCComponent · node.destroy(), before the frame ends: talk() rejects with cancelled and the running turn ends cancelled', async () => {
    const model = useScript([oam.core.Script.hang()]);
    const npc = mira();
    const running = outcome(npc.talk('Hello'));
    await until(() => model.calls === 1, 'the model call');
    npc.node.destroy(); // the engine destroys it at the end of the frame
    await expect(npc.talk('Still there?')).rejects.toMatchObject({ code: 'cancelled' });
    expect(await running).toEqual({ ok: false, code: 'cancelled' });
    frame();
  });

  /** Mira asks the game for bread (a tool that times out after `timeoutMs`); resolves once the request waits. */
  async function waitingForBread(timeoutMs: number) {
    useScript([oam.core.Script.call('give_item', { item: 'bread' }), say(oam, 'Fresh bread.')]);
    const npc = mira({ externalTools: [giveItem(timeoutMs)] });
    let request: ExternalToolRequest | undefined;
    npc.node.on(oam.C.NPC_EXTERNAL_TOOL, (received: ExternalToolRequest) => {
      request = received;
    });
    const turn = outcome(npc.talk('Bread?'));
    await until(() => request !== undefined, 'the request');
    return { npc, turn, request: request as ExternalToolRequest };
  }

  test('NPCComponent · game.pause(): a waiting external tool does not time out; the answer after resume is taken', async () => {
    const { npc, turn, request } = await waitingForBread(300);
    game.pause();
    await wallWait(500);
    expect(npc.pendingToolCalls).toHaveLength(1);
    game.resume();
    expect(request.answer('a loaf')).toBe(true);
    const done = await turn;
    expect(done.ok && done.value.toolCalls[0].output).toEqual({ kind: 'text', text: 'a loaf' });
  });

  test('NPCComponent · director.pause(): a waiting external tool does not time out; after resume the timeout counts on', async () => {
    const { npc, turn, request } = await waitingForBread(400);
    director.pause();
    await wallWait(600);
    expect(npc.pendingToolCalls).toHaveLength(1);
    director.resume();
    await wallWait(100); // well inside the 400 ms still left: the pause did not count
    expect(npc.pendingToolCalls).toHaveLength(1);
    const done = await turn; // nobody answers: the rest of the 400 ms runs out once the game runs again
    expect(done.ok && done.value.toolCalls[0].output).toMatchObject({ kind: 'error' });
    expect(request.answer('too late')).toBe(false);
  });

  test('NPCComponent · paused: a turn in flight goes on (the model is not paused) and completes', async () => {
    useScript([say(oam, 'Still here, love.')], 5);
    const npc = mira();
    director.pause();
    const turn = await npc.talk('Are you there?');
    expect(turn.line).toBe('Still here, love.');
  });

  test('NPCComponent · disabled: running and queued turns end cancelled, pending tool calls are refused, nothing is emitted after', async () => {
    const model = useScript([oam.core.Script.call('give_item', { item: 'key' }), say(oam, 'never')]);
    const npc = mira({ externalTools: [giveItem()] });
    let request: ExternalToolRequest | undefined;
    npc.node.on(oam.C.NPC_EXTERNAL_TOOL, (received: ExternalToolRequest) => {
      request = received;
    });
    const first = outcome(npc.talk('The key'));
    const queued = outcome(npc.talk('And a map'));
    await until(() => request !== undefined, 'the request');
    const seen = record(npc.node, Object.values(oam.C.NPC_EVENTS));
    npc.enabled = false;
    expect(await first).toEqual({ ok: false, code: 'cancelled' });
    expect(await queued).toEqual({ ok: false, code: 'cancelled' });
    expect(request!.answer('a key')).toBe(false);
    await settle(5);
    expect(seen).toEqual([]);
    expect(npc.core!.history).toEqual([]);
    expect(model.calls).toBe(1);
  });

  test('NPCComponent · disabled: talk() and bark() reject with invalid_request before any model call, with no event', async () => {
    const model = useScript([say(oam, 'Back again.')]);
    const npc = mira();
    npc.enabled = false;
    const seen = record(npc.node, Object.values(oam.C.NPC_EVENTS));
    await expect(npc.talk('Hello?')).rejects.toMatchObject({ code: 'invalid_request', message: /turned off/ });
    await expect(npc.bark('idle')).rejects.toMatchObject({ code: 'invalid_request' });
    expect(model.calls).toBe(0);
    expect(seen).toEqual([]);
  });

  test('NPCComponent · disabled: save() and restore() still work; enabled again, it talks with its memory kept', async () => {
    useScript([say(oam, 'Nice to meet you, Ada.'), say(oam, 'Welcome back, Ada.')]);
    const npc = mira();
    await npc.talk('I am Ada.');
    npc.enabled = false;
    const saved = npc.save();
    npc.restore(saved);
    npc.enabled = true;
    await expect(npc.talk('Remember me?')).resolves.toMatchObject({ line: 'Welcome back, Ada.' });
    expect(npc.core!.turnCount).toBe(2);
  });

  test('NPCComponent · node deactivated: the same as disabled; reactivated, it talks again', async () => {
    const model = useScript([oam.core.Script.hang(), say(oam, 'I am back.')]);
    const npc = mira();
    const turn = outcome(npc.talk('Hello'));
    await until(() => model.calls === 1, 'the first model call');
    npc.node.active = false;
    expect(await turn).toEqual({ ok: false, code: 'cancelled' });
    await expect(npc.talk('Hello?')).rejects.toMatchObject({ code: 'invalid_request' });
    npc.node.active = true;
    await expect(npc.talk('Hello again')).resolves.toMatchObject({ line: 'I am back.' });
  });

  test('NPCComponent · persist root across a scene change: the running turn goes on and the conversation is kept', async () => {
    useScript([say(oam, 'As I was saying, the road is long.'), say(oam, 'The road, yes.')], 5);
    const npc = mira();
    director.addPersistRootNode(npc.node);
    const turn = outcome(npc.talk('Tell me about the road.'));
    freshScene('next');
    frame();
    const done = await turn;
    expect(done).toMatchObject({ ok: true, value: { line: 'As I was saying, the road is long.' } });
    await expect(npc.talk('Go on.')).resolves.toMatchObject({ line: 'The road, yes.' });
    expect(npc.core!.turnCount).toBe(2);
  });

  test('NPCComponent · instantiate/clone: every copy is its own NPC, with its own conversation', async () => {
    const model = new oam.core.ScriptedLanguageModel([], {
      fallback: oam.core.Script.dynamic((request) => {
        const line = `Copy ${request.label} speaks.`;
        return request.kind === 'decide' ? JSON.stringify({ reply: { emotion: 'neutral', line } }) : line;
      }),
    });
    oam.C.OamRuntime.configure({ languageModel: model, scheduler: { callsPerMinute: 0 } });
    const template = new Node('villager');
    template.addComponent(oam.C.NPCComponent).persona = jsonAsset({ name: 'Villager' }, 'villager.json');
    const copies = Array.from({ length: 12 }, () => {
      const node = instantiate(template);
      director.getScene()!.addChild(node);
      return node.getComponent(oam.C.NPCComponent)!;
    });
    await copies[3].talk('Hello');
    await copies[7].talk('Hello');
    await copies[7].talk('Again');
    expect(copies.map((copy) => copy.core!.turnCount)).toEqual([0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0]);
    expect(new Set(copies.map((copy) => copy.core)).size).toBe(12);
  });

  test('NPCComponent · scene change with many NPCs mid-turn: every turn ends cancelled, nothing is left behind', async () => {
    const timers = pendingTimerIds();
    const model = new oam.core.ScriptedLanguageModel([], { fallback: oam.core.Script.hang() });
    oam.C.OamRuntime.configure({ languageModel: model, scheduler: { callsPerMinute: 0 } });
    const crowd = Array.from({ length: 60 }, (_, index) => mira({}, new Node(`npc${index}`)));
    const turns = crowd.map((npc) => outcome(npc.talk('Hello')));
    await until(() => model.calls === 1, 'the first model call');
    freshScene('next');
    frame();
    const ends = await Promise.all(turns);
    expect(ends.every((end) => !end.ok && end.code === 'cancelled')).toBe(true);
    await settle(10);
    expect(oam.C.OamRuntime.model.stats()).toMatchObject({ queued: 0, running: 0 });
    expect(newTimers(timers)).toEqual([]);
  });

  test("NPCComponent · restore, a save of another persona: refused with invalid_request; the NPC's state is kept", async () => {
    useScript([say(oam, 'Nice to meet you, Ada.'), say(oam, 'Halt.')]);
    const innkeeper = mira();
    await innkeeper.talk('I am Ada.');
    const saved = JSON.parse(JSON.stringify(innkeeper.save()));
    const guard = mount(oam.C.NPCComponent, { persona: jsonAsset({ name: 'Brann', role: 'gate guard' }) });
    await guard.talk('Open up!');
    expect(() => guard.restore(saved)).toThrow(
      expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(/"Mira", not "Brann"/) }),
    );
    expect(guard.core!.persona.name).toBe('Brann');
    expect(guard.core!.turnCount).toBe(1);
  });

  test('NPCComponent · restore with acceptOtherPersona: memory and conversation are taken, the persona stays the Inspector asset', async () => {
    useScript([say(oam, 'Nice to meet you, Ada.')]);
    const innkeeper = mira();
    await innkeeper.talk('I am Ada.');
    const saved = innkeeper.save();
    const heir = mount(oam.C.NPCComponent, { persona: jsonAsset({ name: 'Tova', role: "Mira's niece" }) });
    heir.restore(saved, { acceptOtherPersona: true });
    expect(heir.core!.persona.name).toBe('Tova');
    expect(heir.core!.turnCount).toBe(1);
    heir.rebuild();
    expect(heir.core!.persona.name).toBe('Tova');
    expect(heir.core!.turnCount).toBe(1);
  });

  test('NPCComponent · restore an older save after a patch: the updated persona asset wins, memory is the save', async () => {
    const model = useScript([say(oam, 'Nice to meet you, Ada.'), say(oam, 'Ada, was it?')]);
    const before = mira();
    await before.talk('I am Ada.');
    const saved = before.save();
    const patched = { ...MIRA, personality: 'gruff since the fire' };
    const after = mount(oam.C.NPCComponent, { persona: jsonAsset(patched, 'mira.json') });
    after.restore(saved);
    expect(after.core!.persona.personality).toBe('gruff since the fire');
    await after.talk('Remember me?');
    const sent = model.requests[1];
    expect(`${sent.promptPrefix || ''}${sent.systemInstruction || ''}${sent.prompt}`).toMatch(/gruff since the fire/);
    expect(`${sent.promptPrefix || ''}${sent.systemInstruction || ''}${sent.prompt}`).not.toMatch(
      /warm and quick-witted/,
    );
    expect(after.core!.turnCount).toBe(2);
  });
});

describe('DecisionComponent', () => {
  test('DecisionComponent · disabled or node deactivated: a decision in progress ends cancelled; decide() rejects with invalid_request', async () => {
    const model = useScript([oam.core.Script.hang()]);
    const decider = mount(oam.C.DecisionComponent, { options: options(), withReason: false }, new Node('guard'));
    const seen = record(decider.node, [oam.C.DECISION, oam.C.DECISION_ERROR]);
    const pending = outcome(decider.decide('A stranger at the gate.'));
    await until(() => model.calls === 1, 'the model call');
    decider.node.active = false;
    expect(await pending).toEqual({ ok: false, code: 'cancelled' });
    await expect(decider.decide('Again')).rejects.toMatchObject({ code: 'invalid_request' });
    decider.node.active = true;
    decider.enabled = false;
    await expect(decider.decide('Again')).rejects.toMatchObject({ code: 'invalid_request' });
    expect(model.calls).toBe(1);
    expect(seen).toEqual([]);
  });

  test('DecisionComponent · paused: the time budget is wall time, so the fallback still comes on time', async () => {
    useScript([oam.core.Script.hang()]);
    const decider = mount(
      oam.C.DecisionComponent,
      { options: options(), fallbackOption: 'wait', timeBudgetMs: 50, withReason: false },
      new Node('guard'),
    );
    game.pause();
    const decision = await decider.decide('A stranger at the gate.');
    expect(decision.optionId).toBe('wait');
    expect(decision.isFallback).toBe(true);
  });
});

describe('WorldStateStore', () => {
  test('WorldStateStore · disabled or node deactivated: the state stays readable and writable and world-changed still comes', () => {
    const store = mount(oam.C.WorldStateStore, { initialJson: '{"gold": 3}' }, new Node('world'));
    const changes = record(store.node, [oam.C.WORLD_CHANGED]);
    store.enabled = false;
    expect(store.set('gold', 4)).toBe(true);
    store.enabled = true;
    store.node.active = false;
    expect(store.get('gold')).toBe(4);
    expect(store.set('gold', 5)).toBe(true);
    expect(changes.map((change) => (change.payload as { newValue: unknown }).newValue)).toEqual([4, 5]);
  });

  test('WorldStateStore · persist root across a scene change: the same state, and NPCs of the next scene use it', async () => {
    useScript([oam.core.Script.call('update_world_state', { path: 'gold', value: 9 }), say(oam, 'Paid.')]);
    const store = mount(oam.C.WorldStateStore, { initialJson: '{"gold": 3}' }, new Node('world'));
    director.addPersistRootNode(store.node);
    const world = store.world;
    freshScene('next');
    frame();
    expect(store.world).toBe(world);
    const npc = mira({ worldStore: store, worldWritable: ['gold'] });
    await npc.talk('I pay.');
    expect(store.get('gold')).toBe(9);
  });
});

describe('NanoStatus', () => {
  test('NanoStatus · disabled: no events while off; enabled again, it refreshes and reports the current state', async () => {
    useScript([]);
    const status = mount(oam.C.NanoStatus, { refreshOnLoad: true }, new Node('status'));
    await until(() => status.status === 'available', 'the first refresh');
    const seen = record(status.node, [oam.C.NANO_AVAILABILITY]);
    status.node.active = false;
    await status.refresh();
    expect(seen).toEqual([]);
    status.node.active = true;
    await until(() => seen.length === 1, 'the refresh on enable');
    expect(seen[0].payload).toMatchObject({ status: 'available', kind: 'custom' });
  });
});

describe('OamRuntime', () => {
  test('OamRuntime · scene change: the shared model, its queue and its counters stay; a same-valued OamRuntimeSettings leaves them', async () => {
    useScript([say(oam, 'One.'), say(oam, 'Two.')]);
    const settings = () => mount(oam.C.OamRuntimeSettings, {}, new Node('settings'));
    settings();
    await mira().talk('Hello');
    const scheduler = oam.C.OamRuntime.scheduler;
    freshScene('next');
    settings();
    frame();
    await mira().talk('Hello again');
    expect(oam.C.OamRuntime.scheduler).toBe(scheduler);
    expect(oam.C.OamRuntime.model.stats()).toMatchObject({ completed: 2 });
  });
});
