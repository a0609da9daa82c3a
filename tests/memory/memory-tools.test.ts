import { AgentError } from '../../src/contract/errors';
import { AgentTool, ToolOutput } from '../../src/core/tools';
import type { ToolContext } from '../../src/core/tools';
import {
  MEMORY_TOOL_NAMES,
  MemoryStage,
  NPCMemory,
  memoryTools,
  parseMemoryToolSelection,
} from '../../src/game/memory';

const context: ToolContext = {
  call: { id: 'call_test', name: 'x', args: {} },
  signal: { aborted: false, addEventListener() {}, removeEventListener() {} } as unknown as ToolContext['signal'],
};

async function run(tool: AgentTool, args: Record<string, unknown>): Promise<string> {
  const value = await tool.handler!(args, { ...context, call: { ...context.call, name: tool.name, args } });
  return ToolOutput.render(ToolOutput.of(value));
}

function setup(
  options: {
    facts?: boolean;
    relationship?: boolean;
    maxRelationshipChange?: number;
    maxFacts?: number;
    memory?: NPCMemory;
  } = {},
) {
  const memory = options.memory ?? new NPCMemory();
  const stage = new MemoryStage({ maxFacts: options.maxFacts });
  const tools = memoryTools(stage, () => memory.snapshot(), {
    facts: options.facts ?? true,
    relationship: options.relationship ?? true,
    maxRelationshipChange: options.maxRelationshipChange,
  });
  const byName = (name: string): AgentTool => tools.find((tool) => tool.name === name)!;
  return { memory, stage, tools, remember: byName('remember_fact'), change: byName('change_relationship') };
}

describe('memoryTools', () => {
  test('names and selection', () => {
    expect(MEMORY_TOOL_NAMES).toEqual(['remember_fact', 'change_relationship']);
    expect(setup().tools.map((tool) => tool.name)).toEqual(['remember_fact', 'change_relationship']);
    expect(setup({ relationship: false }).tools.map((tool) => tool.name)).toEqual(['remember_fact']);
    expect(setup({ facts: false }).tools.map((tool) => tool.name)).toEqual(['change_relationship']);
    expect(setup({ facts: false, relationship: false }).tools).toEqual([]);
    for (const tool of setup().tools) {
      expect(tool).toBeInstanceOf(AgentTool);
      expect(tool.execution).toBe('local');
    }
  });

  test('the delta range is described, not enforced, in the schema', () => {
    const { change } = setup({ maxRelationshipChange: 5 });
    const json = change.parameters.json as { properties: { delta: Record<string, unknown> }; required?: string[] };
    expect(json.properties.delta.type).toBe('integer');
    expect(json.properties.delta.minimum).toBeUndefined();
    expect(json.properties.delta.maximum).toBeUndefined();
    expect(String(json.properties.delta.description)).toContain('-5');
    expect(change.parameters.validate({ reason: 'x', delta: 50 })).toEqual([]);
  });

  test('remember_fact stages only', async () => {
    const { remember, memory, stage } = setup();
    expect(await run(remember, { fact: 'The player is called Sam.' })).toBe('Remembered.');
    expect(memory.facts).toEqual([]);
    expect(stage.facts).toEqual(['The player is called Sam.']);
  });

  test('remember_fact: known facts, in memory or staged this turn', async () => {
    const { remember, stage } = setup({ memory: new NPCMemory({ facts: ['Sam likes ale'] }) });
    expect(await run(remember, { fact: 'sam likes ale!' })).toBe('You already know that.');
    expect(await run(remember, { fact: 'Sam is a thief' })).toBe('Remembered.');
    expect(await run(remember, { fact: 'SAM IS A THIEF.' })).toBe('You already know that.');
    expect(stage.facts).toEqual(['Sam is a thief']);
  });

  test('remember_fact: an empty fact is an error output', async () => {
    const { remember, stage } = setup();
    for (const fact of ['', '   ', '?!', undefined, null]) {
      expect(await run(remember, { fact })).toMatch(/^Error: The fact is empty/);
    }
    expect(stage.isEmpty).toBe(true);
  });

  test('remember_fact: a very long fact is cut', async () => {
    const { remember, stage } = setup();
    await run(remember, { fact: 'x'.repeat(500) });
    expect(stage.facts[0].length).toBe(200);
  });

  test('change_relationship stages and reports the attitude after the change', async () => {
    const { change, memory, stage } = setup({ memory: new NPCMemory({ relationship: 15 }) });
    expect(await run(change, { reason: 'gave me a gift', delta: 8 })).toBe(
      'You now feel friendly toward the player (23).',
    );
    expect(memory.relationship).toBe(15);
    expect(stage.relationshipChanges).toEqual([{ reason: 'gave me a gift', delta: 8 }]);
    expect(await run(change, { reason: 'more', delta: '+4' })).toBe('You now feel friendly toward the player (27).');
  });

  test('change_relationship clamps an overshoot instead of failing', async () => {
    const { change, stage } = setup();
    expect(await run(change, { reason: 'saved my life', delta: 50 })).toBe(
      'You now feel neutral toward the player (10).',
    );
    expect(await run(change, { reason: 'insulted me', delta: -999 })).toBe(
      'You now feel neutral toward the player (0).',
    );
    expect(stage.relationshipChanges.map((recorded) => recorded.delta)).toEqual([10, -10]);
  });

  test('change_relationship: a custom limit and the clamp at ±100', async () => {
    const { change } = setup({ maxRelationshipChange: 3, memory: new NPCMemory({ relationship: 99 }) });
    expect(await run(change, { reason: 'x', delta: 7 })).toBe('You now feel trusting toward the player (100).');
  });

  test('change_relationship: a delta that is not a number is an error output', async () => {
    const { change, stage } = setup();
    for (const delta of ['lots', undefined, null, NaN, {}]) {
      expect(await run(change, { reason: 'x', delta })).toBe('Error: delta must be a whole number from -10 to 10.');
    }
    expect(stage.isEmpty).toBe(true);
  });
});

describe('MemoryStage', () => {
  test('commit applies facts (capped) and relationship (clamped), then empties the stage', async () => {
    const memory = new NPCMemory({ facts: ['a', 'b'], relationship: 95, summary: 'kept' });
    const { remember, change, stage } = setup({ memory, maxFacts: 3 });
    await run(remember, { fact: 'c' });
    await run(remember, { fact: 'd' });
    await run(change, { reason: 'x', delta: 10 });
    expect(stage.preview(memory.snapshot())).toEqual({ facts: ['b', 'c', 'd'], relationship: 100, summary: 'kept' });
    stage.commit(memory);
    expect(memory.snapshot()).toEqual({ facts: ['b', 'c', 'd'], relationship: 100, summary: 'kept' });
    expect(stage.isEmpty).toBe(true);
    stage.commit(memory);
    expect(memory.snapshot()).toEqual({ facts: ['b', 'c', 'd'], relationship: 100, summary: 'kept' });
  });

  test('discard leaves the memory unchanged', async () => {
    const memory = new NPCMemory({ facts: ['a'], relationship: 0 });
    const { remember, change, stage } = setup({ memory });
    await run(remember, { fact: 'b' });
    await run(change, { reason: 'x', delta: -5 });
    stage.discard();
    stage.commit(memory);
    expect(memory.snapshot()).toEqual({ facts: ['a'], relationship: 0, summary: '' });
  });

  test('commit to a plain state returns the new state without touching the input', () => {
    const stage = new MemoryStage();
    const state = { facts: ['a'], relationship: -5, summary: '' };
    stage.stageFact('b', state);
    stage.stageRelationship(-3, 'rude');
    expect(stage.commit(state)).toEqual({ facts: ['a', 'b'], relationship: -8, summary: '' });
    expect(state).toEqual({ facts: ['a'], relationship: -5, summary: '' });
  });

  test('default maxFacts is 12', () => {
    const stage = new MemoryStage();
    const state = { facts: [] as string[], relationship: 0, summary: '' };
    for (let index = 0; index < 15; index++) stage.stageFact(`f${index}`, state);
    expect(stage.commit(state).facts).toHaveLength(12);
  });
});

describe('parseMemoryToolSelection', () => {
  test.each([
    [true, true, true],
    [false, false, false],
    [undefined, false, false],
    [null, false, false],
    ['all', true, true],
    ['none', false, false],
    ['remember_fact', true, false],
    ['rememberFact', true, false],
    ['change_relationship', false, true],
    ['changeRelationship', false, true],
    [['rememberFact', 'change_relationship'], true, true],
    [0, false, false],
    [1, true, false],
    [2, false, true],
    [3, true, true],
    [{ facts: true }, true, false],
    [{ relationship: true, facts: false }, false, true],
  ])('%j', (value, facts, relationship) => {
    expect(parseMemoryToolSelection(value)).toEqual({ facts, relationship });
  });

  test.each([[4], [-1], [1.5], ['some'], [['all', 3]], [{ facts: 'yes' }], [{ other: true }]])(
    'rejects %j',
    (value) => {
      expect(() => parseMemoryToolSelection(value)).toThrow(AgentError);
      expect(() => parseMemoryToolSelection(value)).toThrow('memoryTools: expected');
    },
  );
});
