/**
 * NPC turns: the events a turn reports, the exact model calls each kind of turn costs (default
 * inline replies and the seed-compatible mode), tool choice per turn, and set-up validation.
 */
import { AgentError, NPC, WorldState, type NPCEvent } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { MIRA, events, failure, mira, shownLine, tavernTools } from './helpers';

describe('talkStream events', () => {
  test('emotion comes before the first line delta; deltas add up to the line; completed is last', async () => {
    const { npc } = mira([Script.json({ emotion: 'happy', line: 'Welcome to the Crooked Lantern, traveller!' }, 12)]);
    const stream = npc.talkStream('Hello!');
    const { events: evs, error } = await events(stream);
    expect(error).toBeUndefined();
    const turn = await stream.turn();
    expect(turn.line).toBe('Welcome to the Crooked Lantern, traveller!');
    expect(turn.emotion).toBe('happy');
    expect(turn.isFallback).toBe(false);

    const types = evs.map((event) => event.type);
    const firstEmotion = types.indexOf('emotion');
    const firstLine = types.indexOf('line');
    expect(firstEmotion).toBeGreaterThanOrEqual(0);
    expect(firstLine).toBeGreaterThan(firstEmotion);
    expect(types.filter((type) => type === 'line').length).toBeGreaterThan(1); // streamed, not one lump
    expect(shownLine(evs)).toBe(turn.line);
    expect(types[types.length - 1]).toBe('completed');
    expect(types.filter((type) => type === 'completed')).toHaveLength(1);
    const completed = evs[evs.length - 1] as Extract<NPCEvent, { type: 'completed' }>;
    expect(completed.turn).toEqual(turn);
    // Every line event's `line` is the text shown so far.
    let sofar = '';
    for (const event of evs) {
      if (event.type !== 'line') continue;
      sofar = event.isReset ? event.delta : sofar + event.delta;
      expect(event.line).toBe(sofar);
    }
  });

  test('an inline reply in the decide step streams the same way (emotion first, deltas add up)', async () => {
    const tools = tavernTools();
    const { npc, model } = mira(
      [Script.reply({ emotion: 'excited', line: 'The stew is fresh and the ale is cold!' }, 14)],
      { tools: [tools.menu] },
    );
    const stream = npc.talkStream('Hello!');
    const { events: evs } = await events(stream);
    const turn = await stream.turn();
    expect(model.kinds).toEqual(['decide']);
    const types = evs.map((event) => event.type);
    expect(types.indexOf('emotion')).toBeLessThan(types.indexOf('line'));
    expect(types.filter((type) => type === 'line').length).toBeGreaterThan(1);
    expect(shownLine(evs)).toBe(turn.line);
    expect(turn).toMatchObject({ line: 'The stew is fresh and the ale is cold!', emotion: 'excited' });
  });

  test('on() listeners see the same events as the iterable', async () => {
    const { npc } = mira([Script.json({ emotion: 'curious', line: 'Who goes there?' }, 6)]);
    const stream = npc.talkStream('Hi');
    const seen: string[] = [];
    stream.on('emotion', (event) => seen.push(`emotion:${event.emotion}`));
    stream.on('line', (event) => seen.push(`line:${event.delta}`));
    stream.on('completed', (event) => seen.push(`completed:${event.turn.line}`));
    const turn = await stream.turn();
    expect(seen[0]).toBe('emotion:curious');
    expect(seen[seen.length - 1]).toBe('completed:Who goes there?');
    expect(
      seen
        .filter((entry) => entry.startsWith('line:'))
        .map((entry) => entry.slice(5))
        .join(''),
    ).toBe(turn.line);
  });

  test('tool call, tool result and model step events in order', async () => {
    const tools = tavernTools();
    const { npc } = mira([Script.call('check_menu'), Script.reply({ emotion: 'neutral', line: 'Stew is 5 gold.' })], {
      tools: [tools.menu, tools.order],
    });
    const stream = npc.talkStream('What is warm?');
    const { events: evs } = await events(stream);
    const turn = await stream.turn();
    const types = evs.map((event) => event.type).filter((type) => type !== 'line' && type !== 'modelStepFinished');
    expect(types).toEqual(['modelStep', 'toolCall', 'toolResult', 'modelStep', 'emotion', 'completed']);
    const call = evs.find((event) => event.type === 'toolCall') as Extract<NPCEvent, { type: 'toolCall' }>;
    expect(call.call.name).toBe('check_menu');
    const result = evs.find((event) => event.type === 'toolResult') as Extract<NPCEvent, { type: 'toolResult' }>;
    expect(result.record.call.name).toBe('check_menu');
    expect(JSON.stringify(result.record.output)).toContain('stew');
    const steps = evs.filter((event) => event.type === 'modelStep') as Array<Extract<NPCEvent, { type: 'modelStep' }>>;
    expect(steps.map((event) => event.step.index)).toEqual([0, 1]);
    expect(steps.every((event) => typeof event.request.prompt === 'string')).toBe(true);
    expect(evs.filter((event) => event.type === 'modelStepFinished')).toHaveLength(2);
    expect(turn.toolCalls.map((toolCall) => toolCall.call.name)).toEqual(['check_menu']);
    expect(tools.log).toEqual(['check_menu']);
    expect(turn.modelCalls).toBe(2);
    expect(turn.usage.outputTokens).toBeGreaterThan(0);
  });

  test('a text-format turn streams the emotion tag as an emotion event, never as words', async () => {
    const { npc } = mira([Script.text('[amused] Ha! Good one, traveller.', 8)], { options: { replyFormat: 'text' } });
    const stream = npc.talkStream('Knock knock');
    const { events: evs } = await events(stream);
    const turn = await stream.turn();
    expect(turn).toMatchObject({ line: 'Ha! Good one, traveller.', emotion: 'amused', isFallback: false });
    const types = evs.map((event) => event.type);
    expect(types.indexOf('emotion')).toBeLessThan(types.indexOf('line'));
    expect(shownLine(evs)).toBe(turn.line);
    expect(evs.some((event) => event.type === 'line' && event.line.includes('['))).toBe(false);
  });

  test('speaker labels and wrapping quotes never reach the player, even mid-stream', async () => {
    const { npc } = mira([Script.json({ emotion: 'happy', line: 'Mira: "Fresh bread today!"' }, 15)]);
    const stream = npc.talkStream('Anything new?');
    const { events: evs } = await events(stream);
    const turn = await stream.turn();
    expect(turn.line).toBe('Fresh bread today!');
    expect(shownLine(evs)).toBe('Fresh bread today!');
  });
});

describe('model calls per turn', () => {
  test('small talk: 1 call (with tools enabled)', async () => {
    const tools = tavernTools();
    const { npc, model } = mira([Script.reply({ emotion: 'happy', line: 'Welcome!' })], {
      tools: [tools.menu, tools.order],
    });
    const turn = await npc.talk('Hello');
    expect(model.calls).toBe(1);
    expect(model.kinds).toEqual(['decide']);
    expect(turn.modelCalls).toBe(1);
    expect(turn.line).toBe('Welcome!');
  });

  test('small talk without any tools: 1 structured call', async () => {
    const { npc, model } = mira([Script.json({ emotion: 'happy', line: 'Welcome!' })]);
    const turn = await npc.talk('Hello');
    expect(model.kinds).toEqual(['structured']);
    expect(turn).toMatchObject({ line: 'Welcome!', emotion: 'happy', modelCalls: 1 });
  });

  test('grounded with a parameterless grounding tool: 1 call, the tool runs first', async () => {
    const tools = tavernTools();
    const { npc, model } = mira([Script.reply({ emotion: 'neutral', line: 'Ale 3, stew 5.' })], {
      tools: [tools.menu, tools.order],
      options: { groundingTool: 'check_menu' },
    });
    const turn = await npc.talk('What do you have?');
    expect(model.calls).toBe(1);
    expect(turn.modelCalls).toBe(1);
    expect(tools.log).toEqual(['check_menu']);
    expect(turn.toolCalls.map((toolCall) => toolCall.call.name)).toEqual(['check_menu']);
    expect(model.requests[0].prompt).toContain('check_menu');
    expect(turn.line).toBe('Ale 3, stew 5.');
  });

  test('a grounding tool with parameters: 2 calls (its arguments, then the reply)', async () => {
    const tools = tavernTools();
    const { npc, model } = mira(
      [Script.json({ item: 'ale', quantity: 1 }), Script.json({ emotion: 'happy', line: 'One ale, coming up.' })],
      { tools: [tools.menu, tools.order], options: { groundingTool: 'take_order', maxToolRounds: 1 } },
    );
    const turn = await npc.talk('An ale please');
    expect(model.calls).toBe(2);
    expect(turn.modelCalls).toBe(2);
    expect(tools.log).toEqual(['take_order 1 ale']);
    expect(turn.line).toBe('One ale, coming up.');
  });

  test('one decided tool: 2 calls', async () => {
    const tools = tavernTools();
    const { npc, model } = mira(
      [
        Script.call('take_order', { item: 'stew', quantity: 2 }),
        Script.reply({ emotion: 'happy', line: 'Two stews!' }),
      ],
      { tools: [tools.menu, tools.order] },
    );
    const turn = await npc.talk('Two stews');
    expect(model.calls).toBe(2);
    expect(model.kinds).toEqual(['decide', 'decide']);
    expect(turn.modelCalls).toBe(2);
    expect(tools.log).toEqual(['take_order 2 stew']);
  });

  describe('seed-compatible mode (inlineReplies: false)', () => {
    test('small talk: 2 calls (decide, then the structured reply)', async () => {
      const tools = tavernTools();
      const { npc, model } = mira([Script.action('respond'), Script.json({ emotion: 'happy', line: 'Welcome!' })], {
        tools: [tools.menu],
        options: { inlineReplies: false },
      });
      const turn = await npc.talk('Hello');
      expect(model.calls).toBe(2);
      expect(turn.modelCalls).toBe(2);
      expect(model.kinds).toEqual(['decide', 'structured']);
      expect(turn).toMatchObject({ line: 'Welcome!', emotion: 'happy' });
    });

    test('one tool: 3 calls', async () => {
      const tools = tavernTools();
      const { npc, model } = mira(
        [
          Script.action('check_menu'),
          Script.action('respond'),
          Script.json({ emotion: 'neutral', line: 'Stew is 5.' }),
        ],
        { tools: [tools.menu], options: { inlineReplies: false } },
      );
      const turn = await npc.talk('Menu?');
      expect(model.calls).toBe(3);
      expect(turn.modelCalls).toBe(3);
      expect(tools.log).toEqual(['check_menu']);
      expect(turn.line).toBe('Stew is 5.');
    });

    test('a parameterless grounding tool: still 1 call', async () => {
      const tools = tavernTools();
      const { npc, model } = mira([Script.json({ emotion: 'neutral', line: 'Ale 3.' })], {
        tools: [tools.menu],
        options: { groundingTool: 'check_menu', inlineReplies: false },
      });
      const turn = await npc.talk('Menu?');
      expect(model.calls).toBe(1);
      expect(turn.modelCalls).toBe(1);
      expect(tools.log).toEqual(['check_menu']);
    });
  });
});

describe('tool choice per turn', () => {
  test("'none' for one turn: no tools offered, one structured call; the next turn has tools again", async () => {
    const tools = tavernTools();
    const { npc, model } = mira(
      [
        Script.json({ emotion: 'neutral', line: 'Just chatting.' }),
        Script.call('check_menu'),
        Script.reply({ emotion: 'neutral', line: 'Ale 3.' }),
      ],
      { tools: [tools.menu] },
    );
    const first = await npc.talk('Hi', { toolChoice: 'none' });
    expect(first.modelCalls).toBe(1);
    expect(model.kinds).toEqual(['structured']);
    await npc.talk('Menu?');
    expect(model.kinds).toEqual(['structured', 'decide', 'decide']);
    expect(tools.log).toEqual(['check_menu']);
  });

  test('{tool} per turn overrides the grounding tool', async () => {
    const tools = tavernTools();
    const { npc, model } = mira(
      [Script.json({ item: 'ale', quantity: 1 }), Script.reply({ emotion: 'happy', line: 'Here you go.' })],
      { tools: [tools.menu, tools.order], options: { groundingTool: 'check_menu' } },
    );
    const turn = await npc.talk('Ale!', { toolChoice: { tool: 'take_order' } });
    expect(tools.log).toEqual(['take_order 1 ale']);
    expect(turn.modelCalls).toBe(model.calls);
  });

  test("'none' per turn overrides the grounding tool", async () => {
    const tools = tavernTools();
    const { npc, model } = mira([Script.json({ emotion: 'neutral', line: 'Hello.' })], {
      tools: [tools.menu],
      options: { groundingTool: 'check_menu' },
    });
    await npc.talk('Hi', { toolChoice: 'none' });
    expect(tools.log).toEqual([]);
    expect(model.calls).toBe(1);
  });

  test('an unknown per-turn tool → invalid_request before any model call', async () => {
    const tools = tavernTools();
    const { npc, model } = mira([Script.reply({ emotion: 'happy', line: 'Hi.' })], { tools: [tools.menu] });
    const error = await failure(npc.talk('Hi', { toolChoice: { tool: 'fly_away' } }));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain('fly_away');
    expect(error.message).toContain('check_menu');
    expect(model.calls).toBe(0);
    expect(npc.history).toEqual([]);
    // The NPC still works afterwards.
    expect((await npc.talk('Hello')).line).toBe('Hi.');
  });

  test('a malformed per-turn toolChoice → invalid_request before any model call', async () => {
    const { npc, model } = mira([]);
    expect((await failure(npc.talk('Hi', { toolChoice: 'sometimes' as never }))).code).toBe('invalid_request');
    expect(model.calls).toBe(0);
  });

  test('a non-string player line or situation → invalid_request before any model call', async () => {
    const { npc, model } = mira([]);
    expect((await failure(npc.talk(42 as never))).code).toBe('invalid_request');
    expect((await failure(npc.talk('Hi', { situation: 7 as never }))).code).toBe('invalid_request');
    expect(model.calls).toBe(0);
  });

  test('an empty player line becomes "(The player says nothing.)"', async () => {
    const { npc, model } = mira([Script.json({ emotion: 'curious', line: 'Cat got your tongue?' })]);
    await npc.talk('   ');
    expect(model.requests[0].prompt).toContain('(The player says nothing.)');
  });
});

describe('set-up validation', () => {
  const model = () => new ScriptedLanguageModel([]);

  test('a persona without a name → invalid_request naming the field', () => {
    let error: unknown;
    try {
      new NPC({ persona: { role: 'innkeeper' }, model: model() });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('invalid_request');
    expect((error as AgentError).message).toContain('name');
  });

  test('a persona field of the wrong kind → invalid_request naming the field', () => {
    let error: unknown;
    try {
      new NPC({ persona: { name: 'Mira', maxSentences: 'two' }, model: model() });
    } catch (thrown) {
      error = thrown;
    }
    expect((error as AgentError).code).toBe('invalid_request');
    expect((error as AgentError).message).toContain('maxSentences');
    try {
      new NPC({ persona: { name: 'Mira', goals: 'be rich' }, model: model() });
    } catch (thrown) {
      error = thrown;
    }
    expect((error as AgentError).message).toContain('goals');
  });

  test('a persona that is not JSON text → invalid_request', () => {
    expect(() => new NPC({ persona: '{"name": "Mira",', model: model() })).toThrow(AgentError);
    expect(() => new NPC({ persona: 42, model: model() })).toThrow(AgentError);
  });

  test('a persona given as JSON text is read', () => {
    const npc = new NPC({ persona: JSON.stringify(MIRA), model: model() });
    expect(npc.persona.name).toBe('Mira');
  });

  test.each(['read_world_state', 'update_world_state', 'remember_fact', 'change_relationship'])(
    'a user tool named %s clashes with a built-in → invalid_request listing the built-ins',
    (name) => {
      const { AgentTool } = require('../../src') as typeof import('../../src');
      const tool = AgentTool.local({ name, description: 'Mine.' }, () => 'ok');
      let error: unknown;
      try {
        new NPC({ persona: MIRA, model: model(), tools: [tool] });
      } catch (thrown) {
        error = thrown;
      }
      expect((error as AgentError).code).toBe('invalid_request');
      for (const builtIn of ['read_world_state', 'update_world_state', 'remember_fact', 'change_relationship']) {
        expect((error as AgentError).message).toContain(builtIn);
      }
    },
  );

  test('setTools with a clashing name is rejected and the old tools stay', async () => {
    const tools = tavernTools();
    const { AgentTool } = require('../../src') as typeof import('../../src');
    const { npc, model } = mira([Script.call('check_menu'), Script.reply({ emotion: 'neutral', line: 'Ale 3.' })], {
      tools: [tools.menu],
    });
    expect(() => npc.setTools([AgentTool.local({ name: 'remember_fact', description: 'x' }, () => 'x')])).toThrow(
      AgentError,
    );
    await npc.talk('Menu?');
    expect(tools.log).toEqual(['check_menu']);
    expect(model.requests[0].promptPrefix).toContain('check_menu');
  });

  test('an unknown groundingTool → invalid_request naming it and the tools there are', () => {
    const tools = tavernTools();
    let error: unknown;
    try {
      new NPC({ persona: MIRA, model: model(), tools: [tools.menu], options: { groundingTool: 'check_weather' } });
    } catch (thrown) {
      error = thrown;
    }
    expect((error as AgentError).code).toBe('invalid_request');
    expect((error as AgentError).message).toContain('check_weather');
    expect((error as AgentError).message).toContain('check_menu');
  });

  test('a built-in tool may be the grounding tool', async () => {
    const world = new WorldState({ weather: 'rain' });
    const { npc, model } = mira(
      [Script.json({ path: 'weather' }), Script.json({ emotion: 'sad', line: 'Rain again.' })],
      { world, options: { groundingTool: 'read_world_state', maxToolRounds: 1 } },
    );
    const turn = await npc.talk('Weather?');
    expect(turn.toolCalls.map((toolCall) => toolCall.call.name)).toEqual(['read_world_state']);
    expect(model.requests[1].prompt).toContain('rain');
  });

  test('bad options → invalid_request naming the option', () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ replyFormat: 'json' }, 'replyFormat'],
      [{ maxToolRounds: -1 }, 'maxToolRounds'],
      [{ emotions: ['happy', 'hangry'] }, 'emotions'],
      [{ emotions: [] }, 'emotions'],
      [{ secretsUnlockAtRelationship: 500 }, 'secretsUnlockAtRelationship'],
      [{ fallbackLines: ['ok', ''] }, 'fallbackLines'],
      [{ memoryTools: 'some' }, 'memoryTools'],
      [{ playerOptionCount: 9 }, 'playerOptionCount'],
      [{ worldWritable: 'player' }, 'worldWritable'],
    ];
    for (const [options, name] of bad) {
      let error: unknown;
      try {
        new NPC({ persona: MIRA, model: model(), options: options as never });
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(AgentError);
      expect((error as AgentError).code).toBe('invalid_request');
      expect((error as AgentError).message).toContain(name);
    }
  });

  test('setOptions with a bad value is rejected and the old options stay', async () => {
    const { npc, model } = mira([Script.json({ emotion: 'happy', line: 'Hi.' })]);
    expect(() => npc.setOptions({ replyFormat: 'json' as never })).toThrow(AgentError);
    expect(() => npc.setOptions({ groundingTool: 'nothing' })).toThrow(AgentError);
    const turn = await npc.talk('Hi');
    expect(turn.line).toBe('Hi.');
    expect(model.kinds).toEqual(['structured']);
  });
});
