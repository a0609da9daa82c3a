/**
 * DecisionEngine: the answer is always one of the option ids (or the fallback); bad requests
 * fail before any model call; near misses are coerced; time budgets, tools, decideMany.
 */
import {
  WorldState,
  worldStateTools,
  AgentError,
  AgentTool,
  Canceller,
  DecisionEngine,
  JsonSchema,
  type DecisionRequest,
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
} from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { failure, until } from '../agent/helpers';

const OPTIONS = [
  { id: 'attack', description: 'Charge the player.' },
  { id: 'flee', description: 'Run into the woods.' },
  { id: 'beg', description: 'Plead for mercy.' },
];
const GOBLIN = {
  name: 'Snik',
  role: 'a cowardly goblin scout',
  personality: 'Sly and nervous.',
  goals: ['Stay alive', 'Steal shiny things'],
};

function request(extra: Partial<DecisionRequest> = {}): DecisionRequest {
  return { situation: 'The player draws a sword.', options: OPTIONS, ...extra };
}

function engine(steps: Parameters<ScriptedLanguageModel['append']>, options = {}) {
  const model = new ScriptedLanguageModel(steps);
  return { model, engine: new DecisionEngine(model, options) };
}

describe('decide', () => {
  test('by default the id alone, written first as plain words: one call, one output token, options outside the stable prefix', async () => {
    const { model, engine: decisionEngine } = engine(['flee']);
    const decision = await decisionEngine.decide(request());
    expect(decision).toMatchObject({ optionId: 'flee', reason: '', isFallback: false, modelCalls: 1 });
    // The choice is the whole reply: the task line says what it is, and no key list is sent.
    expect(model.requests[0].prompt).toContain("Write Character's choice (one option id), as plain text.");
    expect(model.requests[0].promptPrefix).toBeUndefined();
    // Decisions with other options share the cached prefix: the ids are in the prompt only.
    expect(`${model.requests[0].systemInstruction}${model.requests[0].promptPrefix}`).not.toContain('attack');
  });

  test('a small world-state lookup is read into the prompt as facts instead of a lookup call', async () => {
    const world = new WorldState({ player: { hp: 30, sword: true } });
    const { model, engine: decisionEngine } = engine(['flee']);
    const decision = await decisionEngine.decide(request({ tools: worldStateTools(world, { readable: ['player'] }) }));
    expect(decision.modelCalls).toBe(1);
    expect(model.kinds).toEqual(['structured']);
    expect(model.requests[0].prompt).toContain('Facts: {"player":{"hp":30,"sword":true}}');
    const off = engine([Script.call('read_world_state', { path: 'player' }), 'flee'], { prefetchLookups: false });
    expect(
      (await off.engine.decide(request({ tools: worldStateTools(world, { readable: ['player'] }) }))).modelCalls,
    ).toBe(2);
  });

  test("reason 'after': the chosen id, the reason and the confidence in one structured call", async () => {
    const { model, engine: decisionEngine } = engine(
      [Script.json({ choice: 'flee', reason: 'The sword is big.', confidence: 80 })],
      { reason: 'after' },
    );
    const decision = await decisionEngine.decide(request({ facts: { playerHp: 30, goblinHp: 4 } }));
    expect(decision).toEqual({
      optionId: 'flee',
      reason: 'The sword is big.',
      confidence: 80,
      isFallback: false,
      modelCalls: 1,
    });
    expect(model.kinds).toEqual(['structured']);
    const prompt = model.requests[0].prompt;
    expect(prompt).toContain('Situation: The player draws a sword.');
    expect(prompt).toContain('Facts: {"playerHp":30,"goblinHp":4}');
    expect(prompt).toContain('- attack: Charge the player.');
    expect(prompt).toContain('- beg: Plead for mercy.');
    expect(model.requests[0].priority).toBe(50);
  });

  test("reason 'after': the seed's key `reasoning` is read as the reason, not refused into the fallback (issue 28)", async () => {
    const { model, engine: decisionEngine } = engine(
      [Script.json({ choice: 'flee', reasoning: 'The sword is big.', confidence: 80 })],
      { reason: 'after' },
    );
    const seedKeyed = await decisionEngine.decide(request({ fallback: 'attack' }));
    expect(seedKeyed).toEqual({
      optionId: 'flee',
      reason: 'The sword is big.',
      confidence: 80,
      isFallback: false,
      modelCalls: 1,
    });
    expect(model.requests.every((step) => !step.isRepair)).toBe(true);
    // The prompt still names only the project's key.
    expect(`${model.requests[0].promptPrefix}${model.requests[0].prompt}`).not.toContain('reasoning');
  });

  test('the actor persona shapes the instructions and the label', async () => {
    const { model, engine: decisionEngine } = engine([
      Script.json({ choice: 'beg', reason: 'Cowardice.', confidence: 60 }),
    ]);
    await decisionEngine.decide(request({ actor: GOBLIN }));
    const system = `${model.requests[0].systemInstruction ?? ''}\n${model.requests[0].promptPrefix ?? ''}`;
    expect(system).toContain('Snik');
    expect(system).toContain('Role: a cowardly goblin scout');
    expect(system).toContain('Personality: Sly and nervous.');
    expect(system).toContain('Goals: Stay alive; Steal shiny things');
    expect(model.requests[0].label).toBe('Snik (decision)');
  });

  test('confidence is clamped to 0..100 and defaults to 50', async () => {
    const { engine: decisionEngine } = engine(
      [
        Script.json({ choice: 'attack', reason: 'Rage.', confidence: 250 }),
        Script.json({ choice: 'attack', reason: 'Rage.' }),
        Script.json({ choice: 'attack', reason: 'Rage.', confidence: -3 }),
      ],
      { reason: 'after' },
    );
    expect((await decisionEngine.decide(request())).confidence).toBe(100);
    expect((await decisionEngine.decide(request())).confidence).toBe(50);
    expect((await decisionEngine.decide(request())).confidence).toBe(0);
  });

  test('a single option returns at once, with no model call', async () => {
    const { model, engine: decisionEngine } = engine([]);
    const decision = await decisionEngine.decide(request({ options: [{ id: 'wait', description: 'Wait.' }] }));
    expect(decision).toMatchObject({ optionId: 'wait', confidence: 100, isFallback: false, modelCalls: 0 });
    expect(model.calls).toBe(0);
  });

  test.each([
    ['an empty list', { options: [] }],
    ['no list', { options: undefined }],
    ['a blank id', { options: [{ id: '  ', description: 'x' }, OPTIONS[0]] }],
    ['a missing id', { options: [{ description: 'x' }, OPTIONS[0]] }],
    ['a non-string description', { options: [{ id: 'a', description: 3 }, OPTIONS[0]] }],
    ['duplicate ids', { options: [OPTIONS[0], { id: 'attack', description: 'Again.' }] }],
    ['duplicate ids after trimming', { options: [OPTIONS[0], { id: ' attack ', description: 'Again.' }] }],
    ['a fallback that is not an option', { fallback: 'dance' }],
    ['timeoutMs without a fallback', { timeoutMs: 100 }],
    ['a zero timeoutMs', { timeoutMs: 0, fallback: 'flee' }],
    ['no situation', { situation: '' }],
  ])('%s → invalid_request before any model call', async (_name, extra) => {
    const { model, engine: decisionEngine } = engine([Script.json({ choice: 'attack', reason: 'x' })]);
    const err = await failure(decisionEngine.decide(request(extra as Partial<DecisionRequest>)));
    expect(err.code).toBe('invalid_request');
    expect(model.calls).toBe(0);
  });

  test('the error names the duplicate id and the bad fallback', async () => {
    const { engine: decisionEngine } = engine([]);
    expect((await failure(decisionEngine.decide(request({ options: [OPTIONS[0], OPTIONS[0]] })))).message).toContain(
      'attack',
    );
    const bad = await failure(decisionEngine.decide(request({ fallback: 'dance' })));
    expect(bad.message).toContain('dance');
    expect(bad.message).toContain('attack, flee, beg');
  });

  test.each([['Flee'], ['FLEE'], [' flee ']])(
    'a near miss "%s" is coerced to "flee" without a repair',
    async (answer) => {
      const { model, engine: decisionEngine } = engine([
        Script.json({ choice: answer, reason: 'Scared.', confidence: 70 }),
      ]);
      const decision = await decisionEngine.decide(request());
      expect(decision.optionId).toBe('flee');
      expect(model.calls).toBe(1);
    },
  );

  test('an off-list answer is repaired once; the repaired answer counts', async () => {
    const { model, engine: decisionEngine } = engine([
      Script.json({ choice: 'dance', reason: 'Fun.' }),
      Script.json({ choice: 'beg', reason: 'Please.' }),
    ]);
    const decision = await decisionEngine.decide(request());
    expect(decision).toMatchObject({ optionId: 'beg', isFallback: false, modelCalls: 2 });
    expect(model.requests[1].isRepair).toBe(true);
  });

  test('still off-list after the repair → the fallback', async () => {
    const { model, engine: decisionEngine } = engine([
      Script.json({ choice: 'dance', reason: 'Fun.' }),
      Script.json({ choice: 'sing', reason: 'Fun.' }),
    ]);
    const decision = await decisionEngine.decide(request({ fallback: 'flee' }));
    expect(decision).toEqual({ optionId: 'flee', reason: '', confidence: 0, isFallback: true, modelCalls: 2 });
    expect(model.calls).toBe(2);
  });

  test('still off-list and no fallback → generation_failed', async () => {
    const { engine: decisionEngine } = engine([
      Script.json({ choice: 'dance', reason: 'Fun.' }),
      Script.json({ choice: 'sing', reason: 'Fun.' }),
    ]);
    expect((await failure(decisionEngine.decide(request()))).code).toBe('generation_failed');
  });

  test('blocked → the fallback; without one the error is thrown', async () => {
    const withFallback = engine([Script.fail('guardrail_violation')]);
    expect(await withFallback.engine.decide(request({ fallback: 'beg' }))).toMatchObject({
      optionId: 'beg',
      isFallback: true,
    });
    const withoutFallback = engine([Script.fail('guardrail_violation')]);
    expect((await failure(withoutFallback.engine.decide(request()))).code).toBe('guardrail_violation');
  });

  test('programmer errors are thrown even with a fallback', async () => {
    const { engine: decisionEngine } = engine([Script.fail('context_size_exceeded')]);
    expect((await failure(decisionEngine.decide(request({ fallback: 'beg' })))).code).toBe('context_size_exceeded');
  });

  test('the time budget runs out → the fallback, marked isFallback', async () => {
    const { model, engine: decisionEngine } = engine([Script.hang()]);
    const decision = await decisionEngine.decide(request({ fallback: 'flee', timeoutMs: 10 }));
    expect(decision).toMatchObject({ optionId: 'flee', isFallback: true, confidence: 0 });
    expect(model.calls).toBe(1);
  });

  test('a caller cancel is thrown as cancelled, not turned into the fallback', async () => {
    const canceller = new Canceller();
    const { model, engine: decisionEngine } = engine([Script.hang()]);
    const deciding = decisionEngine.decide(request({ fallback: 'flee', timeoutMs: 60_000, signal: canceller.signal }));
    await until(() => model.calls === 1, 'the model call');
    canceller.abort();
    expect((await failure(deciding)).code).toBe('cancelled');
  });

  test('tools run before deciding; the decision sees their results', async () => {
    const scouted: string[] = [];
    const scout = AgentTool.local(
      {
        name: 'count_enemies',
        description: 'Counts enemies nearby.',
        parameters: JsonSchema.obj({ radius: JsonSchema.integer() }),
      },
      (args: { radius: number }) => {
        scouted.push(`radius ${args.radius}`);
        return { enemies: 5 };
      },
    );
    const { model, engine: decisionEngine } = engine([
      Script.call('count_enemies', { radius: 10 }),
      Script.reply({ choice: 'flee', reason: 'Five enemies.', confidence: 90 }),
    ]);
    const decision = await decisionEngine.decide(request({ tools: [scout], actor: GOBLIN }));
    expect(scouted).toEqual(['radius 10']);
    expect(decision).toMatchObject({ optionId: 'flee', modelCalls: 2 });
    expect(model.requests[1].prompt).toContain('"enemies":5');
    expect(model.requests[0].prompt).toContain('Game: Situation:');
  });

  test("toolChoice 'required' forces the tool first", async () => {
    const scout = AgentTool.local({ name: 'look', description: 'Looks around.' }, () => 'A cliff behind you.');
    const { model, engine: decisionEngine } = engine([
      Script.reply({ choice: 'attack', reason: 'Nowhere to run.', confidence: 70 }),
    ]);
    const decision = await decisionEngine.decide(request({ tools: [scout], toolChoice: 'required' }));
    expect(decision.optionId).toBe('attack');
    expect(model.requests[0].prompt).toContain('A cliff behind you.');
  });

  test("reason 'none': the id only; the schema asks for no reason", async () => {
    const { model, engine: decisionEngine } = engine([Script.json({ choice: 'beg' })], { reason: 'none' });
    const decision = await decisionEngine.decide(request());
    expect(decision).toMatchObject({ optionId: 'beg', reason: '' });
    const text = `${model.requests[0].promptPrefix ?? ''}${model.requests[0].prompt}`;
    expect(text).toContain("'s choice (one option id)");
    expect(text).not.toContain('"reason"');
    expect(text).not.toContain('"confidence"');
  });

  test('an extra reason with reason "none" does not break the answer', async () => {
    const { engine: decisionEngine } = engine([Script.json({ choice: 'beg', reason: 'Talkative model.' })], {
      reason: 'none',
    });
    expect((await decisionEngine.decide(request())).optionId).toBe('beg');
  });
});

/** Counts how many generate() calls run at once. */
class ConcurrencyProbe implements LanguageModel {
  readonly capabilities = new ScriptedLanguageModel().capabilities;
  running = 0;
  maxRunning = 0;
  calls = 0;
  constructor(private readonly answer: (request: GenerationRequest) => string) {}
  availability() {
    return Promise.resolve({ status: 'available' as const });
  }
  async *generate(generationRequest: GenerationRequest): AsyncGenerator<GenerationChunk> {
    this.calls++;
    this.running++;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    try {
      await new Promise((resolve) => setTimeout(resolve, 3));
      const text = this.answer(generationRequest);
      yield { delta: text, text, finishReason: 'stop' };
    } finally {
      this.running--;
    }
  }
}

describe('decideMany', () => {
  const pick = (generationRequest: GenerationRequest) => {
    const match = /Situation: pick (\w+)/.exec(generationRequest.prompt);
    if (match && match[1] === 'fail') throw new AgentError('model_unavailable', 'gone');
    return JSON.stringify({ choice: match ? match[1] : 'attack', reason: 'Because.', confidence: 50 });
  };

  test('results in request order, bounded concurrency, failures isolated', async () => {
    const model = new ConcurrencyProbe(pick);
    const decisionEngine = new DecisionEngine(model);
    const wanted = ['flee', 'attack', 'beg', 'fail', 'flee', 'beg', 'attack'];
    const requests: DecisionRequest[] = wanted.map((choice) => request({ situation: `pick ${choice}` }));
    requests.splice(2, 0, request({ options: [] })); // an invalid one in the middle
    const results = await decisionEngine.decideMany(requests, 3);
    expect(results).toHaveLength(8);
    expect(model.maxRunning).toBeLessThanOrEqual(3);
    expect(model.maxRunning).toBeGreaterThan(1);
    expect(results[2]).toMatchObject({ ok: false });
    expect((results[2] as { error: AgentError }).error.code).toBe('invalid_request');
    expect((results[4] as { error: AgentError }).error.code).toBe('model_unavailable');
    const ids = results.map((result) => (result.ok ? result.decision.optionId : null));
    expect(ids).toEqual(['flee', 'attack', null, 'beg', null, 'flee', 'beg', 'attack']);
  });

  test('the default concurrency is 2; concurrency 1 runs one at a time', async () => {
    const probeAtDefault = new ConcurrencyProbe(pick);
    await new DecisionEngine(probeAtDefault).decideMany(
      ['flee', 'beg', 'attack', 'flee'].map((choice) => request({ situation: `pick ${choice}` })),
    );
    expect(probeAtDefault.maxRunning).toBe(2);
    const probeAtOne = new ConcurrencyProbe(pick);
    await new DecisionEngine(probeAtOne).decideMany(
      ['flee', 'beg', 'attack'].map((choice) => request({ situation: `pick ${choice}` })),
      1,
    );
    expect(probeAtOne.maxRunning).toBe(1);
  });

  test('an empty list gives an empty result; a bad concurrency is invalid_request', async () => {
    const decisionEngine = new DecisionEngine(new ScriptedLanguageModel([]));
    expect(await decisionEngine.decideMany([])).toEqual([]);
    expect((await failure(decisionEngine.decideMany([request()], 0))).code).toBe('invalid_request');
    expect((await failure(decisionEngine.decideMany([request()], NaN))).code).toBe('invalid_request');
  });
});

describe('bad input found before any model call, without leaks', () => {
  const { DecisionEngine, ContentGenerator, JsonSchema, NPC, AgentTool, Canceller } =
    require('../../src') as typeof import('../../src');
  const { ScriptedLanguageModel } = require('../../src/testing') as typeof import('../../src/testing');
  const options = [
    { id: 'a', description: 'A' },
    { id: 'b', description: 'B' },
  ];

  test('facts that are not JSON: invalid_request, even with a fallback, and no model call', async () => {
    const model = new ScriptedLanguageModel();
    const facts: Record<string, unknown> = {};
    facts.self = facts;
    const err = await new DecisionEngine(model)
      .decide({ situation: 'x', options, facts, fallback: 'a' })
      .catch((error) => error);
    expect(err.code).toBe('invalid_request');
    expect(err.message).toMatch(/facts must be plain JSON/);
    const err2 = await new ContentGenerator(model)
      .generate({ prompt: 'x', schema: JsonSchema.obj({ a: JsonSchema.string() }), facts })
      .catch((error) => error);
    expect(err2.code).toBe('invalid_request');
    expect(model.calls).toBe(0);
  });

  test('a set-up that fails (duplicate tools) leaves no listener on the caller signal and no timer', async () => {
    const canceller = new Canceller();
    const tool = AgentTool.local({ name: 'look', description: 'Looks.' }, () => 'x');
    const err = await new DecisionEngine(new ScriptedLanguageModel())
      .decide({ situation: 'x', options, tools: [tool, tool], fallback: 'a', timeoutMs: 50, signal: canceller.signal })
      .catch((error) => error);
    expect(err.code).toBe('invalid_request');
    expect(canceller.signal.listenerCount).toBe(0);
  });

  test('an NPC priority that is not a number is rejected when the NPC is made', () => {
    expect(
      () =>
        new NPC({ persona: { name: 'Mira' }, model: new ScriptedLanguageModel(), options: { priority: Number.NaN } }),
    ).toThrow(/priority must be a number/);
  });
});
