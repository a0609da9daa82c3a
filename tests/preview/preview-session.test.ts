/** The page's conversation logic in Node: the turn view, tools answered by hand, world changes, failures. */
import { createServer } from 'node:net';
import { AgentError, estimateTokens, OpenAICompatibleModel, type NPCEvent } from '../../src';
import { ScriptedLanguageModel, Script } from '../../src/testing';
import { createMiraModel } from '../../demo/tavern/mira-model';
import { PreviewSession, parseAnswer } from '../../preview/page/preview-session';
import { readConversationExport } from '../../preview/page/conversation-export';
import { SAMPLE_PERSONA } from '../../preview/page/persona-source';
import { applyEvent, failTurn, newTurnView, type TurnView } from '../../preview/page/turn-view';
import { compactJson, describeChange, flattenWorld, turnTotals } from '../../preview/page/format';

function standin(): PreviewSession {
  return new PreviewSession({ persona: SAMPLE_PERSONA, model: createMiraModel() });
}

/** Resolves once `check` holds for a view passed to onUpdate. */
function whenView(check: (v: TurnView) => boolean): { onUpdate: (v: TurnView) => void; reached: Promise<TurnView> } {
  let done!: (v: TurnView) => void;
  const reached = new Promise<TurnView>((resolve) => {
    done = resolve;
  });
  return {
    onUpdate: (view) => {
      if (check(view)) done(view);
    },
    reached,
  };
}

function closedPort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => done(port));
    });
  });
}

describe('PreviewSession', () => {
  test('"Two ales, please.": streamed line, take_order with args and result, steps in order, gold 20 → 14', async () => {
    const session = standin();
    const lines: string[] = [];
    const view = await session.talk('Two ales, please.', (partial) => lines.push(partial.line));
    expect(view.line).toBe("Two ales, coming right up. That's 6 gold, you've 14 left.");
    expect(view.emotion).toBe('happy');
    expect(view.done && !view.isFallback && view.error === undefined).toBe(true);
    expect(lines.some((line) => line.length > 0 && line.length < view.line.length && view.line.startsWith(line))).toBe(
      true,
    );
    expect(view.lineEvents).toBeGreaterThanOrEqual(2);

    expect(view.tools).toEqual([
      {
        id: expect.stringMatching(/^call_/),
        name: 'take_order',
        args: { item: 'ale', quantity: 2 },
        external: false,
        status: 'done',
        result: JSON.stringify({ served: 2, item: 'ale', cost: 6, goldLeft: 14 }),
      },
    ]);
    expect(view.timeline).toEqual(['step:1', `tool:${view.tools[0].id}`, 'step:2']);
    expect(view.steps.map((step) => [step.number, step.kind, step.isRepair])).toEqual([
      [1, 'decide', false],
      [2, 'decide', false],
    ]);
    for (const step of view.steps) {
      expect(step.promptTokens).toBe(
        estimateTokens(step.systemInstruction) + estimateTokens(step.promptPrefix + step.prompt),
      );
      expect(step.promptTokens).toBeGreaterThan(300);
      expect(step.outputTokens).toBeGreaterThan(0);
      expect(step.failed).toBeUndefined();
    }
    expect(view.steps[0].output).toContain('take_order');
    expect(view.steps[1].prompt).toContain('take_order');
    expect(view.modelCalls).toBe(2);

    expect(session.worldChanges).toEqual([
      { path: 'player.gold', oldValue: 20, newValue: 14, turn: 1 },
      { path: 'player.inventory', oldValue: [], newValue: ['ale', 'ale'], turn: 1 },
    ]);
    expect(session.turns).toEqual([view]);
    expect(session.isTalking).toBe(false);
    session.close();
  });

  test('lists its tools, marking the ones answered by hand and the declared extra tools as external', () => {
    const session = new PreviewSession({
      persona: SAMPLE_PERSONA,
      model: createMiraModel(),
      answerByHand: ['take_order'],
      extraTools: [
        {
          name: 'open_door',
          description: 'Opens the back door.',
          parameters: { type: 'object', properties: { door: { type: 'string' } } },
        },
      ],
    });
    expect(session.tools.map((tool) => [tool.name, tool.external])).toEqual([
      ['check_menu', false],
      ['take_order', true],
      ['open_door', true],
    ]);
    session.close();
  });

  test('a tool answered by hand waits for the answer; the game code does not run', async () => {
    const session = new PreviewSession({
      persona: SAMPLE_PERSONA,
      model: createMiraModel(),
      answerByHand: ['take_order'],
    });
    const waiting = whenView((current) => current.tools.some((tool) => tool.status === 'waiting'));
    const turn = session.talk('Two ales, please.', waiting.onUpdate);
    const view = await waiting.reached;
    const call = view.tools[0];
    expect(call).toMatchObject({ name: 'take_order', external: true, args: { item: 'ale', quantity: 2 } });
    expect(session.answer('call_unknown', '{}')).toBe(false);
    expect(session.answer(call.id, '{"cost": 4, "goldLeft": 16}')).toBe(true);
    expect(session.answer(call.id, '{"cost": 1}')).toBe(false); // answered already
    const done = await turn;
    expect(done.line).toBe("Two ales, coming right up. That's 4 gold, you've 16 left.");
    expect(done.tools[0]).toMatchObject({ status: 'done', result: '{"cost":4,"goldLeft":16}' });
    expect(session.worldChanges).toEqual([]);
    expect(session.world.get('player.gold')).toBe(20);
    expect(session.answer(call.id, '{}')).toBe(false); // no turn running
    session.close();
  });

  test('cancelling while a tool waits fails the turn as cancelled and closes the waiting tool', async () => {
    const session = new PreviewSession({
      persona: SAMPLE_PERSONA,
      model: createMiraModel(),
      answerByHand: ['take_order'],
    });
    const waiting = whenView((current) => current.tools.some((tool) => tool.status === 'waiting'));
    const turn = session.talk('Two ales, please.', waiting.onUpdate);
    await waiting.reached;
    session.cancel();
    const view = await turn;
    expect(view.error).toMatch(/^cancelled: Cancelled from the preview\./);
    expect(view.tools[0].status).toBe('failed');
    // The conversation goes on.
    expect((await session.talk("How's business these days?")).line).toContain('Busy as a beehive');
    session.close();
  });

  test('talking while a turn runs is refused', async () => {
    const session = new PreviewSession({ persona: SAMPLE_PERSONA, model: createMiraModel({ chunkDelayMs: 5 }) });
    const first = session.talk('Two ales, please.');
    await expect(session.talk('Goodnight, Mira!')).rejects.toMatchObject({ code: 'invalid_request' });
    expect((await first).line).toContain('Two ales');
    session.close();
  });

  test('an unreachable OpenAI-compatible endpoint: the fallback line, the clear reason, the step marked failed', async () => {
    const port = await closedPort();
    const session = new PreviewSession({
      persona: SAMPLE_PERSONA,
      model: new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${port}/v1` }),
    });
    const view = await session.talk('Two ales, please.');
    expect(view.isFallback).toBe(true);
    expect(view.line).toBe(SAMPLE_PERSONA.fallbackLines?.[0]);
    expect(view.fallbackReason).toMatch(
      new RegExp(`^model_unavailable: Could not reach http://127\\.0\\.0\\.1:${port}/v1`),
    );
    expect(view.steps.length).toBeGreaterThanOrEqual(1);
    expect(view.steps.every((step) => step.failed === true)).toBe(true);
    expect(session.world.get('player.gold')).toBe(20);
    session.close();
  });

  test("a used-up recorded script fails the turn with a designer's message: how many steps it had and what to add", async () => {
    const session = new PreviewSession({
      persona: SAMPLE_PERSONA,
      model: new ScriptedLanguageModel([Script.reply({ emotion: 'happy', line: 'Hello there.' })]),
    });
    expect((await session.talk('Hi')).line).toBe('Hello there.');
    const view = await session.talk('Hi again');
    expect(view.error).toBe(
      'invalid_request: the recorded script ran out: it had 1 step and the NPC asked for one more. Add steps in Set-up: one per model call, and a turn with a tool takes two (the call, then the reply).',
    );
    expect(view.line).toBe('');
    session.close();
  });

  test('a model that never answers ends the turn at the wait cap with a clear message; state is unchanged', async () => {
    const session = new PreviewSession({
      persona: SAMPLE_PERSONA,
      model: new ScriptedLanguageModel([Script.hang()]),
      turnWaitMs: 60,
    });
    const view = await session.talk('Hello?');
    expect(view.error).toMatch(
      /^cancelled: No answer from the model within 0 s \(1 step sent\)\. Check that the server is running/,
    );
    expect(session.npc.history).toEqual([]);
    expect(session.state()).toMatchObject({ relationship: 0, facts: [], emotions: [''] });
    session.close();
  });

  test("the state panel's view: relationship, attitude, the unlock point, facts and emotions by turn", async () => {
    const session = new PreviewSession({
      persona: SAMPLE_PERSONA,
      model: new ScriptedLanguageModel([
        'Aren\'t you kind.\n[grateful]\nchange_relationship(reason="kind", delta=10)\nremember_fact(fact="The player is kind.")',
      ]),
    });
    expect(session.state()).toEqual({
      relationship: 0,
      attitude: 'neutral',
      secretsUnlockAt: 10,
      secretsUnlocked: false,
      facts: [],
      summary: '',
      emotions: [],
    });
    await session.talk('Thank you, Mira.');
    expect(session.state()).toMatchObject({
      relationship: 10,
      secretsUnlocked: true,
      facts: ['The player is kind.'],
      emotions: ['grateful'],
    });
    session.close();
  });

  test('world values typed in the panel keep their type; a refused one says why', () => {
    const session = new PreviewSession({ persona: SAMPLE_PERSONA, model: new ScriptedLanguageModel([]) });
    expect(session.setWorldValue('player.gold', '45')).toBe('');
    expect(session.world.get('player.gold')).toBe(45);
    expect(session.setWorldValue('time', 'night')).toBe('');
    expect(session.world.get('time')).toBe('night');
    expect(session.setWorldValue('', 'x')).not.toBe('');
    // A word where the game keeps a number is refused, and the number stays.
    expect(session.setWorldValue('player.gold', 'lots')).toBe(
      'player.gold is a number: type a number, e.g. 12 (not "lots").',
    );
    expect(session.world.get('player.gold')).toBe(45);
    session.close();
  });

  test("the state panel's edits: relationship, facts and summary go into the NPC's memory; bad ones change nothing", async () => {
    const session = new PreviewSession({ persona: SAMPLE_PERSONA, model: createMiraModel() });
    expect(
      session.editMemory({ relationship: 30, facts: [' likes ale ', ''], summary: ' Came in from the rain. ' }),
    ).toBe('');
    expect(session.state()).toMatchObject({
      relationship: 30,
      facts: ['likes ale'],
      summary: 'Came in from the rain.',
    });
    expect(session.npc.memory.relationship).toBe(30);
    for (const relationship of [101, 2.5, Number.NaN])
      expect(session.editMemory({ relationship })).toBe('The relationship is a whole number from -100 to 100.');
    expect(session.state().relationship).toBe(30);
    // Not while a turn runs: the turn's own memory writes would be lost.
    const turn = session.talk('Evening!');
    expect(session.editMemory({ relationship: -50 })).toBe(
      'Wait for the NPC to finish this turn before changing its memory.',
    );
    await turn;
    expect(session.state().relationship).toBe(30);
    session.close();
  });

  test('a conversation exports and reads back; a file that is not one is refused', async () => {
    const session = new PreviewSession({
      persona: SAMPLE_PERSONA,
      model: new ScriptedLanguageModel([Script.reply({ emotion: 'happy', line: 'Hello there.' })]),
    });
    await session.talk('Hi');
    const saved = session.exportConversation();
    expect(saved).toMatchObject({
      type: 'oam-cocos.PreviewSession',
      version: 1,
      turns: [{ say: 'Hi', line: 'Hello there.', emotion: 'happy', tools: [] }],
    });
    expect(readConversationExport(JSON.stringify(saved))).toEqual(saved);
    expect(() => readConversationExport('{"turns":[]}')).toThrow(/not a conversation saved from the preview/);
    session.close();
  });

  test("an NPC picked in the editor runs with its own options, world and tools, not the tavern's", async () => {
    const model = new ScriptedLanguageModel([
      Script.call('read_world', { path: 'gate.open' }),
      Script.reply({ emotion: 'neutral', line: 'The gate is shut.' }),
    ]);
    const session = new PreviewSession({
      persona: { name: 'Bram', role: 'the gate guard' },
      model,
      npcOptions: {
        worldReadable: ['gate'],
        worldContextPaths: ['gate.open'],
        memoryTools: { facts: false, relationship: false },
        extraInstructions: 'Speak like a soldier.',
      },
      initialWorld: { gate: { open: false }, secret: 'x' },
      extraTools: [{ name: 'open_gate', description: 'Opens the gate.' }],
    });
    expect(session.world.snapshot()).toEqual({ gate: { open: false }, secret: 'x' });
    expect(session.tools.map((tool) => [tool.name, tool.external])).toEqual([['open_gate', true]]);
    const view = await session.talk('Is the gate open?');
    expect(view.line).toBe('The gate is shut.');
    const prompt = [model.requests[0].systemInstruction, model.requests[0].promptPrefix, model.requests[0].prompt].join(
      '\n',
    );
    expect(prompt).toContain('Speak like a soldier.');
    expect(prompt).not.toContain('check_menu');
    expect(prompt).not.toContain('remember_fact');
    session.close();
  });

  test('bad NPC options or a world that is not an object are refused', () => {
    const model = createMiraModel();
    expect(() => new PreviewSession({ persona: SAMPLE_PERSONA, model, initialWorld: [1] as never })).toThrow(
      /JSON object/,
    );
    expect(() => new PreviewSession({ persona: SAMPLE_PERSONA, model, npcOptions: { playerOptionCount: -3 } })).toThrow(
      AgentError,
    );
  });

  test('bad set-ups throw an AgentError: a persona without a name, a tool declared twice, a bad tool name', () => {
    const model = createMiraModel();
    expect(() => new PreviewSession({ persona: { role: 'x' } as never, model })).toThrow(AgentError);
    expect(
      () =>
        new PreviewSession({
          persona: SAMPLE_PERSONA,
          model,
          extraTools: [{ name: 'take_order', description: 'again' }],
        }),
    ).toThrow(/declared twice/);
    expect(
      () =>
        new PreviewSession({ persona: SAMPLE_PERSONA, model, extraTools: [{ name: 'open door', description: 'd' }] }),
    ).toThrow(AgentError);
    // A tool whose schema the game's NPCComponent would refuse is refused here too, with the reason.
    expect(
      () =>
        new PreviewSession({
          persona: SAMPLE_PERSONA,
          model,
          extraTools: [
            { name: 'open_gate', description: 'd', parametersError: 'the parameters schema is not JSON (bad)' },
          ],
        }),
    ).toThrow(/open_gate.*not JSON/);
  });
});

describe('parseAnswer', () => {
  test('JSON when it parses, text otherwise', () => {
    expect(parseAnswer(' {"ok": true} ')).toEqual({ ok: true });
    expect(parseAnswer('42')).toBe(42);
    expect(parseAnswer('the door is locked')).toBe('the door is locked');
    expect(parseAnswer('   ')).toBe('');
  });
});

describe('the turn view reducer', () => {
  const step = (isRepair = false): NPCEvent => ({
    type: 'modelStep',
    step: {
      index: 0,
      kind: 'decide',
      isRepair,
      attempt: 0,
      completedToolRounds: 0,
      toolCallingMode: 'envelope' as never,
      enabledTools: [],
      trimmedTurns: 0,
    },
    request: {
      kind: 'decide',
      prompt: 'abcd'.repeat(10),
      promptPrefix: 'p'.repeat(8),
      systemInstruction: 's'.repeat(5),
    },
  });

  test('counts prompt tokens, marks repairs, and ignores a finish without a step', () => {
    const view = newTurnView('hi');
    applyEvent(view, {
      type: 'modelStepFinished',
      step: {} as never,
      output: 'x',
      usage: { inputTokens: 1, cachedInputTokens: 0, outputTokens: 1 },
    });
    expect(view.steps).toEqual([]);
    applyEvent(view, step());
    applyEvent(view, step(true));
    expect(view.steps.map((row) => [row.number, row.isRepair, row.promptTokens, row.failed])).toEqual([
      // The runtime's estimate: 5 letters of system text 2 tokens, the 48-letter run of prefix and prompt 21.
      [1, false, 2 + 21, true],
      [2, true, 23, undefined],
    ]);
    applyEvent(view, {
      type: 'modelStepFinished',
      step: {} as never,
      output: '{"reply":"ok"}',
      usage: { inputTokens: 14, cachedInputTokens: 10, outputTokens: 5 },
    });
    expect(view.steps[1]).toMatchObject({ output: '{"reply":"ok"}', outputTokens: 5, cachedTokens: 10 });
    expect(turnTotals(view)).toBe('2 model calls · 46 prompt tokens · 5 output tokens');
  });

  test('tool results without a started call, rejected and failing tools', () => {
    const view = newTurnView('hi');
    const call = { id: 'call_a', name: 'take_order', args: { item: 'rum' } };
    applyEvent(view, {
      type: 'toolResult',
      record: { call, output: { kind: 'error', message: 'bad item' }, durationMs: 0, rejected: true },
    });
    applyEvent(view, { type: 'toolCall', call: { ...call, id: 'call_b' } });
    applyEvent(view, {
      type: 'toolResult',
      record: { call: { ...call, id: 'call_b' }, output: { kind: 'error', message: 'no rum' }, durationMs: 1 },
    });
    applyEvent(view, { type: 'externalToolCall', call: { ...call, id: 'call_c' } });
    expect(view.tools.map((tool) => [tool.id, tool.status, tool.external])).toEqual([
      ['call_a', 'rejected', false],
      ['call_b', 'failed', false],
      ['call_c', 'waiting', true],
    ]);
    expect(view.tools[1].result).toContain('no rum');
    failTurn(view, new AgentError('model_unavailable', 'The server went away.'));
    expect(view.tools[2].status).toBe('failed');
    expect(view.error).toBe('model_unavailable: The server went away.');
    expect(view.done).toBe(true);
  });
});

describe('formatting', () => {
  test('world changes, the flattened world and long values', () => {
    expect(describeChange({ path: 'player.gold', oldValue: 20, newValue: 14 })).toBe('player.gold: 20 → 14');
    expect(describeChange({ path: 'quest', newValue: 'open' })).toBe('quest: — → "open"');
    expect(describeChange({ path: '', oldValue: {}, newValue: { a: 1 } })).toBe('(whole state): {} → {"a":1}');
    expect(flattenWorld({ player: { gold: 14, bag: ['ale'] }, time: 'evening', empty: {} })).toEqual([
      { path: 'player.gold', value: '14' },
      { path: 'player.bag', value: '["ale"]' },
      { path: 'time', value: '"evening"' },
    ]);
    expect(flattenWorld(3)).toEqual([{ path: '(root)', value: '3' }]);
    const long = compactJson('x'.repeat(500), 20);
    expect(long).toHaveLength(20);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('saved conversations from hand-edited files', () => {
  test.each([
    [{ type: 'oam-cocos.PreviewSession', version: 1, turns: [{ say: 'Hi', line: 'Hello' }] }, /needs the "persona"/],
    [
      { type: 'oam-cocos.PreviewSession', version: 1, persona: { name: 'Mira' }, turns: [{ say: '', line: 'x' }] },
      /turns\[0\]\.say/,
    ],
    [{ type: 'oam-cocos.PreviewSession', version: 1, persona: { name: 'Mira' }, turns: [] }, /at least one/],
  ])('%j is refused with what to fix', (file, message) => {
    expect(() => readConversationExport(JSON.stringify(file))).toThrow(message);
  });

  test("a world edit while the NPC talks is refused; one made between turns is logged as the designer's", async () => {
    const session = new PreviewSession({
      persona: SAMPLE_PERSONA,
      model: new ScriptedLanguageModel([Script.hang()]),
      turnWaitMs: 50,
    });
    const turn = session.talk('Hello?');
    expect(session.setWorldValue('player.gold', '3')).toMatch(/Wait for the NPC/);
    await turn;
    expect(session.setWorldValue('player.gold', '3')).toBe('');
    expect(session.worldChanges[session.worldChanges.length - 1]).toMatchObject({
      path: 'player.gold',
      newValue: 3,
      byDesigner: true,
    });
    session.close();
  });
});
