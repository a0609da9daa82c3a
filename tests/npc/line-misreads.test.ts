/**
 * What small models write next to an NPC's words, read as a player expects: stage directions
 * stay words, the emotion is found in the forms models drift into, calls are cut out of the line
 * wherever they sit and run (or are recorded as not made), and nothing else is lost.
 * (Cases from oam-cocos issue 22's list of misreads.)
 */
import { AgentTool, JsonSchema, NPC, WorldState } from '../../src';
import { hasMarkup } from '../../src/core/calls';
import { Script, ScriptedLanguageModel } from '../../src/testing';

const BRAM = {
  name: 'Bram',
  role: 'the ferryman',
  fallbackLines: ['Mind the water.'],
};

function ferry(world: WorldState): AgentTool {
  return AgentTool.local(
    {
      name: 'book_crossing',
      description: 'Books the player onto the ferry.',
      parameters: JsonSchema.obj({
        destination: JsonSchema.enumOf(['north', 'south']),
        seats: JsonSchema.integer({ minimum: 1, maximum: 4 }),
      }),
      sideEffect: true,
    },
    (args: { destination: string; seats: number }) => {
      world.set('ferry.booked', `${args.seats} to ${args.destination}`);
      return 'booked';
    },
  );
}

async function talk(output: string) {
  const world = new WorldState();
  const model = new ScriptedLanguageModel([Script.text(output, 7)], { fallback: Script.text('Right.') });
  const npc = new NPC({
    persona: BRAM,
    model,
    tools: [ferry(world)],
    options: { emotions: ['neutral', 'happy', 'angry', 'sad'] },
  });
  const stream = npc.talkStream('Take me across.');
  const partials: string[] = [];
  stream.on('line', (event) => partials.push(event.line));
  const turn = await stream.turn();
  for (const shown of [...partials, turn.line]) expect(hasMarkup(shown)).toBe(false);
  return { turn, world, partials };
}

describe('line-first misreads', () => {
  test.each([
    {
      name: 'a stage direction on its own line stays words',
      output: 'Well now.\n[waves]\nWhere to?\n[happy]',
      line: 'Well now.\n[waves]\nWhere to?',
      emotion: 'happy',
    },
    {
      name: 'a stage direction first stays words',
      output: '[laughs] Oh, you!\n[happy]',
      line: '[laughs] Oh, you!',
      emotion: 'happy',
    },
    {
      name: 'a stage direction last stays words',
      output: 'Off we go. [smiles]',
      line: 'Off we go. [smiles]',
      emotion: 'neutral',
    },
    {
      name: 'a line continues after the keys',
      output: 'Welcome aboard!\n{"emotion":"happy"}\nSit anywhere.',
      line: 'Welcome aboard! Sit anywhere.',
      emotion: 'happy',
    },
    {
      name: '{" in speech stays words',
      output: 'He wrote {"north"} on the sign, so north it is.\n[neutral]',
      line: 'He wrote {"north"} on the sign, so north it is.',
      emotion: 'neutral',
    },
    {
      name: 'Emotion: happy on its own line',
      output: 'Lovely day for it.\nEmotion: happy',
      line: 'Lovely day for it.',
      emotion: 'happy',
    },
    { name: '**[happy]**', output: 'Lovely day for it.\n**[happy]**', line: 'Lovely day for it.', emotion: 'happy' },
    { name: '(angry) after the words', output: 'Not again. (angry)', line: 'Not again.', emotion: 'angry' },
    {
      name: 'a mid-line [sad]',
      output: 'The river [sad] took my brother.',
      line: 'The river took my brother.',
      emotion: 'sad',
    },
  ])('$name', async ({ output, line, emotion }) => {
    const { turn } = await talk(output);
    expect(turn.line).toBe(line);
    expect(turn.emotion).toBe(emotion);
  });

  test.each([
    [
      'a tool_code fence after the words',
      'North it is!\n```tool_code\nbook_crossing(destination="north", seats=2)\n```\n[happy]',
    ],
    ['a call in backticks in the line', 'North it is! `book_crossing(destination="north", seats=2)`\n[happy]'],
    ["a call on the words' line", 'North it is! book_crossing(destination="north", seats=2)\n[happy]'],
    ['tool_code: after the words', 'North it is!\ntool_code: book_crossing(destination="north", seats=2)\n[happy]'],
    [
      'a JSON list of calls after the words',
      'North it is!\n[{"tool": "book_crossing", "args": {"destination": "north", "seats": 2}}]\n[happy]',
    ],
    [
      'a Gemma 4 call after the words',
      'North it is!\n<|tool_call>call:book_crossing{destination:<|"|>north<|"|>,seats:2}<tool_call|>\n[happy]',
    ],
    [
      'a FunctionGemma call after the words',
      'North it is!<start_function_call>call:book_crossing{destination:<escape>north<escape>,seats:<escape>2<escape>}<end_function_call>\n[happy]',
    ],
    [
      'a Hermes call after the words',
      'North it is!\n<tool_call>{"name": "book_crossing", "arguments": {"destination": "north", "seats": 2}}</tool_call>\n[happy]',
    ],
    [
      'a Gemma 3 list in the line, words after it',
      '[book_crossing(destination="north", seats=2)] North it is!\n[happy]',
    ],
    ['positional arguments in schema order', 'North it is!\nbook_crossing("north", 2)\n[happy]'],
  ])('%s: the call runs, the line is the words', async (_name, output) => {
    const { turn, world } = await talk(output);
    expect(turn.line).toBe('North it is!');
    expect(turn.emotion).toBe('happy');
    expect(world.get('ferry.booked')).toBe('2 to north');
    expect(turn.modelCalls).toBe(1);
  });

  test('a call cut off by the token limit is recorded as not made, never run', async () => {
    const { turn, world } = await talk('North it is!\n[happy]\nbook_crossing(destination="nor');
    expect(turn.line).toBe('North it is!');
    expect(world.get('ferry.booked')).toBeUndefined();
    expect(turn.toolCalls.map((record) => record.rejected)).toEqual([true]);
  });

  test('two calls of one tool in a list each keep their own arguments', async () => {
    const { turn, world } = await talk(
      'Two trips, then.\n[book_crossing(destination="north", seats=1), book_crossing(destination="south", seats=3)]\n[happy]',
    );
    expect(turn.line).toBe('Two trips, then.');
    expect(turn.toolCalls.map((record) => record.call.args)).toEqual([
      { destination: 'north', seats: 1 },
      { destination: 'south', seats: 3 },
    ]);
    expect(world.get('ferry.booked')).toBe('3 to south');
  });
});
