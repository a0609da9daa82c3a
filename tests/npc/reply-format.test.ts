/**
 * Reply formats and fallbacks: automatic (structured, one text retry with tools off, then an
 * authored line), structured, text; fallback rotation; errors that are never masked; a
 * fallback commits nothing.
 */
import { AgentError, DEFAULT_FALLBACK_LINES, type NPCEvent } from '../../src';
import { Script } from '../../src/testing';
import { events, failure, mira, shownLine, tavernTools } from './helpers';

const BLOCKED = () => Script.fail('guardrail_violation', 'Blocked by the safety filter.');

describe('automatic (the default)', () => {
  test('a blocked structured reply is retried once as [emotion] text with tools off', async () => {
    const tools = tavernTools();
    const { npc, model } = mira([BLOCKED(), Script.text('[sad] I would rather not say.')], { tools: [tools.menu] });
    const turn = await npc.talk('Tell me something rude');
    expect(turn).toMatchObject({ line: 'I would rather not say.', emotion: 'sad', isFallback: false });
    expect(model.calls).toBe(2);
    expect(turn.modelCalls).toBe(2);
    // The retry is a plain text step with no tools on offer.
    expect(model.kinds[1]).toBe('respond');
    expect(model.requests[1].prompt).toContain('[');
    expect(model.requests[1].prompt).toMatch(/plain words/i);
    expect(npc.history.length).toBeGreaterThan(0);
  });

  test('a refusal is retried the same way', async () => {
    const { npc, model } = mira([Script.fail('refusal'), Script.text('[annoyed] Not tonight.')]);
    const turn = await npc.talk('Hi');
    expect(turn).toMatchObject({ line: 'Not tonight.', emotion: 'annoyed', isFallback: false });
    expect(model.calls).toBe(2);
  });

  test('the retry reuses tool results as facts and does not run the tools again', async () => {
    const tools = tavernTools();
    const { npc, model } = mira(
      [Script.call('take_order', { item: 'ale', quantity: 2 }), BLOCKED(), Script.text('[happy] Two ales for you.')],
      { tools: [tools.menu, tools.order] },
    );
    const turn = await npc.talk('Two ales');
    expect(tools.log).toEqual(['take_order 2 ale']);
    expect(turn.line).toBe('Two ales for you.');
    expect(turn.toolCalls.map((toolCall) => toolCall.call.name)).toEqual(['take_order']);
    const retry = model.requests[model.requests.length - 1];
    expect(retry.kind).toBe('respond');
    expect(retry.prompt).toContain('Facts you just looked up');
    expect(retry.prompt).toContain('Served 2 ale.');
  });

  test('streaming: the retry resets what was shown, then the retried line adds up', async () => {
    const { npc } = mira([
      Script.fail('guardrail_violation', 'blocked', { afterText: '{"emotion":"happy","line":"Wel' }),
      Script.text('[happy] Welcome back!', 6),
    ]);
    const stream = npc.talkStream('Hi');
    const { events: evs } = await events(stream);
    const turn = await stream.turn();
    expect(turn.line).toBe('Welcome back!');
    expect(shownLine(evs)).toBe('Welcome back!');
    expect(evs.some((event) => event.type === 'line' && event.isReset)).toBe(true);
  });

  test('a blocked retry → the fallback line; nothing is committed', async () => {
    const tools = tavernTools();
    const { npc, model } = mira(
      [
        Script.json({ emotion: 'happy', line: 'Welcome!' }), // turn 1 goes through; tools off for it
        Script.call('remember_fact', { fact: 'The player is rude.' }),
        Script.call('change_relationship', { reason: 'rude', delta: -5 }),
        BLOCKED(),
        BLOCKED(),
      ],
      {
        tools: [tools.menu],
        options: { memoryTools: 'all', maxToolRounds: 3 },
        memory: { facts: ['The player likes ale.'], relationship: 10 },
      },
    );
    await npc.talk('Hello', { toolChoice: 'none' });
    const historyBefore = npc.history;
    const memoryBefore = npc.memory.snapshot();
    const stream = npc.talkStream('You are ugly');
    const { events: evs } = await events(stream);
    const turn = await stream.turn();
    expect(turn.isFallback).toBe(true);
    expect(DEFAULT_FALLBACK_LINES).toContain(turn.line);
    expect(turn.emotion).toBe('neutral');
    expect(turn.relationship).toBe(10);
    expect(turn.toolCalls.map((toolCall) => toolCall.call.name)).toEqual(['remember_fact', 'change_relationship']);
    expect(npc.history).toEqual(historyBefore);
    expect(npc.memory.snapshot()).toEqual(memoryBefore);
    expect(model.calls).toBe(5);
    const fallback = evs.find((event) => event.type === 'fallback') as Extract<NPCEvent, { type: 'fallback' }>;
    expect(fallback.reason).toBeInstanceOf(AgentError);
    expect(fallback.reason.code).toBe('guardrail_violation');
    expect(shownLine(evs)).toBe(turn.line);
    expect(evs[evs.length - 1].type).toBe('completed');
    // The staged fact was discarded: the next turn does not see it.
    await npc.talk('Sorry', { toolChoice: 'none' }).catch(() => undefined);
    expect(model.requests[model.requests.length - 1].prompt).not.toContain('The player is rude');
  });

  test('staged memory survives the text retry and is committed when it succeeds', async () => {
    const { npc } = mira(
      [
        Script.call('remember_fact', { fact: 'The player is called Sam.' }),
        BLOCKED(),
        Script.text('[happy] Nice to meet you, Sam.'),
      ],
      { options: { memoryTools: 'all' } },
    );
    const turn = await npc.talk("I'm Sam");
    expect(turn.isFallback).toBe(false);
    expect(npc.memory.facts).toEqual(['The player is called Sam.']);
  });

  test('a retry failing with something other than a block is thrown, not masked', async () => {
    const { npc } = mira([BLOCKED(), Script.fail('context_size_exceeded')]);
    const history = npc.history;
    expect((await failure(npc.talk('Hi'))).code).toBe('context_size_exceeded');
    expect(npc.history).toEqual(history);
  });

  test('persistent generation_failed ends in a fallback line after a bounded number of calls', async () => {
    const { npc, model } = mira([], {});
    for (let index = 0; index < 10; index++) model.append(Script.fail('generation_failed'));
    const turn = await npc.talk('Hi');
    expect(turn.isFallback).toBe(true);
    expect(turn.modelCalls).toBe(model.calls);
    expect(model.calls).toBeGreaterThanOrEqual(2);
    expect(model.calls).toBeLessThanOrEqual(6);
  });

  test('an invalid structured reply is repaired by the core; a repaired reply needs no text retry', async () => {
    // Words are a reply line first; a JSON answer without its line is what needs the repair.
    const { npc, model } = mira(['{"emotion": "happy"}', Script.json({ emotion: 'happy', line: 'Welcome!' })]);
    const turn = await npc.talk('Hi');
    expect(turn).toMatchObject({ line: 'Welcome!', isFallback: false, modelCalls: 2 });
    expect(model.requests[1].isRepair).toBe(true);
  });
});

describe('structured', () => {
  test('an unusable reply goes straight to the fallback line, no text retry', async () => {
    const { npc, model } = mira([BLOCKED(), Script.text('[happy] never asked for')], {
      options: { replyFormat: 'structured' },
    });
    const turn = await npc.talk('Hi');
    expect(turn.isFallback).toBe(true);
    expect(model.calls).toBe(1);
    expect(npc.history).toEqual([]);
  });

  test('player options and the end flag are read from the structured reply', async () => {
    const { npc, model } = mira(
      [
        Script.json({
          emotion: 'sad',
          line: 'Farewell then.',
          options: ['1. Wait!', 'Player: Bye', 'Bye', 7, 'Stay'],
          end: true,
        }),
      ],
      { options: { replyFormat: 'structured', playerOptionCount: 2 } },
    );
    const turn = await npc.talk('Goodbye');
    expect(turn.playerOptions).toEqual(['Wait!', 'Bye']);
    expect(turn.endsConversation).toBe(true);
    expect(model.requests[0].promptPrefix ?? model.requests[0].prompt).toContain('"options"');
  });

  test('an off-list emotion costs no repair: a synonym is matched, an unknown one is the persona default', async () => {
    const { npc, model } = mira(
      [
        Script.json({ emotion: 'flabbergasted', line: 'Well!' }),
        Script.json({ emotion: 'Scared', line: 'Eek!' }),
        Script.json({ emotion: 'grumpy', line: 'Hmph.' }),
      ],
      { persona: { name: 'Mira', defaultEmotion: 'curious' } },
    );
    expect(await npc.talk('Boo')).toMatchObject({ emotion: 'curious', line: 'Well!', isFallback: false });
    expect(await npc.talk('BOO')).toMatchObject({ emotion: 'afraid', line: 'Eek!' });
    expect(await npc.talk('Hey')).toMatchObject({ emotion: 'annoyed', line: 'Hmph.' });
    expect(model.calls).toBe(3);
    expect(model.requests.every((request) => !request.isRepair)).toBe(true);
  });

  test('an emotion outside the NPC subset becomes the nearest allowed one; the prompt lists the subset', async () => {
    const { npc, model } = mira([Script.json({ emotion: 'furious', line: 'Out!' })], {
      options: { emotions: ['neutral', 'happy', 'angry'] },
    });
    expect((await npc.talk('Hi')).emotion).toBe('angry');
    const prompt = `${model.requests[0].promptPrefix}${model.requests[0].prompt}`;
    expect(prompt).toContain('neutral, happy, angry');
    expect(prompt).not.toContain('suspicious');
  });

  test('the end flag only counts when the NPC may end conversations', async () => {
    const { npc } = mira([Script.json({ emotion: 'sad', line: 'Bye.', end: true })], {
      options: { canEndConversation: false },
    });
    expect((await npc.talk('Bye')).endsConversation).toBe(false);
  });
});

describe('text', () => {
  test('[emotion] line; one respond step; no player options, never ends the conversation', async () => {
    const { npc, model } = mira([Script.text('[grateful] Thank you kindly.')], {
      options: { replyFormat: 'text', playerOptionCount: 3 },
    });
    const turn = await npc.talk('Here is a tip');
    expect(turn).toMatchObject({
      line: 'Thank you kindly.',
      emotion: 'grateful',
      playerOptions: [],
      endsConversation: false,
      isFallback: false,
    });
    expect(model.kinds).toEqual(['respond']);
    expect(model.requests[0].systemInstruction).toContain('[happy] Welcome!');
  });

  test('a missing tag gives the default emotion and the whole text as the line', async () => {
    const { npc } = mira([Script.text('Just the words.')], { options: { replyFormat: 'text' } });
    expect(await npc.talk('Hi')).toMatchObject({ line: 'Just the words.', emotion: 'neutral' });
  });

  test('a blocked text reply → fallback line (no retry)', async () => {
    const { npc, model } = mira([BLOCKED()], { options: { replyFormat: 'text' } });
    expect((await npc.talk('Hi')).isFallback).toBe(true);
    expect(model.calls).toBe(1);
  });
});

describe('empty lines', () => {
  test('automatic: an empty structured line is not spoken; the text retry answers; one turn in the history', async () => {
    const { npc, model } = mira([Script.json({ emotion: 'happy', line: '' }), Script.text('[happy] Evening!')]);
    const turn = await npc.talk('Hi');
    expect(turn.line).toBe('Evening!');
    expect(turn.isFallback).toBe(false);
    expect(model.kinds).toEqual(['structured', 'respond']);
    expect(npc.turnCount).toBe(1);
    expect(npc.history.filter((entry) => entry.type === 'prompt')).toHaveLength(1);
  });

  test('structured: an empty line becomes a fallback line and nothing is committed', async () => {
    const { npc } = mira([Script.json({ emotion: 'happy', line: '   ' })], { options: { replyFormat: 'structured' } });
    const turn = await npc.talk('Hi');
    expect(turn.line.trim()).not.toBe('');
    expect(turn.isFallback).toBe(true);
    expect(npc.history).toEqual([]);
  });

  test('a line that is only a speaker label counts as empty', async () => {
    const { npc } = mira([Script.json({ emotion: 'happy', line: 'Mira:' })], {
      options: { replyFormat: 'structured' },
    });
    const turn = await npc.talk('Hi');
    expect(turn.isFallback).toBe(true);
  });

  test('text: an empty reply becomes a fallback line', async () => {
    const { npc } = mira([Script.text('[happy]')], { options: { replyFormat: 'text' } });
    const turn = await npc.talk('Hi');
    expect(turn.isFallback).toBe(true);
    expect(npc.history).toEqual([]);
  });
});

describe('fallback lines', () => {
  const blockedTimes = (times: number) => Array.from({ length: times }, BLOCKED);

  test("the persona's fallback lines, in rotation", async () => {
    const persona = { name: 'Mira', fallbackLines: ['Say again, love?', 'Hold that thought.'] };
    const { npc } = mira(blockedTimes(3), { persona, options: { replyFormat: 'structured' } });
    const lines = [];
    for (let index = 0; index < 3; index++) lines.push((await npc.talk('Hi')).line);
    expect(lines).toEqual(['Say again, love?', 'Hold that thought.', 'Say again, love?']);
  });

  test("options.fallbackLines win over the persona's", async () => {
    const persona = { name: 'Mira', fallbackLines: ['Persona line.'] };
    const { npc } = mira(blockedTimes(2), {
      persona,
      options: { replyFormat: 'structured', fallbackLines: [' Option one. ', 'Option two.'] },
    });
    expect((await npc.talk('Hi')).line).toBe('Option one.');
    expect((await npc.talk('Hi')).line).toBe('Option two.');
  });

  test('without authored lines, the defaults in rotation', async () => {
    const { npc } = mira(blockedTimes(4), { options: { replyFormat: 'structured' } });
    const lines = [];
    for (let index = 0; index < 4; index++) lines.push((await npc.talk('Hi')).line);
    expect(lines).toEqual([...DEFAULT_FALLBACK_LINES, DEFAULT_FALLBACK_LINES[0]]);
  });

  test('fallbackOnFailure false → the error is thrown; nothing committed', async () => {
    const { npc } = mira([BLOCKED(), BLOCKED()], { options: { fallbackOnFailure: false } });
    const error = await failure(npc.talk('Hi'));
    expect(error.code).toBe('guardrail_violation');
    expect(npc.history).toEqual([]);
  });

  test.each(['context_size_exceeded', 'invalid_request'] as const)(
    '%s is thrown, never turned into a fallback',
    async (code) => {
      const { npc } = mira([Script.fail(code)]);
      const stream = npc.talkStream('Hi');
      const { events: evs, error } = await events(stream);
      expect(error?.code).toBe(code);
      expect(evs.some((event) => event.type === 'fallback' || event.type === 'completed')).toBe(false);
      expect((await failure(stream.turn())).code).toBe(code);
      expect(stream.status).toBe('failed');
      expect(npc.history).toEqual([]);
    },
  );

  test('other failures (model_unavailable) become a fallback line', async () => {
    const { npc } = mira([Script.fail('model_unavailable')], { options: { replyFormat: 'structured' } });
    const turn = await npc.talk('Hi');
    expect(turn.isFallback).toBe(true);
  });
});

describe('a JSON answer where text was asked for', () => {
  test('the text retry reads {"reply": {"emotion","line"}} too: the line is spoken, the emotion kept', async () => {
    const { npc } = mira([BLOCKED(), Script.json({ reply: { emotion: 'happy', line: 'Welcome back!' } }, 6)]);
    const stream = npc.talkStream('Hi');
    const { events: evs } = await events(stream);
    const turn = await stream.turn();
    expect(turn).toMatchObject({ line: 'Welcome back!', emotion: 'happy', isFallback: false });
    expect(evs.some((event) => event.type === 'line' && event.line.includes('{'))).toBe(false);
  });

  test('the text retry reads {"emotion","line"} instead of speaking the JSON aloud', async () => {
    const { npc } = mira([BLOCKED(), Script.json({ emotion: 'happy', line: 'Welcome back!' }, 6)]);
    const stream = npc.talkStream('Hi');
    const { events: evs } = await events(stream);
    const turn = await stream.turn();
    expect(turn).toMatchObject({ line: 'Welcome back!', emotion: 'happy', isFallback: false });
    expect(evs.some((event) => event.type === 'line' && event.line.includes('{'))).toBe(false);
    expect(shownLine(evs)).toBe('Welcome back!');
  });

  test('text format: a JSON object without a line is treated as words, never crashes', async () => {
    const { npc } = mira([Script.text('{"mood": "happy"}')], { options: { replyFormat: 'text' } });
    const turn = await npc.talk('Hi');
    expect(turn.isFallback).toBe(false);
    expect(typeof turn.line).toBe('string');
  });
});
