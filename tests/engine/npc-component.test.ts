/**
 * NPCComponent on the real engine, compiled by Creator's pipeline: talk and its node events,
 * external tools answered by the game, bad set-ups, the world store, save/restore, cancel and
 * the shared scheduler. (Destroy at every point of a turn: destroy.test.ts.)
 */
import { Node } from 'cc';
import type {
  DialogueTurn,
  AgentError as AgentErrorType,
  AgentTool as AgentToolType,
} from '../../assets/runtime/oam-core.js';
import type { ExternalToolRequest } from '../../assets/index';
import { freshScene, jsonAsset, mount, record, settle } from './harness/scene';
import { guard } from './harness/guards';
import { loadOam, say as sayWith, MIRA, type LoadedOam } from './harness/oam';

let oam: LoadedOam;
let components: LoadedOam['C'];
let events: LoadedOam['C']['NPC_EVENTS'];
let AgentTool: LoadedOam['core']['AgentTool'];
let AgentError: LoadedOam['core']['AgentError'];
let Script: LoadedOam['core']['Script'];
let ScriptedLanguageModel: LoadedOam['core']['ScriptedLanguageModel'];
beforeAll(async () => {
  oam = await loadOam();
  ({ C: components } = oam);
  events = components.NPC_EVENTS;
  ({ AgentTool, AgentError, Script, ScriptedLanguageModel } = oam.core);
});
const quiet = guard(() => components.OamRuntime.reset());
beforeEach(() => freshScene());

const say = (line: string, emotion?: string) => sayWith(oam, line, emotion);
const persona = (json: unknown = MIRA, name = 'mira.json') => jsonAsset(json, name);
const flush = () => settle(1);
type ExternalToolRequestLike = ExternalToolRequest;

function useModel(steps: ConstructorParameters<typeof ScriptedLanguageModel>[0]) {
  const model = new ScriptedLanguageModel(steps);
  components.OamRuntime.configure({ languageModel: model, scheduler: { callsPerMinute: 0 } });
  return model;
}

function giveItemDeclaration(timeoutMs = 0) {
  const toolDeclaration = new components.ToolDeclaration();
  toolDeclaration.name = 'give_item';
  toolDeclaration.description = 'Gives the player an item from the inn.';
  toolDeclaration.parametersSchema = JSON.stringify({
    type: 'object',
    properties: { item: { type: 'string' } },
    required: ['item'],
  });
  toolDeclaration.timeoutMs = timeoutMs;
  return toolDeclaration;
}

describe('NPCComponent talk and events', () => {
  test('a turn streams emotion and line events, then npc-turn with the finished turn', async () => {
    useModel([say('Welcome to the Gilded Goose!', 'happy')]);
    const npc = mount(components.NPCComponent, { persona: persona() });
    const seen = record(npc.node, [events.emotion, events.line, events.turn, events.error]);
    const turn = await npc.talk('Hello!');
    expect(turn.line).toBe('Welcome to the Gilded Goose!');
    expect(turn.emotion).toBe('happy');
    expect(seen.filter((event) => event.type === events.emotion).map((event) => event.payload)).toEqual(['happy']);
    const lines = seen
      .filter((event) => event.type === events.line)
      .map((event) => event.payload as { line: string; delta: string });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[lines.length - 1].line).toBe('Welcome to the Gilded Goose!');
    expect(lines.map((line) => line.delta).join('')).toBe('Welcome to the Gilded Goose!');
    expect(seen[seen.length - 1]).toEqual({ type: events.turn, payload: turn });
    expect(seen.some((event) => event.type === events.error)).toBe(false);
  });

  test('isTalking is false inside npc-turn and right after await talk() (issue 24, item 4)', async () => {
    useModel([say('Welcome!', 'happy')]);
    const npc = mount(components.NPCComponent, { persona: persona() });
    let talkingInEvent: boolean | undefined;
    npc.node.on(events.turn, () => {
      talkingInEvent = npc.isTalking;
    });
    await npc.talk('Hello!');
    expect(talkingInEvent).toBe(false);
    expect(npc.isTalking).toBe(false);
  });

  test('a local tool registered from code runs, reported by npc-tool-call and npc-tool-result', async () => {
    const model = useModel([Script.call('check_menu'), say('Stew is 5 gold.')]);
    const npc = mount(components.NPCComponent, { persona: persona() });
    npc.registerTool(
      AgentTool.local({ name: 'check_menu', description: 'Lists the menu with prices.' }, () => ({ stew: 5 })),
    );
    const seen = record(npc.node, [events.toolCall, events.toolResult]);
    const turn = await npc.talk('What is on the menu?');
    expect(turn.line).toBe('Stew is 5 gold.');
    expect(seen.map((event) => event.type)).toEqual([events.toolCall, events.toolResult]);
    expect(turn.toolCalls[0].output).toEqual({ kind: 'json', value: { stew: 5 } });
    expect(model.calls).toBe(2);
    expect(npc.unregisterTool('check_menu')).toBe(true);
    expect(npc.unregisterTool('check_menu')).toBe(false);
  });

  test('talk() while a turn runs is queued: turns finish in order, one at a time', async () => {
    useModel([Script.delay(20, say('First.')), say('Second.')]);
    const npc = mount(components.NPCComponent, { persona: persona() });
    const order: string[] = [];
    const first = npc.talk('one').then((turn) => order.push(turn.line));
    const second = npc.talk('two').then((turn) => order.push(turn.line));
    expect(npc.isTalking).toBe(true);
    await Promise.all([first, second]);
    expect(order).toEqual(['First.', 'Second.']);
    expect(npc.core?.history.filter((entry) => entry.type === 'prompt').length).toBe(2);
  });

  test('bark() returns one line and emits npc-bark', async () => {
    useModel(['Fresh bread, still warm!']);
    const npc = mount(components.NPCComponent, { persona: persona() });
    const seen = record(npc.node, [events.bark]);
    await expect(npc.bark('morning market')).resolves.toBe('Fresh bread, still warm!');
    expect(seen).toEqual([{ type: events.bark, payload: 'Fresh bread, still warm!' }]);
    await expect(npc.bark('  ')).rejects.toMatchObject({ code: 'invalid_request' });
  });

  test('a failing model gives an authored fallback line and npc-fallback', async () => {
    useModel([Script.fail('model_unavailable', 'no model')]);
    const npc = mount(components.NPCComponent, { persona: persona(), fallbackLines: ['Give me a moment, love.'] });
    const seen = record(npc.node, [events.fallback, events.turn]);
    const turn = await npc.talk('Hello?');
    expect(turn).toMatchObject({ line: 'Give me a moment, love.', isFallback: true });
    expect(seen.map((event) => event.type)).toEqual([events.fallback, events.turn]);
    expect((seen[0].payload as AgentErrorType).code).toBe('model_unavailable');
  });
});

describe('external tools answered through node events', () => {
  test('the game answers through request.answer(); the NPC uses the answer', async () => {
    const model = useModel([Script.call('give_item', { item: 'key' }), say('Here is your key.')]);
    const npc = mount(components.NPCComponent, { persona: persona(), externalTools: [giveItemDeclaration()] });
    const requests: ExternalToolRequestLike[] = [];
    npc.node.on(events.externalTool, (request: ExternalToolRequestLike) => {
      requests.push(request);
      expect(request.answer({ given: request.call.args.item })).toBe(true);
      expect(request.answer('twice')).toBe(false); // already answered
    });
    const turn = await npc.talk('Can I have the key?');
    expect(turn.line).toBe('Here is your key.');
    expect(model.calls).toBe(2);
    expect(requests).toHaveLength(1);
    expect(requests[0].call).toMatchObject({ name: 'give_item', args: { item: 'key' } });
    expect(turn.toolCalls[0].output).toEqual({ kind: 'json', value: { given: 'key' } });
  });

  test('a late answer (after other work) still reaches the waiting turn; fail() reports an error output', async () => {
    useModel([Script.call('give_item', { item: 'sword' }), say('Sorry, no swords today.')]);
    const npc = mount(components.NPCComponent, { persona: persona(), externalTools: [giveItemDeclaration()] });
    npc.node.on(events.externalTool, (request: ExternalToolRequestLike) => {
      setTimeout(() => request.fail('out of stock'), 15);
    });
    const turn = await npc.talk('A sword, please.');
    expect(turn.line).toBe('Sorry, no swords today.');
    expect(turn.toolCalls[0].output).toEqual({ kind: 'error', message: 'out of stock' });
  });

  test('answerTool() by id works while the call waits and refuses unknown or finished calls', async () => {
    useModel([Script.call('give_item', { item: 'ale' }), say('Enjoy.')]);
    const npc = mount(components.NPCComponent, { persona: persona(), externalTools: [giveItemDeclaration()] });
    let callId = '';
    npc.node.on(events.externalTool, (request: ExternalToolRequestLike) => {
      callId = request.call.id;
    });
    const pending = npc.talk('Ale!');
    while (!callId) await flush();
    expect(npc.pendingToolCalls.map((call) => call.id)).toEqual([callId]);
    expect(npc.answerTool('call_doesnotexist000000000', 'x')).toBe(false);
    expect(npc.answerTool(callId, 'poured')).toBe(true);
    await pending;
    expect(npc.answerTool(callId, 'again')).toBe(false);
  });

  test('a tool event nobody answers times out and the NPC still replies', async () => {
    useModel([Script.call('give_item', { item: 'map' }), say('Hm, never mind the map.')]);
    const npc = mount(components.NPCComponent, { persona: persona(), externalTools: [giveItemDeclaration(30)] });
    let request: ExternalToolRequestLike | undefined;
    npc.node.on(events.externalTool, (received: ExternalToolRequestLike) => {
      request = received;
    });
    const turn = await npc.talk('A map?');
    expect(turn.line).toBe('Hm, never mind the map.');
    expect(turn.toolCalls[0].output.kind).toBe('error');
    expect(request?.answer('too late')).toBe(false);
  });

  test('with no listener at all the call is refused at once (with a warning), not left to time out', async () => {
    useModel([Script.call('give_item', { item: 'map' }), say('Another time.')]);
    const npc = mount(components.NPCComponent, {
      persona: persona(),
      externalTools: [giveItemDeclaration()],
      externalToolTimeoutMs: 3_600_000,
    });
    const turn = await npc.talk('A map?');
    expect(turn.line).toBe('Another time.');
    expect(turn.toolCalls[0].output).toMatchObject({ kind: 'error' });
    expect(quiet.warn.mock.calls.join(' ')).toMatch(/give_item.*npc-external-tool/);
  });
});

describe('approving a call before it runs (npc-tool-approval)', () => {
  test('a refused call never runs; the NPC reads the reason and the turn goes on', async () => {
    const model = useModel([Script.call('give_item', { item: 'crown' }), say('The crown stays with me.')]);
    const npc = mount(components.NPCComponent, { persona: persona(), externalTools: [giveItemDeclaration()] });
    const asked: unknown[] = [];
    npc.node.on(events.externalTool, (request: ExternalToolRequestLike) => asked.push(request.call));
    npc.node.on(events.toolApproval, (request: { call: { args: { item: string } }; refuse(reason: string): void }) =>
      request.refuse(`No ${request.call.args.item} in stock.`),
    );
    const turn = await npc.talk('Give me the crown.');
    expect(turn.line).toBe('The crown stays with me.');
    expect(asked).toEqual([]);
    expect(turn.toolCalls[0]).toMatchObject({ refused: 'No crown in stock.' });
    expect(model.requests[1].prompt).toContain('Refused: No crown in stock.');
  });

  test('allow(args) runs the call with the changed arguments, answered later', async () => {
    useModel([Script.call('give_item', { item: 'sword' }), say('A stick will do.')]);
    const npc = mount(components.NPCComponent, { persona: persona(), externalTools: [giveItemDeclaration()] });
    const given: string[] = [];
    npc.node.on(events.externalTool, (request: ExternalToolRequestLike) => {
      given.push(String(request.call.args.item));
      request.answer('given');
    });
    npc.node.on(events.toolApproval, (request: { allow(args?: Record<string, unknown>): void }) => {
      setTimeout(() => request.allow({ item: 'stick' }), 10);
    });
    const turn = await npc.talk('A sword!');
    expect(given).toEqual(['stick']);
    expect(turn.toolCalls[0].call.args).toEqual({ item: 'stick' });
  });

  test('a listener that throws fails the turn with tool_failed and npc-error; the conversation is unchanged', async () => {
    useModel([Script.call('give_item', { item: 'map' }), say('x')]);
    const npc = mount(components.NPCComponent, { persona: persona(), externalTools: [giveItemDeclaration()] });
    const errors = record(npc.node, [events.error, events.fallback]);
    npc.node.on(events.toolApproval, () => {
      throw new Error('the shop is closed');
    });
    const before = npc.save();
    await expect(npc.talk('A map?')).rejects.toMatchObject({ code: 'tool_failed' });
    expect(errors.length).toBe(1);
    expect(npc.save()).toEqual(before);
  });
});

describe('bad set-ups', () => {
  test('an invalid persona asset: a clear message naming the field, npc-error, talk() rejects, then a fix works', async () => {
    useModel([say('Fixed!')]);
    const node = new Node('broken');
    const errors: AgentErrorType[] = [];
    node.on(events.error, (error: AgentErrorType) => errors.push(error));
    const npc = mount(components.NPCComponent, { persona: persona({ name: 42, goals: 'none' }, 'bad.json') }, node);
    expect(npc.setupError).toBeInstanceOf(AgentError);
    expect(npc.setupError?.code).toBe('invalid_request');
    expect(npc.setupError?.message).toMatch(/broken/);
    expect(npc.setupError?.message).toMatch(/bad\.json/);
    expect(npc.setupError?.message).toMatch(/name/);
    expect(errors).toHaveLength(1);
    expect(quiet.error).toHaveBeenCalled();
    await expect(npc.talk('hi')).rejects.toMatchObject({ code: 'invalid_request' });
    expect(errors).toHaveLength(2);
    expect(() => npc.save()).toThrow(AgentError);
    npc.persona = persona();
    expect(npc.rebuild()).toBe(true);
    await expect(npc.talk('hi')).resolves.toMatchObject({ line: 'Fixed!' });
  });

  test('no persona asset at all is reported, not thrown', async () => {
    useModel([]);
    const npc = mount(components.NPCComponent, {});
    expect(npc.setupError?.message).toMatch(/no persona asset/);
    await expect(npc.talk('hi')).rejects.toMatchObject({ code: 'invalid_request' });
  });

  test('a tool declaration with a broken schema names the declaration', () => {
    useModel([]);
    const declaration = giveItemDeclaration();
    declaration.parametersSchema = '{ not json';
    const npc = mount(components.NPCComponent, { persona: persona(), externalTools: [declaration] });
    expect(npc.setupError?.message).toMatch(/externalTools\[0\] \(give_item\)/);
    const bad = giveItemDeclaration();
    bad.name = 'give item';
    npc.externalTools = [bad];
    expect(npc.rebuild()).toBe(false);
    expect(npc.setupError?.message).toMatch(/give item/);
  });

  test('registerTool refuses a clash with a built-in tool and keeps the old tools', () => {
    useModel([]);
    const npc = mount(components.NPCComponent, { persona: persona(), rememberFacts: true });
    expect(() => npc.registerTool(AgentTool.local({ name: 'remember_fact', description: 'x' }, () => 'x'))).toThrow(
      /built-in/,
    );
    expect(() => npc.registerTool({} as AgentToolType)).toThrow(/AgentTool/);
  });

  test('a missing WorldStateStore: world paths warn, the NPC still talks without world tools', async () => {
    const model = useModel([say('No ledger here.')]);
    const npc = mount(components.NPCComponent, {
      persona: persona(),
      worldWritable: ['player.gold'],
      worldContextPaths: ['player.gold'],
    });
    expect(npc.setupError).toBeNull();
    expect(quiet.warn.mock.calls.join(' ')).toMatch(/no WorldStateStore/);
    await expect(npc.talk('How much gold do I have?')).resolves.toMatchObject({ line: 'No ledger here.' });
    expect(model.requests[0].promptPrefix ?? '').not.toMatch(/update_world_state/);
  });
});

describe('world state, save and restore', () => {
  test('NPC world tools change the shared store, which emits world-changed on its node', async () => {
    useModel([Script.call('update_world_state', { path: 'player.gold', value: 7 }), say('Paid.')]);
    const store = mount(components.WorldStateStore, { initialJson: '{"player":{"gold":10}}' }, new Node('world'));
    const changes = record(store.node, [components.WORLD_CHANGED]);
    const npc = mount(components.NPCComponent, {
      persona: persona(),
      worldStore: store,
      worldWritable: ['player.gold'],
    });
    const turn = await npc.talk('I pay 3 gold.');
    expect(turn.toolCalls[0].output.kind).not.toBe('error');
    expect(store.get('player.gold')).toBe(7);
    expect(changes).toHaveLength(1);
    expect(changes[0].payload).toMatchObject({ path: 'player.gold', oldValue: 10, newValue: 7 });
  });

  test('save() and restore() round-trip the conversation; a bad save throws and keeps the state', async () => {
    useModel([say('Nice to meet you, Ada.'), say('You are Ada.')]);
    const npc = mount(components.NPCComponent, { persona: persona() });
    await npc.talk('I am Ada.');
    const saved = JSON.parse(JSON.stringify(npc.save()));
    // Mira's save goes into Mira's NPC on another node (a save of another character: contract.test.ts).
    const other = mount(components.NPCComponent, { persona: persona() }, new Node('mira-again'));
    other.restore(saved);
    expect(other.core?.persona.name).toBe('Mira');
    expect(other.core?.turnCount).toBe(1);
    expect(() => other.restore({ version: 99 })).toThrow(/version/);
    expect(() => other.restore('not json')).toThrow(AgentError);
    expect(other.core?.turnCount).toBe(1);
    await expect(other.talk('Who am I?')).resolves.toMatchObject({ line: 'You are Ada.' });
  });
});

describe('cancel and the shared scheduler', () => {
  test('cancel() stops the running turn; the NPC keeps working afterwards', async () => {
    const model = useModel([Script.hang(), say('Back again.')]);
    const npc = mount(components.NPCComponent, { persona: persona() });
    const errors = record(npc.node, [events.error]);
    const pending = npc.talk('Hello?');
    while (model.calls === 0) await flush();
    npc.cancel();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    expect(errors).toHaveLength(0); // a cancel is not an error
    await expect(npc.talk('Hello again')).resolves.toMatchObject({ line: 'Back again.' });
    expect(npc.core?.turnCount).toBe(1);
  });

  test("two NPCs share one scheduler: the player's NPC goes first, one generation at a time", async () => {
    const model = new ScriptedLanguageModel([], {
      fallback: Script.dynamic((request) =>
        request.kind === 'decide'
          ? JSON.stringify({ reply: { emotion: 'neutral', line: `${request.label} speaks` } })
          : JSON.stringify({ emotion: 'neutral', line: `${request.label} speaks` }),
      ),
    });
    components.OamRuntime.configure({ languageModel: model, scheduler: { callsPerMinute: 0 } });
    const mira = mount(components.NPCComponent, { persona: persona(), priority: 100 }, new Node('mira'));
    const guard = mount(
      components.NPCComponent,
      { persona: persona({ name: 'Guard' }), priority: 10 },
      new Node('guard'),
    );
    expect(mira.core?.model).toBe(components.OamRuntime.model);
    expect(guard.core?.model).toBe(components.OamRuntime.model);
    const turns: DialogueTurn[] = await Promise.all([guard.talk('Halt?'), mira.talk('Hello')]);
    expect(turns.map((turn) => turn.line)).toEqual(['Guard speaks', 'Mira speaks']);
    expect(model.requests.map((request) => request.label)).toEqual(['Mira', 'Guard']);
    expect(components.OamRuntime.model.stats()).toMatchObject({ started: 2, completed: 2, running: 0, queued: 0 });
  });

  test('inspector properties reach the core NPC (reply format, options, grounding tool)', async () => {
    // The grounding tool runs without a model step; the decide step after it replies inline.
    const model = useModel([Script.reply({ emotion: 'happy', line: 'Stew.', options: ['Thanks!', 'Anything else?'] })]);
    const npc = mount(components.NPCComponent, {
      persona: persona(MIRA),
      replyFormat: components.ReplyFormat.Structured,
      playerOptionCount: 2,
      emotions: ['happy', 'sad'],
    });
    npc.registerTool(AgentTool.local({ name: 'check_menu', description: 'Lists the menu.' }, () => 'stew'));
    npc.groundingTool = 'check_menu';
    expect(npc.rebuild()).toBe(true);
    const turn = await npc.talk('Food?');
    expect(turn.toolCalls.map((call) => call.call.name)).toEqual(['check_menu']);
    expect(turn.line).toBe('Stew.');
    expect(turn.playerOptions).toEqual(['Thanks!', 'Anything else?']);
    expect(model.calls).toBe(1);
    expect(model.requests[0].promptPrefix ?? model.requests[0].prompt).toMatch(/check_menu/);
    npc.groundingTool = 'nope';
    expect(npc.rebuild()).toBe(false);
    expect(npc.setupError?.message).toMatch(/groundingTool "nope"/);
  });
});
