/**
 * Bugs are not disguised as model failures: an error no backend reported (a TypeError in a
 * model adapter, a throwing accept hook) is never retried and never replaced by a fallback
 * line; it surfaces as an AgentError marked `unexpected` that keeps the original as its cause.
 * A backend that keeps failing costs the step's own retries only, not a second round as text.
 */
import {
  Agent,
  AgentError,
  ContentGenerator,
  DecisionEngine,
  JsonSchema,
  NPC,
  type GenerationRequest,
  type LanguageModel,
} from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';

const MIRA = { name: 'Mira', role: 'innkeeper', personality: 'warm' };

/** A model adapter with a bug: it throws a TypeError on every call, and counts them. */
function buggyModel(): LanguageModel & { calls: number } {
  const inner = new ScriptedLanguageModel([]);
  const model = {
    calls: 0,
    capabilities: inner.capabilities,
    availability: () => inner.availability(),
    countTokens: (text: string) =>
      inner.countTokens ? inner.countTokens(text) : Promise.resolve(Math.ceil(text.length / 4)),
    generate(_request: GenerationRequest): AsyncIterable<never> {
      model.calls++;
      const broken = undefined as unknown as { text: string };
      return {
        [Symbol.asyncIterator]: () => ({
          next: async () => ({ done: false as const, value: broken.text as never }),
        }),
      };
    },
  };
  return model as LanguageModel & { calls: number };
}

describe('an unexpected error (a bug) surfaces as itself', () => {
  test('Agent: one model call, an AgentError marked unexpected whose cause is the TypeError', async () => {
    const model = buggyModel();
    const agent = new Agent(model, {});
    const error = await agent
      .run('Hi')
      .response()
      .catch((caught: AgentError) => caught);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ unexpected: true });
    expect((error as AgentError).cause).toBeInstanceOf(TypeError);
    expect(model.calls).toBe(1);
    expect(agent.history).toEqual([]);
  });

  test('NPC: one model call, no text retry, no fallback line; history and memory unchanged', async () => {
    const model = buggyModel();
    const npc = new NPC({ persona: MIRA, model, options: { fallbackLines: ['Hmm, give me a moment.'] } });
    const error = await npc.talk('Hi').catch((caught: AgentError) => caught);
    expect(error).toMatchObject({ unexpected: true });
    expect((error as AgentError).cause).toBeInstanceOf(TypeError);
    expect(model.calls).toBe(1);
    expect(npc.history).toEqual([]);
  });

  test("a throwing accept hook: not retried, rejected as unexpected with the hook's error as cause", async () => {
    const model = new ScriptedLanguageModel([Script.reply('Hello!')]);
    const agent = new Agent(model, {});
    const error = await agent
      .run('Hi', {
        accept: () => {
          throw new RangeError('hook bug');
        },
      })
      .response()
      .catch((caught: AgentError) => caught);
    expect(error).toMatchObject({ unexpected: true, message: 'hook bug' });
    expect((error as AgentError).cause).toBeInstanceOf(RangeError);
    expect(model.calls).toBe(1);
    expect(agent.history).toEqual([]);
  });

  test('DecisionEngine and ContentGenerator do not answer a bug with their fallback', async () => {
    const decision = await new DecisionEngine(buggyModel())
      .decide({
        situation: 'x',
        options: [
          { id: 'a', description: 'A' },
          { id: 'b', description: 'B' },
        ],
        fallback: 'b',
      })
      .catch((caught: AgentError) => caught);
    expect(decision).toMatchObject({ unexpected: true });
    const content = await new ContentGenerator(buggyModel())
      .generate({
        prompt: 'an item',
        schema: JsonSchema.obj({ name: JsonSchema.string() }),
        fallback: { name: 'stick' },
      })
      .catch((caught: AgentError) => caught);
    expect(content).toMatchObject({ unexpected: true });
  });

  test('errors a backend reports are not unexpected, and still get their fallback', async () => {
    const model = new ScriptedLanguageModel([Script.fail('model_unavailable')]);
    const npc = new NPC({ persona: MIRA, model });
    const turn = await npc.talk('Hi');
    expect(turn.isFallback).toBe(true);
    expect(new AgentError('busy', 'x').unexpected).toBe(false);
  });
});

describe('a backend that keeps failing', () => {
  test("NPC: generation_failed on every call costs the step's 3 tries, then the fallback (not 6 calls)", async () => {
    const fail = () => Script.fail('generation_failed', 'backend error');
    const model = new ScriptedLanguageModel([fail(), fail(), fail(), fail(), fail(), fail()]);
    const npc = new NPC({ persona: MIRA, model, options: { fallbackLines: ['Hmm, give me a moment.'] } });
    const turn = await npc.talk('Hi');
    expect(turn).toMatchObject({ line: 'Hmm, give me a moment.', isFallback: true });
    expect(model.calls).toBe(3);
    expect(turn.modelCalls).toBe(3);
  });

  test('a blocked answer still gets its one text retry (the backend answered; the content was the problem)', async () => {
    const model = new ScriptedLanguageModel([
      Script.fail('guardrail_violation'),
      Script.text('[sad] I would rather not.'),
    ]);
    const npc = new NPC({ persona: MIRA, model });
    const turn = await npc.talk('Hi');
    expect(turn).toMatchObject({ line: 'I would rather not.', isFallback: false });
    expect(model.calls).toBe(2);
  });
});
