/** A seeded sample of `npm run fuzz` (tests/fuzz/main.ts): the same classes, fewer inputs, all counts zero. */
import { fuzzCancels, fuzzErrors, fuzzParsers, fuzzTurns, type FuzzCounts } from './fuzz-core';
import { fuzzFamilies } from './fuzz-families';
import { emptyFileCounts, fuzzNativeScripts, fuzzPersonaFiles } from './fuzz-files';
import { emptyProtocolCounts, fuzzProtocol } from './fuzz-protocol';

function expectClean(counts: FuzzCounts): void {
  expect({ ...counts, inputs: counts.inputs > 0 }).toEqual({
    inputs: true,
    nonAgentErrors: 0,
    hangs: 0,
    pollution: 0,
    schemaViolationsReachingHandlers: 0,
    stateChangesAfterFailure: 0,
    eventsAfterCancel: 0,
    firstProblems: [],
  });
}

test('parsers: 1,000 mutated outputs', () => expectClean(fuzzParsers(1_000, 7)), 60_000);
test('whole turns: 150 turns on mutated outputs', async () => expectClean(await fuzzTurns(150, 8)), 60_000);
test('a cancel at every event', async () => expectClean(await fuzzCancels(1)), 60_000);
test('every error code at every step', async () => expectClean(await fuzzErrors()), 60_000);
test('call families: 200 generated outputs as NPC and agent turns', async () => {
  const counts = await fuzzFamilies(200, 9);
  expect(counts).toEqual({
    inputs: 200,
    wrongArgumentCalls: 0,
    markupShown: 0,
    nonAgentErrors: 0,
    hangs: 0,
    firstProblems: [],
  });
}, 60_000);

test('protocol: 3,000 mutated lines through one BridgeEngine', async () => {
  expect(await fuzzProtocol(3_000, 10)).toEqual({ ...emptyProtocolCounts(), inputs: 3_000 });
}, 60_000);

test(
  'persona files: 1,000 through the importer, the validator and the form',
  () => expect(fuzzPersonaFiles(1_000, 11)).toEqual({ ...emptyFileCounts(), inputs: 1_000 }),
  60_000,
);
test(
  'native scripts: 300 read and played',
  async () => expect(await fuzzNativeScripts(300, 12)).toEqual({ ...emptyFileCounts(), inputs: 300 }),
  60_000,
);
