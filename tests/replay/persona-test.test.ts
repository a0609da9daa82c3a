/**
 * A replay bundle becomes a persona test (the file `npm run persona-test` reads) and a script of
 * its recorded outputs: played on the same character, every check passes; edited to what the
 * character should have done, it fails until the character is fixed.
 */
import { bundleToPersonaTest, readPersonaTest, runPersonaTest, type ReplayBundle } from '../../src';
import { ScriptedLanguageModel } from '../../src/testing';
import { createTavernWorld, tavernTools } from '../../demo/tavern/tavern-world';
import miraPersona from '../../demo/tavern/mira.persona.json';
import { EVENING, OPTIONS, recordEvening } from './tavern-session';

let bundle: ReplayBundle;
beforeAll(async () => {
  ({ bundle } = await recordEvening());
});

function play(test: unknown, script: unknown[]) {
  const world = createTavernWorld();
  return runPersonaTest({
    test: readPersonaTest(test),
    persona: miraPersona,
    model: new ScriptedLanguageModel(script as never),
    tools: tavernTools(world),
    world,
    options: OPTIONS,
  });
}

describe('a bundle as a persona test', () => {
  test('one test turn per answered turn, expecting what the device did; the script holds every output', () => {
    const { test, script } = bundleToPersonaTest(bundle);
    expect(test.turns.map((turn) => turn.say)).toEqual(EVENING);
    expect(test.persona).toMatchObject({ name: 'Mira' });
    expect(test.turns[2].expect?.calls).toEqual(['take_order']);
    expect(test.secretsUnlockAtRelationship).toBe(10);
    expect(script).toHaveLength(bundle.turns.reduce((sum, turn) => sum + turn.steps.length, 0));
    // It is a file persona-test reads as it is.
    expect(() => readPersonaTest(JSON.stringify(test))).not.toThrow();
  });

  test('played with its script on the same character, every check passes', async () => {
    const { test, script } = bundleToPersonaTest(bundle);
    const report = await play(test, script);
    expect(report.failed).toBe(0);
    expect(report.turns.map((turn) => turn.line)).toEqual(bundle.turns.map((turn) => turn.line));
  });

  test('an expectation edited to what should have happened fails, naming the check', async () => {
    const { test, script } = bundleToPersonaTest(bundle);
    const word = bundle.turns[0].line.split(/\W+/).find((part) => part.length > 3) as string;
    test.turns[0].expect = { ...test.turns[0].expect, notContains: [word] };
    const report = await play(test, script);
    const failed = report.turns[0].checks.filter((check) => !check.pass).map((check) => check.name);
    expect(failed).toEqual([`never says "${word}"`]);
  });

  test('a bad bundle is refused with invalid_request', () => {
    expect(() => bundleToPersonaTest({ ...bundle, version: 9 })).toThrow(/bundle\.version/);
  });
});
