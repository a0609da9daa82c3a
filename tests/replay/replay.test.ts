/**
 * Replay bundles through the public API: an evening at Mira's recorded (every prompt and raw
 * output, the tools and their results, the backend), checked against its schema, played back
 * with the same lines and no divergence; bad bundles refused with the exact code and the path
 * named; a prompt that differs reported (or, strict, failing); a failed replay changes nothing.
 */
import {
  AgentError,
  NPC,
  REPLAY_BUNDLE_FORMAT,
  parseReplayBundle,
  replayBundle,
  replayBundleProblems,
  tapModel,
  type ReplayBundle,
} from '../../src';
import { KeywordModel } from '../../src/testing';
import { EVENING, recordEvening } from './tavern-session';
import miraPersona from '../../demo/tavern/mira.persona.json';

let recorded: { bundle: ReplayBundle; said: string[] };
beforeAll(async () => {
  recorded = await recordEvening();
});

const copy = (bundle: ReplayBundle): ReplayBundle => JSON.parse(JSON.stringify(bundle));

async function refusal(run: () => Promise<unknown>): Promise<AgentError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    return error as AgentError;
  }
  throw new Error('expected the replay to be refused');
}

describe('recording', () => {
  test('every turn with its prompts, raw outputs, tool calls, backend, tokens and timings', () => {
    const { bundle } = recorded;
    expect(replayBundleProblems(bundle)).toEqual([]);
    expect(bundle.format).toBe(REPLAY_BUNDLE_FORMAT);
    expect(bundle.turns.map((turn) => turn.said)).toEqual(EVENING);
    expect(bundle.turns.map((turn) => turn.line)).toEqual(recorded.said);
    for (const turn of bundle.turns) {
      expect(turn.answeredBy).toBe('stand-in');
      expect(turn.steps.length).toBeGreaterThan(0);
      for (const step of turn.steps) {
        expect(typeof step.output).toBe('string');
        expect(step.prompt).toContain(turn.said);
        expect(step.ms).toBeGreaterThanOrEqual(0);
      }
      expect(turn.modelCalls).toBe(turn.steps.length);
    }
    const order = bundle.turns[2].toolCalls.find((call) => call.name === 'take_order');
    expect(order).toMatchObject({ args: { item: 'ale', quantity: 2 }, output: { kind: 'json' } });
    expect(bundle.tools.map((tool) => tool.name).sort()).toEqual(['check_menu', 'take_order']);
    expect(bundle.world?.initial).toMatchObject({ player: { gold: 20 } });
    // The world as each turn found it: the ales were paid for before the fourth turn.
    expect(bundle.turns[3].world).toMatchObject({ player: { gold: 14 } });
  });

  test('a tap passes the stream through untouched and gives the model back its own generate', async () => {
    const model = new KeywordModel({ rules: [], otherwise: { emotion: 'happy', line: 'Aye.' } });
    const heard: string[] = [];
    const untap = tapModel(model, (generation) => heard.push(generation.output));
    const second = tapModel(model, () => undefined);
    const npc = new NPC({ persona: miraPersona, model });
    expect((await npc.talk('Hello')).line).toBe('Aye.');
    expect(heard).toHaveLength(1);
    untap();
    second();
    expect(Object.prototype.hasOwnProperty.call(model, 'generate')).toBe(false);
    expect((await npc.talk('Hello')).line).toBe('Aye.');
    expect(heard).toHaveLength(1);
  });
});

describe('replaying', () => {
  test('the same lines, emotions and tools, with no divergence', async () => {
    const report = await replayBundle(recorded.bundle);
    expect(report.turns.map((turn) => turn.line)).toEqual(recorded.said);
    expect(report.divergences).toEqual([]);
    expect(report.mismatches).toEqual([]);
    expect(report.sameLines).toBe(true);
    expect(report.exact).toBe(true);
  });

  test('from the JSON text a phone exported', async () => {
    const report = await replayBundle(JSON.stringify(recorded.bundle));
    expect(report.turns.map((turn) => turn.line)).toEqual(recorded.said);
  });

  test('a prompt that differs from the recorded one is reported, not hidden', async () => {
    const bundle = copy(recorded.bundle);
    bundle.turns[1].steps[0].prompt = bundle.turns[1].steps[0].prompt.replace('menu', 'MENU');
    const report = await replayBundle(bundle);
    expect(report.divergences).toHaveLength(1);
    expect(report.divergences[0]).toMatchObject({ turn: 1, step: 0, field: 'prompt' });
    expect(report.divergences[0].recorded).toContain('MENU');
    expect(report.sameLines).toBe(true);
    expect(report.exact).toBe(false);
  });

  test('strict: a prompt mismatch fails the replay with generation_failed, naming turn and step', async () => {
    const bundle = copy(recorded.bundle);
    bundle.turns[1].steps[0].prompt += ' (edited)';
    const error = await refusal(() => replayBundle(bundle, { strict: true }));
    expect(error.code).toBe('generation_failed');
    expect(error.message).toMatch(/turn 1, step 0: the prompt differs/);
  });

  test('a turn that needs more outputs than were recorded says so instead of inventing one', async () => {
    const bundle = copy(recorded.bundle);
    const turn = bundle.turns.findIndex((entry) => entry.steps.length > 1);
    bundle.turns[turn].steps.pop();
    const report = await replayBundle(bundle);
    expect(report.turns[turn].same).toBe(false);
    const error = await refusal(() => replayBundle(bundle, { strict: true }));
    expect(error.code).toBe('generation_failed');
  });
});

describe('a bad bundle is refused before anything runs, its path named', () => {
  test.each<[string, (bundle: ReplayBundle) => unknown, RegExp]>([
    ['another version', (bundle) => ({ ...bundle, version: 2 }), /bundle\.version: 2 is not a version/],
    ['another format', (bundle) => ({ ...bundle, format: 'x' }), /bundle\.format: must be "oam-cocos\.ReplayBundle"/],
    [
      'a step without its output',
      (bundle) => {
        delete bundle.turns[2].steps[0].output;
        return bundle;
      },
      /bundle\.turns\[2\]\.steps\[0\]: has no "output"/,
    ],
    [
      'a turn without its line',
      (bundle) => {
        delete (bundle.turns[0] as Partial<ReplayBundle['turns'][0]>).line;
        return bundle;
      },
      /bundle\.turns\[0\]: must have required property 'line'/,
    ],
    ['not JSON', () => '{"format":', /not JSON/],
  ])('%s: invalid_request', async (_name, spoil, message) => {
    const bundle = spoil(copy(recorded.bundle));
    const error = await refusal(() => replayBundle(bundle));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(message);
    expect(() => parseReplayBundle(bundle)).toThrow(message);
  });

  test('a failed replay leaves the bundle as it was', async () => {
    const bundle = copy(recorded.bundle);
    bundle.turns[0].steps[0].prompt += '!';
    const before = JSON.stringify(bundle);
    await refusal(() => replayBundle(bundle, { strict: true }));
    await refusal(() => replayBundle({ ...bundle, version: 3 }));
    expect(JSON.stringify(bundle)).toBe(before);
  });
});
