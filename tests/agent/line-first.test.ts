/**
 * The line-first answer (default mode): the words come first, as plain text, so the player's
 * first word is the model's first token; side effects ride along after them in the same step.
 * Call and output-token counts are exact, so they are asserted here; times live in the bench.
 */
import { Agent, AgentTool, JsonSchema, NPC, WorldState, estimateTokens, type AgentError } from '../../src';
import { ScriptedLanguageModel, Script } from '../../src/testing';
import { FAST, failure } from './helpers';

const MIRA = { name: 'Mira', role: 'the innkeeper', fallbackLines: ['Hm?'] };

function orderTool(world: WorldState, sideEffect: boolean): AgentTool {
  return AgentTool.local(
    {
      name: 'take_order',
      description: 'Serves ale and takes the gold.',
      parameters: JsonSchema.obj({ quantity: JsonSchema.integer({ minimum: 1, maximum: 10 }) }),
      sideEffect,
    },
    (args: { quantity: number }) => {
      const gold = world.get<number>('player.gold') ?? 0;
      if (args.quantity * 3 > gold)
        return { error: `The player has ${gold} gold; ${args.quantity} ales cost ${args.quantity * 3}.` };
      world.set('player.gold', gold - args.quantity * 3);
      return { served: args.quantity };
    },
  );
}

describe('line first', () => {
  test('NPC memory update: the line, its emotion and remember_fact in one call; the line streams before the fact is stored', async () => {
    const output = 'Sam it is. Welcome, Sam!\n[happy]\nremember_fact(fact="The player\'s name is Sam.")';
    // One chunk per word-ish piece, as a phone streams tokens.
    const model = new ScriptedLanguageModel([Script.text(output, 12)]);
    const npc = new NPC({ persona: MIRA, model, options: { memoryTools: 'remember_fact' } });
    const order: string[] = [];
    const stream = npc.talkStream('My name is Sam.');
    stream.on('line', (event) => {
      if (order[order.length - 1] !== 'line') order.push('line');
      void event;
    });
    stream.on('toolCall', () => order.push('toolCall'));
    stream.on('emotion', () => order.push('emotion'));
    const turn = await stream.turn();
    expect(turn).toMatchObject({
      line: 'Sam it is. Welcome, Sam!',
      emotion: 'happy',
      modelCalls: 1,
      isFallback: false,
    });
    expect(turn.toolCalls.map((toolCall) => toolCall.call.name)).toEqual(['remember_fact']);
    expect(order[0]).toBe('line');
    expect(order.indexOf('toolCall')).toBeGreaterThan(0);
    expect(npc.saveState().memory.facts).toEqual(["The player's name is Sam."]);
    expect(turn.usage.outputTokens).toBe(estimateTokens(output));
    // The prefix teaches the short form: words, the other keys, then actions in call syntax.
    const prefix = model.requests[0].promptPrefix ?? '';
    expect(prefix).toContain(
      'Reply with Mira\'s words, then the emotion on a new line, e.g. [neutral], [happy] or [sad]. Add a line {"end":true} only when you say goodbye or refuse to talk.',
    );
    // With no lookup listed, every tool is an action: the rule does not name them.
    expect(prefix).toContain('Actions go after the words: remember_fact(fact="…")');
  });

  test('the JSON form of the other keys is read too, and an optional key on its own line', async () => {
    const model = new ScriptedLanguageModel(['Goodnight, love.\n{"emotion":"happy"}\n{"end":true}']);
    const npc = new NPC({ persona: MIRA, model });
    expect(await npc.talk('Bye!')).toMatchObject({
      line: 'Goodnight, love.',
      emotion: 'happy',
      endsConversation: true,
      modelCalls: 1,
    });
  });

  test('a line that only mentions brackets mid-line keeps them; a tag at the end is the emotion', async () => {
    const model = new ScriptedLanguageModel(['Ale is [very] cold tonight.\n[amused]']);
    const npc = new NPC({ persona: MIRA, model });
    expect(await npc.talk('Cold ale?')).toMatchObject({ line: 'Ale is [very] cold tonight.', emotion: 'amused' });
  });

  test('the first streamed chunk is the first word: no output token comes before it', async () => {
    const model = new ScriptedLanguageModel([Script.text('Welcome in!\n[happy]', 8)]);
    const npc = new NPC({ persona: MIRA, model });
    const stream = npc.talkStream('Hello');
    let firstChunk = '';
    let firstLine = '';
    stream.on('modelStepFinished', (event) => {
      firstChunk = event.output.slice(0, Math.ceil(event.output.length / 8));
    });
    stream.on('line', (event) => {
      if (!firstLine) firstLine = event.line;
    });
    const turn = await stream.turn();
    expect(turn.modelCalls).toBe(1);
    expect(firstChunk.startsWith(firstLine.trim()) || firstLine.startsWith(firstChunk.trim())).toBe(true);
    expect(turn.line).toBe('Welcome in!');
  });

  test('an action that fails after the words: the line stands, the failure is in the tool calls and after the line in the transcript', async () => {
    const world = new WorldState({ player: { gold: 2 } });
    const model = new ScriptedLanguageModel([
      'Two ales coming up!\ntake_order(quantity=2)',
      'Ah, your purse is light.',
    ]);
    const agent = new Agent(model, { instructions: 'You are Mira.', tools: [orderTool(world, true)], config: FAST });
    const response = await agent.respond('Two ales, please.');
    expect(response.text).toBe('Two ales coming up!');
    expect(response.modelCalls).toBe(1);
    expect(response.toolCalls).toHaveLength(1);
    expect(JSON.stringify(response.toolCalls[0].output)).toContain('The player has 2 gold');
    expect(world.get('player.gold')).toBe(2);
    expect(agent.history.map((entry) => entry.type)).toEqual(['prompt', 'response', 'toolUse']);
    await agent.respond('Hm?');
    // The next prompt shows the line, then what really happened.
    expect(model.requests[1].prompt).toMatch(
      /Assistant: Two ales coming up!\n\[take_order \{"quantity":2\} → .*The player has 2 gold/,
    );
  });

  test('a tool whose result is needed still comes first, as a call; words before it are a preamble', async () => {
    const world = new WorldState({ player: { gold: 20 } });
    const model = new ScriptedLanguageModel(['Sure! {"tool":"take_order","args":{"quantity":1}}', 'Here you go.']);
    const agent = new Agent(model, { instructions: 'You are Mira.', tools: [orderTool(world, false)], config: FAST });
    const response = await agent.respond('One ale.');
    expect(response.modelCalls).toBe(2);
    expect(response.text).toBe('Here you go.');
    expect(world.get('player.gold')).toBe(17);
  });

  test('a small parameterless lookup with a snapshot is read into the prompt: no lookup call', async () => {
    const menu = AgentTool.local(
      { name: 'check_menu', description: 'The menu.', snapshot: () => ({ ale: 3 }) },
      () => ({ ale: 3 }),
    );
    const model = new ScriptedLanguageModel(['Ale is 3 gold.']);
    const agent = new Agent(model, { instructions: 'You are Mira.', tools: [menu], config: FAST });
    const response = await agent.respond('What does ale cost?');
    expect(response).toMatchObject({ text: 'Ale is 3 gold.', modelCalls: 1 });
    // A flat table of numbers is written as words (compact-value.ts).
    expect(model.requests[0].prompt).toContain('check_menu now: ale 3\n');
    // Read ahead on every turn, it is not listed in the prefix too.
    expect(model.requests[0].promptPrefix ?? '').not.toContain('check_menu');
  });

  test('lineFirst off: the JSON envelope as before', async () => {
    const model = new ScriptedLanguageModel([Script.reply('Hello!')]);
    const agent = new Agent(model, {
      instructions: 'You are Mira.',
      tools: [orderTool(new WorldState({}), true)],
      config: { ...FAST, lineFirst: false },
    });
    expect((await agent.respond('Hi')).text).toBe('Hello!');
    expect(model.requests[0].promptPrefix).toContain('{"reply":"…"}');
  });

  test('bad settings are refused before any model call', async () => {
    const model = new ScriptedLanguageModel([]);
    expect(() =>
      AgentTool.local({ name: 'x', description: 'x', sideEffect: 'yes' as unknown as boolean }, () => 1),
    ).toThrow(/sideEffect must be true or false/);
    expect(() =>
      AgentTool.local({ name: 'x', description: 'x', snapshot: 3 as unknown as () => unknown }, () => 1),
    ).toThrow(/snapshot must be a function/);
    const bad = (() => {
      try {
        new Agent(model, { instructions: 'x', config: { lineFirst: 'yes' as unknown as boolean } });
        return undefined;
      } catch (error) {
        return error as AgentError;
      }
    })();
    expect(bad?.code).toBe('invalid_request');
    await expect(failure(Promise.reject(bad))).resolves.toMatchObject({ code: 'invalid_request' });
    expect(model.calls).toBe(0);
  });
});

describe('structured replies in JSON (lineFirst off) stream per token', () => {
  test('a line read one character per chunk reaches the player one character at a time, not at its closing quote', async () => {
    const output = '{"emotion":"happy","line":"Welcome in, traveller!"}';
    const model = new ScriptedLanguageModel([Script.text(output, output.length)]);
    const npc = new NPC({ persona: MIRA, model, options: { inlineReplies: false } });
    const shown: string[] = [];
    const stream = npc.talkStream('Hello');
    stream.on('line', (event) => shown.push(event.line));
    const turn = await stream.turn();
    expect(turn.line).toBe('Welcome in, traveller!');
    // Every growing prefix was shown on its way (the cleaner may hold back the last character).
    expect(shown.length).toBeGreaterThanOrEqual('Welcome in, traveller!'.length - 2);
    expect(shown[0].length).toBeLessThanOrEqual(2);
  });
});

describe('line first: what a small model really writes (review cases)', () => {
  const TOOLS = () => {
    const facts: string[] = [];
    const remember = AgentTool.local(
      {
        name: 'remember_fact',
        description: 'Remember a fact.',
        parameters: JsonSchema.obj({ fact: JsonSchema.string() }),
        sideEffect: true,
      },
      (args: { fact: string }) => {
        facts.push(args.fact);
        return 'Remembered.';
      },
    );
    const menu = AgentTool.local({ name: 'check_menu', description: 'The menu.' }, () => ({ ale: 3 }));
    return { facts, remember, menu };
  };

  test.each([
    ["Gemma's bracketed call", 'Hi Sam!\n[remember_fact(fact="Sam")]'],
    ['a JSON call line', 'Hi Sam!\n{"tool":"remember_fact","args":{"fact":"Sam"}}'],
  ])('%s after the words runs, and is not spoken', async (_label, output) => {
    const tools = TOOLS();
    const agent = new Agent(new ScriptedLanguageModel([output]), {
      instructions: 'x',
      tools: [tools.remember],
      config: FAST,
    });
    const response = await agent.respond('I am Sam.');
    expect(response.text).toBe('Hi Sam!');
    expect(tools.facts).toEqual(['Sam']);
  });

  test.each([
    ['cut off by the token limit', 'Hi Sam!\n{"tool":"remember_fact","args":{"fact":"The player is Sa', 'cut off'],
    ['arguments it cannot read', 'Hi Sam!\nremember_fact(The player is Sam)', 'could not be read'],
    ['a call in syntax cut off', 'Hi Sam!\nremember_fact(fact="The pla', 'cut off'],
  ])('a call %s never runs and is recorded as not made', async (_label, output, problem) => {
    const tools = TOOLS();
    const agent = new Agent(new ScriptedLanguageModel([output]), {
      instructions: 'x',
      tools: [tools.remember],
      config: FAST,
    });
    const response = await agent.respond('I am Sam.');
    expect(response.text).toBe('Hi Sam!');
    expect(tools.facts).toEqual([]);
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0].rejected).toBe(true);
    expect(JSON.stringify(response.toolCalls[0].output)).toContain(problem);
  });

  test('a lookup written in call syntax after a preamble is the call: 2 calls, no repair', async () => {
    const tools = TOOLS();
    const model = new ScriptedLanguageModel(['Let me look.\ncheck_menu()', 'Ale is 3.']);
    const agent = new Agent(model, { instructions: 'x', tools: [tools.menu], config: FAST });
    const response = await agent.respond('Menu?');
    expect(response).toMatchObject({ text: 'Ale is 3.', modelCalls: 2 });
    expect(model.requests.map((request) => request.isRepair)).toEqual([false, false]);
  });

  test('a call to a tool not offered in this step is cut from the words and recorded as not made', async () => {
    const tools = TOOLS();
    const agent = new Agent(new ScriptedLanguageModel(['Hi Sam!\nremember_fact(fact="Sam")']), {
      instructions: 'x',
      tools: [tools.remember, tools.menu],
      config: FAST,
    });
    const response = await agent.respond('I am Sam.', { enabledTools: ['check_menu'] });
    expect(response.text).toBe('Hi Sam!');
    expect(tools.facts).toEqual([]);
    expect(response.toolCalls.map((toolCall) => [toolCall.call.name, toolCall.rejected])).toEqual([
      ['remember_fact', true],
    ]);
  });

  test('a reply cut by the token limit is written again whole by the reply step', async () => {
    const long = `${'word '.repeat(40)}end.`;
    const capped: import('../../src').LanguageModel = {
      capabilities: new ScriptedLanguageModel([]).capabilities,
      availability: async () => ({ status: 'available' }),
      async *generate(request) {
        const cap = request.kind === 'decide' ? 20 : 1000;
        const text = long.slice(0, cap * 4);
        yield { delta: text, text, finishReason: text.length < long.length ? 'max_tokens' : 'stop' };
      },
    };
    const agent = new Agent(capped, {
      instructions: 'x',
      tools: [TOOLS().remember],
      config: { ...FAST, decisionMaxTokens: 16, maxResponseTokens: 20 },
    });
    const response = await agent.respond('Talk to me.');
    expect(response.modelCalls).toBe(2);
    expect(response.text).toBe(long); // whole, from the reply step, never the cut decide answer
  });

  test('an NPC: reasoning is never shown or spoken, and a tag before or after the words is the emotion', async () => {
    for (const output of [
      '<think>The player greets me.</think>Welcome in!\n[happy]',
      '[happy] Welcome in!',
      'Welcome in! [happy]',
    ]) {
      const npc = new NPC({ persona: MIRA, model: new ScriptedLanguageModel([Script.text(output, output.length)]) });
      const shown: string[] = [];
      const stream = npc.talkStream('Hello');
      stream.on('line', (event) => shown.push(event.line));
      const turn = await stream.turn();
      expect({ output, line: turn.line, emotion: turn.emotion, modelCalls: turn.modelCalls }).toEqual({
        output,
        line: 'Welcome in!',
        emotion: 'happy',
        modelCalls: 1,
      });
      expect(shown.every((line) => !/[<[]/.test(line))).toBe(true);
    }
  });

  test("decisions: a decorated id is read as the id in one call; reason 'after' is a JSON line, never a tag", async () => {
    const { DecisionEngine } = await import('../../src');
    const options = [
      { id: 'flee', description: 'run' },
      { id: 'attack', description: 'fight' },
    ];
    for (const output of ['Flee.', '**flee**', '`flee`', 'flee\nThe goblin is too strong.']) {
      const decision = await new DecisionEngine(new ScriptedLanguageModel([output])).decide({
        situation: 'A goblin.',
        options,
      });
      expect({ output, id: decision.optionId, calls: decision.modelCalls, fallback: decision.isFallback }).toEqual({
        output,
        id: 'flee',
        calls: 1,
        fallback: false,
      });
    }
    const model = new ScriptedLanguageModel([
      'flee\n{"reason":"The goblin has a much bigger sword than I do.","confidence":80}',
    ]);
    const reasonAfter = await new DecisionEngine(model, { reason: 'after' }).decide({
      situation: 'A goblin.',
      options,
    });
    expect(reasonAfter).toMatchObject({
      optionId: 'flee',
      reason: 'The goblin has a much bigger sword than I do.',
      confidence: 80,
      modelCalls: 1,
    });
    expect(model.requests[0].prompt).toContain(
      'Then, on a new line, the reply\'s other keys as one JSON object: {"reason":"…"}',
    );
  });

  test('a snapshot that returns a promise is not read ahead (it would read as {})', async () => {
    const menu = AgentTool.local(
      { name: 'check_menu', description: 'The menu.', snapshot: () => Promise.resolve({ ale: 3 }) },
      () => ({ ale: 3 }),
    );
    const model = new ScriptedLanguageModel(['Ale is 3.']);
    await new Agent(model, { instructions: 'x', tools: [menu], config: FAST }).respond('Menu?');
    expect(model.requests[0].prompt).not.toContain('check_menu now');
    // Not in the prefix and not read ahead: the note offers it, so the model can still call it.
    expect(model.requests[0].prompt).toContain('Tool you can call now: check_menu(): The menu.');
  });
});

describe('background summaries are bounded', () => {
  test('a summary cut at its token cap keeps its whole sentences; one with none changes nothing', async () => {
    const cut = (text: string): import('../../src').LanguageModel => ({
      capabilities: new ScriptedLanguageModel([]).capabilities,
      availability: async () => ({ status: 'available' }),
      async *generate(request) {
        const out = request.kind === 'summary' ? text : 'Hi.';
        yield { delta: out, text: out, finishReason: request.kind === 'summary' ? 'max_tokens' : 'stop' };
      },
    });
    const agent = new Agent(cut('Sam came in. He ordered two ales. He said his sis'), {
      instructions: 'x',
      config: FAST,
    });
    for (const line of ['a', 'b', 'c']) await agent.respond(line);
    expect(await agent.summarizeOldTurns({ keepRecentTurns: 1 })).toMatchObject({
      summary: 'Sam came in. He ordered two ales.',
      turns: 2,
    });
    const none = new Agent(cut('Sam came in and ordered two ales and said his sis'), {
      instructions: 'x',
      config: FAST,
    });
    for (const line of ['a', 'b', 'c']) await none.respond(line);
    const error = await failure(none.summarizeOldTurns({ keepRecentTurns: 1 }));
    expect(error.code).toBe('generation_failed');
    expect(error.message).toMatch(/cut off at 200 tokens/);
    expect(none.history).toHaveLength(6);
  });
});

describe('constrained decoding', () => {
  test("JSON steps carry their schema as responseSchema (content, a tool's arguments); line-first steps do not", async () => {
    const { ContentGenerator } = await import('../../src');
    const model = new ScriptedLanguageModel([Script.json({ name: 'Lantern', value: 3 })]);
    const schema = JsonSchema.obj({ name: JsonSchema.string(), value: JsonSchema.integer({ minimum: 1, maximum: 9 }) });
    await new ContentGenerator(model).generate({ prompt: 'An item.', schema });
    expect(model.requests[0].responseSchema).toEqual(schema.json);

    const agentModel = new ScriptedLanguageModel([Script.json({ quantity: 2 }), 'Two it is.']);
    const order = AgentTool.local(
      { name: 'take_order', description: 'x', parameters: JsonSchema.obj({ quantity: JsonSchema.integer() }) },
      () => 'ok',
    );
    await new Agent(agentModel, { instructions: 'x', tools: [order], config: FAST }).respond('Two.', {
      toolChoice: { tool: 'take_order' },
    });
    expect(
      agentModel.requests.map((request) => [request.kind, request.responseSchema === undefined ? 'none' : 'schema']),
    ).toEqual([
      ['toolArguments', 'schema'],
      ['decide', 'none'],
    ]);
    expect(agentModel.requests[0].responseSchema).toEqual(order.parameters.json);

    const npcModel = new ScriptedLanguageModel(['Hello!\n[happy]']);
    await new NPC({ persona: MIRA, model: npcModel }).talk('Hi');
    expect(npcModel.requests[0].responseSchema).toBeUndefined();
  });
});

describe('constrained decoding of JSON envelopes', () => {
  test('a decide step in a JSON envelope mode carries one {tool, args} shape per tool, or the reply; line first carries none', async () => {
    const { validateAgainst } = {
      validateAgainst: (schema: Record<string, unknown>, value: unknown) => JsonSchema.from(schema).check(value).ok,
    };
    const order = AgentTool.local(
      { name: 'take_order', description: 'x', parameters: JsonSchema.obj({ quantity: JsonSchema.integer() }) },
      () => 'ok',
    );
    const menu = AgentTool.local({ name: 'check_menu', description: 'x' }, () => ({ ale: 3 }));
    const json = new ScriptedLanguageModel([Script.reply('Hi.')]);
    await new Agent(json, { instructions: 'x', tools: [order, menu], config: { ...FAST, lineFirst: false } }).respond(
      'Hi',
    );
    const schema = json.requests[0].responseSchema as Record<string, unknown>;
    expect(validateAgainst(schema, { tool: 'take_order', args: { quantity: 2 } })).toBe(true);
    expect(validateAgainst(schema, { tool: 'check_menu', args: {} })).toBe(true);
    expect(validateAgainst(schema, { reply: 'Hello!' })).toBe(true);
    expect(validateAgainst(schema, { tool: 'summon_dragon', args: {} })).toBe(false);
    expect(validateAgainst(schema, { tool: 'take_order', args: { quantity: 'two' } })).toBe(false);

    const seed = new ScriptedLanguageModel([Script.action('respond'), 'Hi.']);
    await new Agent(seed, { instructions: 'x', tools: [order], config: { ...FAST, inlineReplies: false } }).respond(
      'Hi',
    );
    const seedSchema = seed.requests[0].responseSchema as Record<string, unknown>;
    expect(validateAgainst(seedSchema, { action: 'respond', arguments: {} })).toBe(true);
    expect(validateAgainst(seedSchema, { action: 'take_order', arguments: { quantity: 1 } })).toBe(true);

    const lines = new ScriptedLanguageModel(['Hi.']);
    await new Agent(lines, { instructions: 'x', tools: [order], config: FAST }).respond('Hi');
    expect(lines.requests[0].responseSchema).toBeUndefined();
  });
});

describe('the envelope schema stays valid', () => {
  test('a tool whose parameters use $defs gets no union (it would point at nothing); names are enums; args optional without parameters', async () => {
    const { envelopeSchema } = await import('../../src/core/envelope/envelope-schema');
    const withRef = AgentTool.local(
      {
        name: 'pick',
        description: 'x',
        parameters: {
          type: 'object',
          properties: { item: { $ref: '#/$defs/Item' } },
          required: ['item'],
          $defs: { Item: { type: 'string', enum: ['ale'] } },
        },
      },
      () => 'ok',
    );
    expect(envelopeSchema({ tools: [withRef], allowReply: true, seedForm: false })).toBeUndefined();
    const menu = AgentTool.local({ name: 'check_menu', description: 'x' }, () => 1);
    const schema = envelopeSchema({ tools: [menu], allowReply: true, seedForm: false }) as Record<string, unknown>;
    expect(JSON.stringify(schema)).not.toContain('"const"');
    expect(JsonSchema.from(schema).check({ tool: 'check_menu' }).ok).toBe(true);
  });
});

test('an NPC line without its emotion tag is a reply in one call, with the default emotion', async () => {
  const model = new ScriptedLanguageModel(['Welcome in!']);
  const turn = await new NPC({ persona: { ...MIRA, defaultEmotion: 'curious' }, model }).talk('Hello');
  expect(turn).toMatchObject({ line: 'Welcome in!', emotion: 'curious', modelCalls: 1, isFallback: false });
});
