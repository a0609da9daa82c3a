/**
 * Which model answers a character (assets/components/characterModel.ts), per place and backend:
 * the editor and previews keep what the developer configured; a shipped build uses Gemini Nano or
 * Chrome's model while it is available and the character's line bank otherwise (the persona's
 * own lines without a bank); a custom model is the game's own everywhere. No developer text in a
 * shipped build.
 */
jest.mock('../../assets/runtime/oam-core.js', () => jest.requireActual('../../src/bundle'), { virtual: true });

import { NPC, type LanguageModel, type ModelAvailability } from '../../src';
import { KeywordModel } from '../../src/testing';
import miraPersona from '../../demo/tavern/mira.persona.json';
import miraBank from '../../demo/tavern/mira.bank.json';

type Answerer = string;
const { characterModel } = require('../../assets/components/characterModel') as {
  characterModel(input: {
    place: 'editor' | 'preview' | 'shipped';
    shared: LanguageModel;
    sharedKind: string | (() => string);
    bank?: unknown;
    persona: unknown;
    gameStandIn?: boolean | (() => boolean);
  }): { model: LanguageModel; answers(): Answerer };
};

/** A shared model that says who it is, with the availability an on-device model would report. */
function shared(line: string, status: ModelAvailability['status'] = 'available'): LanguageModel {
  const model = new KeywordModel({ rules: [], otherwise: { emotion: 'neutral', line } });
  model.availability = () =>
    Promise.resolve(status === 'unavailable' ? { status, reason: 'device_not_eligible' } : { status });
  return model;
}

const STAND_IN = '(Stand-in model: on an Android phone Gemini Nano answers here.)';

async function lineOf(model: LanguageModel, said = 'Evening!'): Promise<string> {
  const npc = new NPC({ persona: miraPersona, model });
  return (await npc.talk(said)).line;
}

describe('in a shipped build', () => {
  test.each([
    ['Android without Gemini Nano', 'gemini-nano', 'unavailable'],
    ['Android while Gemini Nano downloads', 'gemini-nano', 'downloading'],
    ["the web without Chrome's model", 'chrome-nano', 'unavailable'],
  ] as const)('%s: the line bank answers', async (_name, kind, status) => {
    const chosen = characterModel({
      place: 'shipped',
      shared: shared('Nano speaks.', status),
      sharedKind: kind,
      bank: miraBank,
      persona: miraPersona,
    });
    expect(await lineOf(chosen.model)).toMatch(/Welcome to the Crooked Lantern|Evening! Mind the wet floor/);
    expect(chosen.answers()).toBe('line-bank');
  });

  test.each([
    ['Android with Gemini Nano', 'gemini-nano'],
    ["the web with Chrome's model", 'chrome-nano'],
  ] as const)('%s: the on-device model answers', async (_name, kind) => {
    const chosen = characterModel({
      place: 'shipped',
      shared: shared('Nano speaks.'),
      sharedKind: kind,
      bank: miraBank,
      persona: miraPersona,
    });
    expect(await lineOf(chosen.model)).toBe('Nano speaks.');
    expect(chosen.answers()).toBe(kind);
  });

  test("iOS and desktop (the shared model is the stand-in): the bank, never the stand-in's developer text", async () => {
    const chosen = characterModel({
      place: 'shipped',
      shared: shared(STAND_IN),
      sharedKind: 'stand-in',
      bank: miraBank,
      persona: miraPersona,
    });
    const lines = [await lineOf(chosen.model), await lineOf(chosen.model, 'Who are you?')];
    for (const line of lines) expect(line).not.toMatch(/stand-in|Gemini|model/i);
    expect(chosen.answers()).toBe('line-bank');
  });

  test("without a bank, the persona's own lines answer, still no developer text", async () => {
    const chosen = characterModel({
      place: 'shipped',
      shared: shared(STAND_IN),
      sharedKind: 'stand-in',
      persona: miraPersona,
    });
    const line = await lineOf(chosen.model, 'Who are you?');
    expect(line).not.toMatch(/stand-in|Gemini|model/i);
    expect(chosen.answers()).toBe('persona');
  });

  test("the game's own stand-in rules (lines it wrote for players) stay in a shipped build", async () => {
    const rules = shared('Welcome to my scripted evening.');
    const chosen = characterModel({
      place: 'shipped',
      shared: rules,
      sharedKind: 'stand-in',
      gameStandIn: true,
      bank: miraBank,
      persona: miraPersona,
    });
    expect(await lineOf(chosen.model)).toBe('Welcome to my scripted evening.');
    expect(chosen.answers()).toBe('stand-in');
  });

  test("with the game's own stand-in rules, an unavailable on-device model falls back to them (the shared model's own fallback), not to the bank", async () => {
    const chosen = characterModel({
      place: 'shipped',
      shared: shared('Rules while Chrome has no model.', 'unavailable'),
      sharedKind: 'chrome-nano',
      gameStandIn: true,
      bank: miraBank,
      persona: miraPersona,
    });
    expect(await lineOf(chosen.model)).toBe('Rules while Chrome has no model.');
    expect(chosen.answers()).toBe('chrome-nano');
  });

  test('follows the runtime as it is at each request: stand-in rules configured after the NPC was built', async () => {
    let configured = false;
    const chosen = characterModel({
      place: 'shipped',
      shared: shared('My scripted evening.'),
      sharedKind: () => 'stand-in',
      gameStandIn: () => configured,
      bank: miraBank,
      persona: miraPersona,
    });
    expect(chosen.answers()).toBe('line-bank');
    configured = true;
    expect(await lineOf(chosen.model)).toBe('My scripted evening.');
    expect(chosen.answers()).toBe('stand-in');
  });

  test("the game's own model answers wherever it runs", async () => {
    const custom = shared('My own backend.');
    const chosen = characterModel({
      place: 'shipped',
      shared: custom,
      sharedKind: 'custom',
      bank: miraBank,
      persona: miraPersona,
    });
    expect(await lineOf(chosen.model)).toBe('My own backend.');
    expect(chosen.answers()).toBe('custom');
  });

  test("another character's bank is refused, naming bank.character", () => {
    expect(() =>
      characterModel({
        place: 'shipped',
        shared: shared('x'),
        sharedKind: 'stand-in',
        bank: { ...miraBank, character: 'Brann' },
        persona: miraPersona,
      }),
    ).toThrow(expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(/bank\.character/) }));
  });

  test("Android without Nano and the game's own stand-in rules: the bank answers (Nano's shared model has no rules behind it)", async () => {
    const chosen = characterModel({
      place: 'shipped',
      shared: shared('Nano speaks.', 'unavailable'),
      sharedKind: 'gemini-nano',
      gameStandIn: true,
      bank: miraBank,
      persona: miraPersona,
    });
    expect(await lineOf(chosen.model)).toMatch(/Welcome to the Crooked Lantern|Evening! Mind the wet floor/);
    expect(chosen.answers()).toBe('line-bank');
  });

  test('a bad bank is refused when the character is set up, naming the problem', () => {
    expect(() =>
      characterModel({
        place: 'shipped',
        shared: shared('x'),
        sharedKind: 'stand-in',
        bank: { version: 1, character: 'Mira', intents: {}, lines: [] },
        persona: miraPersona,
      }),
    ).toThrow(expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(/bank\.intents/) }));
  });
});

describe('in the editor and previews', () => {
  test.each(['editor', 'preview'] as const)(
    '%s: the shared model as configured, the stand-in included',
    async (place) => {
      const model = shared(STAND_IN);
      const chosen = characterModel({
        place,
        shared: model,
        sharedKind: 'stand-in',
        bank: miraBank,
        persona: miraPersona,
      });
      expect(chosen.model).toBe(model);
      expect(await lineOf(chosen.model)).toBe(STAND_IN);
      expect(chosen.answers()).toBe('stand-in');
    },
  );
});
