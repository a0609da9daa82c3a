/**
 * `decision/decide`, `decision/decideMany` and `content/generate` over the protocol
 * (reference §3.3): bad options and schemas fail before any model call, the answer is always
 * an option id, failures in decideMany stay in their slot, content keys come in schema order.
 */
import type { LanguageModel } from '../../src/contract/language-model';
import { ScriptedLanguageModel } from '../../src/scripted/scripted-model';
import { Harness, scripted } from './harness';

const OPTIONS = [
  { id: 'let_in', description: 'open the gate' },
  { id: 'warn', description: 'tell him to leave the sword' },
  { id: 'alarm', description: 'raise the alarm' },
];

/** A harness whose scripted models are kept, so a test can count their requests. */
function spyHarness(): { host: Harness; models: ScriptedLanguageModel[] } {
  const models: ScriptedLanguageModel[] = [];
  const host = new Harness({
    modelFactory: (spec): LanguageModel | undefined => {
      if (spec.type !== 'scripted') return undefined;
      const model = ScriptedLanguageModel.fromNativeScript(spec as never);
      models.push(model);
      return model;
    },
  });
  return { host, models };
}

describe('decision/decide', () => {
  test('picks an option id; options may be objects or id strings', async () => {
    const host = new Harness();
    const result = await host.call('decision/decide', {
      situation: 'A stranger with a sword walks up to the gate at night.',
      options: OPTIONS,
      actor: { name: 'Brom', role: 'the night guard' },
      model: scripted([{ text: 'warn' }]),
    });
    expect(result).toEqual({
      optionID: 'warn',
      reasoning: '',
      confidence: 50,
      toolCalls: [],
      usage: expect.objectContaining({ totalTokens: expect.any(Number) }),
      isFallback: false,
    });
    const strings = await host.call('decision/decide', {
      situation: 'A dragon.',
      options: ['flee', 'fight'],
      model: scripted([{ text: 'Flee.' }]),
    });
    expect(strings.optionID).toBe('flee');
  });

  test('reason "after": the reasoning and confidence', async () => {
    const host = new Harness();
    const result = await host.call('decision/decide', {
      situation: 'A stranger with a sword.',
      options: OPTIONS,
      reason: 'after',
      model: scripted([{ json: { choice: 'Warn', reason: 'He is armed but calm.', confidence: 70 } }]),
    });
    expect(result).toMatchObject({ optionID: 'warn', reasoning: 'He is armed but calm.', confidence: 70 });
  });

  test.each([
    ['no options', { options: [] }],
    [
      'a duplicate id',
      {
        options: [
          { id: 'a', description: 'x' },
          { id: 'a', description: 'y' },
        ],
      },
    ],
    ['an option without an id', { options: [{ description: 'x' }, { id: 'b', description: 'y' }] }],
    ['a fallback that is not an option', { options: OPTIONS, fallbackOptionID: 'dance' }],
    ['no situation', { situation: '  ', options: OPTIONS }],
  ])('%s is -32602 before any model call', async (_name, params) => {
    const { host, models } = spyHarness();
    const error = await host.error('decision/decide', {
      situation: 'At the gate.',
      model: scripted([{ text: 'warn' }]),
      ...params,
    });
    expect(error).toMatchObject({ code: -32602, data: { code: 'invalid_params' } });
    expect(models.reduce((sum, model) => sum + model.calls, 0)).toBe(0);
  });

  test('the system model is not called either for invalid options', async () => {
    const system = new ScriptedLanguageModel(['warn']);
    const host = new Harness({ systemModel: system });
    expect((await host.error('decision/decide', { situation: 'x', options: ['a', 'a'] })).code).toBe(-32602);
    expect(system.calls).toBe(0);
  });

  test('a model that cannot answer gives the fallback option', async () => {
    const host = new Harness();
    const result = await host.call('decision/decide', {
      situation: 'At the gate.',
      options: OPTIONS,
      fallbackOptionID: 'alarm',
      model: scripted([{ error: 'guardrail_violation' }]),
    });
    expect(result).toMatchObject({ optionID: 'alarm', isFallback: true });
  });

  test('a client tool is asked over tool/call and recorded in toolCalls; an NPC id works as the actor', async () => {
    const host = new Harness();
    host.answerTools = () => ({ result: { output: 'The stranger carries a royal seal.' } });
    await host.call('npc/create', {
      npc: 'brom',
      persona: { name: 'Brom', role: 'the night guard' },
      model: 'scripted',
    });
    const result = await host.call('decision/decide', {
      situation: 'A stranger at the gate.',
      options: OPTIONS,
      actor: 'brom',
      tools: [{ name: 'inspect', description: 'Looks at the stranger closely.' }],
      model: scripted([{ toolCalls: [{ name: 'inspect', arguments: {} }] }, { json: { choice: 'let_in' } }]),
    });
    const call = host.out.find((message) => message.method === 'tool/call');
    expect(call?.params).toMatchObject({ call: { name: 'inspect' } });
    expect(result).toMatchObject({
      optionID: 'let_in',
      toolCalls: [{ call: { name: 'inspect' }, output: 'The stranger carries a royal seal.', isError: false }],
    });
    expect((await host.error('decision/decide', { situation: 'x', options: OPTIONS, actor: 'nobody' })).code).toBe(
      -32050,
    );
  });
});

describe('decision/decideMany', () => {
  test('results in request order, a failure stays in its slot as {error}, tool/call carries the index', async () => {
    const host = new Harness();
    host.answerTools = () => ({ result: { output: 'clear skies' } });
    const result = await host.call('decision/decideMany', {
      maxConcurrency: 2,
      requests: [
        { situation: 'Goblin one.', options: ['attack', 'flee'], model: scripted([{ text: 'attack' }]) },
        {
          situation: 'Goblin two.',
          options: ['attack', 'flee'],
          model: scripted([{ error: 'refusal', message: 'no' }]),
        },
        {
          situation: 'Goblin three.',
          options: ['attack', 'flee'],
          tools: [{ name: 'weather', description: 'The weather.' }],
          model: scripted([{ toolCalls: [{ name: 'weather', arguments: {} }] }, { json: { choice: 'flee' } }]),
        },
      ],
    });
    expect(result.results[0]).toMatchObject({ optionID: 'attack', isFallback: false });
    expect(result.results[1]).toEqual({ error: { code: -32003, message: 'no', data: { code: 'refusal' } } });
    expect(result.results[2]).toMatchObject({ optionID: 'flee', toolCalls: [{ output: 'clear skies' }] });
    expect(host.out.find((message) => message.method === 'tool/call')?.params).toMatchObject({
      index: 2,
      call: { name: 'weather' },
    });
  });

  test('a client tool that does not answer within toolTimeoutSeconds: tool/cancel with the index, the decision goes on', async () => {
    const host = new Harness();
    const id = host.start('decision/decideMany', {
      toolTimeoutSeconds: 10,
      requests: [
        {
          situation: 'Goblin.',
          options: ['attack', 'flee'],
          tools: [{ name: 'scout', description: 'Counts the goblins.' }],
          model: scripted([{ toolCalls: [{ name: 'scout', arguments: {} }] }, { json: { choice: 'flee' } }]),
        },
      ],
    });
    await host.settle();
    const call = host.out.find((message) => message.method === 'tool/call');
    expect(call?.params).toMatchObject({ index: 0, requestId: id });
    host.timers.advance(10_000);
    expect(host.notifications('tool/cancel')).toEqual([
      { index: 0, requestId: id, id: call?.id, callId: call?.params.call.id, reason: 'timeout' },
    ]);
    const result = (await host.waitFor(id)).result;
    expect(result.results[0]).toMatchObject({ optionID: 'flee', toolCalls: [{ isError: true }] });
  });

  test('one bad request refuses the whole call before any model call', async () => {
    const { host, models } = spyHarness();
    const error = await host.error('decision/decideMany', {
      requests: [
        { situation: 'a', options: ['x', 'y'], model: scripted([{ text: 'x' }]) },
        { situation: 'b', options: [] },
      ],
    });
    expect(error.code).toBe(-32602);
    expect(models.reduce((sum, model) => sum + model.calls, 0)).toBe(0);
  });
});

describe('content/generate', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      rarity: { type: 'string', enum: ['common', 'rare', 'legendary'] },
      value: { type: 'integer', minimum: 1, maximum: 100 },
    },
    required: ['name', 'rarity', 'value'],
  };

  test('the content is valid, coerced, and its keys come in schema order', async () => {
    const host = new Harness();
    const result = await host.call('content/generate', {
      prompt: 'A loot item a tavern keeper might hide.',
      schema,
      context: { tavern: 'Crooked Lantern' },
      model: scripted([{ json: { value: '40', name: 'Crooked Lantern', rarity: 'Rare' } }]),
    });
    expect(result).toEqual({ content: { name: 'Crooked Lantern', rarity: 'rare', value: 40 } });
    expect(Object.keys(result.content)).toEqual(['name', 'rarity', 'value']);
  });

  test('a malformed schema is -32007 before any model call; output still invalid after a repair is -32012', async () => {
    const { host, models } = spyHarness();
    const error = await host.error('content/generate', {
      prompt: 'x',
      schema: { type: 'object', properties: { a: { minimum: 'one' } } },
      model: scripted([]),
    });
    expect(error).toMatchObject({
      code: -32007,
      data: { code: 'invalid_schema', path: 'schema', schemaPath: '#/properties/a/minimum' },
    });
    expect(models.reduce((sum, model) => sum + model.calls, 0)).toBe(0);
    const failed = await host.error('content/generate', {
      prompt: 'x',
      schema,
      model: scripted([{ json: { name: 1 } }, { json: { name: 2 } }]),
    });
    expect(failed).toMatchObject({ code: -32012, data: { code: 'generation_failed' } });
  });
});
