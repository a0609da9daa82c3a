/**
 * A player's turn with a picture: `npc.talk(line, { image })`, `agent.run(prompt, { images })`
 * and `decide({ image })`. The picture rides with every model call of its turn (tries included),
 * its tokens come out of the prompt's budget, bad pictures and models without image input are
 * refused before any model call, and a cancelled turn leaves the history as it was.
 */
import { Agent, DecisionEngine, KeywordModel, NPC, type ImageInput } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { createMiraModel } from '../../demo/tavern/mira-model';
import { MIRA, failure, mira, until } from './helpers';

const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAEUlEQVR4nGO4st78PwgzwBgAYgQK5eEf8isAAAAASUVORK5CYII=';
const BADGE: ImageInput = { data: PNG_B64, mimeType: 'image/png', width: 2, height: 2, label: 'guild badge' };

describe('an NPC turn with an image', () => {
  test('the image goes with every model call of the turn, and not with the next turn', async () => {
    const { npc, model } = mira([
      Script.reply({ emotion: 'happy', line: 'A guild badge! Come in.' }),
      Script.reply({ emotion: 'neutral', line: 'Anything else?' }),
    ]);
    const turn = await npc.talk('Look at my badge.', { image: BADGE });
    expect(turn.line).toBe('A guild badge! Come in.');
    expect(model.requests[0].images).toEqual([BADGE]);
    await npc.talk('Thanks.');
    expect(model.requests[1].images).toBeUndefined();
    expect(npc.history.map((entry) => entry.type)).toContain('prompt');
  });

  test('a text retry of the same turn still carries the image', async () => {
    const { npc, model } = mira([Script.fail('refusal'), Script.text('[happy] Nice badge.')]);
    const turn = await npc.talk('Look.', { image: BADGE });
    expect(turn.line).toBe('Nice badge.');
    expect(model.requests.map((request) => request.images?.length)).toEqual([1, 1]);
  });

  test('the image is counted in the prompt budget (about 256 tokens)', async () => {
    const steps = [Script.reply({ emotion: 'happy', line: 'Hm.' })];
    const probe = await new NPC({ persona: MIRA, model: new ScriptedLanguageModel(steps) }).talk('Look.');
    // Room for the prompt, the default reserve of 256 and 100 more: not for a 256-token image on top.
    const limits = { capabilities: { maxInputTokens: probe.usage.inputTokens + 256 + 100 } };
    const plain = new NPC({ persona: MIRA, model: new ScriptedLanguageModel(steps, limits) });
    await expect(plain.talk('Look.')).resolves.toMatchObject({ line: 'Hm.' });
    const tight = new NPC({ persona: MIRA, model: new ScriptedLanguageModel(steps, limits) });
    const error = await failure(tight.talk('Look.', { image: BADGE }));
    expect(error.code).toBe('context_size_exceeded');
  });

  test('a bad image is refused before any model call, naming what is wrong', async () => {
    const { npc, model } = mira(['never']);
    const error = await failure(npc.talk('Look.', { image: { ...BADGE, mimeType: 'image/webp' as never } }));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/^image\.mimeType must be "image\/png" or "image\/jpeg"/);
    expect(model.calls).toBe(0);
    expect(npc.history).toEqual([]);
  });

  test('a model without image input refuses the turn before any call, naming itself; no fallback line', async () => {
    const model = new ScriptedLanguageModel(['never'], { capabilities: { modelName: 'text-only', imageInput: false } });
    const npc = new NPC({ persona: MIRA, model });
    const error = await failure(npc.talk('Look.', { image: BADGE }));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/^text-only does not take images/);
    expect(model.calls).toBe(0);
    expect(npc.history).toEqual([]);
  });

  test('cancelled mid-turn: the history stays as it was, and the next turn has no image', async () => {
    const { npc, model } = mira([
      Script.reply({ emotion: 'happy', line: 'Evening.' }),
      Script.hang(),
      Script.reply({ emotion: 'neutral', line: 'Yes?' }),
    ]);
    await npc.talk('Hello.');
    const history = npc.history;
    const stream = npc.talkStream('Look at this.', { image: BADGE });
    await until(() => model.calls === 2, 'the model step with the image');
    expect(model.requests[1].images).toEqual([BADGE]);
    stream.cancel();
    expect((await failure(stream.turn())).code).toBe('cancelled');
    expect(npc.history).toEqual(history);
    await npc.talk('Well?');
    expect(model.requests[2].images).toBeUndefined();
    expect(npc.turnCount).toBe(2);
  });
});

describe('keyword stand-in rules on an image', () => {
  const guard = () =>
    new KeywordModel({
      rules: [
        { when: ['badge'], image: ['guild'], reply: { emotion: 'happy', line: 'A guild badge. In you go.' } },
        { when: ['badge'], image: false, reply: { emotion: 'suspicious', line: 'What badge? I see no badge.' } },
        { image: true, reply: { emotion: 'curious', line: 'What is that scribble?' } },
      ],
      otherwise: 'Move along.',
    });

  test("a rule reads the image's presence and label", async () => {
    const npc = new NPC({ persona: { name: 'Brann', role: 'the gate guard' }, model: guard() });
    await expect(npc.talk('Here is my badge.', { image: BADGE })).resolves.toMatchObject({
      line: 'A guild badge. In you go.',
    });
    await expect(npc.talk('Here is my badge.')).resolves.toMatchObject({ line: 'What badge? I see no badge.' });
    await expect(npc.talk('Look.', { image: { ...BADGE, label: 'a cat' } })).resolves.toMatchObject({
      line: 'What is that scribble?',
    });
    await expect(npc.talk('Hello.')).resolves.toMatchObject({ line: 'Move along.' });
  });

  test('a decision looks at the image too', async () => {
    const model = new KeywordModel({
      rules: [
        { when: /^Situation:/m, image: ['guild'], reply: { line: '', json: { choice: 'let_in' } } },
        { when: /^Situation:/m, reply: { line: '', json: { choice: 'warn' } } },
      ],
    });
    const engine = new DecisionEngine(model);
    const options = [
      { id: 'let_in', description: 'Let them in.' },
      { id: 'warn', description: 'Warn them.' },
    ];
    const situation = 'A traveller holds up a badge.';
    await expect(engine.decide({ situation, options, image: BADGE })).resolves.toMatchObject({ optionId: 'let_in' });
    await expect(engine.decide({ situation, options })).resolves.toMatchObject({ optionId: 'warn' });
    expect(model.requests.filter((request) => request.images).length).toBeGreaterThan(0);
    const bad = await failure(engine.decide({ situation, options, image: { ...BADGE, data: '' } }));
    expect(bad.message).toMatch(/^image\.data/);
  });
});

describe("the tavern sample's guard (its stand-in rules)", () => {
  test('a drawn badge gets a noisy traveller in (not an armed one); without it the guard warns', async () => {
    const engine = new DecisionEngine(createMiraModel());
    const options = [
      { id: 'let_in', description: 'Step aside.' },
      { id: 'warn', description: 'Warn them.' },
      { id: 'alarm', description: 'Ring the bell.' },
    ];
    const badge = { ...BADGE, label: "the player's drawn badge" };
    const noisy = 'A traveller staggers up, singing loudly.';
    await expect(engine.decide({ situation: noisy, options })).resolves.toMatchObject({ optionId: 'warn' });
    await expect(engine.decide({ situation: noisy, options, image: badge })).resolves.toMatchObject({
      optionId: 'let_in',
    });
    const armed = 'A traveller walks up with a drawn sword.';
    await expect(engine.decide({ situation: armed, options, image: badge })).resolves.toMatchObject({
      optionId: 'alarm',
    });
  });
});

describe('Agent.run with images', () => {
  test('each bad image is named by its index, and nothing reaches the model', async () => {
    const model = new ScriptedLanguageModel(['never']);
    const agent = new Agent(model);
    const error = await failure(agent.respond('Look.', { images: [BADGE, { ...BADGE, data: 'abc' }] }));
    expect(error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/^images\[1\]\.data is not base64/),
    });
    expect(model.calls).toBe(0);
    expect(agent.history).toEqual([]);
  });

  test('more images than the backend takes per request: refused before the model is called', async () => {
    const model = new ScriptedLanguageModel(['never'], {
      capabilities: { modelName: 'nano-like', maxImagesPerRequest: 1 },
    });
    const error = await failure(new Agent(model).respond('Look.', { images: [BADGE, BADGE] }));
    expect(error.message).toMatch(/nano-like takes 1 image per request, got 2/);
    expect(model.calls).toBe(0);
  });
});
