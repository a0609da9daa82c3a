/** Prompt layout: a byte-stable prefix, labelled conversation, tool output limits and the token budget. */
import { Agent, AgentTool, JsonSchema, type TranscriptEntry } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { failure, FAST, tavernAgent } from './helpers';

describe('the stable prefix', () => {
  test.each([[true], [false]])('identical across every step and turn (inlineReplies %s)', async (inline) => {
    const steps = inline
      ? [
          Script.call('check_menu'),
          Script.reply('Ale 3.'),
          Script.reply('Bye.'),
          Script.call('take_order', { item: 'ale', quantity: 1 }),
          Script.call('take_order', { item: 'ale', quantity: 1 }),
          'Enjoy.',
        ]
      : [
          Script.action('check_menu'),
          Script.action('respond'),
          'Ale 3.',
          Script.action('respond'),
          'Bye.',
          '{"item": "ale", "quantity": 1}',
          Script.action('respond'),
          'Enjoy.',
        ];
    const { agent, model } = tavernAgent(steps, { inlineReplies: inline });
    await agent.respond('Menu?');
    agent.contextNote = 'It is raining outside.';
    await agent.respond('Bye', { context: 'The player is leaving.' });
    await agent.respond('One ale', { toolChoice: { tool: 'take_order' } });
    expect(new Set(model.kinds).size).toBeGreaterThanOrEqual(inline ? 2 : 3);
    const first = model.requests[0];
    expect(first.systemInstruction).toBe('You are Mira, an innkeeper.');
    expect(first.promptPrefix).toContain(inline ? 'Tools:\n- check_menu(): ' : 'Tools Assistant can use:');
    for (const request of model.requests) {
      expect(request.systemInstruction).toBe(first.systemInstruction);
      expect(request.promptPrefix).toBe(first.promptPrefix);
    }
    // What changes goes after the prefix: the note and the turn's context lead the prompt.
    const later = model.requests.find((request) => request.prompt.includes('Bye'))!;
    expect(later.prompt.startsWith('It is raining outside.\n\nThe player is leaving.\n\nConversation:\n')).toBe(true);
    expect(first.promptPrefix).not.toContain('raining');
  });

  test('the seed-mode prefix teaches the seed envelope; the default one the short form', async () => {
    const inline = tavernAgent([Script.reply('x')]);
    const seed = tavernAgent([Script.action('respond'), 'x'], { inlineReplies: false });
    await inline.agent.respond('Hi');
    await seed.agent.respond('Hi');
    // Words without a trailer need no rule: the step ends on the speaker's cue.
    expect(inline.model.requests[0].promptPrefix).not.toContain('Reply with');
    expect(inline.model.requests[0].prompt.endsWith('\n\nAssistant:')).toBe(true);
    expect(seed.model.requests[0].promptPrefix).toContain('{"action":"respond","arguments":{}}');
    // The example uses a concrete value of the first tool with parameters, in Gemma's call syntax.
    expect(inline.model.requests[0].promptPrefix).toContain(
      'write only its call first: take_order(item="ale", quantity=1)',
    );
  });

  test('without system-instruction support the instructions move into the prefix', async () => {
    const model = new ScriptedLanguageModel([Script.reply('Hi.'), Script.reply('Again.')], {
      capabilities: { systemInstructions: false },
    });
    const fixture = tavernAgent([]);
    const agent = new Agent(model, { instructions: 'You are Mira.', tools: [fixture.menu] });
    await agent.respond('Hi');
    await agent.respond('Hi again');
    for (const request of model.requests) {
      expect(request.systemInstruction).toBeUndefined();
      expect(request.promptPrefix!.startsWith('You are Mira.\n\nTools:\n')).toBe(true);
    }
    expect(model.requests[0].promptPrefix).toBe(model.requests[1].promptPrefix);
  });

  test('a first plain turn without tools is sent raw; later turns are labelled', async () => {
    const model = new ScriptedLanguageModel(['Hello!', 'Fine.']);
    const agent = new Agent(model, { instructions: 'You are Brom.' });
    await agent.respond('Hi there');
    expect(model.requests[0]).toMatchObject({
      kind: 'respond',
      prompt: 'Hi there',
      systemInstruction: 'You are Brom.',
    });
    expect(model.requests[0].promptPrefix).toBeUndefined();
    await agent.respond('How are you?');
    expect(model.requests[1].prompt).toBe(
      'Conversation:\nUser: Hi there\nAssistant: Hello!\nUser: How are you?\n\nAssistant:',
    );
  });

  test('a context note means the first turn is not raw', async () => {
    const model = new ScriptedLanguageModel(['Hello!']);
    const agent = new Agent(model);
    await agent.respond('Hi', { context: 'Night time.' });
    expect(model.requests[0].prompt.startsWith('Night time.\n\nConversation:\nUser: Hi')).toBe(true);
  });
});

describe('labels', () => {
  test('configurable speaker labels in the conversation, prefix and task', async () => {
    const { agent, model } = tavernAgent(
      [Script.reply('Welcome!'), Script.call('check_menu'), Script.reply('Ale 3.')],
      { labels: { user: 'Player', assistant: 'Mira' } },
    );
    await agent.respond('Hello');
    await agent.respond('Menu?');
    expect(model.requests[0].prompt.endsWith('Player: Hello\n\nMira:')).toBe(true);
    expect(model.requests[0].promptPrefix).toContain("If you need a tool's result");
    expect(model.requests[2].prompt).toContain(
      'Player: Hello\nMira: Welcome!\nPlayer: Menu?\n[check_menu {} → {"ale":3,"stew":5,"bread":1}]',
    );
  });

  test('a reply that starts with the speaker label has it removed', async () => {
    const { agent } = tavernAgent([Script.reply('Mira: **Welcome** in!')], {
      labels: { user: 'Player', assistant: 'Mira' },
    });
    expect((await agent.respond('Hi')).text).toBe('**Welcome** in!');
  });

  test.each([['Play:er'], [''], ['Two\nlines']])('a bad label %j is invalid_request', (label) => {
    expect(() => tavernAgent([], { labels: { user: label } })).toThrow(/labels.user/);
  });
});

describe('tool outputs in the prompt', () => {
  const long = 'x'.repeat(3000);
  const scroll = () => AgentTool.local({ name: 'read_scroll', description: 'Reads.' }, () => long);

  test('cut at 1500 characters by default; the record keeps all of it', async () => {
    const model = new ScriptedLanguageModel([Script.call('read_scroll'), Script.reply('A long scroll.')]);
    const agent = new Agent(model, { tools: [scroll()] });
    const response = await agent.respond('Read');
    expect(model.requests[1].prompt).toContain(`→ ${'x'.repeat(1500)}… (truncated)]`);
    expect(model.requests[1].prompt).not.toContain('x'.repeat(1501));
    expect(response.toolCalls[0].output).toEqual({ kind: 'text', text: long });
  });

  test('maxToolOutputChars applies to history lines too; below 50 is refused', async () => {
    const model = new ScriptedLanguageModel([
      Script.call('read_scroll'),
      Script.reply('Done.'),
      Script.reply('Again.'),
    ]);
    const agent = new Agent(model, { tools: [scroll()], config: { context: { maxToolOutputChars: 100 } } });
    await agent.respond('Read');
    await agent.respond('And?');
    expect(model.requests[2].prompt).toContain(`→ ${'x'.repeat(100)}… (truncated)]`);
    expect(() => agent.configure({ context: { maxToolOutputChars: 10 } })).toThrow(/maxToolOutputChars/);
  });
});

describe('the token budget', () => {
  /** Three history turns of about 100 estimated tokens each. */
  function history(): TranscriptEntry[] {
    const out: TranscriptEntry[] = [];
    for (const turn of [1, 2, 3]) {
      out.push({ type: 'prompt', text: `Question ${turn} ${'ok '.repeat(45).trim()}` });
      out.push({ type: 'response', text: `Answer ${turn} ${'so '.repeat(45).trim()}` });
    }
    return out;
  }

  async function budgetAgent(countTokens?: (text: string) => number, context = {}) {
    const model = new ScriptedLanguageModel(['Fine.'], countTokens ? { countTokens } : {});
    const agent = new Agent(model, {
      config: { ...FAST, context: { maxInputTokens: 300, reservedTokens: 0, ...context } },
    });
    await agent.replaceHistory(history());
    return { model, agent };
  }

  test('drops whole oldest turns until the prompt fits, keeping the newest', async () => {
    const { agent, model } = await budgetAgent();
    const run = agent.run('Next');
    const trimmed: number[] = [];
    run.on('step', (event) => trimmed.push(event.step.trimmedTurns));
    await run.response();
    const prompt = model.requests[0].prompt;
    expect(trimmed).toEqual([1]);
    expect(prompt).not.toContain('Question 1');
    expect(prompt).not.toContain('Answer 1');
    expect(prompt).toContain('Question 2');
    expect(prompt).toContain('Answer 3');
    expect(prompt).toContain('User: Next');
    // Trimming hides turns from the model only; the history keeps everything.
    expect(agent.history).toHaveLength(8);
  });

  test("past 60% of the budget the model's own count decides (here it counts double)", async () => {
    const counted: string[] = [];
    const { agent, model } = await budgetAgent((text) => {
      counted.push(text);
      return Math.ceil(text.length / 2);
    });
    const run = agent.run('Next');
    const trimmed: number[] = [];
    run.on('step', (event) => trimmed.push(event.step.trimmedTurns));
    await run.response();
    expect(counted.length).toBeGreaterThan(0);
    expect(trimmed).toEqual([2]);
    expect(model.requests[0].prompt).not.toContain('Question 2');
    expect(model.requests[0].prompt).toContain('Question 3');
  });

  test('countTokens is not used for a small prompt (below 60% of the budget)', async () => {
    const counted: string[] = [];
    const model = new ScriptedLanguageModel(['Hi.', 'Again.'], {
      countTokens: (text) => {
        counted.push(text);
        return text.length;
      },
    });
    const agent = new Agent(model, { instructions: 'Be brief.' });
    await agent.respond('Hi');
    await agent.respond('Hi again');
    expect(counted).toEqual([]);
  });

  test('a countTokens that fails or returns null falls back to the estimate', async () => {
    const { agent } = await budgetAgent(() => null as unknown as number);
    const run = agent.run('Next');
    const trimmed: number[] = [];
    run.on('step', (event) => trimmed.push(event.step.trimmedTurns));
    await run.response();
    expect(trimmed).toEqual([1]);
  });

  test('context_size_exceeded when the current turn alone does not fit; nothing changes', async () => {
    const { agent, model } = await budgetAgent();
    const before = agent.history;
    const error = await failure(agent.respond('y'.repeat(2000)));
    expect(error.code).toBe('context_size_exceeded');
    expect(model.calls).toBe(0);
    expect(agent.history).toEqual(before);
  });

  test('with trimming off, an over-long history is context_size_exceeded', async () => {
    const { agent, model } = await budgetAgent(undefined, { trimsHistory: false });
    expect((await failure(agent.respond('Next'))).code).toBe('context_size_exceeded');
    expect(model.calls).toBe(0);
  });

  test("the current turn's tool outputs are never trimmed", async () => {
    const big = AgentTool.local({ name: 'read', description: 'Reads.', parameters: JsonSchema.obj({}) }, () =>
      'zed '.repeat(150).trim(),
    );
    const model = new ScriptedLanguageModel([Script.call('read'), Script.reply('Done.')]);
    const agent = new Agent(model, { tools: [big], config: { context: { maxInputTokens: 400, reservedTokens: 0 } } });
    await agent.replaceHistory(history());
    await agent.respond('Read it');
    expect(model.requests[1].prompt).toContain('zed '.repeat(150).trim());
    expect(model.requests[1].prompt).not.toContain('Question 1');
  });
});
