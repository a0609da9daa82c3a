/**
 * A persona test turn may set the relationship before it is played (what the preview's slider
 * does between turns, and what "Save as persona test" writes): the stage and its secret follow,
 * the rest of the conversation is kept, and a bad value is refused before any model call.
 */
import { AgentError, runPersonaTest, type LanguageModel } from '../../src';
import { readProfileFile, profileStandIn } from '../../demo/profiles/profile-file';

const HILDE = 'demo/profiles/hilde.npc-profile.json';

async function play(turns: unknown[], model?: LanguageModel) {
  const parts = readProfileFile(HILDE);
  return runPersonaTest({
    test: { turns } as never,
    persona: parts.persona,
    model: model ?? profileStandIn(parts),
    tools: parts.tools,
    world: parts.world,
    options: parts.options,
    memory: parts.memory,
  });
}

test('a turn at 60 reaches the confidant stage and hears the secret; the turn before it did not', async () => {
  const report = await play([
    { say: 'Heard any rumours?', expect: { notContains: ['seal'] } },
    { say: 'Heard any rumours?', relationship: 60, expect: { contains: ['royal seal'], emotionIn: ['suspicious'] } },
  ]);
  expect(report.failed).toBe(0);
  expect(report.turns.map((turn) => turn.relationship)).toEqual([0, 60]);
  expect(report.turns[1].line).toContain('I forged the royal seal');
});

test.each([101, -101, 2.5, '60', null])(
  'relationship %p is refused by name, before the model is asked',
  async (value) => {
    let calls = 0;
    const model = {
      capabilities: {},
      generate: () => {
        calls++;
        throw new Error('not reached');
      },
      availability: async () => ({ status: 'available' as const }),
    } as unknown as LanguageModel;
    const failed = play([{ say: 'Hello.' }, { say: 'Hello.', relationship: value }], model);
    await expect(failed).rejects.toThrow(AgentError);
    await expect(failed).rejects.toThrow(
      `turns[1].relationship must be a whole number from -100 to 100; got ${JSON.stringify(value)}.`,
    );
    expect(calls).toBe(0);
  },
);
