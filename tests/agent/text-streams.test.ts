/**
 * genai-agent's stream helpers in the TypeScript API: `textTokens()` (the reply's pieces as they
 * stream) and `textMessages()` (the completed reply), on an agent run and on an NPC turn. Each is
 * a stream of its own: read late, read twice, read beside `events`, and failing as the turn fails.
 */
import { AgentError, NPC } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { tavernAgent } from './helpers';
import { MIRA, mira } from '../npc/helpers';

async function collect<T>(stream: AsyncIterable<T>): Promise<{ items: T[]; error?: AgentError }> {
  const items: T[] = [];
  try {
    for await (const item of stream) items.push(item);
    return { items };
  } catch (error) {
    return { items, error: error as AgentError };
  }
}

describe('an agent run', () => {
  test('tokens are the streamed pieces of the reply; the one message is the whole reply', async () => {
    const { agent } = tavernAgent([Script.text('Ale is three coins, stew five.', 5)]);
    const run = agent.run('Prices?', { toolChoice: 'none' });
    const [tokens, messages] = await Promise.all([collect(run.textTokens()), collect(run.textMessages())]);
    expect(tokens.items.length).toBeGreaterThan(1); // streamed, not one lump
    expect(tokens.items.join('')).toBe('Ale is three coins, stew five.');
    expect(tokens.items.every((token) => token !== '')).toBe(true);
    expect(messages.items).toEqual(['Ale is three coins, stew five.']);
  });

  test('a tool round is not text: only the reply after it is', async () => {
    const { agent, log } = tavernAgent([Script.call('check_menu'), Script.reply('Ale 3, stew 5, bread 1.')]);
    const run = agent.run('What do you have?');
    const tokens = await collect(run.textTokens());
    expect(log).toEqual(['check_menu']);
    expect(tokens.items.join('')).toBe('Ale 3, stew 5, bread 1.');
    expect(tokens.items.join('')).not.toMatch(/check_menu|\{/);
  });

  test('a stream asked for after the turn ended still gets every piece; two readers and events do not compete', async () => {
    const { agent } = tavernAgent([Script.text('Welcome in, friend.', 4)]);
    const run = agent.run('Hi', { toolChoice: 'none' });
    const early = collect(run.textTokens());
    const events = collect(run.events);
    await run.response();
    const late = await collect(run.textTokens());
    expect((await early).items.join('')).toBe('Welcome in, friend.');
    expect(late.items).toEqual((await early).items);
    expect((await collect(run.textMessages())).items).toEqual(['Welcome in, friend.']);
    expect((await events).items.at(-1)?.type).toBe('completed');
  });

  test('a failed turn fails both streams with its error after the words it showed', async () => {
    const { agent } = tavernAgent([Script.fail('generation_failed', 'cut', { afterText: 'Well, the' })], {
      retry: { maxAttempts: 1 },
    });
    const run = agent.run('Hi', { toolChoice: 'none' });
    const [tokens, messages] = await Promise.all([collect(run.textTokens()), collect(run.textMessages())]);
    expect(tokens.error).toBeInstanceOf(AgentError);
    expect(tokens.error?.code).toBe('generation_failed');
    expect(tokens.items.join('')).toBe('Well, the');
    expect(messages).toEqual({ items: [], error: tokens.error });
    expect(agent.history).toEqual([]);
  });

  test('a cancelled turn ends the streams with cancelled; nothing is kept', async () => {
    const { agent } = tavernAgent([Script.text('A long story begins here and goes on.', 8)]);
    const run = agent.run('Tell me a story', { toolChoice: 'none' });
    const tokens = run.textTokens();
    const messages = collect(run.textMessages());
    const seen: string[] = [];
    let error: AgentError | undefined;
    try {
      for await (const token of tokens) {
        seen.push(token);
        run.cancel();
      }
    } catch (caught) {
      error = caught as AgentError;
    }
    expect(seen).toHaveLength(1);
    expect(error?.code).toBe('cancelled');
    expect((await messages).error?.code).toBe('cancelled');
    expect(agent.history).toEqual([]);
  });

  test('after a retry withdraws words, the message is only the retried reply', async () => {
    const { agent } = tavernAgent([Script.fail('busy', 'lost', { afterText: 'Hello wor' }), 'Hello world, friend.']);
    const run = agent.run('Hi', { toolChoice: 'none' });
    const [tokens, messages] = await Promise.all([collect(run.textTokens()), collect(run.textMessages())]);
    // Tokens cannot take words back (documented): the withdrawn piece came first, then the new reply.
    expect(tokens.items.join('')).toBe('Hello worHello world, friend.');
    expect(messages.items).toEqual(['Hello world, friend.']);
  });
});

describe('an NPC turn', () => {
  test("tokens are the spoken line only, not the reply's other keys; the message is the finished line", async () => {
    const { npc } = mira([Script.json({ emotion: 'happy', line: 'Welcome to the Crooked Lantern, traveller!' }, 12)]);
    const stream = npc.talkStream('Hello!');
    const [tokens, messages] = await Promise.all([collect(stream.textTokens()), collect(stream.textMessages())]);
    expect(tokens.items.length).toBeGreaterThan(1);
    expect(tokens.items.join('')).toBe('Welcome to the Crooked Lantern, traveller!');
    expect(messages.items).toEqual([(await stream.turn()).line]);
  });

  test('an authored fallback line is the message when the model cannot answer', async () => {
    const npc = new NPC({
      persona: MIRA,
      model: new ScriptedLanguageModel([], { fallback: Script.fail('generation_failed') }),
      options: { fallbackLines: ['Busy night, come back later.'] },
    });
    const stream = npc.talkStream('Hello!');
    const messages = await collect(stream.textMessages());
    const turn = await stream.turn();
    expect(turn.isFallback).toBe(true);
    expect(messages.items).toEqual(['Busy night, come back later.']);
  });

  test('a turn refused before any call (words that are not text) fails its streams with invalid_request', async () => {
    const { npc, model } = mira([]);
    const stream = npc.talkStream(42 as never);
    const [tokens, messages] = await Promise.all([collect(stream.textTokens()), collect(stream.textMessages())]);
    expect(tokens.error?.code).toBe('invalid_request');
    expect(messages.error?.code).toBe('invalid_request');
    expect(model.calls).toBe(0);
  });
});
