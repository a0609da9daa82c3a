/**
 * Destroy at every point of a turn, on the real engine: its destroy is deferred (onDisable now,
 * onDestroy at the end of the frame) and `_destruct()` then nulls every object field and blanks
 * every string field of the component, while the turn's promise callbacks and timers still run.
 * By node.destroy() + the end of the frame, and by a scene change: the turn ends `cancelled`
 * (or completes, when it had committed), bark() and decide() reject with `cancelled`, nothing
 * throws, no promise is left unhandled, and no timer, queued request or listener stays behind.
 */
import { Node } from 'cc';
import type { DialogueTurn, ScriptStep } from '../../assets/runtime/oam-core.js';
import type { ExternalToolRequest, NPCComponent } from '../../assets/index';
import { freshScene, frame, jsonAsset, mount, record, settle, until } from './harness/scene';
import { guard, newTimers, pendingTimerIds } from './harness/guards';
import { loadOam, say, MIRA, type LoadedOam } from './harness/oam';

let oam: LoadedOam;
beforeAll(async () => {
  oam = await loadOam();
});
const guards = guard(() => oam.C.OamRuntime.reset());
beforeEach(() => freshScene());

type Way = 'node.destroy()' | 'scene change';
const WAYS: Way[] = ['node.destroy()', 'scene change'];

/** Destroys the component's node the given way, and lets the engine finish the frame. */
function destroyBy(way: Way, node: Node): void {
  if (way === 'node.destroy()') node.destroy();
  else freshScene('next');
  frame();
}

function useScript(steps: ScriptStep[], chunkDelayMs = 0) {
  const model = new oam.core.ScriptedLanguageModel(steps, { chunkDelayMs });
  oam.C.OamRuntime.configure({ languageModel: model, scheduler: { callsPerMinute: 0 } });
  return model;
}

function giveItem(): InstanceType<LoadedOam['C']['ToolDeclaration']> {
  return Object.assign(new oam.C.ToolDeclaration(), {
    name: 'give_item',
    description: 'Gives the player an item.',
    parametersSchema: JSON.stringify({ type: 'object', properties: { item: { type: 'string' } }, required: ['item'] }),
    timeoutMs: 0,
  });
}

/** What every destroy must leave: no TypeError logged, no queued or running request, no timer started since `timersBefore`. */
async function expectNothingLeft(timersBefore: unknown[]): Promise<void> {
  await settle(10);
  expect(
    guards.error.mock.calls.filter(
      (args) => String(args[0]).includes('TypeError') || args.some((arg: unknown) => arg instanceof TypeError),
    ),
  ).toEqual([]);
  expect(oam.C.OamRuntime.model.stats()).toMatchObject({ queued: 0, running: 0 });
  expect(newTimers(timersBefore)).toEqual([]);
}

/** The observers a WorldState holds (read from the core object; a leak check, nothing else uses it). */
function observerCount(world: object): number {
  return (world as unknown as { observers: unknown[] }).observers.length;
}

function settleOutcome<T>(
  promise: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: { code?: string; name?: string } }> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error) => ({ ok: false as const, error }),
  );
}

describe.each(WAYS)('destroy by %s', (way) => {
  test('before the turn starts (queued behind another turn): both end cancelled, nothing is emitted after', async () => {
    const timers = pendingTimerIds();
    const model = useScript([oam.core.Script.hang(), say(oam, 'never')]);
    const npc = mount(oam.C.NPCComponent, { persona: jsonAsset(MIRA) });
    const node = npc.node;
    const running = settleOutcome(npc.talk('first'));
    const queued = settleOutcome(npc.talk('second'));
    await until(() => model.calls === 1, 'the first model call');
    const after = record(node, [oam.C.NPC_EVENTS.turn, oam.C.NPC_EVENTS.line, oam.C.NPC_EVENTS.error]);
    destroyBy(way, node);
    expect(await running).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(await queued).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(model.calls).toBe(1); // the queued turn never reached the model
    expect(after).toEqual([]);
    await expectNothingLeft(timers);
  });

  test('before the first model call (same tick as talk): cancelled, the model is never called', async () => {
    const timers = pendingTimerIds();
    const model = useScript([say(oam, 'never')]);
    const npc = mount(oam.C.NPCComponent, { persona: jsonAsset(MIRA) });
    const turn = settleOutcome(npc.talk('hello'));
    destroyBy(way, npc.node);
    expect(await turn).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(model.calls).toBe(0);
    await expectNothingLeft(timers);
  });

  test('while the model streams the line: cancelled, the line stops, history stays empty', async () => {
    const timers = pendingTimerIds();
    const line =
      'Well, now, listen, traveller, this is a long story about the old mill, and the silver, and the mayor.';
    // Plain-text replies stream chunk by chunk (structured ones are re-read in larger pieces).
    const model = useScript([oam.core.Script.text(line, 60)], 10);
    const npc = mount(oam.C.NPCComponent, { persona: jsonAsset(MIRA), replyFormat: oam.C.ReplyFormat.Text });
    const node = npc.node;
    const core = npc.core!;
    const lines: string[] = [];
    node.on(oam.C.NPC_EVENTS.line, (event: { line: string }) => {
      lines.push(event.line);
    });
    const turn = settleOutcome(npc.talk('Tell me a story'));
    await until(() => lines.length > 0, 'the first streamed words');
    destroyBy(way, node);
    expect(await turn).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    const shown = lines.length;
    await settle(20);
    expect(lines.length).toBe(shown); // nothing more after the cancel
    expect(lines[lines.length - 1].length).toBeLessThan(line.length);
    expect(core.history).toEqual([]);
    expect(model.calls).toBe(1);
    await expectNothingLeft(timers);
  });

  test('while an external tool waits for the game: cancelled; the late answer is refused; the world is untouched', async () => {
    const timers = pendingTimerIds();
    useScript([oam.core.Script.call('give_item', { item: 'key' }), say(oam, 'Here.')]);
    const store = mount(oam.C.WorldStateStore, { initialJson: '{"keys": 1}' }, new Node('world'));
    const npc = mount(oam.C.NPCComponent, {
      persona: jsonAsset(MIRA),
      externalTools: [giveItem()],
      worldStore: store,
      externalToolTimeoutMs: 60000,
    });
    let request: ExternalToolRequest | undefined;
    npc.node.on(oam.C.NPC_EVENTS.externalTool, (received: ExternalToolRequest) => {
      request = received;
    });
    const turn = settleOutcome(npc.talk('The key, please'));
    await until(() => request !== undefined, 'the external tool request');
    expect(npc.pendingToolCalls).toHaveLength(1);
    destroyBy(way, npc.node);
    expect(await turn).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(request!.answer({ given: 'key' })).toBe(false);
    expect(request!.fail('too late')).toBe(false);
    // Calls on the destroyed component answer, never throw.
    expect(npc.pendingToolCalls).toEqual([]);
    expect(npc.answerTool(request!.call.id, 'late')).toBe(false);
    expect(npc.isTalking).toBe(false);
    expect(() => npc.cancel()).not.toThrow();
    await expectNothingLeft(timers);
  });

  test('after the turn completed: the turn stays completed, later calls reject with cancelled', async () => {
    const timers = pendingTimerIds();
    useScript([say(oam, 'Done.')]);
    const npc = mount(oam.C.NPCComponent, { persona: jsonAsset(MIRA) });
    const turn: DialogueTurn = await npc.talk('Hi');
    destroyBy(way, npc.node);
    expect(turn.line).toBe('Done.');
    await expect(npc.talk('still there?')).rejects.toMatchObject({ code: 'cancelled' });
    await expect(npc.bark('idle')).rejects.toMatchObject({ code: 'cancelled' });
    expect(() => npc.restore({})).toThrow(expect.objectContaining({ code: 'cancelled' }));
    await expectNothingLeft(timers);
  });

  test('a bark in flight rejects with cancelled; a bark after rejects with cancelled', async () => {
    const timers = pendingTimerIds();
    const model = useScript([oam.core.Script.hang()]);
    const npc: NPCComponent = mount(oam.C.NPCComponent, { persona: jsonAsset(MIRA) });
    const barks = record(npc.node, [oam.C.NPC_EVENTS.bark, oam.C.NPC_EVENTS.error]);
    const bark = settleOutcome(npc.bark('morning'));
    await until(() => model.calls === 1, 'the bark request');
    destroyBy(way, npc.node);
    expect(await bark).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    await expect(npc.bark('again')).rejects.toMatchObject({ code: 'cancelled' });
    expect(barks).toEqual([]);
    await expectNothingLeft(timers);
  });

  test('a decision in flight rejects with cancelled; decide() after rejects with cancelled', async () => {
    const timers = pendingTimerIds();
    const model = useScript([oam.core.Script.hang()]);
    const options = [
      ['attack', 'Charge'],
      ['flee', 'Run'],
    ].map(([id, description]) => Object.assign(new oam.C.DecisionOptionEntry(), { id, description }));
    const decider = mount(
      oam.C.DecisionComponent,
      { options, timeBudgetMs: 60000, fallbackOption: 'flee' },
      new Node('goblin'),
    );
    const seen = record(decider.node, [oam.C.DECISION, oam.C.DECISION_ERROR]);
    const decision = settleOutcome(decider.decide('Knights!'));
    await until(() => model.calls === 1, 'the decision request');
    destroyBy(way, decider.node);
    expect(await decision).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    await expect(decider.decide('again')).rejects.toMatchObject({ code: 'cancelled' });
    expect(seen).toEqual([]);
    await expectNothingLeft(timers);
  });
});

describe('what a destroy leaves behind', () => {
  test('the store removes its world observer; events stop; the state stays readable', async () => {
    useScript([]);
    const store = mount(oam.C.WorldStateStore, { initialJson: '{"gold": 1}' }, new Node('world'));
    const world = store.world;
    const changes = record(store.node, [oam.C.WORLD_CHANGED]);
    world.set('gold', 2);
    expect(changes).toHaveLength(1);
    expect(observerCount(world)).toBe(1);
    freshScene('next'); // the old scene and the store are destroyed
    frame();
    expect(observerCount(world)).toBe(0);
    world.set('gold', 3);
    expect(changes).toHaveLength(1);
    expect(() => store.get('gold')).not.toThrow();
  });

  test('NanoStatus destroyed while its refresh is in flight: nothing is applied, download() rejects with cancelled', async () => {
    useScript([]);
    const status = mount(oam.C.NanoStatus, { refreshOnLoad: true }, new Node('status'));
    const seen = record(status.node, [oam.C.NANO_AVAILABILITY]);
    status.node.destroy();
    frame();
    await settle(5);
    expect(seen).toEqual([]);
    await expect(status.download()).rejects.toMatchObject({ code: 'cancelled' });
  });

  test('a component on a node that never became active, destroyed: calls end as cancelled, no TypeError', async () => {
    const timers = pendingTimerIds();
    const model = useScript([say(oam, 'never')]);
    const hidden = new Node('hidden');
    hidden.active = false;
    freshScene().addChild(hidden);
    const npc = hidden.addComponent(oam.C.NPCComponent);
    npc.persona = jsonAsset(MIRA);
    const options = [
      ['a', 'A'],
      ['b', 'B'],
    ].map(([id, description]) => Object.assign(new oam.C.DecisionOptionEntry(), { id, description }));
    const decider = hidden.addComponent(oam.C.DecisionComponent);
    decider.options = options;
    hidden.destroy(); // no onLoad ran, so the engine calls no onDestroy; fields are nulled all the same
    frame();
    await expect(npc.talk('hello')).rejects.toMatchObject({ code: 'cancelled' });
    await expect(npc.bark('idle')).rejects.toMatchObject({ code: 'cancelled' });
    await expect(decider.decide('now')).rejects.toMatchObject({ code: 'cancelled' });
    expect(() => npc.save()).toThrow(expect.objectContaining({ code: 'cancelled' }));
    expect(npc.setupError).toMatchObject({ code: 'cancelled' });
    expect(npc.rebuild()).toBe(false);
    expect(model.calls).toBe(0);
    await expectNothingLeft(timers);
  });

  test('a persona swapped while a turn runs does not cancel it, even when a getter is read; the next talk uses it', async () => {
    const model = useScript([oam.core.Script.delay(30, say(oam, 'Mira here.')), say(oam, 'Brann here.')]);
    const npc = mount(oam.C.NPCComponent, { persona: jsonAsset(MIRA) });
    const first = npc.talk('Who are you?');
    await until(() => model.calls === 1, 'the first call');
    npc.persona = jsonAsset({ name: 'Brann', role: 'gate guard' }, 'brann.json');
    expect(npc.core!.persona.name).toBe('Mira'); // reading a getter mid-turn changes nothing
    expect(npc.setupError).toBeNull();
    await expect(first).resolves.toMatchObject({ line: 'Mira here.' });
    await npc.talk('And now?');
    expect(npc.core!.persona.name).toBe('Brann');
  });

  test('destroying one NPC mid-turn leaves the other NPC on the shared scheduler working', async () => {
    const model = useScript([oam.core.Script.hang(), say(oam, 'Still here.')]);
    const doomed = mount(oam.C.NPCComponent, { persona: jsonAsset(MIRA) }, new Node('doomed'));
    const other = mount(
      oam.C.NPCComponent,
      { persona: jsonAsset({ name: 'Brann', role: 'guard' }) },
      new Node('brann'),
    );
    const lost = settleOutcome(doomed.talk('hello'));
    await until(() => model.calls === 1, 'the first call');
    const kept = other.talk('and you?');
    doomed.node.destroy();
    frame();
    expect(await lost).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    await expect(kept).resolves.toMatchObject({ line: 'Still here.' });
    await settle(10);
  });
});
