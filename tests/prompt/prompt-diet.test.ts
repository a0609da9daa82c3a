/**
 * What the line-first prompt leaves out (issue 26): a turn that offers no tool sends no catalog,
 * a lookup read ahead is written compactly and never listed, a reply that is only words gets no
 * key list, a self-explaining schema is one line. Each is asserted on the request the model
 * gets; the token figures they save are the bench's (docs/performance.md).
 */
import { Agent, AgentTool, ContentGenerator, DecisionEngine, JsonSchema, NPC, WorldState } from '../../src';
import { KeywordModel, ScriptedLanguageModel } from '../../src/testing';

const INSTRUCTIONS = 'You are Mira, the innkeeper.';
const LABELS = { user: 'Guest', assistant: 'Mira' };

function menuTool(menu: Record<string, unknown> = { ale: 3, stew: 5 }): AgentTool {
  return AgentTool.local({ name: 'check_menu', description: 'The menu.', snapshot: () => menu }, () => menu);
}

function orderTool(served: string[] = []): AgentTool {
  return AgentTool.local(
    {
      name: 'take_order',
      description: 'Serves a drink.',
      sideEffect: true,
      parameters: JsonSchema.obj({
        item: JsonSchema.enumOf(['ale', 'stew']),
        quantity: JsonSchema.integer({ minimum: 1, maximum: 10 }),
      }),
    },
    (args: { item: string }) => {
      served.push(args.item);
      return { served: true };
    },
  );
}

describe("toolChoice 'none'", () => {
  test('sends the instructions alone: no catalog, no rules, the player words raw on a first turn', async () => {
    const model = new ScriptedLanguageModel(['Evening!', 'Still here.', 'Right away.']);
    const agent = new Agent(model, {
      instructions: INSTRUCTIONS,
      tools: [menuTool(), orderTool()],
      config: { labels: LABELS },
    });
    await agent.respond('Good evening!', { toolChoice: 'none' });
    expect(model.requests[0]).toMatchObject({ prompt: 'Good evening!', systemInstruction: INSTRUCTIONS });
    expect(model.requests[0].promptPrefix).toBeUndefined();
    // With history it ends on the speaker's cue, still without the catalog.
    await agent.respond('Still open?', { toolChoice: 'none' });
    expect(model.requests[1].promptPrefix).toBeUndefined();
    expect(model.requests[1].prompt).toBe(
      'Conversation:\nGuest: Good evening!\nMira: Evening!\nGuest: Still open?\n\nMira:',
    );
    // The next turn that offers tools has the byte-stable prefix back.
    await agent.respond('Two ales.');
    expect(model.requests[2].promptPrefix).toContain('- take_order(item: ale|stew, quantity: 1-10): Serves a drink');
  });

  test('a stray call in a tool-free reply is cut from the words and not made', async () => {
    const model = new ScriptedLanguageModel(['Coming up!\ntake_order(item="ale", quantity=2)']);
    const served: string[] = [];
    const agent = new Agent(model, {
      instructions: INSTRUCTIONS,
      tools: [orderTool(served)],
      config: { labels: LABELS },
    });
    const response = await agent.respond('Two ales.', { toolChoice: 'none' });
    expect(response.text).toBe('Coming up!');
    expect(served).toEqual([]);
  });
});

describe('a lookup read ahead', () => {
  test('a flat table of numbers is written as words; other values stay JSON', async () => {
    const table = new ScriptedLanguageModel(['Ale is 3.']);
    await new Agent(table, { instructions: INSTRUCTIONS, tools: [menuTool({ ale: 3, stew: 5.5 })] }).respond('Prices?');
    expect(table.requests[0].prompt).toContain('check_menu now: ale 3, stew 5.5\n');
    for (const value of [{ ale: 'cheap' }, { ale: 3, list: [1] }, [3, 5], { 'dark ale': 3 }, {}]) {
      const model = new ScriptedLanguageModel(['Hm.']);
      await new Agent(model, {
        instructions: INSTRUCTIONS,
        tools: [menuTool(value as Record<string, unknown>)],
      }).respond('Prices?');
      expect(model.requests[0].prompt).toContain(`check_menu now: ${JSON.stringify(value)}\n`);
    }
  });

  test('the keyword stand-in reads the compact table back as the lookup would return it', async () => {
    const model = new KeywordModel({
      rules: [
        {
          when: ['price'],
          tools: [{ name: 'check_menu' }],
          reply: (ctx) => ({ line: ctx.toolResults[0]?.output ?? 'none' }),
        },
      ],
    });
    const response = await new Agent(model, { instructions: INSTRUCTIONS, tools: [menuTool()] }).respond(
      'Any price list?',
    );
    expect(response).toMatchObject({ text: '{"ale":3,"stew":5}', modelCalls: 1 });
  });

  test('"Tools available now" appears only when a listed tool is off, not for the lookup read ahead', async () => {
    const model = new ScriptedLanguageModel(['Stew is warm.', 'Stew is warm.']);
    const agent = new Agent(model, { instructions: INSTRUCTIONS, tools: [menuTool(), orderTool()] });
    await agent.respond('What is warm?', { toolChoice: { tool: 'check_menu' } });
    expect(model.requests[0].prompt).not.toContain('Tools available now');
    await agent.respond('What is warm?', { enabledTools: ['check_menu'] });
    expect(model.requests[1].prompt).toContain('Tools available now: check_menu.');
  });
});

describe('the rules', () => {
  test('actions alone are not named; with a lookup too, the lookup is', async () => {
    const world = new WorldState({ player: { gold: 20 } });
    const model = new ScriptedLanguageModel(['Hello.', 'Hello.']);
    const npc = new NPC({
      persona: { name: 'Mira' },
      model,
      world,
      tools: [orderTool()],
      options: { worldReadable: [] },
    });
    await npc.talk('Hi');
    expect(model.requests[0].promptPrefix).toContain('Actions go after the words: take_order(item="ale", quantity=1)');
    expect(model.requests[0].promptPrefix).not.toContain('If you need');
    const reading = new NPC({ persona: { name: 'Mira' }, model, world, tools: [orderTool()] });
    await reading.talk('Hi');
    expect(model.requests[1].promptPrefix).toContain('Actions go after the words: take_order(item="ale", quantity=1)');
    expect(model.requests[1].promptPrefix).toContain(
      'If you need what read_world_state returns, write only its call first: read_world_state(path="…")',
    );
  });
});

describe('replies that need no key list', () => {
  test("a decision's choice is said by the task line: no prefix at all", async () => {
    const model = new ScriptedLanguageModel(['flee']);
    const decision = await new DecisionEngine(model).decide({
      situation: 'A bear.',
      options: [
        { id: 'flee', description: 'run' },
        { id: 'fight', description: 'stand' },
      ],
      actor: { name: 'Brom' },
    });
    expect(decision.optionId).toBe('flee');
    expect(model.requests[0].promptPrefix).toBeUndefined();
    expect(model.requests[0].prompt.endsWith("Write Brom's choice (one option id), as plain text.")).toBe(true);
  });

  test('with a tool the model may call first, the rules say what the words are', async () => {
    const model = new ScriptedLanguageModel(['flee']);
    const scout = AgentTool.local({ name: 'scout', description: 'Looks around.' }, () => 'A bear, close.');
    await new DecisionEngine(model).decide({
      situation: 'A noise.',
      options: [
        { id: 'flee', description: 'run' },
        { id: 'fight', description: 'stand' },
      ],
      actor: { name: 'Brom' },
      tools: [scout],
    });
    expect(model.requests[0].promptPrefix).toContain("Reply with Brom's choice (one option id).");
  });

  test('a schema whose keys explain themselves is one line; a described key keeps the list', async () => {
    const model = new ScriptedLanguageModel(Array.from({ length: 3 }, () => '{"name":"Lamp","value":3}'));
    const gen = new ContentGenerator(model);
    const plain = JsonSchema.obj(
      { name: JsonSchema.string(), value: JsonSchema.integer({ minimum: 1, maximum: 9 }) },
      { optional: ['value'] },
    );
    await gen.generate({ prompt: 'An item.', schema: plain });
    expect(model.requests[0].promptPrefix).toBe(
      'The content is one JSON object: {"name": string, "value"?: integer 1-9}\n\n',
    );
    expect(model.requests[0].prompt).toBe('An item.\n\nAnswer with that JSON object only.');
    const described = JsonSchema.obj({
      name: JsonSchema.string({ description: 'two words' }),
      value: JsonSchema.integer(),
    });
    await gen.generate({ prompt: 'An item.', schema: described });
    expect(model.requests[1].promptPrefix).toContain('The content is a JSON object with these keys:\n- "name"');
    // A constraint the one line cannot say (a length) keeps the words too.
    const limited = JsonSchema.from({
      type: 'object',
      properties: { name: { type: 'string', maxLength: 12 } },
      required: ['name'],
    });
    await gen.generate({ prompt: 'An item.', schema: limited });
    expect(model.requests[2].promptPrefix).toContain('The content is a JSON object with these keys:\n- "name"');
  });
});

describe('the keyword stand-in', () => {
  test('reads back negative, fractional and exponent numbers and a __proto__ key as own keys', async () => {
    const odd = JSON.parse('{"__proto__":1,"cold":-2,"warm":0.5,"huge":1e21}') as Record<string, unknown>;
    const model = new KeywordModel({
      rules: [
        {
          when: ['price'],
          tools: [{ name: 'check_menu' }],
          reply: (ctx) => ({ line: ctx.toolResults[0]?.output ?? 'none' }),
        },
      ],
    });
    const response = await new Agent(model, { instructions: INSTRUCTIONS, tools: [menuTool(odd)] }).respond(
      'Any price list?',
    );
    expect(JSON.parse(response.text)).toEqual(odd);
    expect(Object.keys(JSON.parse(response.text) as object)).toEqual(['__proto__', 'cold', 'warm', 'huge']);
  });
});
