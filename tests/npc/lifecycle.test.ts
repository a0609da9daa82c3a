/**
 * Around the turns: barks, background and manual compaction, save/restore, reset, and NPCs
 * sharing one ModelScheduler.
 */
import { ModelScheduler, NPC, NPC_SAVE_VERSION, type GenerationRequest } from '../../src';
import { Script, ScriptedLanguageModel, readRenderedTurn, type ScriptStep } from '../../src/testing';
import { MIRA, failure, mira, requestText, tavernTools, until } from './helpers';

const REPLY = JSON.stringify({ emotion: 'happy', line: 'Aye.' });

describe('bark', () => {
  test('one cleaned line, a low-priority text request; no history, memory or secrets', async () => {
    const { npc, model } = mira([Script.text('[happy] Mira: "Fresh bread, still warm!"\nAnd another line.')], {
      memory: { relationship: 100, facts: ['Sam likes stew.'] },
    });
    const line = await npc.bark('The morning bread comes out of the oven.');
    expect(line).toBe('Fresh bread, still warm!');
    expect(model.calls).toBe(1);
    const request = model.requests[0];
    expect(request.kind).toBe('text');
    expect(request.priority).toBeLessThan(50);
    expect(request.maxOutputTokens).toBe(48);
    expect(requestText(request)).toContain('The morning bread comes out of the oven.');
    expect(requestText(request)).not.toContain('mayor');
    expect(requestText(request)).not.toContain('Sam likes stew');
    expect(npc.history).toEqual([]);
    expect(npc.turnCount).toBe(0);
  });

  test('includes the world summary; honours barkMaxTokens and a priority', async () => {
    const { WorldState } = await import('../../src');
    const world = new WorldState({ weather: 'storm' });
    const { npc, model } = mira([Script.text('What a storm!')], {
      world,
      options: { worldContextPaths: ['weather'], barkMaxTokens: 20 },
    });
    await npc.bark('Thunder rolls.', { priority: 3 });
    expect(model.requests[0].prompt).toContain('weather: storm');
    expect(model.requests[0].maxOutputTokens).toBe(20);
    expect(model.requests[0].priority).toBe(3);
  });

  test('an empty bark → generation_failed', async () => {
    const { npc } = mira([Script.text('  \n  '), Script.text('[happy]')]);
    expect((await failure(npc.bark('Quiet night.'))).code).toBe('generation_failed');
    expect((await failure(npc.bark('Quiet night.'))).code).toBe('generation_failed');
  });

  test('a missing or blank situation → invalid_request, no model call', async () => {
    const { npc, model } = mira([]);
    expect((await failure(npc.bark(''))).code).toBe('invalid_request');
    expect((await failure(npc.bark('   '))).code).toBe('invalid_request');
    expect((await failure(npc.bark(42 as never))).code).toBe('invalid_request');
    expect(model.calls).toBe(0);
  });

  test('model errors are thrown as they are', async () => {
    const { npc } = mira([Script.fail('guardrail_violation')]);
    expect((await failure(npc.bark('Something rude happens.'))).code).toBe('guardrail_violation');
  });

  test('runs while a conversation turn is in progress', async () => {
    const model = new ScriptedLanguageModel([], {
      fallback: Script.dynamic((request) =>
        request.kind === 'text'
          ? 'Lovely evening!'
          : { type: 'delay', ms: 10, then: Script.json({ emotion: 'happy', line: 'Hello.' }) },
      ),
    });
    const npc = new NPC({ persona: MIRA, model });
    const talking = npc.talk('Hi');
    expect(await npc.bark('Sunset.')).toBe('Lovely evening!');
    expect((await talking).line).toBe('Hello.');
  });
});

/** A model that answers summaries with `summary` and everything else with a short reply. */
function summarising(summary: (request: GenerationRequest) => ScriptStep | string) {
  return new ScriptedLanguageModel([], {
    fallback: Script.dynamic((request) => (request.kind === 'summary' ? summary(request) : REPLY)),
  });
}

describe('compaction', () => {
  test('after compactAfterTurns, in the background: a summary request, memory.summary set, oldest turns dropped', async () => {
    const model = summarising(() => 'Sam asked about stew twice.');
    const npc = new NPC({ persona: MIRA, model, options: { compactAfterTurns: 3, keepRecentTurns: 1 } });
    await npc.talk('one');
    await npc.talk('two');
    expect(model.kinds).not.toContain('summary');
    await npc.talk('three');
    const saved = await npc.settledState();
    expect(model.kinds.filter((kind) => kind === 'summary')).toHaveLength(1);
    const summaryRequest = model.requests.find((request) => request.kind === 'summary') as GenerationRequest;
    expect(summaryRequest.prompt).toContain('Player: one');
    expect(summaryRequest.prompt).toContain('Player: two');
    expect(summaryRequest.prompt).not.toContain('Player: three');
    expect(summaryRequest.priority).toBe(0);
    expect(npc.memory.summary).toBe('Sam asked about stew twice.');
    expect(saved.memory.summary).toBe('Sam asked about stew twice.');
    expect(npc.turnCount).toBe(1);
    const prompts = npc.history
      .filter((entry) => entry.type === 'prompt')
      .map((entry) => (entry as { text: string }).text);
    expect(prompts).toEqual(['three']);
    // The next turn carries the summary in its memory note.
    await npc.talk('four');
    expect(model.requests[model.requests.length - 1].prompt).toContain(
      'Earlier conversation: Sam asked about stew twice.',
    );
  });

  test('the next turn does not wait for the summary', async () => {
    const model = summarising(() => ({ type: 'hang' }));
    const npc = new NPC({ persona: MIRA, model, options: { compactAfterTurns: 2, keepRecentTurns: 1 } });
    await npc.talk('one');
    await npc.talk('two');
    await until(() => model.kinds.indexOf('summary') >= 0, 'the summary request');
    const turn = await npc.talk('three'); // the summary is still hanging
    expect(turn.line).toBe('Aye.');
    expect(npc.turnCount).toBe(3);
    expect(npc.memory.summary).toBe('');
  });

  test('a failed summary changes nothing', async () => {
    const model = summarising(() => Script.fail('busy'));
    const npc = new NPC({ persona: MIRA, model, options: { compactAfterTurns: 2, keepRecentTurns: 1 } });
    await npc.talk('one');
    await npc.talk('two');
    await npc.settledState();
    expect(model.kinds).toContain('summary');
    expect(npc.turnCount).toBe(2);
    expect(npc.memory.summary).toBe('');
  });

  test('compactAfterTurns 0 never compacts', async () => {
    const model = summarising(() => 'never');
    const npc = new NPC({ persona: MIRA, model, options: { compactAfterTurns: 0 } });
    for (let index = 0; index < 10; index++) await npc.talk(`line ${index}`);
    await npc.settledState();
    expect(model.kinds).not.toContain('summary');
    expect(npc.turnCount).toBe(10);
  });

  test('manual compact(): folds all but keepRecentTurns; with too few turns, null and no model call', async () => {
    const model = summarising((request) =>
      request.prompt.includes('Earlier summary: First part.') ? 'Both parts.' : 'First part.',
    );
    const npc = new NPC({ persona: MIRA, model, options: { compactAfterTurns: 0, keepRecentTurns: 2 } });
    await npc.talk('one');
    await npc.talk('two');
    expect(await npc.compact()).toBeNull();
    expect(model.kinds).not.toContain('summary');
    await npc.talk('three');
    expect(await npc.compact()).toBe('First part.');
    expect(npc.turnCount).toBe(2);
    await npc.talk('four');
    expect(await npc.compact()).toBe('Both parts.'); // the earlier summary is folded in
    expect(npc.memory.summary).toBe('Both parts.');
  });

  test('an empty summary keeps the history (generation_failed, as for Agent.compactHistory)', async () => {
    const model = summarising(() => '   ');
    const npc = new NPC({ persona: MIRA, model, options: { compactAfterTurns: 0, keepRecentTurns: 0 } });
    await npc.talk('one');
    await expect(npc.compact()).rejects.toMatchObject({ code: 'generation_failed' });
    expect(npc.turnCount).toBe(1);
    expect(npc.memory.summary).toBe('');
  });
});

describe('saveState and NPC.restore', () => {
  async function talkedNPC() {
    const tools = tavernTools();
    const setup = {
      tools: [tools.menu],
      options: { memoryTools: 'all' as const, maxToolRounds: 3, compactAfterTurns: 0 },
    };
    const { npc } = mira(
      [
        Script.call('remember_fact', { fact: 'Sam likes stew.' }),
        Script.call('change_relationship', { reason: 'kind', delta: 7 }),
        Script.reply({ emotion: 'happy', line: 'Stew for Sam!' }),
        Script.call('check_menu'),
        Script.reply({ emotion: 'neutral', line: 'Ale is 3.' }),
      ],
      { ...setup, persona: { ...MIRA, greeting: 'Welcome!', fallbackLines: ['Eh?'] } },
    );
    await npc.talk('I love stew');
    await npc.talk('And ale?');
    return { npc, setup };
  }

  test('round-trips exactly through JSON (history, memory, persona)', async () => {
    const { npc, setup } = await talkedNPC();
    const saved = npc.saveState();
    expect(saved.version).toBe(NPC_SAVE_VERSION);
    const text = JSON.stringify(saved);
    const model = new ScriptedLanguageModel([Script.reply({ emotion: 'happy', line: 'Welcome back, Sam.' })]);
    const restored = NPC.restore(JSON.parse(text), { model, ...setup });
    expect(restored.history).toEqual(npc.history);
    expect(restored.memory.snapshot()).toEqual(npc.memory.snapshot());
    expect(restored.memory.snapshot()).toEqual({ facts: ['Sam likes stew.'], relationship: 7, summary: '' });
    expect(restored.persona).toEqual(npc.persona);
    expect(restored.saveState()).toEqual(saved);
    expect(restored.turnCount).toBe(2);
    // The restored NPC carries on the conversation.
    await restored.talk('Hello again');
    expect(model.requests[0].prompt).toContain('Player: I love stew');
    expect(model.requests[0].prompt).toContain('Mira: Ale is 3.');
    expect(model.requests[0].prompt).toContain('Sam likes stew.');
  });

  test('restores from a JSON string too', async () => {
    const { npc, setup } = await talkedNPC();
    const restored = NPC.restore(JSON.stringify(npc.saveState()), { model: new ScriptedLanguageModel([]), ...setup });
    expect(restored.history).toEqual(npc.history);
  });

  test('a save leaves out a turn in progress', async () => {
    const { npc, model } = mira([Script.json({ emotion: 'happy', line: 'One.' }), Script.hang()]);
    await npc.talk('one');
    const stream = npc.talkStream('two');
    await until(() => model.calls === 2, 'the second turn');
    const saved = npc.saveState();
    expect(JSON.stringify(saved.transcript)).toContain('"one"');
    expect(JSON.stringify(saved.transcript)).not.toContain('"two"');
    const restored = NPC.restore(saved, { model: new ScriptedLanguageModel([]) });
    expect(restored.turnCount).toBe(1);
    stream.cancel();
    await stream.turn().catch(() => undefined);
  });

  test.each([
    ['null', null],
    ['not JSON text', '{"version": 1,'],
    ['a wrong version', { version: 99, persona: MIRA, memory: {}, transcript: null }],
    ['no version', { persona: MIRA, memory: {}, transcript: null }],
    ['a persona without a name', { version: 1, persona: { role: 'x' }, memory: {}, transcript: null }],
    ['a bad memory', { version: 1, persona: MIRA, memory: { relationship: 'high' }, transcript: null }],
    ['bad facts', { version: 1, persona: MIRA, memory: { facts: 'stew' }, transcript: null }],
    ['a bad transcript', { version: 1, persona: MIRA, memory: {}, transcript: { type: 'nonsense', entries: 5 } }],
  ])('a save with %s is rejected with invalid_request', async (_name, save) => {
    let error: unknown;
    try {
      NPC.restore(save, { model: new ScriptedLanguageModel([]) });
    } catch (thrown) {
      error = thrown;
    }
    expect((error as { code?: string }).code).toBe('invalid_request');
  });

  test("with the current persona: the save gives memory and conversation, the persona's new text wins", async () => {
    const { npc, setup } = await talkedNPC();
    const patched = { ...MIRA, personality: 'Gruff since the fire.' };
    const model = new ScriptedLanguageModel([Script.reply({ emotion: 'neutral', line: 'Sam.' })]);
    const restored = NPC.restore(npc.saveState(), { model, ...setup, persona: patched });
    expect(restored.persona.personality).toBe('Gruff since the fire.');
    expect(restored.history).toEqual(npc.history);
    await restored.talk('Remember me?');
    expect(requestText(model.requests[0])).toContain('Gruff since the fire.');
    expect(requestText(model.requests[0])).not.toContain('Warm and a little nosy.');
  });

  test('the same character by name as a player reads it: case, blanks and Unicode forms do not count', async () => {
    const { npc, setup } = await talkedNPC();
    const model = new ScriptedLanguageModel([]);
    for (const name of ['mira', '  MIRA ', 'Mira'.normalize('NFD')])
      expect(NPC.restore(npc.saveState(), { model, ...setup, persona: { name } }).turnCount).toBe(2);
  });

  test("an old save whose persona no longer passes today's schema still restores into the current persona", async () => {
    const { npc, setup } = await talkedNPC();
    const old = { ...npc.saveState(), persona: { name: 'Mira', mood: 'a field a patch removed' } };
    const model = new ScriptedLanguageModel([]);
    expect(() => NPC.restore(old, { model, ...setup })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    const restored = NPC.restore(old, { model, ...setup, persona: MIRA });
    expect(restored.turnCount).toBe(2);
    expect(() => NPC.restore({ ...old, persona: {} }, { model, ...setup, persona: MIRA })).toThrow(/persona\.name/);
  });

  test('a save of another character is refused naming both, unless acceptOtherPersona', async () => {
    const { npc, setup } = await talkedNPC();
    const model = new ScriptedLanguageModel([]);
    let error: unknown;
    try {
      NPC.restore(npc.saveState(), { model, ...setup, persona: { name: 'Brann' } });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/"Mira", not "Brann"/) });
    const taken = NPC.restore(npc.saveState(), {
      model,
      ...setup,
      persona: { name: 'Brann' },
      acceptOtherPersona: true,
    });
    expect(taken.persona.name).toBe('Brann');
    expect(taken.turnCount).toBe(2);
    expect(model.calls).toBe(0);
  });
});

describe('resetConversation', () => {
  test('forgets the history and keeps the memory; with true, the memory goes too', async () => {
    const { npc, model } = mira(
      [
        Script.json({ emotion: 'happy', line: 'One.' }),
        Script.json({ emotion: 'happy', line: 'Two.' }),
        Script.json({ emotion: 'happy', line: 'Three.' }),
      ],
      { memory: { facts: ['Likes ale.'], relationship: 20 } },
    );
    await npc.talk('one');
    await npc.resetConversation();
    expect(npc.history).toEqual([]);
    expect(npc.memory.facts).toEqual(['Likes ale.']);
    await npc.talk('two');
    expect(model.requests[1].prompt).not.toContain('One.');
    await npc.resetConversation(true);
    expect(npc.memory.snapshot()).toEqual({ facts: [], relationship: 0, summary: '' });
    await npc.talk('three');
    expect(model.requests[2].prompt).not.toContain('Likes ale.');
  });
});

describe('two NPCs sharing one ModelScheduler', () => {
  test('both work and their priorities reach the model', async () => {
    const inner = new ScriptedLanguageModel([], {
      fallback: Script.dynamic((request) =>
        request.kind === 'text'
          ? 'Fine weather.'
          : JSON.stringify({ emotion: 'neutral', line: `${request.label} here.` }),
      ),
    });
    const scheduler = new ModelScheduler(inner, { callsPerMinute: 0 });
    const mira1 = new NPC({ persona: MIRA, model: scheduler });
    const gorm = new NPC({
      persona: { name: 'Gorm', role: 'blacksmith' },
      model: scheduler,
      options: { priority: 60 },
    });
    const [miraTurn, gormTurn, bark] = await Promise.all([
      mira1.talk('Hi Mira'),
      gorm.talk('Hi Gorm'),
      gorm.bark('Hammer rings.'),
    ]);
    expect(miraTurn.line).toBe('Mira here.');
    expect(gormTurn.line).toBe('Gorm here.');
    expect(bark).toBe('Fine weather.');
    const byLabel = (label: string) => inner.requests.find((request) => request.label === label) as GenerationRequest;
    expect(byLabel('Mira').priority).toBe(100);
    expect(byLabel('Gorm').priority).toBe(60);
    expect(byLabel('Gorm (bark)').priority).toBe(10);
    expect(scheduler.stats().completed).toBe(3);
  });
});

describe('a turn rejected while background compaction lands', () => {
  test('the rejected turn never enters the history, whatever compaction dropped meanwhile', async () => {
    const { NPC } = require('../../src') as typeof import('../../src');
    const { ScriptedLanguageModel, Script } = require('../../src/testing') as typeof import('../../src/testing');
    const model = new ScriptedLanguageModel([], {
      fallback: Script.dynamic((request) => {
        if (request.kind === 'summary') return Script.delay(20, Script.text('They said hi.'));
        return readRenderedTurn(request.prompt).prompt === 'first'
          ? Script.json({ emotion: 'happy', line: 'Hi!' })
          : Script.delay(60, Script.json({ emotion: 'happy', line: '' })); // no words: rejected
      }),
    });
    const npc = new NPC({
      persona: { name: 'Mira' },
      model,
      options: { replyFormat: 'structured', compactAfterTurns: 1, keepRecentTurns: 0 },
    });
    await npc.talk('first');
    const second = await npc.talk('second');
    expect(second.isFallback).toBe(true);
    await npc.settledState();
    expect(npc.memory.summary).toBe('They said hi.');
    expect(npc.history).toEqual([]); // turn 1 folded into the summary; turn 2 never committed
  });
});
