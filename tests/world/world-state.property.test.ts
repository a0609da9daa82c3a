import fc from 'fast-check';
import { WorldState } from '../../src/game/world';

/** RFC 7386's pseudocode, written out literally as the reference. */
function referenceMerge(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as object) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = referenceMerge(out[key], value);
  }
  return out;
}

const key = fc.constantFrom('a', 'b', 'c', 'd');
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, 1, 'x', 'y'),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3 }),
  ),
})).value;
const object = fc.dictionary(key, json, { maxKeys: 4 });

describe('WorldState properties', () => {
  it('merge matches RFC 7386, bumps the version only when something changed, and logs consistent changes', () => {
    fc.assert(
      fc.property(object, object, (start, patch) => {
        const world = new WorldState(start);
        const expected = referenceMerge(start, patch);
        const changed = world.merge(patch);
        expect(world.snapshot()).toEqual(expected);
        expect(changed).toBe(JSON.stringify(sortKeys(expected)) !== JSON.stringify(sortKeys(start)));
        expect(world.version).toBe(changed ? 1 : 0);
        // Replaying the logged changes on the start state gives the end state.
        const replay = new WorldState(start);
        for (const change of world.changes()) {
          if (change.newValue === undefined) replay.remove(change.path);
          else replay.set(change.path, change.newValue);
        }
        expect(replay.snapshot()).toEqual(world.snapshot());
      }),
      { numRuns: 300, seed: 7386 },
    );
  });

  it('a snapshot is never affected by later writes', () => {
    fc.assert(
      fc.property(object, fc.array(fc.tuple(key, json), { maxLength: 5 }), (start, writes) => {
        const world = new WorldState(start);
        const before = world.snapshot();
        const frozen = JSON.stringify(before);
        for (const [path, value] of writes) world.set(path, value);
        expect(JSON.stringify(before)).toBe(frozen);
      }),
      { numRuns: 200, seed: 42 },
    );
  });
});

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((name) => [name, sortKeys((value as Record<string, unknown>)[name])]),
    );
  }
  return value;
}
