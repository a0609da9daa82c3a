/**
 * `session/*` over the protocol (reference §3.2, §3.4): turns, streamed events before the
 * response, client tools over tool/call (every reply form, errors, timeouts), per-session
 * order, limits, and the cancellation rule: after session/cancel every response matches the
 * transcript, nothing of a cancelled turn is kept.
 */
import { ScriptedLanguageModel } from '../../src/scripted/scripted-model';
import { Harness, scripted, type Message } from './harness';

const MENU_TOOL = {
  name: 'check_menu',
  description: "Tonight's menu.",
  parameters: { type: 'object', properties: {} },
};
const ORDER_TOOL = {
  name: 'take_order',
  description: 'Serves an item.',
  parameters: { type: 'object', properties: { item: { type: 'string', enum: ['ale', 'stew'] } }, required: ['item'] },
};

/** The prompts and replies of a session/transcript result (or of its inner transcript), in order. */
function turnsOf(result: Message): string[] {
  const entries = result.entries ?? result.transcript.transcript.entries;
  return entries
    .filter((entry: Message) => entry.type !== 'toolUse')
    .map((entry: Message) => `${entry.type}:${entry.text}`);
}

describe('session/create and session/respond', () => {
  test('a turn streams session/events (modelStep, text adding up to the text) before its response', async () => {
    const host = new Harness();
    expect(
      await host.call('session/create', { model: scripted([{ text: 'Welcome to the Crooked Lantern!' }]) }),
    ).toEqual({ session: 's1', warnings: [] });
    const id = host.start('session/respond', { session: 's1', prompt: 'Evening!', stream: true });
    const response = await host.waitFor(id);
    expect(response.result).toMatchObject({ session: 's1', text: 'Welcome to the Crooked Lantern!', toolCalls: [] });
    expect(response.result.usage).toEqual(expect.objectContaining({ totalTokens: expect.any(Number) }));
    const events = host.notifications('session/event');
    expect(events.every((entry) => entry.session === 's1' && entry.requestId === id)).toBe(true);
    expect(events[0].event).toMatchObject({ type: 'modelStep', step: 0, isRepair: false });
    const text = events
      .filter((entry) => entry.event.type === 'text')
      .map((entry) => entry.event.delta)
      .join('');
    expect(text).toBe('Welcome to the Crooked Lantern!');
    const last = Math.max(...host.out.map((message, index) => (message.method === 'session/event' ? index : -1)));
    expect(last).toBeLessThan(host.out.indexOf(response));
  });

  test('without stream: no events; an empty prompt is allowed', async () => {
    const host = new Harness();
    await host.call('session/create', { model: scripted([{ text: 'Hm?' }]) });
    expect((await host.call('session/respond', { session: 's1', prompt: '' })).text).toBe('Hm?');
    expect(host.notifications('session/event')).toEqual([]);
  });

  test('a structured turn: JSON valid against the schema, in schema order', async () => {
    const host = new Harness();
    await host.call('session/create', { model: scripted([{ json: { rarity: 'Rare', name: 'Lantern' } }]) });
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, rarity: { type: 'string', enum: ['common', 'rare'] } },
      required: ['name', 'rarity'],
    };
    const result = await host.call('session/respond', { session: 's1', prompt: 'An item.', schema });
    expect(result.structured).toEqual({ name: 'Lantern', rarity: 'rare' });
    expect(Object.keys(result.structured)).toEqual(['name', 'rarity']);
  });

  test('"system" without a system model fails the turn with -32001 model_unavailable, and create warns', async () => {
    const host = new Harness();
    const created = await host.call('session/create', {});
    expect(created.warnings.join(' ')).toMatch(/model_unavailable/);
    expect(await host.error('session/respond', { session: 's1', prompt: 'hi' })).toMatchObject({
      code: -32001,
      data: { code: 'model_unavailable' },
    });
  });

  test('the host\'s system model answers "system" sessions', async () => {
    const model = new ScriptedLanguageModel(['{"reply": "From the device."}']);
    const host = new Harness({ systemModel: model });
    await host.call('session/create', { model: 'system' });
    expect((await host.call('session/respond', { session: 's1', prompt: 'hi' })).text).toBe('From the device.');
    expect(model.calls).toBe(1);
  });

  test('a script error step is the error code on the wire', async () => {
    const host = new Harness();
    await host.call('session/create', { model: scripted([{ error: 'guardrail_violation', message: 'blocked' }]) });
    expect(await host.error('session/respond', { session: 's1', prompt: 'hi' })).toMatchObject({
      code: -32002,
      data: { code: 'guardrail_violation' },
    });
  });
});

describe('client tools: tool/call', () => {
  const toolSession = async (host: Harness, reply: string) => {
    await host.call('session/create', {
      session: 'bar',
      tools: [ORDER_TOOL],
      model: scripted([{ toolCalls: [{ name: 'take_order', arguments: { item: 'Ale' } }] }, { text: reply }]),
    });
  };

  test('a round trip: toolCallStarted, then tool/call "t-1" with the session and request, then the result, then the response', async () => {
    const host = new Harness();
    host.answerTools = () => ({ result: { output: 'Served 1 ale.' } });
    await toolSession(host, 'Here you go.');
    const id = host.start('session/respond', { session: 'bar', prompt: 'An ale.', stream: true });
    const response = await host.waitFor(id);
    const call = host.out.find((message) => message.method === 'tool/call') as Message;
    expect(call.id).toBe('t-1');
    expect(call.params).toEqual({
      session: 'bar',
      requestId: id,
      call: { id: expect.stringMatching(/^call_/), name: 'take_order', arguments: { item: 'ale' } },
    });
    const started = host.indexOf((message) => message.params?.event?.type === 'toolCallStarted');
    const completed = host.indexOf((message) => message.params?.event?.type === 'toolCallCompleted');
    expect(host.out[started].params.event.execution).toBe('client');
    expect(started).toBeLessThan(host.out.indexOf(call));
    expect(host.out.indexOf(call)).toBeLessThan(completed);
    expect(completed).toBeLessThan(host.out.indexOf(response));
    expect(response.result.toolCalls).toEqual([
      { call: call.params.call, output: 'Served 1 ale.', isError: false, durationSeconds: expect.any(Number) },
    ]);
    expect(response.result.text).toBe('Here you go.');
  });

  test.each([
    { name: 'text output', reply: { result: { output: 'fine' } }, output: 'fine', kind: 'text' },
    {
      name: 'JSON output, compact',
      reply: { result: { output: { served: 1, item: 'ale' } } },
      output: { served: 1, item: 'ale' },
      kind: 'json',
    },
    {
      name: 'isError',
      reply: { result: { output: 'out of ale', isError: true } },
      output: 'out of ale',
      kind: 'error',
    },
    {
      name: 'an error reply',
      reply: { error: { code: 7, message: 'the keg is empty' } },
      output: 'the keg is empty',
      kind: 'error',
    },
    {
      name: 'a result without output (the whole result)',
      reply: { result: { served: true } },
      output: { served: true },
      kind: 'json',
    },
  ])(
    'the reply "$name" reads as the reference says, and never fails the turn',
    async ({ reply, output, kind }: { reply: Message; output: unknown; kind: string }) => {
      const isError = kind === 'error';
      const host = new Harness();
      host.answerTools = () => reply;
      await toolSession(host, 'Done.');
      const result = await host.call('session/respond', { session: 'bar', prompt: 'An ale.' });
      expect(result.toolCalls[0]).toMatchObject({ output, isError });
      expect(result.text).toBe('Done.');
      const transcript = await host.call('session/transcript', { session: 'bar' });
      const use = transcript.transcript.transcript.entries.find((entry: Message) => entry.type === 'toolUse');
      expect(use.output.kind).toBe(kind);
    },
  );

  test('no answer within the timeout (120 s by default): tool/cancel, the model sees an error, a late reply is ignored', async () => {
    const host = new Harness();
    await toolSession(host, 'Sorry, the kitchen is slow.');
    const id = host.start('session/respond', { session: 'bar', prompt: 'An ale.' });
    await host.settle();
    const call = host.out.find((message) => message.method === 'tool/call') as Message;
    expect(call).toBeDefined();
    host.timers.advance(119_999);
    expect(host.notifications('tool/cancel')).toEqual([]);
    host.timers.advance(1);
    expect(host.notifications('tool/cancel')).toEqual([
      { session: 'bar', requestId: id, id: 't-1', callId: call.params.call.id, reason: 'timeout' },
    ]);
    const response = await host.waitFor(id);
    expect(response.result.toolCalls[0]).toMatchObject({ isError: true, output: expect.stringMatching(/no answer/) });
    host.send({ id: 't-1', result: { output: 'too late' } });
    await host.settle(3);
    expect(host.out.filter((message) => message.id === 't-1' && message.method === undefined)).toEqual([]);
  });

  test("the session's toolTimeoutSeconds and a tool's own timeoutSeconds set the wait; 0 waits forever", async () => {
    const host = new Harness();
    await host.call('session/create', {
      session: 'a',
      tools: [{ ...MENU_TOOL, timeoutSeconds: 0 }],
      options: { toolTimeoutSeconds: 5 },
      model: scripted([{ toolCalls: [{ name: 'check_menu', arguments: {} }] }, { text: 'ok' }]),
    });
    host.start('session/respond', { session: 'a', prompt: 'menu?' });
    await host.settle();
    expect(host.out.some((message) => message.method === 'tool/call')).toBe(true);
    expect(host.timers.count).toBe(0);
    await host.call('session/create', {
      session: 'b',
      tools: [MENU_TOOL],
      options: { toolTimeoutSeconds: 5 },
      model: scripted([{ toolCalls: [{ name: 'check_menu', arguments: {} }] }, { text: 'ok' }]),
    });
    const id = host.start('session/respond', { session: 'b', prompt: 'menu?' });
    await host.settle();
    host.timers.advance(5000);
    expect(host.notifications('tool/cancel').map((change) => [change.session, change.reason])).toEqual([
      ['b', 'timeout'],
    ]);
    await host.waitFor(id);
  });

  test('invalid arguments are never sent: the call is recorded as not made', async () => {
    const host = new Harness();
    host.answerTools = () => ({ result: { output: 'should not happen' } });
    await host.call('session/create', {
      tools: [ORDER_TOOL],
      model: scripted([
        { toolCalls: [{ name: 'take_order', arguments: { item: 'wine' } }] },
        { toolCalls: [{ name: 'take_order', arguments: { item: 'wine' } }] },
        { text: 'No wine.' },
      ]),
    });
    const result = await host.call('session/respond', { session: 's1', prompt: 'Wine!' });
    expect(host.out.some((message) => message.method === 'tool/call')).toBe(false);
    expect(result.text).toBe('No wine.');
    expect(result.toolCalls.map((record: Message) => [record.call.name, record.isError, record.notMade])).toEqual([
      ['take_order', true, true],
    ]);
  });
});

test('per-turn maxToolRounds 0 forces the reply: no tool/call; the session keeps its own setting', async () => {
  const host = new Harness();
  host.answerTools = () => ({ result: { output: 'ale 3' } });
  await host.call('session/create', {
    tools: [MENU_TOOL],
    model: scripted([
      { text: 'No looking today.' },
      { toolCalls: [{ name: 'check_menu', arguments: {} }] },
      { text: 'Ale is 3.' },
    ]),
  });
  const quick = await host.call('session/respond', { session: 's1', prompt: 'menu?', maxToolRounds: 0 });
  expect(quick).toMatchObject({ text: 'No looking today.', toolCalls: [] });
  const full = await host.call('session/respond', { session: 's1', prompt: 'menu?' });
  expect(full.toolCalls).toHaveLength(1);
  expect(host.out.filter((message) => message.method === 'tool/call')).toHaveLength(1);
});

describe('cancel', () => {
  test('session/cancel while a tool/call waits: tool/cancel, -32009, nothing kept; as a notification too', async () => {
    const host = new Harness();
    await host.call('session/create', {
      session: 'bar',
      tools: [MENU_TOOL],
      model: scripted([{ toolCalls: [{ name: 'check_menu', arguments: {} }] }, { text: 'x' }]),
    });
    const id = host.start('session/respond', { session: 'bar', prompt: 'menu?' });
    await host.settle();
    const call = host.out.find((message) => message.method === 'tool/call') as Message;
    expect(await host.call('session/cancel', { session: 'bar' })).toEqual({ session: 'bar', cancelled: 1 });
    expect(host.notifications('tool/cancel')).toEqual([
      { session: 'bar', requestId: id, id: call.id, callId: call.params.call.id, reason: 'cancelled' },
    ]);
    expect((await host.waitFor(id)).error).toMatchObject({ code: -32009, data: { code: 'cancelled' } });
    expect((await host.call('session/transcript', { session: 'bar' })).transcript.transcript.entries).toEqual([]);
    await host.call('session/create', { session: 'slow', model: scripted([{ text: 'late', delayMs: 1_000_000 }]) });
    const slow = host.start('session/respond', { session: 'slow', prompt: 'hi' });
    await host.settle(3);
    host.send({ method: 'session/cancel', params: { session: 'slow' } });
    expect((await host.waitFor(slow)).error.code).toBe(-32009);
  });

  test('the cancellation rule: after session/cancel every response matches session/transcript', async () => {
    const host = new Harness();
    await host.call('session/create', {
      session: 'a',
      model: scripted([
        { text: 'One.' },
        { text: 'Never said.', delayMs: 1_000_000 },
        { text: 'Three.' },
        { text: 'Four.' },
      ]),
    });
    const answered: string[] = [];
    const check = async () => {
      const transcript = await host.call('session/transcript', { session: 'a' });
      expect(turnsOf(transcript)).toEqual(answered);
    };
    const first = await host.call('session/respond', { session: 'a', prompt: 'first' });
    answered.push('prompt:first', `response:${first.text}`);
    await check();
    const hanging = host.start('session/respond', { session: 'a', prompt: 'second' });
    const queued = host.start('session/respond', { session: 'a', prompt: 'queued' });
    const reset = host.start('session/setInstructions', { session: 'a', instructions: 'Be brief.' });
    await host.settle(3);
    expect(await host.call('session/cancel', { session: 'a' })).toEqual({ session: 'a', cancelled: 3 });
    for (const id of [hanging, queued, reset]) expect((await host.waitFor(id)).error.code).toBe(-32009);
    await check();
    // The script's next step was not consumed by the queued turn: the cancelled one took "Never said.".
    const third = await host.call('session/respond', { session: 'a', prompt: 'third' });
    answered.push('prompt:third', `response:${third.text}`);
    await check();
    const list = (await host.call('session/list')).sessions[0];
    expect(list).toMatchObject({ session: 'a', model: 'scripted', busy: false, pendingOperations: 0, entries: 4 });
    expect(list.instructions).toBeUndefined();
  });

  test('a cancel at every point of a turn: the response is -32009 with nothing kept, or the whole turn', async () => {
    const steps = () =>
      scripted([
        { toolCalls: [{ name: 'check_menu', arguments: {} }] },
        { text: 'Ale is 3 gold, stew is 5.', chunks: 4 },
        { text: 'Anything else?' },
      ]);
    // How many messages one whole turn sends, so every one of them gets its cancel.
    const probe = new Harness();
    probe.answerTools = () => ({ result: { output: 'ale 3, stew 5' } });
    await probe.call('session/create', { session: 'a', tools: [MENU_TOOL], model: steps() });
    const before = probe.out.length;
    await probe.call('session/respond', { session: 'a', prompt: 'menu?', stream: true });
    const turnMessages = probe.out.length - before - 1;
    expect(turnMessages).toBeGreaterThan(6);
    const outcomes = new Set<string>();
    for (let cancelAt = 0; cancelAt <= turnMessages; cancelAt++) {
      const host = new Harness();
      host.answerTools = () => ({ result: { output: 'ale 3, stew 5' } });
      await host.call('session/create', { session: 'a', tools: [MENU_TOOL], model: steps() });
      let seen = 0;
      host.onMessage = () => {
        if (seen++ === cancelAt) host.send({ method: 'session/cancel', params: { session: 'a' } });
      };
      const id = host.start('session/respond', { session: 'a', prompt: 'menu?', stream: true });
      const response = await host.waitFor(id);
      host.onMessage = undefined;
      const kept = turnsOf(await host.call('session/transcript', { session: 'a' }));
      if (response.error) {
        expect(response.error.code).toBe(-32009);
        expect(kept).toEqual([]);
      } else {
        expect(kept).toEqual(['prompt:menu?', `response:${response.result.text}`]);
      }
      outcomes.add(response.error ? 'cancelled' : 'completed');
      // Whatever happened, the next turn starts from what the transcript says.
      const next = await host.call('session/respond', { session: 'a', prompt: 'and?' });
      expect(turnsOf(await host.call('session/transcript', { session: 'a' }))).toEqual(
        kept.concat(['prompt:and?', `response:${next.text}`]),
      );
    }
    expect(outcomes).toEqual(new Set(['cancelled', 'completed']));
  });

  test('a session/cancel that arrives after the turn completed changes nothing', async () => {
    const host = new Harness();
    await host.call('session/create', { session: 'a', model: scripted([{ text: 'Done.' }]) });
    const result = await host.call('session/respond', { session: 'a', prompt: 'go' });
    expect(await host.call('session/cancel', { session: 'a' })).toEqual({ session: 'a', cancelled: 0 });
    expect(turnsOf(await host.call('session/transcript', { session: 'a' }))).toEqual([
      'prompt:go',
      `response:${result.text}`,
    ]);
  });
});

describe('the other session methods', () => {
  test('ids: generated s1, s2; -32021 for a taken id; -32020 for an unknown one; -32022 with data.limit when full', async () => {
    const host = new Harness({ maxSessions: 2 });
    expect((await host.call('session/create', { model: 'scripted' })).session).toBe('s1');
    expect((await host.error('session/create', { session: 's1', model: 'scripted' })).code).toBe(-32021);
    expect((await host.call('session/create', { model: 'scripted' })).session).toBe('s2');
    expect(await host.error('session/create', { model: 'scripted' })).toMatchObject({
      code: -32022,
      data: { code: 'session_limit', limit: 2 },
    });
    expect(await host.error('session/respond', { session: 'nope', prompt: 'x' })).toMatchObject({
      code: -32020,
      data: { code: 'session_not_found' },
    });
    expect(await host.call('session/delete', { session: 's1' })).toEqual({ session: 's1', deleted: true });
    expect((await host.call('session/create', { model: 'scripted' })).session).toBe('s3');
  });

  test('setInstructions, setContextNote and setTools queue behind the turn; a {"tool"} choice is checked when the turn starts', async () => {
    const host = new Harness();
    host.answerTools = () => ({ result: { output: 'ale 3' } });
    // A forced parameterless tool runs without a model step, so the script has no toolCalls step for it.
    await host.call('session/create', { session: 'a', model: scripted([{ text: 'first' }, { text: 'Ale is 3.' }]) });
    const missing = await host.error('session/respond', {
      session: 'a',
      prompt: 'x',
      toolChoice: { tool: 'check_menu' },
    });
    expect(missing).toMatchObject({ code: -32602 });
    const turn = host.start('session/respond', { session: 'a', prompt: 'hi' });
    const set = host.start('session/setTools', { session: 'a', tools: [MENU_TOOL] });
    const forced = host.start('session/respond', { session: 'a', prompt: 'menu?', toolChoice: { tool: 'check_menu' } });
    const note = host.start('session/setContextNote', { session: 'a', note: 'It is late.' });
    const instructions = host.start('session/setInstructions', { session: 'a', instructions: 'You are Mira.' });
    for (const id of [turn, set, forced, note, instructions]) expect((await host.waitFor(id)).error).toBeUndefined();
    const order = [turn, set, forced, note, instructions].map((id) => host.out.indexOf(host.response(id) as Message));
    expect(order).toEqual(order.slice().sort((left, right) => left - right));
    expect((host.response(forced) as Message).result.toolCalls[0].output).toBe('ale 3');
    const saved = (await host.call('session/transcript', { session: 'a' })).transcript;
    expect(saved.transcript).toMatchObject({
      instructions: 'You are Mira.',
      contextNote: 'It is late.',
      tools: [{ name: 'check_menu' }],
    });
  });

  test('history: a saved transcript restores the turns, its instructions and tools (a key sent wins, even null)', async () => {
    const host = new Harness();
    await host.call('session/create', {
      session: 'a',
      instructions: 'You are Mira.',
      tools: [MENU_TOOL],
      model: scripted([{ text: 'Hello!' }]),
    });
    await host.call('session/respond', { session: 'a', prompt: 'hi' });
    const saved = (await host.call('session/transcript', { session: 'a' })).transcript;
    await host.call('session/create', { session: 'b', history: saved, model: 'scripted' });
    const restored = (await host.call('session/transcript', { session: 'b' })).transcript.transcript;
    expect(restored).toMatchObject({ instructions: 'You are Mira.', tools: [{ name: 'check_menu' }] });
    expect(turnsOf(restored)).toEqual(['prompt:hi', 'response:Hello!']);
    await host.call('session/create', {
      session: 'c',
      history: saved,
      instructions: null,
      tools: [],
      model: 'scripted',
    });
    expect((await host.call('session/transcript', { session: 'c' })).transcript.transcript).toMatchObject({
      instructions: '',
      tools: [],
    });
    expect((await host.error('session/create', { history: { type: 'other' } })).code).toBe(-32602);
  });

  test('reset clears the turns; compact folds older turns into a summary (null when there is nothing to fold)', async () => {
    const host = new Harness();
    await host.call('session/create', {
      session: 'a',
      model: scripted([{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }, { text: 'They talked about ale.' }]),
    });
    expect(await host.call('session/compact', { session: 'a' })).toEqual({ session: 'a', summary: null });
    for (const prompt of ['a', 'b', 'c']) await host.call('session/respond', { session: 'a', prompt });
    expect(await host.call('session/compact', { session: 'a', keepRecentTurns: 1 })).toEqual({
      session: 'a',
      summary: 'They talked about ale.',
    });
    const saved = (await host.call('session/transcript', { session: 'a' })).transcript.transcript;
    expect(saved.contextNote).toBe('They talked about ale.');
    expect(turnsOf(saved)).toEqual(['prompt:c', 'response:Three.']);
    expect(await host.call('session/reset', { session: 'a' })).toEqual({ session: 'a' });
    expect((await host.call('session/transcript', { session: 'a' })).transcript.transcript.entries).toEqual([]);
  });
});
