/**
 * The line-first answer (default mode): the words come first, as plain text, so the player's
 * first word is the model's first token; side effects ride along after them in the same step.
 * Call and output-token counts are exact, so they are asserted here; times live in the bench.
 */
import {
  Agent, AgentTool, JsonSchema, NPC, ScriptedLanguageModel, Script, WorldState, estimateTokens, type AgentError,
} from '../../src';
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
    (a: { quantity: number }) => {
      const gold = world.get<number>('player.gold') ?? 0;
      if (a.quantity * 3 > gold) return { error: `The player has ${gold} gold; ${a.quantity} ales cost ${a.quantity * 3}.` };
      world.set('player.gold', gold - a.quantity * 3);
      return { served: a.quantity };
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
    stream.on('line', (e) => { if (order[order.length - 1] !== 'line') order.push('line'); void e; });
    stream.on('toolCall', () => order.push('toolCall'));
    stream.on('emotion', () => order.push('emotion'));
    const turn = await stream.turn();
    expect(turn).toMatchObject({ line: 'Sam it is. Welcome, Sam!', emotion: 'happy', modelCalls: 1, isFallback: false });
    expect(turn.toolCalls.map((r) => r.call.name)).toEqual(['remember_fact']);
    expect(order[0]).toBe('line');
    expect(order.indexOf('toolCall')).toBeGreaterThan(0);
    expect(npc.saveState().memory.facts).toEqual(["The player's name is Sam."]);
    expect(turn.usage.outputTokens).toBe(estimateTokens(output));
    // The prefix teaches the short form: words, the other keys, then actions in call syntax.
    const prefix = model.requests[0].promptPrefix ?? '';
    expect(prefix).toContain('first write what Mira says, as plain text. Then, on a new line, the emotion in brackets: […]. Optional keys, only when they apply, go on their own line as JSON, e.g. {"end":true}.');
    expect(prefix).toContain('come after them, one per line: remember_fact(fact="…")');
  });

  test('the JSON form of the other keys is read too, and an optional key on its own line', async () => {
    const model = new ScriptedLanguageModel(['Goodnight, love.\n{"emotion":"happy"}\n{"end":true}']);
    const npc = new NPC({ persona: MIRA, model });
    expect(await npc.talk('Bye!')).toMatchObject({ line: 'Goodnight, love.', emotion: 'happy', endsConversation: true, modelCalls: 1 });
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
    stream.on('modelStepFinished', (e) => { firstChunk = e.output.slice(0, Math.ceil(e.output.length / 8)); });
    stream.on('line', (e) => { if (!firstLine) firstLine = e.line; });
    const turn = await stream.turn();
    expect(turn.modelCalls).toBe(1);
    expect(firstChunk.startsWith(firstLine.trim()) || firstLine.startsWith(firstChunk.trim())).toBe(true);
    expect(turn.line).toBe('Welcome in!');
  });

  test('an action that fails after the words: the line stands, the failure is in the tool calls and after the line in the transcript', async () => {
    const world = new WorldState({ player: { gold: 2 } });
    const model = new ScriptedLanguageModel(['Two ales coming up!\ntake_order(quantity=2)', 'Ah, your purse is light.']);
    const agent = new Agent(model, { instructions: 'You are Mira.', tools: [orderTool(world, true)], config: FAST });
    const r = await agent.respond('Two ales, please.');
    expect(r.text).toBe('Two ales coming up!');
    expect(r.modelCalls).toBe(1);
    expect(r.toolCalls).toHaveLength(1);
    expect(JSON.stringify(r.toolCalls[0].output)).toContain('The player has 2 gold');
    expect(world.get('player.gold')).toBe(2);
    expect(agent.history.map((e) => e.type)).toEqual(['prompt', 'response', 'toolUse']);
    await agent.respond('Hm?');
    // The next prompt shows the line, then what really happened.
    expect(model.requests[1].prompt).toMatch(/Assistant: Two ales coming up!\n\[take_order \{"quantity":2\} → .*The player has 2 gold/);
  });

  test('a tool whose result is needed still comes first, as a call; words before it are a preamble', async () => {
    const world = new WorldState({ player: { gold: 20 } });
    const model = new ScriptedLanguageModel(['Sure! {"tool":"take_order","args":{"quantity":1}}', 'Here you go.']);
    const agent = new Agent(model, { instructions: 'You are Mira.', tools: [orderTool(world, false)], config: FAST });
    const r = await agent.respond('One ale.');
    expect(r.modelCalls).toBe(2);
    expect(r.text).toBe('Here you go.');
    expect(world.get('player.gold')).toBe(17);
  });

  test('a small parameterless lookup with a snapshot is read into the prompt: no lookup call', async () => {
    const menu = AgentTool.local({ name: 'check_menu', description: 'The menu.', snapshot: () => ({ ale: 3 }) }, () => ({ ale: 3 }));
    const model = new ScriptedLanguageModel(['Ale is 3 gold.']);
    const agent = new Agent(model, { instructions: 'You are Mira.', tools: [menu], config: FAST });
    const r = await agent.respond('What does ale cost?');
    expect(r).toMatchObject({ text: 'Ale is 3 gold.', modelCalls: 1 });
    expect(model.requests[0].prompt).toContain('check_menu now: {"ale":3}');
  });

  test('lineFirst off: the JSON envelope as before', async () => {
    const model = new ScriptedLanguageModel([Script.reply('Hello!')]);
    const agent = new Agent(model, { instructions: 'You are Mira.', tools: [orderTool(new WorldState({}), true)], config: { ...FAST, lineFirst: false } });
    expect((await agent.respond('Hi')).text).toBe('Hello!');
    expect(model.requests[0].promptPrefix).toContain('{"reply":"…"}');
  });

  test('bad settings are refused before any model call', async () => {
    const model = new ScriptedLanguageModel([]);
    expect(() => AgentTool.local({ name: 'x', description: 'x', sideEffect: 'yes' as unknown as boolean }, () => 1)).toThrow(/sideEffect must be true or false/);
    expect(() => AgentTool.local({ name: 'x', description: 'x', snapshot: 3 as unknown as () => unknown }, () => 1)).toThrow(/snapshot must be a function/);
    const bad = (() => { try { new Agent(model, { instructions: 'x', config: { lineFirst: 'yes' as unknown as boolean } }); return undefined; } catch (e) { return e as AgentError; } })();
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
    stream.on('line', (e) => shown.push(e.line));
    const turn = await stream.turn();
    expect(turn.line).toBe('Welcome in, traveller!');
    // Every growing prefix was shown on its way (the cleaner may hold back the last character).
    expect(shown.length).toBeGreaterThanOrEqual('Welcome in, traveller!'.length - 2);
    expect(shown[0].length).toBeLessThanOrEqual(2);
  });
});
