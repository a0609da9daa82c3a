/**
 * Approval before a model-chosen call (genai-agent's AgentTool delegate): a tool's `approve` and
 * the agent's / NPC's `approveToolCall` see the parsed call and allow it, change its arguments,
 * refuse it with a reason the model reads (the call never runs, the turn goes on), or ask the game
 * and wait. Bad answers fail the turn with `tool_failed` and leave the history as it was.
 */
import { Agent, AgentTool, JsonSchema, NPC, WorldState, type ToolCall, type ToolVerdict } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { FAST, failure, tavern } from './helpers';

/** The tavern's order, held to the game's rules by its own approve: stock and the purse. */
function rulesOfTheHouse(log: string[], gold: () => number) {
  const stock: Record<string, number> = { ale: 3, stew: 0, bread: 5 };
  const prices: Record<string, number> = { ale: 3, stew: 5, bread: 1 };
  return AgentTool.local(
    {
      name: 'take_order',
      description: 'Serves an item.',
      parameters: JsonSchema.obj({
        item: JsonSchema.enumOf(['ale', 'stew', 'bread']),
        quantity: JsonSchema.integer({ minimum: 1, maximum: 10 }),
      }),
      approve: (call): ToolVerdict => {
        const { item, quantity } = call.args as { item: string; quantity: number };
        if (stock[item] === 0) return { refuse: `There is no ${item} left tonight.` };
        if (prices[item] * quantity > gold())
          return { refuse: `The player has ${gold()} gold; ${quantity} ${item} cost ${prices[item] * quantity}.` };
        // Not more than is in stock: serve what there is.
        if (quantity > stock[item]) return { allow: true, args: { item, quantity: stock[item] } };
        return true;
      },
    },
    (args: { item: string; quantity: number }) => {
      log.push(`take_order ${args.quantity} ${args.item}`);
      return `Served ${args.quantity} ${args.item}.`;
    },
  );
}

function agentWith(steps: Parameters<typeof Script.text>[0][] | ReturnType<typeof Script.text>[], options = {}) {
  const log: string[] = [];
  const model = new ScriptedLanguageModel(steps as never);
  const agent = new Agent(model, {
    instructions: 'You are Mira.',
    tools: [rulesOfTheHouse(log, () => 10)],
    config: { ...FAST, ...options },
  });
  return { agent, model, log };
}

describe("a tool's approve", () => {
  test('allows a call within the rules: it runs as asked', async () => {
    const { agent, log } = agentWith([
      Script.call('take_order', { item: 'ale', quantity: 2 }),
      Script.reply('Two ales.'),
    ]);
    const response = await agent.respond('Two ales');
    expect(log).toEqual(['take_order 2 ale']);
    expect(response.toolCalls[0].refused).toBeUndefined();
  });

  test('refuses an item out of stock: the call never runs, the model reads the reason, the turn goes on', async () => {
    const { agent, model, log } = agentWith([
      Script.call('take_order', { item: 'stew', quantity: 1 }),
      Script.reply('Sorry love, the stew is gone.'),
    ]);
    const response = await agent.respond('A stew');
    expect(log).toEqual([]);
    expect(response.toolCalls[0]).toMatchObject({ refused: 'There is no stew left tonight.' });
    expect(model.requests[1].prompt).toContain('Refused: There is no stew left tonight.');
    expect(response.text).toBe('Sorry love, the stew is gone.');
    // The refusal is in the history, as the model saw it.
    expect(JSON.stringify(agent.history)).toContain('Refused: There is no stew left tonight.');
  });

  test('refuses more than the player can pay, naming the sums', async () => {
    const { agent, model, log } = agentWith([
      Script.call('take_order', { item: 'ale', quantity: 4 }),
      Script.reply('That is 12 gold, you have 10.'),
    ]);
    await agent.respond('Four ales');
    expect(log).toEqual([]);
    expect(model.requests[1].prompt).toContain('Refused: The player has 10 gold; 4 ale cost 12.');
  });

  test('changes the arguments: the call made (and recorded) is the changed one', async () => {
    const log: string[] = [];
    const model = new ScriptedLanguageModel([
      Script.call('take_order', { item: 'ale', quantity: 5 }),
      Script.reply('Three is all.'),
    ]);
    const agent = new Agent(model, { tools: [rulesOfTheHouse(log, () => 100)], config: FAST });
    const response = await agent.respond('Five ales');
    expect(log).toEqual(['take_order 3 ale']);
    expect(response.toolCalls[0].call.args).toEqual({ item: 'ale', quantity: 3 });
    expect(model.requests[1].prompt).toContain('[take_order {"item":"ale","quantity":3} → Served 3 ale.]');
  });
});

describe("the agent's approveToolCall", () => {
  test("runs after the tool's own, seeing the arguments it changed; either may refuse", async () => {
    const seen: ToolCall[] = [];
    const log: string[] = [];
    const model = new ScriptedLanguageModel([
      Script.call('take_order', { item: 'ale', quantity: 5 }),
      Script.reply('Ok.'),
    ]);
    const agent = new Agent(model, {
      tools: [rulesOfTheHouse(log, () => 100)],
      config: {
        ...FAST,
        approveToolCall: (call) => {
          seen.push(call);
          return { refuse: 'The bar is closed.' };
        },
      },
    });
    const response = await agent.respond('Five ales');
    expect(seen.map((call) => call.args)).toEqual([{ item: 'ale', quantity: 3 }]);
    expect(log).toEqual([]);
    expect(response.toolCalls[0].refused).toBe('The bar is closed.');
  });

  test('may ask the game and wait: the call runs once the game says yes', async () => {
    const fixture = tavern();
    let answer!: (verdict: ToolVerdict) => void;
    const model = new ScriptedLanguageModel([
      Script.call('take_order', { item: 'bread', quantity: 1 }),
      Script.reply('Bread.'),
    ]);
    const agent = new Agent(model, {
      tools: [fixture.order],
      config: { ...FAST, approveToolCall: () => new Promise<ToolVerdict>((resolve) => (answer = resolve)) },
    });
    const run = agent.run('Bread');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fixture.log).toEqual([]);
    answer({ allow: true });
    await run.response();
    expect(fixture.log).toEqual(['take_order {"item":"bread","quantity":1}']);
  });

  test('a turn cancelled while the game is asked leaves the history as it was; the call never runs', async () => {
    const fixture = tavern();
    const model = new ScriptedLanguageModel([
      Script.call('take_order', { item: 'ale', quantity: 1 }),
      Script.reply('x'),
    ]);
    const agent = new Agent(model, {
      tools: [fixture.order],
      config: { ...FAST, approveToolCall: () => new Promise<ToolVerdict>(() => undefined) },
    });
    const run = agent.run('An ale');
    await new Promise((resolve) => setTimeout(resolve, 10));
    run.cancel();
    expect((await failure(run.response())).code).toBe('cancelled');
    expect(fixture.log).toEqual([]);
    expect(agent.history).toEqual([]);
  });

  test.each<[string, () => unknown, RegExp]>([
    [
      'throws',
      () => {
        throw new Error('no purse');
      },
      /approveToolCall threw for take_order: no purse/,
    ],
    [
      'answers nonsense',
      () => 'maybe',
      /must answer true, false, \{ allow: true, args\? \} or \{ refuse: "reason" \}; got "maybe"/,
    ],
    [
      'changes the arguments to invalid ones',
      () => ({ allow: true, args: { item: 'wine', quantity: 1 } }),
      /schema refuses/,
    ],
  ])('an approval that %s fails the turn with tool_failed; nothing is kept', async (_name, approve, message) => {
    const fixture = tavern();
    const model = new ScriptedLanguageModel([
      Script.call('take_order', { item: 'ale', quantity: 1 }),
      Script.reply('x'),
    ]);
    const agent = new Agent(model, { tools: [fixture.order], config: { ...FAST, approveToolCall: approve as never } });
    const error = await failure(agent.respond('An ale'));
    expect(error.code).toBe('tool_failed');
    expect(error.message).toMatch(message);
    expect(fixture.log).toEqual([]);
    expect(agent.history).toEqual([]);
  });

  test('a hook that is not a function is refused before any call', () => {
    const model = new ScriptedLanguageModel([]);
    expect(() => new Agent(model, { config: { approveToolCall: 'yes' as never } })).toThrow(
      expect.objectContaining({
        code: 'invalid_request',
        message: expect.stringMatching(/approveToolCall must be a function/),
      }),
    );
    expect(() => AgentTool.local({ name: 'x', description: 'x', approve: 3 as never }, () => 'x')).toThrow(
      expect.objectContaining({
        code: 'invalid_request',
        message: expect.stringMatching(/approve must be a function/),
      }),
    );
    expect(model.calls).toBe(0);
  });
});

describe("an NPC's approveToolCall: the game's rules on the tavern's own tools", () => {
  test('a hook that throws is a bug: the NPC rejects with tool_failed instead of hiding it behind a fallback line', async () => {
    const tool = AgentTool.external({
      name: 'give_item',
      description: 'Gives.',
      parameters: JsonSchema.obj({ item: JsonSchema.string() }),
    });
    const model = new ScriptedLanguageModel([
      Script.call('give_item', { item: 'map' }),
      Script.json({ emotion: 'happy', line: 'x' }),
    ]);
    const npc = new NPC({
      persona: { name: 'Mira', fallbackLines: ['Hmm.'] },
      model,
      tools: [tool],
      approveToolCall: () => Promise.reject(new Error('closed')),
    });
    const error = await failure(npc.talk('A map?'));
    expect(error).toMatchObject({ code: 'tool_failed', unexpected: true });
    expect(npc.history).toEqual([]);
  });

  test("an order the player cannot pay for is refused, the purse is untouched, and the reason is in the next step's prompt", async () => {
    const world = new WorldState({ player: { gold: 4 } });
    const served: string[] = [];
    const order = AgentTool.local(
      {
        name: 'take_order',
        description: 'Serves an item.',
        parameters: JsonSchema.obj({ item: JsonSchema.enumOf(['ale']), quantity: JsonSchema.integer() }),
      },
      (args: { quantity: number }) => {
        served.push(`${args.quantity} ale`);
        world.set('player.gold', (world.get<number>('player.gold') ?? 0) - 3 * args.quantity);
        return 'Served.';
      },
    );
    const model = new ScriptedLanguageModel([
      Script.call('take_order', { item: 'ale', quantity: 2 }),
      Script.json({ emotion: 'sad', line: "That's 6 gold, love, and you've only 4." }),
    ]);
    const npc = new NPC({
      persona: { name: 'Mira' },
      model,
      world,
      tools: [order],
      approveToolCall: (call) => {
        const cost = 3 * Number(call.args.quantity);
        const gold = world.get<number>('player.gold') ?? 0;
        return cost > gold ? { refuse: `The player has ${gold} gold; that costs ${cost}.` } : true;
      },
    });
    const turn = await npc.talk('Two ales');
    expect(served).toEqual([]);
    expect(world.get('player.gold')).toBe(4);
    expect(turn.toolCalls[0].refused).toBe('The player has 4 gold; that costs 6.');
    expect(model.requests[1].prompt).toContain('Refused: The player has 4 gold; that costs 6.');
    expect(turn.line).toBe("That's 6 gold, love, and you've only 4.");
    expect(turn.isFallback).toBe(false);
  });
});
