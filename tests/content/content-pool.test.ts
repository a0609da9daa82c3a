/**
 * Content drawn from a pool made ahead of time: where no model runs, each item in turn (the one
 * drawn least lately), with no model call; when the model cannot produce valid content, the pool
 * before the fallback; a pool item that does not fit the schema is refused before anything runs.
 */
import { AgentError, ContentGenerator, type LanguageModel } from '../../src';
import { ScriptedLanguageModel } from '../../src/testing';

const ITEM = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'integer', minimum: 1 } },
  required: ['name', 'price'],
  additionalProperties: false,
};
const POOL = [
  { name: 'Iron dagger', price: 15 },
  { price: 40, name: 'Short sword' },
  { name: 'Horseshoe', price: 4 },
];

const neverCalled = {
  capabilities: {},
  generate: () => {
    throw new Error('the model must not be asked');
  },
  availability: async () => ({ status: 'unavailable', reason: 'device_not_eligible' }),
} as unknown as LanguageModel;

test('where no model runs, every pool item once before any again, keys in schema order, no model call', async () => {
  const generator = new ContentGenerator(neverCalled, { withoutModel: () => true });
  const drawn = [];
  for (let index = 0; index < 4; index++)
    drawn.push(await generator.generate({ prompt: 'An item for the forge.', schema: ITEM, pool: POOL }));
  expect(drawn.map((result) => (result.value as { name: string }).name)).toEqual([
    'Iron dagger',
    'Short sword',
    'Horseshoe',
    'Iron dagger',
  ]);
  expect(Object.keys(drawn[1].value as object)).toEqual(['name', 'price']);
  expect(drawn.every((result) => result.isFallback && result.modelCalls === 0)).toBe(true);
});

test('where no model runs and there is no pool: the fallback, else model_unavailable', async () => {
  const generator = new ContentGenerator(neverCalled, { withoutModel: () => true });
  const fallback = { name: 'Nail', price: 1 };
  await expect(generator.generate({ prompt: 'An item.', schema: ITEM, fallback })).resolves.toMatchObject({
    value: fallback,
  });
  await expect(generator.generate({ prompt: 'An item.', schema: ITEM })).rejects.toMatchObject({
    code: 'model_unavailable',
  });
});

test('a model that keeps writing invalid content: the pool answers before the fallback', async () => {
  const model = new ScriptedLanguageModel([
    '{"name": "Bad"}',
    '{"name": "Still bad"}',
    '{"name": "Bad"}',
    '{"name": "Bad"}',
  ]);
  const generator = new ContentGenerator(model);
  const result = await generator.generate({
    prompt: 'An item.',
    schema: ITEM,
    pool: POOL,
    fallback: { name: 'Nail', price: 1 },
  });
  expect(result).toMatchObject({ value: POOL[0], isFallback: true });
  expect(result.modelCalls).toBeGreaterThan(0);
});

test('a pool item that does not fit the schema is refused, naming it, before any model call', async () => {
  const generator = new ContentGenerator(neverCalled, { withoutModel: () => true });
  const pool = [POOL[0], { name: 'Free sword', price: 0 }];
  await expect(generator.generate({ prompt: 'An item.', schema: ITEM, pool })).rejects.toThrow(AgentError);
  await expect(generator.generate({ prompt: 'An item.', schema: ITEM, pool })).rejects.toThrow(
    /^pool\[1\] does not fit the schema/,
  );
});
