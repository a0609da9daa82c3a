/**
 * Relationship stages and sample lines through the public API: the current stage alone in the
 * prefix (byte-stable inside a stage), a stage's secret only from its stage up, the bands checked,
 * the seed's threshold unchanged without stages, and the sample lines' token budget.
 */
import { NPC, parsePersona, validatePersona, estimateTokens, renderSampleLines, type Persona } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import type { GenerationRequest } from '../../src/contract/language-model';
import { recordingModel } from '../editor/meter-support';

const HILDE: Persona = {
  name: 'Hilde',
  role: 'the blacksmith of Greyford',
  secrets: ['She keeps a dragon egg under the anvil'],
  stages: [
    { name: 'stranger', to: 9, behaviour: 'Curt and suspicious.' },
    { name: 'regular', from: 10, to: 49, behaviour: 'Gruff but fair.', greeting: 'You again.' },
    {
      name: 'confidant',
      from: 50,
      behaviour: 'Speaks freely.',
      greeting: 'Shut the door.',
      secrets: ['She forged the royal seal'],
    },
  ],
};

async function firstRequest(persona: Persona, relationship: number, options = {}): Promise<GenerationRequest> {
  const requests: GenerationRequest[] = [];
  const npc = new NPC({
    persona,
    model: recordingModel(requests),
    memory: { facts: [], relationship, summary: '' },
    options,
  });
  await npc.talk('Hello.');
  return requests[0];
}

describe('relationship stages', () => {
  test('only the current stage is in the prefix, and the prefix is byte-stable inside a stage', async () => {
    const at12 = await firstRequest(HILDE, 12);
    const at40 = await firstRequest(HILDE, 40);
    const at60 = await firstRequest(HILDE, 60);
    const at0 = await firstRequest(HILDE, 0);
    expect(at12.systemInstruction).toBe(at40.systemInstruction);
    expect(at12.promptPrefix).toBe(at40.promptPrefix);
    expect(at12.systemInstruction).toContain('Your standing with the player: regular. Gruff but fair.');
    expect(at12.systemInstruction).not.toMatch(/stranger|confidant|Speaks freely|Curt/);
    expect(at60.systemInstruction).toContain('Your standing with the player: confidant. Speaks freely.');
    expect(at0.systemInstruction).toContain('Your standing with the player: stranger.');
    // The stage is the last line: everything before it is the same for every stage.
    const head = (text: string | undefined) => (text ?? '').split('\n').slice(0, -1).join('\n');
    expect(head(at0.systemInstruction)).toBe(head(at60.systemInstruction));
  });

  test("a stage's secret is in the note only from its stage up; the seed's threshold still rules the persona's own", async () => {
    const options = { secretsUnlockAtRelationship: 30 };
    const at12 = await firstRequest(HILDE, 12, options);
    const at40 = await firstRequest(HILDE, 40, options);
    const at60 = await firstRequest(HILDE, 60, options);
    const all = (request: GenerationRequest) => `${request.systemInstruction}${request.promptPrefix}${request.prompt}`;
    expect(all(at12)).not.toMatch(/dragon egg|royal seal/);
    expect(all(at40)).toContain('dragon egg');
    expect(all(at40)).not.toContain('royal seal');
    expect(all(at60)).toContain('She forged the royal seal');
    expect(at60.systemInstruction).not.toContain('royal seal'); // never in the cached prefix
  });

  test('the stage follows the relationship between turns, and a failed turn leaves it where it was', async () => {
    const model = new ScriptedLanguageModel([
      Script.call('change_relationship', { delta: 10, reason: 'kind words' }),
      Script.reply({ emotion: 'happy', line: 'Hm. Thanks.' }),
      Script.reply({ emotion: 'happy', line: 'You again.' }),
      Script.fail('invalid_request'),
      Script.reply({ emotion: 'happy', line: 'Still here.' }),
    ]);
    const npc = new NPC({
      persona: HILDE,
      model,
      memory: { facts: [], relationship: 5, summary: '' },
      options: { memoryTools: 'change_relationship' },
    });
    expect(npc.relationshipStage?.name).toBe('stranger');
    expect(npc.greeting).toBe('');
    await npc.talk('Fine work.');
    expect(npc.relationshipStage?.name).toBe('regular');
    expect(npc.greeting).toBe('You again.');
    await npc.talk('Hello again.');
    expect(model.requests[2].systemInstruction).toContain('Your standing with the player: regular.');
    const history = npc.history;
    await expect(npc.talk('Boom.')).rejects.toMatchObject({ code: 'invalid_request' });
    expect(npc.history).toEqual(history);
    expect(npc.memory.relationship).toBe(15);
    await npc.talk('Still there?');
    expect(model.requests[model.requests.length - 1].systemInstruction).toBe(model.requests[2].systemInstruction);
  });

  test('without stages the prompt is as before, and the numeric threshold unlocks the secrets', async () => {
    const plain: Persona = { name: 'Mira', secrets: ['The silver is in the mill'] };
    const below = await firstRequest(plain, 9, { secretsUnlockAtRelationship: 10 });
    const above = await firstRequest(plain, 10, { secretsUnlockAtRelationship: 10 });
    expect(below.systemInstruction).toBe(above.systemInstruction);
    expect(below.systemInstruction).not.toContain('standing');
    expect(below.prompt).not.toContain('silver');
    expect(above.prompt).toContain('The silver is in the mill');
  });

  test.each([
    [
      [
        { name: 'a', to: 20 },
        { name: 'b', from: 10 },
      ],
      'persona.stages[1].from: 10 overlaps stages[0] ("a", -100 to 20): start this stage at 21 or end that one lower',
    ],
    [
      [
        { name: 'high', from: 50 },
        { name: 'low', to: 10 },
      ],
      'persona.stages[1].from: -100 is below stages[0] ("high", 50 to 100): list the stages from the lowest relationship up',
    ],
    [[{ name: 'odd', from: 30, to: 10 }], 'persona.stages[0].to: must be at least its "from" (30); got 10'],
    [
      [
        { name: 'Friend', to: 10 },
        { name: 'friend', from: 11 },
      ],
      'persona.stages[1].name: is already the name of stages[0]; give every stage its own name',
    ],
    [[{ name: 'x', behavior: 'typo' }], 'persona.stages[0].behavior: is not a stage field; did you mean "behaviour"?'],
    [[{ name: 'x', from: 500 }], 'persona.stages[0].from: must be at most 100; got 500'],
    [[{ from: 0 }], 'persona.stages[0].name: is required'],
  ])('bad stages are refused with the field named: %j', (stages, message) => {
    const result = validatePersona({ name: 'Hilde', stages });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.problems.map((problem) => `${problem.field}: ${problem.message}`)).toContain(
      message,
    );
    expect(() => parsePersona({ name: 'Hilde', stages })).toThrow(message);
  });

  test('an NPC is refused a persona with overlapping stages before any model call', () => {
    const model = new ScriptedLanguageModel([]);
    expect(
      () =>
        new NPC({
          persona: {
            name: 'H',
            stages: [
              { name: 'a', to: 20 },
              { name: 'b', from: 20 },
            ],
          },
          model,
        }),
    ).toThrow(/persona\.stages\[1\]\.from: 20 overlaps/);
    expect(model.calls).toBe(0);
  });

  test('a relationship in a gap between bands has no stage', async () => {
    const gappy: Persona = { name: 'G', stages: [{ name: 'friend', from: 10, to: 20 }] };
    expect((await firstRequest(gappy, 0)).systemInstruction).not.toContain('standing');
    expect((await firstRequest(gappy, 15)).systemInstruction).toContain('Your standing with the player: friend.');
  });
});

describe('sample lines', () => {
  const SAMPLES = [
    { player: 'Nice weather.', npc: "Weather doesn't shoe horses." },
    { player: 'Can you mend my sword?', npc: 'Leave it on the anvil.' },
    { npc: 'Hrmph.' },
    { player: 'Why did you leave the capital?', npc: "Didn't like the company. Next question." },
  ];

  test('rendered in order into the prefix, the later ones dropped past the token budget', async () => {
    const persona: Persona = { name: 'Hilde', sampleLines: SAMPLES };
    const all = await firstRequest(persona, 0);
    expect(all.systemInstruction).toContain(
      'How you sound (examples, not a script):\n- "Nice weather." → "Weather doesn\'t shoe horses."\n- "Can you mend my sword?" → "Leave it on the anvil."\n- "Hrmph."\n- "Why did you leave the capital?"',
    );
    const two = renderSampleLines(SAMPLES, 50);
    expect([two.shown, two.dropped]).toEqual([2, 2]);
    expect(two.tokens).toBe(estimateTokens(two.text));
    expect(two.tokens).toBeLessThanOrEqual(50);
    const budgeted = await firstRequest(persona, 0, { sampleLineTokens: 50 });
    expect(budgeted.systemInstruction).toContain(two.text);
    expect(budgeted.systemInstruction).not.toContain('Hrmph');
    const none = await firstRequest(persona, 0, { sampleLineTokens: 0 });
    expect(none.systemInstruction).not.toContain('How you sound');
  });

  test('checked by the schema: an answer is required, other keys are named', () => {
    const problems = (sampleLines: unknown) => {
      const result = validatePersona({ name: 'H', sampleLines });
      return result.ok ? [] : result.problems.map((problem) => `${problem.field}: ${problem.message}`);
    };
    expect(problems([{ player: 'hi' }])).toContain('persona.sampleLines[0].npc: is required');
    expect(problems([{ npc: 'x', reply: 'y' }])).toContain(
      'persona.sampleLines[0].reply: is not a sample line field; did you mean "npc"?',
    );
    expect(problems([{ npc: '   ' }])).toContain('persona.sampleLines[0].npc: must not be empty');
    expect(
      () => new NPC({ persona: { name: 'H', sampleLines: 'hello' }, model: new ScriptedLanguageModel([]) }),
    ).toThrow('persona.sampleLines: must be a list');
  });
});
