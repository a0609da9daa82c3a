/**
 * `npm run fuzz`: at least 100,000 generated and mutated model outputs through the parsers and
 * whole turns, a cancel at every event, every error code at every step, and 10,000 generated
 * outputs of every call family as NPC and agent turns, 100,000 mutated protocol lines through one
 * BridgeEngine, 20,000 persona files and 5,000 native scripts. Prints per class the
 * inputs and what must stay zero; exits 1 when anything is not. Not part of `npm test` (a
 * seeded sample is: tests/fuzz/sample.test.ts). Usage: npm run fuzz [-- --seed N]
 */
import {
  fuzzCancels,
  fuzzErrors,
  fuzzParsers,
  fuzzTurns,
  heapUnderLoad,
  problemsIn,
  type FuzzCounts,
} from './fuzz-core';
import { familyProblems, fuzzFamilies } from './fuzz-families';
import { fileProblems, fuzzNativeScripts, fuzzPersonaFiles, type FileCounts } from './fuzz-files';
import { fuzzProtocol, protocolProblems } from './fuzz-protocol';

async function main(): Promise<void> {
  const at = process.argv.indexOf('--seed');
  const seed = at > 0 ? Number(process.argv[at + 1]) : 20261201;
  const started = Date.now();
  const classes: Array<[string, FuzzCounts]> = [];
  classes.push(['parsers (envelope, lenient JSON, inline reader, scanner)', fuzzParsers(100_000, seed)]);
  classes.push(['whole turns on mutated outputs', await fuzzTurns(5_000, seed + 1)]);
  classes.push(['a cancel at every event', await fuzzCancels(10)]);
  classes.push(['every error code at every step', await fuzzErrors()]);
  console.log(`fuzz, seed ${seed}`);
  console.log(
    'class                                                      inputs  non-AgentError  hangs  pollution  bad args  state after failure  events after cancel',
  );
  let problems = 0;
  for (const [name, counts] of classes) {
    problems += problemsIn(counts);
    console.log(
      `${name.padEnd(58)} ${String(counts.inputs).padStart(6)} ${String(counts.nonAgentErrors).padStart(15)} ${String(counts.hangs).padStart(6)} ${String(counts.pollution).padStart(10)} ${String(counts.schemaViolationsReachingHandlers).padStart(9)} ${String(counts.stateChangesAfterFailure).padStart(20)} ${String(counts.eventsAfterCancel).padStart(20)}`,
    );
    for (const firstProblem of counts.firstProblems) console.log(`    ${firstProblem}`);
  }
  const families = await fuzzFamilies(10_000, seed + 2);
  problems += familyProblems(families);
  console.log(
    '\ncall families (generated outputs, NPC and agent turns)     inputs  wrong-argument calls  markup shown  non-AgentError  hangs',
  );
  console.log(
    `${'Gemma 4, FunctionGemma, Gemma 3, Hermes, Llama 3.x, JSON'.padEnd(58)} ${String(families.inputs).padStart(6)} ${String(families.wrongArgumentCalls).padStart(21)} ${String(families.markupShown).padStart(13)} ${String(families.nonAgentErrors).padStart(15)} ${String(families.hangs).padStart(6)}`,
  );
  for (const firstProblem of families.firstProblems) console.log(`    ${firstProblem}`);
  const protocol = await fuzzProtocol(100_000, seed + 3);
  problems += protocolProblems(protocol);
  console.log(
    '\nprotocol lines (every method, mutated, pipelined)           inputs  receive threw  unhandled  missing  duplicated  not JSON-RPC  pollution  wrong answers',
  );
  console.log(
    `${'BridgeEngine'.padEnd(58)} ${String(protocol.inputs).padStart(6)} ${String(protocol.thrownReceives).padStart(14)} ${String(protocol.unhandledRejections).padStart(10)} ${String(protocol.missingResponses).padStart(8)} ${String(protocol.duplicateResponses).padStart(11)} ${String(protocol.nonJsonRpcLines).padStart(13)} ${String(protocol.pollution).padStart(10)} ${String(protocol.wrongAnswers).padStart(14)}`,
  );
  for (const firstProblem of protocol.firstProblems) console.log(`    ${firstProblem}`);
  const files: Array<[string, FileCounts]> = [
    ['persona files (importer, validator, form round trip)', fuzzPersonaFiles(20_000, seed + 4)],
    ['native scripts (read, then played as a turn)', await fuzzNativeScripts(5_000, seed + 5)],
  ];
  console.log(
    '\nfiles                                                      inputs  non-AgentError  lost on Save  pollution  hangs  unbounded',
  );
  for (const [name, fileCounts] of files) {
    problems += fileProblems(fileCounts);
    console.log(
      `${name.padEnd(58)} ${String(fileCounts.inputs).padStart(6)} ${String(fileCounts.nonAgentErrors).padStart(15)} ${String(fileCounts.silentLosses).padStart(13)} ${String(fileCounts.pollution).padStart(10)} ${String(fileCounts.hangs).padStart(6)} ${String(fileCounts.unbounded).padStart(10)}`,
    );
    for (const firstProblem of fileCounts.firstProblems) console.log(`    ${firstProblem}`);
  }
  const heap = await heapUnderLoad(50, 10_000);
  console.log(
    `memory: 10,000 turns of 50 NPCs on one scheduler: heap ${heap.beforeMb.toFixed(1)} MB before, ${heap.afterMb.toFixed(1)} MB after${(globalThis as { gc?: unknown }).gc ? '' : ' (no --expose-gc: includes garbage not yet collected)'}; longest history ${heap.longestHistory} turns (compaction after 8); ${heap.summaries} of 50 NPCs hold a summary`,
  );
  const total =
    classes.reduce((sum, [, fuzzCounts]) => sum + fuzzCounts.inputs, 0) +
    families.inputs +
    protocol.inputs +
    files.reduce((sum, [, fileCounts]) => sum + fileCounts.inputs, 0);
  console.log(`${total} inputs in ${((Date.now() - started) / 1000).toFixed(1)} s; ${problems} problems`);
  if (problems > 0) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
