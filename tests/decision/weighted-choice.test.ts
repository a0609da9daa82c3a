/**
 * A decision without a model (a shipped build with no model on the player's device): the
 * options' weights and conditions on the facts pick, with no model call; bad weights and
 * conditions are refused before anything runs, naming the option.
 */
import { AgentError, DecisionEngine, chooseByWeight, type DecisionRequest, type LanguageModel } from '../../src';

const neverCalled = {
  capabilities: {},
  generate: () => {
    throw new Error('the model must not be asked');
  },
  availability: async () => ({ status: 'unavailable', reason: 'device_not_eligible' }),
} as unknown as LanguageModel;

const GUARD: DecisionRequest = {
  situation: 'A stranger walks up to the gate at night.',
  facts: { stranger: { armed: true }, guard: { hp: 80 } },
  options: [
    { id: 'challenge', description: 'Ask who goes there', weight: 3 },
    { id: 'ring_bell', description: 'Ring the alarm', weight: 1, when: { 'stranger.armed': true } },
    { id: 'flee', description: 'Run for it', weight: 5, when: { 'guard.hp': { max: 20 } } },
    { id: 'nap', description: 'Keep dozing', weight: 0 },
  ],
};

function sequence(...values: number[]): () => number {
  let index = 0;
  return () => values[index++ % values.length];
}

test('only options whose conditions hold, in proportion to their weights; the chance is the confidence', async () => {
  const engine = new DecisionEngine(neverCalled, { withoutModel: () => true, random: sequence(0.1, 0.74, 0.76, 0.99) });
  const picked = [];
  for (let turn = 0; turn < 4; turn++) picked.push(await engine.decide(GUARD));
  expect(picked.map((decision) => decision.optionId)).toEqual(['challenge', 'challenge', 'ring_bell', 'ring_bell']);
  expect(picked[0]).toEqual({ optionId: 'challenge', reason: '', confidence: 75, isFallback: true, modelCalls: 0 });
  expect(picked[2].confidence).toBe(25);
});

test('a wounded guard flees when the facts say so; with no condition holding, every option may be picked', () => {
  const wounded = { ...(GUARD.facts as object), guard: { hp: 12 } };
  expect(chooseByWeight(GUARD.options, { facts: wounded, random: () => 0.95 })).toEqual({ id: 'flee', chance: 5 / 9 });
  const onlyConditional = [
    { id: 'a', when: { 'x.y': 1 } },
    { id: 'b', when: { 'x.y': 2 } },
  ];
  expect(chooseByWeight(onlyConditional, { facts: {}, random: () => 0.6 })).toEqual({ id: 'b', chance: 0.5 });
  expect(
    chooseByWeight(
      [
        { id: 'a', weight: 0 },
        { id: 'b', weight: 0 },
      ],
      { random: () => 0.9 },
    ),
  ).toEqual({ id: 'a', chance: 0.5 });
});

test('over many decisions the shares follow the weights', () => {
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const counts: Record<string, number> = {};
  for (let turn = 0; turn < 4000; turn++) {
    const { id } = chooseByWeight(GUARD.options, { facts: GUARD.facts, random });
    counts[id] = (counts[id] ?? 0) + 1;
  }
  expect(counts.nap).toBeUndefined();
  expect(counts.flee).toBeUndefined();
  expect(counts.challenge / 4000).toBeGreaterThan(0.72);
  expect(counts.challenge / 4000).toBeLessThan(0.78);
});

test('with a model on the device the model decides as before', async () => {
  const engine = new DecisionEngine(neverCalled, { withoutModel: () => false });
  await expect(engine.decide(GUARD)).rejects.toThrow();
});

test.each([
  [{ weight: -1 }, 'options[1].weight must be a number ≥ 0; got -1.'],
  [{ weight: '2' }, 'options[1].weight must be a number ≥ 0; got "2".'],
  [{ when: ['armed'] }, 'options[1].when must be an object of fact paths and values or {"min", "max"}.'],
  [
    { when: { 'guard.hp': { below: 3 } } },
    'options[1].when["guard.hp"] must be a value, or {"min": n, "max": n}; got {"below":3}.',
  ],
])('a bad weighting %p is refused before any choice', async (bad, message) => {
  const engine = new DecisionEngine(neverCalled, { withoutModel: () => true });
  const request = { ...GUARD, options: [GUARD.options[0], { ...GUARD.options[1], ...bad }] } as DecisionRequest;
  await expect(engine.decide(request)).rejects.toThrow(AgentError);
  await expect(engine.decide(request)).rejects.toThrow(message);
});
