/**
 * ContentGenerator: JSON valid against the game's schema in schema key order; one repair, then
 * generation_failed or the authored fallback; bad schemas and fallbacks rejected before any call.
 */
import { Agent, AgentTool, Canceller, ContentGenerator, JsonSchema } from '../../src';
import { readRenderedTurn, Script, ScriptedLanguageModel, type ScriptStep } from '../../src/testing';
import { failure, until } from '../agent/helpers';

const ITEM = JsonSchema.obj({
  name: JsonSchema.string({ description: 'the item name' }),
  rarity: JsonSchema.enumOf(['common', 'rare', 'legendary']),
  price: JsonSchema.integer({ minimum: 1, maximum: 1000 }),
  tags: JsonSchema.array(JsonSchema.string()),
});

function generator(steps: Array<ScriptStep | string>, options = {}) {
  const model = new ScriptedLanguageModel(steps);
  return { model, gen: new ContentGenerator(model, options) };
}

describe('generate', () => {
  test('valid output, keys in schema order, one structured call', async () => {
    const { model, gen } = generator([
      Script.json({ tags: ['fire'], price: 120, rarity: 'rare', name: 'Ember Blade' }),
    ]);
    const result = await gen.generate<{ name: string }>({ prompt: 'A sword for a fire mage.', schema: ITEM });
    expect(result.value).toEqual({ name: 'Ember Blade', rarity: 'rare', price: 120, tags: ['fire'] });
    expect(Object.keys(result.value as object)).toEqual(['name', 'rarity', 'price', 'tags']);
    expect(result).toMatchObject({ isFallback: false, modelCalls: 1 });
    expect(model.kinds).toEqual(['structured']);
    expect(model.requests[0].priority).toBe(40);
    expect(model.requests[0].systemInstruction ?? model.requests[0].prompt).toMatch(/video game/);
  });

  test('the prompt asks for the content Game asked for, not for "Writer\'s new reply"', async () => {
    const { model, gen } = generator([Script.json({ name: 'Ember Blade', rarity: 'rare', price: 120, tags: [] })]);
    await gen.generate({ prompt: 'A sword for a fire mage.', schema: ITEM, facts: { level: 3 } });
    const whole = `${model.requests[0].promptPrefix ?? ''}${model.requests[0].prompt}`;
    expect(whole).toContain('The content is a JSON object with these keys:');
    expect(whole).toContain('Answer with that JSON object only.');
    expect(whole).not.toMatch(/reply/i);
    // Models that answer from the prompt read the request back without the task line.
    expect(readRenderedTurn(model.requests[0].prompt).prompt).toBe('A sword for a fire mage.\nFacts: {"level":3}');
  });

  test('an empty "writes" label is refused before any call', async () => {
    const model = new ScriptedLanguageModel([]);
    expect(() => new Agent(model, { config: { labels: { writes: ' ' } } })).toThrow(
      expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(/labels\.writes/) }),
    );
  });

  test('a plain JSON Schema object works too', async () => {
    const { gen } = generator([Script.json({ title: 'Rats in the Cellar', reward: '5' })]);
    const result = await gen.generate({
      prompt: 'A quest.',
      schema: {
        type: 'object',
        properties: { title: { type: 'string' }, reward: { type: 'integer' } },
        required: ['title', 'reward'],
      },
    });
    expect(result.value).toEqual({ title: 'Rats in the Cellar', reward: 5 });
  });

  test('facts go on their own line after the prompt', async () => {
    const { model, gen } = generator([Script.json({ name: 'Ale', rarity: 'common', price: 3, tags: [] })]);
    await gen.generate({ prompt: 'A drink.', schema: ITEM, facts: { tavern: 'Crooked Lantern', maxPrice: 5 } });
    expect(model.requests[0].prompt).toContain('A drink.\nFacts: {"tavern":"Crooked Lantern","maxPrice":5}');
  });

  test('instructions per request win over the generator default', async () => {
    const { model, gen } = generator([Script.json({ name: 'X', rarity: 'common', price: 1, tags: [] })], {
      instructions: 'Generator default.',
    });
    await gen.generate({ prompt: 'An item.', schema: ITEM, instructions: 'Write grim, dark items.' });
    const text = `${model.requests[0].systemInstruction ?? ''}${model.requests[0].promptPrefix ?? ''}${model.requests[0].prompt}`;
    expect(text).toContain('Write grim, dark items.');
    expect(text).not.toContain('Generator default.');
  });

  test('invalid output is repaired once', async () => {
    const { model, gen } = generator([
      Script.json({ name: 'Blade', rarity: 'mythic', price: 5000 }),
      Script.json({ name: 'Blade', rarity: 'rare', price: 500, tags: ['steel'] }),
    ]);
    const result = await gen.generate({ prompt: 'A sword.', schema: ITEM });
    expect(result).toMatchObject({
      value: { name: 'Blade', rarity: 'rare', price: 500, tags: ['steel'] },
      isFallback: false,
      modelCalls: 2,
    });
    expect(model.requests[1].isRepair).toBe(true);
  });

  test('still invalid after the repair → generation_failed', async () => {
    const { model, gen } = generator([
      Script.json({ name: 'Blade' }),
      'not json at all',
      Script.json({ name: 'never asked' }),
    ]);
    const error = await failure(gen.generate({ prompt: 'A sword.', schema: ITEM }));
    expect(error.code).toBe('generation_failed');
    expect(model.calls).toBe(2);
  });

  test('the authored fallback is returned instead (checked and put in schema order)', async () => {
    const { model, gen } = generator([Script.json({ name: 'Blade' }), Script.json({ price: -1 })]);
    const fallback = { tags: ['rusty'], price: 2, rarity: 'common', name: 'Rusty Dagger' };
    const result = await gen.generate({ prompt: 'A sword.', schema: ITEM, fallback });
    expect(result.isFallback).toBe(true);
    expect(result.value).toEqual({ name: 'Rusty Dagger', rarity: 'common', price: 2, tags: ['rusty'] });
    expect(Object.keys(result.value as object)).toEqual(['name', 'rarity', 'price', 'tags']);
    expect(result.modelCalls).toBe(2);
    expect(model.calls).toBe(2);
  });

  test('a blocked generation → the fallback; without one, the error', async () => {
    const fallback = { name: 'Bread', rarity: 'common', price: 1, tags: [] };
    const first = generator([Script.fail('guardrail_violation')]);
    expect((await first.gen.generate({ prompt: 'Something nasty.', schema: ITEM, fallback })).isFallback).toBe(true);
    const second = generator([Script.fail('guardrail_violation')]);
    expect((await failure(second.gen.generate({ prompt: 'Something nasty.', schema: ITEM }))).code).toBe(
      'guardrail_violation',
    );
  });

  test('an invalid fallback is rejected up front, before any model call', async () => {
    const { model, gen } = generator([Script.json({ name: 'X', rarity: 'common', price: 1, tags: [] })]);
    const error = await failure(
      gen.generate({ prompt: 'An item.', schema: ITEM, fallback: { name: 'X', rarity: 'mythic', price: 1, tags: [] } }),
    );
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/fallback/i);
    expect(model.calls).toBe(0);
  });

  test.each([
    ['an unknown type', { type: 'sword' }],
    ['a non-object', 'string'],
    ['properties that are not an object', { type: 'object', properties: 5 }],
    ['required that is not a list', { type: 'object', properties: { a: { type: 'string' } }, required: 'a' }],
    ['an empty enum', { type: 'string', enum: [] }],
  ])('a malformed schema (%s) → invalid_schema before any model call', async (_name, schema) => {
    const { model, gen } = generator([Script.json({})]);
    const error = await failure(gen.generate({ prompt: 'Anything.', schema: schema as never }));
    expect(error.code).toBe('invalid_schema');
    expect(model.calls).toBe(0);
  });

  test('a missing prompt → invalid_request before any model call', async () => {
    const { model, gen } = generator([]);
    expect((await failure(gen.generate({ prompt: '  ', schema: ITEM }))).code).toBe('invalid_request');
    expect((await failure(gen.generate(undefined as never))).code).toBe('invalid_request');
    expect(model.calls).toBe(0);
  });

  test('tools run before the content; the content uses their results', async () => {
    const looked: string[] = [];
    const prices = AgentTool.local({ name: 'market_prices', description: "Today's prices." }, () => {
      looked.push('market_prices');
      return { sword: 140 };
    });
    const { model, gen } = generator([
      Script.call('market_prices'),
      Script.reply({ name: 'Market Sword', rarity: 'common', price: 140, tags: [] }),
    ]);
    const result = await gen.generate({ prompt: 'A sword priced at market rate.', schema: ITEM, tools: [prices] });
    expect(looked).toEqual(['market_prices']);
    expect(result).toMatchObject({ value: { price: 140 }, modelCalls: 2 });
    expect(model.requests[1].prompt).toContain('"sword":140');
  });

  test("toolChoice 'required' runs a parameterless tool without a model step", async () => {
    const prices = AgentTool.local({ name: 'market_prices', description: "Today's prices." }, () => ({ sword: 90 }));
    const { model, gen } = generator([Script.reply({ name: 'Sword', rarity: 'common', price: 90, tags: [] })]);
    const result = await gen.generate({ prompt: 'A sword.', schema: ITEM, tools: [prices], toolChoice: 'required' });
    expect((result.value as { price: number }).price).toBe(90);
    expect(model.calls).toBe(1);
  });

  test('cancellation → cancelled, even with a fallback', async () => {
    const canceller = new Canceller();
    const { model, gen } = generator([Script.hang()]);
    const pending = gen.generate({
      prompt: 'A sword.',
      schema: ITEM,
      signal: canceller.signal,
      fallback: { name: 'B', rarity: 'common', price: 1, tags: [] },
    });
    await until(() => model.calls === 1, 'the model call');
    canceller.abort();
    expect((await failure(pending)).code).toBe('cancelled');
  });

  test('a signal aborted before the call → cancelled, no model call', async () => {
    const canceller = new Canceller();
    canceller.abort();
    const { model, gen } = generator([Script.json({ name: 'B', rarity: 'common', price: 1, tags: [] })]);
    expect((await failure(gen.generate({ prompt: 'A sword.', schema: ITEM, signal: canceller.signal }))).code).toBe(
      'cancelled',
    );
    expect(model.calls).toBe(0);
  });

  test('loot lists: an array of objects', async () => {
    const LOOT = JsonSchema.obj({
      items: JsonSchema.array(JsonSchema.obj({ name: JsonSchema.string(), qty: JsonSchema.integer({ minimum: 1 }) })),
    });
    const { gen } = generator([
      Script.json({
        items: [
          { qty: 2, name: 'Arrow' },
          { name: 'Potion', qty: '1' },
        ],
      }),
    ]);
    const result = await gen.generate({ prompt: 'Loot from a goblin.', schema: LOOT });
    expect(result.value).toEqual({
      items: [
        { name: 'Arrow', qty: 2 },
        { name: 'Potion', qty: 1 },
      ],
    });
    expect(Object.keys((result.value as { items: object[] }).items[0])).toEqual(['name', 'qty']);
  });
});
