/**
 * A replay bundle as a persona test (the file `npm run persona-test` reads) and the script of its
 * recorded outputs (`--script`): a failure seen on one phone becomes a test anyone runs. Each
 * answered turn becomes a turn of the test expecting what the device did (its tool calls, its
 * emotion); edit the expectations to what it should have done, and the test fails until the
 * character (persona, options, tools) is fixed.
 */
import type { AgentErrorCode } from '../../contract/errors';
import type { PersonaTestFile, PersonaTestTurn } from '../npc/persona-test';
import { parseReplayBundle } from './validate-bundle';

/** A scripted model's step as JSON holds it (ScriptedLanguageModel reads these). */
export type ScriptStepJson = { type: 'text'; text: string } | { type: 'fail'; code: AgentErrorCode; message: string };

export interface BundlePersonaTest {
  test: PersonaTestFile;
  /** Every recorded model output in order, for `npm run persona-test -- test.json --script script.json`. */
  script: ScriptStepJson[];
}

/** Converts a bundle (object or JSON text); invalid_request naming the problem when it is not valid. */
export function bundleToPersonaTest(input: unknown): BundlePersonaTest {
  const bundle = parseReplayBundle(input);
  const turns: PersonaTestTurn[] = [];
  const script: ScriptStepJson[] = [];
  for (const turn of bundle.turns) {
    if (turn.error) continue;
    for (const step of turn.steps) {
      if (step.error) script.push({ type: 'fail', code: step.error.code, message: step.error.message });
      else script.push({ type: 'text', text: step.output ?? '' });
    }
    const calls = turn.toolCalls
      .filter((call) => !call.rejected && call.refused === undefined)
      .map((call) => call.name);
    const expect: PersonaTestTurn['expect'] = {};
    if (calls.length > 0) expect.calls = Array.from(new Set(calls));
    if (turn.emotion) expect.emotionIn = [turn.emotion];
    turns.push({ say: turn.said, expect });
  }
  const test: PersonaTestFile = { turns };
  if (bundle.profile) test.profile = bundle.profile;
  else test.persona = bundle.persona as unknown as PersonaTestFile['persona'];
  if (bundle.memory.relationship !== 0) test.relationship = bundle.memory.relationship;
  const unlock = bundle.options.secretsUnlockAtRelationship;
  if (typeof unlock === 'number' || unlock === null) test.secretsUnlockAtRelationship = unlock;
  return { test, script };
}
