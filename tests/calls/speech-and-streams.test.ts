/**
 * Inputs found by an independent review of the call readers and the player-text rule: ordinary
 * speech that looks like a call, markup that must not flash while streaming, streams that must
 * end as the final text does, and outputs that must not crash, guess or cost quadratic time.
 */
import { Agent, AgentError, AgentTool, JsonSchema, NPC } from '../../src';
import { findCalls } from '../../src/core/calls';
import { callContext } from '../../src/core/envelope/family-call';
import { wholeSentences } from '../../src/core/player-text/whole-sentences';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { FORBIDDEN_IN_LINE } from './model-outputs';

const BRAM = { name: 'Bram', role: 'the ferryman', fallbackLines: ['Mind the water.'] };

function tools(ran: string[]): AgentTool[] {
  return ['trade', 'attack', 'check_tide', 'book_crossing'].map((name) =>
    AgentTool.local(
      {
        name,
        description: `The ${name} action.`,
        parameters: JsonSchema.from({
          type: 'object',
          properties: { item: {}, target: {}, place: {}, destination: {} },
        }),
        sideEffect: true,
      },
      (args: unknown) => {
        ran.push(`${name} ${JSON.stringify(args)}`);
        return 'ok';
      },
    ),
  );
}

async function npcSays(output: string, chunks = 9) {
  const ran: string[] = [];
  const npc = new NPC({
    persona: BRAM,
    model: new ScriptedLanguageModel([Script.text(output, chunks)], { fallback: Script.text('Right.') }),
    tools: tools(ran),
  });
  const stream = npc.talkStream('Well?');
  const shown: string[] = [];
  stream.on('line', (event) => shown.push(event.line));
  const turn = await stream.turn();
  return { turn, ran, shown };
}

describe('speech that looks like a call stays speech', () => {
  test.each([
    'I never trade (honestly) with strangers.',
    'Attack (him)? Never!',
    'I could check_tide (harbor) for you, but I will not.',
    '[laughs (quietly)] Oh, you!',
    'The answer is [f(x) = 2x], friend.',
    'He said "book_crossing(destination=\'south\')" to me once.',
  ])('%j: no tool runs, the words stay', async (output) => {
    const { turn, ran } = await npcSays(output);
    expect(ran).toEqual([]);
    expect(turn.line).toBe(output);
  });
});

describe('calls a runtime leaves without their special tokens', () => {
  test('a Gemma 4 bare call after words on the same line runs and is not shown', async () => {
    const { turn, ran, shown } = await npcSays('Sure! call:check_tide{place:<|"|>harbor<|"|>}', 3);
    expect(ran).toEqual(['check_tide {"place":"harbor"}']);
    expect(turn.line).toBe('Sure!');
    for (const text of shown) for (const token of FORBIDDEN_IN_LINE) expect(text).not.toMatch(token);
    expect(shown.some((text) => /call|harbor|check_tide/.test(text))).toBe(false);
  });

  test("a Llama 3 <function=…> without its closer never takes the next one's arguments", () => {
    const calls = findCalls(
      '<function=check_tide>\n<function=book_crossing>{"destination":"north"}</function>',
      callContext(['check_tide', 'book_crossing']),
    );
    expect(calls.map((call) => [call.name, call.args])).toEqual([
      ['check_tide', {}],
      ['book_crossing', { destination: 'north' }],
    ]);
  });

  test('repeated keys and a missing comma between bare words are not guessed', () => {
    const ctx = callContext(['book_crossing']);
    expect(findCalls('call:book_crossing{destination:north,destination:south}', ctx)[0].args).toBeUndefined();
    expect(findCalls('call:book_crossing{destination:north seats:2}', ctx)[0].args).toBeUndefined();
  });

  test('FunctionGemma numbers that would change keep their text; none crashes', () => {
    const ctx = callContext(['x']);
    const read = (value: string) =>
      findCalls(`<start_function_call>call:x{n:<escape>${value}<escape>}<end_function_call>`, ctx)[0].args;
    expect(read('007')).toEqual({ n: '007' });
    expect(read('1.50')).toEqual({ n: '1.50' });
    expect(read('12345678901234567890')).toEqual({ n: '12345678901234567890' });
    expect(read('42')).toEqual({ n: 42 });
  });

  test('a made-up tool response and chat role headers never reach the player', async () => {
    for (const output of [
      'Welcome!\n<|tool_response>response:check_tide{value:<|"|>low<|"|>}<tool_response|>',
      'Welcome!\n<tool_response>{"tide":"low"}</tool_response>',
      '<|im_start|>assistant\nWelcome!',
      '<start_of_turn>model\nWelcome!',
    ]) {
      const { turn } = await npcSays(output);
      expect(turn.line).toBe('Welcome!');
    }
  });
});

describe('streams', () => {
  test('a multi-line reply streams as it ends: no reset at the end', async () => {
    const agent = new Agent(new ScriptedLanguageModel([Script.text('First line.\nSecond line.', 6)]));
    const run = agent.run('Hi');
    const events: Array<{ text: string; isReset: boolean }> = [];
    run.on('text', (event) => events.push({ text: event.text, isReset: event.isReset }));
    const response = await run.response();
    expect(response.text).toBe('First line.\nSecond line.');
    expect(events.some((event) => event.isReset)).toBe(false);
    expect(events[events.length - 1].text).toBe('First line.\nSecond line.');
  });

  test.each([
    [
      'a Gemma 4 call after a line break',
      'North it is!\n<|tool_call>call:book_crossing{destination:<|"|>north<|"|>}<tool_call|>',
    ],
    [
      'a FunctionGemma call mid-line',
      'North it is! <start_function_call>call:book_crossing{destination:<escape>north<escape>}<end_function_call>',
    ],
    ['a tool_code label', 'North it is!\ntool_code: book_crossing(destination="north")'],
    ['a <function name="…"> tag', 'North it is! <function name="book_crossing">{"destination": "north"}</function>'],
  ])('%s never flashes, whatever the chunking', async (_name, output) => {
    for (const chunks of [3, 5, 8, 11, 40]) {
      const { shown, ran } = await npcSays(output, chunks);
      for (const text of shown) {
        expect(text).not.toMatch(/call|tool_code|<|function|book_crossing/);
      }
      expect(ran).toEqual(['book_crossing {"destination":"north"}']);
    }
  });

  test('many unclosed <tool_call> tags stream in reasonable counts of work (no AgentError-less crash)', async () => {
    const output = `Sure. ${'<tool_call>'.repeat(400)}`;
    const agent = new Agent(new ScriptedLanguageModel([Script.text(output, 400)], { fallback: Script.text('Ok.') }));
    const response = await agent.respond('Hi').catch((error: unknown) => error);
    if (response instanceof AgentError) expect(response.code).toBeDefined();
    else expect((response as { text: string }).text).toBe('Sure.');
  });
});

describe('summaries keep their whole sentences', () => {
  test.each([
    ['The player said no. Bram left and', 'The player said no.'],
    ['Player chose A. Then they', 'Player chose A.'],
    ['Sam met Dr. J. Hale. They talked about the', 'Sam met Dr. J. Hale.'],
  ])('%j → %j', (text, kept) => {
    expect(wholeSentences(text)).toBe(kept);
  });
});
