/**
 * World state under hostile input: values and paths too deep or too long get a clear
 * WorldStateError (never a RangeError) and change nothing; what the model writes through the
 * update tool can never make the world unprintable; numbers are not silently reinterpreted.
 */
import { Canceller, ToolOutput, WorldState, WorldStateError, worldStateTools, type AgentTool } from '../../src';

/** What the model would see from one call of a world tool. */
async function run(tool: AgentTool, args: Record<string, unknown>): Promise<string> {
  const output = ToolOutput.of(
    await (tool.handler as NonNullable<AgentTool['handler']>)(args, {
      call: { id: 'call_test', name: tool.name, args },
      signal: new Canceller().signal,
    }),
  );
  return output.kind === 'error'
    ? `Error: ${output.message}`
    : output.kind === 'text'
      ? output.text
      : JSON.stringify(output.value);
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let index = 0; index < depth; index++) value = { a: value };
  return value;
}

describe('limits with a clear error', () => {
  test.each([65, 5000])('a value %i levels deep is refused with a WorldStateError; nothing changes', (depth) => {
    const world = new WorldState({ gold: 1 });
    expect(() => world.set('deep', nested(depth))).toThrow(WorldStateError);
    expect(() => world.set('deep', nested(depth))).toThrow(/nested more than 64 levels/);
    expect(() => world.merge({ deep: nested(depth) })).toThrow(WorldStateError);
    expect(() => world.replace({ deep: nested(depth) } as object)).toThrow(WorldStateError);
    expect(world.snapshot()).toEqual({ gold: 1 });
  });

  test('64 levels still fit, and the world still prints', () => {
    const world = new WorldState({});
    expect(world.set('deep', nested(63))).toBe(true);
    expect(() => JSON.stringify(world.snapshot())).not.toThrow();
    expect(() => world.summary([''])).not.toThrow();
  });

  test.each([65, 5000, 50000])('a path of %i segments is refused with a WorldStateError', (count) => {
    const world = new WorldState({});
    const path = Array.from({ length: count }, (_, index) => `k${index}`).join('.');
    expect(() => world.set(path, 1)).toThrow(WorldStateError);
    expect(() => world.get(path)).toThrow(WorldStateError);
    expect(world.snapshot()).toEqual({});
  });

  test('a path of more than 4096 characters is refused', () => {
    expect(() => new WorldState({}).get('x'.repeat(5000))).toThrow(/too many characters/);
  });
});

describe('the update tool', () => {
  test('a deep path or value written by the model is an error output; the world stays printable for every later turn', async () => {
    const world = new WorldState({ quest: {} });
    const [, update] = worldStateTools(world, { readable: [''], writable: ['quest'] });
    const deepPath = `quest.${Array.from({ length: 100 }, (_, index) => `k${index}`).join('.')}`;
    expect(await run(update, { path: deepPath, value: 1 })).toMatch(/^Error: .*segments/);
    expect(await run(update, { path: 'quest.x', value: JSON.stringify(nested(200)) })).toMatch(
      /^Error: .*nested more than 64 levels/,
    );
    expect(() => JSON.stringify(world.snapshot())).not.toThrow();
    expect(world.snapshot()).toEqual({ quest: {} });
  });

  test('"4,5" is not stored as 45; "1,234" is 1234', async () => {
    const world = new WorldState({ player: { gold: 10 } });
    const [, update] = worldStateTools(world, { readable: [''], writable: ['player.gold'] });
    expect(await run(update, { path: 'player.gold', value: '4,5' })).toMatch(/^Error: .*not a number/);
    expect(world.get('player.gold')).toBe(10);
    await run(update, { path: 'player.gold', value: '1,234' });
    expect(world.get('player.gold')).toBe(1234);
  });
});
