/** The conversation as data: save and restore, compaction, reset, replaceHistory, usage. */
import { Agent, type TranscriptEntry } from '../../src';
import { TRANSCRIPT_FORMAT, TRANSCRIPT_VERSION } from '../../src/core/transcript';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { failure, FAST, tavern, tavernAgent, until } from './helpers';

function turns(count: number): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  for (let index = 1; index <= count; index++) {
    out.push({ type: 'prompt', text: `Q${index}` });
    out.push({ type: 'response', text: `A${index}` });
  }
  return out;
}

describe('save and restore', () => {
  test('saveTranscript → new Agent({transcript}) restores the history and the context note', async () => {
    const { agent } = tavernAgent([Script.call('check_menu'), Script.reply('Ale 3.')]);
    agent.contextNote = 'The guest is a regular.';
    await agent.respond('Menu?');
    const saved = agent.saveTranscript();
    expect(saved.type).toBe(TRANSCRIPT_FORMAT);
    expect(saved.version).toBe(TRANSCRIPT_VERSION);
    expect(saved.transcript.instructions).toBe('You are Mira, an innkeeper.');
    expect(saved.transcript.tools.map((tool) => tool.name)).toEqual(['check_menu', 'take_order']);
    expect(saved.transcript.entries.map((entry) => entry.type)).toEqual(['prompt', 'toolUse', 'response']);

    for (const form of [saved, JSON.stringify(saved), JSON.parse(JSON.stringify(saved))]) {
      const fixture = tavern();
      const model = new ScriptedLanguageModel([Script.reply('Welcome back.')]);
      const restored = new Agent(model, {
        instructions: 'You are Mira, an innkeeper.',
        tools: [fixture.menu, fixture.order],
        transcript: form,
      });
      expect(restored.history).toEqual(agent.history);
      expect(restored.contextNote).toBe('The guest is a regular.');
      expect(restored.turnCount).toBe(1);
      await restored.respond('Hello again');
      expect(model.requests[0].prompt).toContain(
        'The guest is a regular.\n\nConversation:\nUser: Menu?\n[check_menu {} → {"ale":3,"stew":5,"bread":1}]\nAssistant: Ale 3.\nUser: Hello again',
      );
    }
  });

  test('saving is a copy: changing it changes nothing', async () => {
    const { agent } = tavernAgent([Script.reply('Hi.')]);
    await agent.respond('Hi');
    const saved = agent.saveTranscript();
    (saved.transcript.entries[0] as { text: string }).text = 'changed';
    agent.history[0] = { type: 'prompt', text: 'also changed' };
    expect(agent.history[0]).toEqual({ type: 'prompt', text: 'Hi' });
  });

  test.each([
    ['not JSON', '{nope'],
    ['not an object', 42],
    ['a wrong type', { type: 'other', version: 1, transcript: { entries: [] } }],
    ['a wrong version', { type: TRANSCRIPT_FORMAT, version: 99, transcript: { entries: [] } }],
    ['no entries', { type: TRANSCRIPT_FORMAT, version: 1, transcript: {} }],
    [
      'a bad entry type',
      { type: TRANSCRIPT_FORMAT, version: 1, transcript: { entries: [{ type: 'shout', text: 'x' }] } },
    ],
    ['a prompt without text', { type: TRANSCRIPT_FORMAT, version: 1, transcript: { entries: [{ type: 'prompt' }] } }],
    [
      'a tool use without an id',
      {
        type: TRANSCRIPT_FORMAT,
        version: 1,
        transcript: { entries: [{ type: 'toolUse', call: { name: 'x' }, output: { kind: 'text', text: 'y' } }] },
      },
    ],
    [
      'a tool use with a bad output',
      {
        type: TRANSCRIPT_FORMAT,
        version: 1,
        transcript: {
          entries: [{ type: 'toolUse', call: { id: 'c', name: 'x', args: {} }, output: { kind: 'nope' } }],
        },
      },
    ],
  ])('a transcript with %s is invalid_request', (_label, transcript) => {
    expect(() => new Agent(new ScriptedLanguageModel(), { transcript })).toThrow(
      expect.objectContaining({ code: 'invalid_request' }),
    );
  });
});

describe('compactHistory', () => {
  test('folds older turns into the context note with one summary call', async () => {
    const model = new ScriptedLanguageModel(['  The guest ordered twice and paid.  ', 'Sure.']);
    const agent = new Agent(model, { config: FAST });
    await agent.replaceHistory(turns(4));
    const note = await agent.compactHistory({ keepRecentTurns: 2 });
    expect(note).toBe('The guest ordered twice and paid.');
    expect(model.kinds).toEqual(['summary']);
    expect(model.requests[0].prompt).toContain('Conversation:\nUser: Q1\nAssistant: A1\nUser: Q2\nAssistant: A2\n');
    expect(model.requests[0].prompt).not.toContain('Q3');
    expect(agent.contextNote).toBe(note);
    expect(agent.history).toEqual(turns(4).slice(4));
    await agent.respond('Next');
    expect(model.requests[1].prompt.startsWith('The guest ordered twice and paid.\n\nConversation:\nUser: Q3')).toBe(
      true,
    );
  });

  test('an earlier note is carried into the next summary; custom instructions are used', async () => {
    const model = new ScriptedLanguageModel(['New summary.']);
    const agent = new Agent(model);
    agent.contextNote = 'Old summary.';
    await agent.replaceHistory(turns(3));
    await agent.compactHistory({ keepRecentTurns: 0, instructions: 'Summarise in five words.' });
    expect(model.requests[0].prompt.startsWith('Earlier summary: Old summary.\n\nConversation:')).toBe(true);
    expect(model.requests[0].prompt.endsWith('Summarise in five words.')).toBe(true);
    expect(agent.history).toEqual([]);
  });

  test('null when there is nothing to compact, without a model call', async () => {
    const model = new ScriptedLanguageModel([]);
    const agent = new Agent(model);
    await agent.replaceHistory(turns(2));
    expect(await agent.compactHistory()).toBeNull();
    expect(model.calls).toBe(0);
  });

  test('a failure or an empty summary changes nothing', async () => {
    const model = new ScriptedLanguageModel([Script.fail('busy'), '   ']);
    const agent = new Agent(model);
    agent.contextNote = 'Keep me.';
    await agent.replaceHistory(turns(4));
    const before = agent.history;
    expect((await failure(agent.compactHistory())).code).toBe('busy');
    expect((await failure(agent.compactHistory())).code).toBe('generation_failed');
    expect(agent.history).toEqual(before);
    expect(agent.contextNote).toBe('Keep me.');
  });

  test('a bad keepRecentTurns is invalid_request', async () => {
    const agent = new Agent(new ScriptedLanguageModel());
    expect((await failure(agent.compactHistory({ keepRecentTurns: -1 }))).code).toBe('invalid_request');
  });
});

describe('history changes', () => {
  test('reset clears history and note, keeps instructions and tools, after the running turn', async () => {
    const { agent, model } = tavernAgent([Script.delay(5, Script.reply('Hi.'))]);
    agent.contextNote = 'note';
    const run = agent.run('Hello');
    const reset = agent.reset();
    await run.response();
    await reset;
    expect(agent.history).toEqual([]);
    expect(agent.contextNote).toBe('');
    expect(agent.instructions).toBe('You are Mira, an innkeeper.');
    expect(agent.tools).toHaveLength(2);
    expect(model.calls).toBe(1);
  });

  test('replaceHistory applies after running turns; bad entries reject with invalid_request', async () => {
    const { agent } = tavernAgent([Script.delay(5, Script.reply('Hi.'))]);
    const run = agent.run('Hello');
    const replaced = agent.replaceHistory(turns(1));
    await run.response();
    await replaced;
    expect(agent.history).toEqual(turns(1));
    expect((await failure(agent.replaceHistory([{ type: 'nope' } as never]))).code).toBe('invalid_request');
    expect((await failure(agent.replaceHistory('x' as never))).code).toBe('invalid_request');
    expect(agent.history).toEqual(turns(1));
  });

  test('the transcript shows the running turn; history only completed ones', async () => {
    const { agent, model } = tavernAgent([Script.call('check_menu'), Script.hang()]);
    const run = agent.run('Menu?');
    await until(() => model.calls === 2, 'the second step');
    expect(agent.transcript.entries.map((entry) => entry.type)).toEqual(['prompt', 'toolUse']);
    expect(agent.history).toEqual([]);
    run.cancel();
    await failure(run.response());
    expect(agent.transcript.entries).toEqual([]);
  });

  test('instructions and configure apply from the next turn', async () => {
    const { agent, model } = tavernAgent([Script.reply('a'), 'b']);
    await agent.respond('1');
    agent.instructions = 'You are Brom.';
    agent.configure({ toolPolicy: { choice: 'none' } });
    await agent.respond('2');
    expect(model.requests[1].systemInstruction).toBe('You are Brom.');
    expect(model.requests[1].kind).toBe('respond');
    expect(() => agent.configure({ retry: { maxAttempts: 0 } })).toThrow(/maxAttempts/);
    expect(agent.config.toolPolicy.choice).toBe('none');
  });

  test('totalUsage adds up the committed turns', async () => {
    const { agent } = tavernAgent([Script.call('check_menu'), Script.reply('Ale 3.'), Script.reply('Bye.')]);
    const first = await agent.respond('Menu?');
    const second = await agent.respond('Bye');
    const total = agent.totalUsage;
    expect(total.inputTokens).toBe(first.usage.inputTokens + second.usage.inputTokens);
    expect(total.outputTokens).toBe(first.usage.outputTokens + second.usage.outputTokens);
    expect(total.inputTokens).toBeGreaterThan(0);
    expect(first.usage.inputTokens).toBe(first.steps.reduce((sum, step) => sum + step.promptTokens, 0));
  });

  test('an agent needs a model', () => {
    expect(() => new Agent(undefined as never)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });
});
