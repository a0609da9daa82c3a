/**
 * readRenderedTurn reads the turn in progress back from a step's prompt, so scripted and
 * keyword models need no private channel beside the request. Round trips through the real
 * renderer: every prompt a turn sends, compared with the turn the agent was running.
 */
import {
  Agent,
  AgentTool,
  JsonSchema,
  ToolOutput,
  type AgentConfigInput,
  type GenerationRequest,
  type LanguageModel,
} from '../../src';
import { KeywordModel, ScriptedLanguageModel, Script, type ScriptStep } from '../../src/testing';
import { readRenderedTurn, clip, oneLine } from '../../src/core/prompt/render-conversation';
import { buildStepPrompt, TokenCounter } from '../../src/core/prompt/prompt-builder';
import type { TranscriptEntry } from '../../src/core/transcript';
import {
  argumentsTask,
  decideTask,
  lineFirstTask,
  repairNote,
  respondTask,
  structuredTask,
} from '../../src/core/prompt/task-lines';

interface TurnSoFar {
  prompt: string;
  toolResults: Array<{ tool: string; args: unknown; output: string }>;
}

/** The agent each recorded model belongs to, so a step can look at the turn it runs in. */
const agentOfModel = new WeakMap<LanguageModel, Agent>();

function agentOf(model: LanguageModel, options?: ConstructorParameters<typeof Agent>[1]): Agent {
  const agent = new Agent(model, options);
  agentOfModel.set(model, agent);
  return agent;
}

/** The running turn as the agent holds it (its transcript includes the turn in progress). */
function turnSoFar(agent: Agent): TurnSoFar {
  const entries = agent.transcript.entries;
  const start = entries.map((entry) => entry.type).lastIndexOf('prompt');
  const turn = entries.slice(start);
  const first = turn[0] as Extract<TranscriptEntry, { type: 'prompt' }>;
  const toolResults = turn
    .filter((entry): entry is Extract<TranscriptEntry, { type: 'toolUse' }> => entry.type === 'toolUse')
    .map((entry) => ({ tool: entry.call.name, args: entry.call.args, output: ToolOutput.render(entry.output) }));
  return { prompt: first.text, toolResults };
}

/** What each request's prompt reads back as, beside what the agent's turn really held. */
function recorder(steps: Array<ScriptStep | string>) {
  const seen: Array<{ request: GenerationRequest; read: ReturnType<typeof readRenderedTurn>; turn: TurnSoFar }> = [];
  const model: ScriptedLanguageModel = new ScriptedLanguageModel(
    steps.map((step) =>
      Script.dynamic((request) => {
        seen.push({
          request,
          read: readRenderedTurn(request.prompt),
          turn: turnSoFar(agentOfModel.get(model) as Agent),
        });
        return step;
      }),
    ),
  );
  return { model, seen };
}

/** A text output with line breaks, brackets, blank lines, labels and task-like words of its own. */
const MULTI_LINE =
  'Ale: 3 gold\nStew: 5 gold [hot]\n\n[not a call]\nMira: not a line either]\n\nWrite me a letter.\n[x {} → y';

function tools(): AgentTool[] {
  const menu = AgentTool.local({ name: 'check_menu', description: 'Lists the menu.' }, () => MULTI_LINE);
  const order = AgentTool.local(
    {
      name: 'take_order',
      description: 'Serves an item.',
      parameters: JsonSchema.obj({ item: JsonSchema.string(), note: JsonSchema.string() }),
    },
    (args: { item: string; note: string }) => ({ served: args.item, note: args.note }),
  );
  return [menu, order];
}

/** Checks every recorded read against the turn the agent was running when the request was made. */
function expectRoundTrip(seen: ReturnType<typeof recorder>['seen'], maxOutputChars = 1500): void {
  expect(seen.length).toBeGreaterThan(0);
  for (const { request, read, turn } of seen) {
    expect(read.prompt).toBe(request.prompt.startsWith(turn.prompt) ? turn.prompt : oneLine(turn.prompt));
    expect(read.toolResults).toEqual(
      turn.toolResults.map((result) => ({ ...result, output: clip(result.output, maxOutputChars) })),
    );
  }
}

describe.each<[string, AgentConfigInput]>([
  ['line-first', {}],
  ['JSON envelopes', { lineFirst: false }],
  ['seed-compatible', { inlineReplies: false }],
])('round trip in %s mode', (_mode, config) => {
  it("reads the player's line and this turn's tool uses over a history, a note and tricky outputs", async () => {
    const order = Script.call('take_order', { item: 'ale ]\n→ x', note: 'Sam: "two" {x}' });
    // The seed's mode asks for the words in a reply step of their own after each decide step.
    const seed = config.inlineReplies === false;
    const { model, seen } = recorder(
      seed
        ? [
            Script.reply('Welcome!'),
            'Welcome!',
            Script.call('check_menu'),
            order,
            Script.reply('Two ales.'),
            'Two ales.',
          ]
        : [Script.reply('Welcome!'), Script.call('check_menu'), order, Script.reply('Two ales.')],
    );
    const agent = agentOf(model, {
      instructions: 'You are Mira.',
      tools: tools(),
      config: { ...config, labels: { user: 'Player', assistant: 'Mira' } },
    });
    agent.contextNote = 'Memory:\n- Player likes ale.\n\nConversation:\nPlayer: a note that looks like one';
    await agent.respond('Hello there');
    await agent.respond('Menu?\nAnd then:\n\nWrite me two ales.');
    expectRoundTrip(seen);
    const orderStep = seen.find((step) => step.read.toolResults.length === 2);
    expect(orderStep?.read.toolResults[0]).toEqual({ tool: 'check_menu', args: {}, output: MULTI_LINE });
    expect(orderStep?.read.toolResults[1].args).toEqual({ item: 'ale ]\n→ x', note: 'Sam: "two" {x}' });
  });

  it('reads a repair step, whose note quotes the invalid answer', async () => {
    const { model, seen } = recorder([
      Script.call('check_menu'),
      'Conversation:\nPlayer: fake\n[check_menu {} → fake]',
      Script.reply('Here it is.'),
      Script.reply('Here it is.'),
    ]);
    const agent = agentOf(model, { tools: tools(), config });
    await agent
      .respond('What is there?', { schema: JsonSchema.obj({ answer: JsonSchema.string() }) })
      .catch(() => undefined);
    expect(seen.some((step) => step.request.isRepair)).toBe(true);
    expectRoundTrip(seen);
  });
});

describe('raw prompts and clipping', () => {
  it('reads a first plain turn sent raw, several lines and all', async () => {
    const { model, seen } = recorder(['Hi.']);
    await agentOf(model).respond('Line one\n\nLine two: more');
    expect(seen[0].request.prompt).toBe('Line one\n\nLine two: more');
    expectRoundTrip(seen);
    expect(seen[0].read.prompt).toBe('Line one\n\nLine two: more');
  });

  it('cuts the task from a raw structured prompt', async () => {
    const { model, seen } = recorder([Script.json({ answer: 'yes' })]);
    await agentOf(model).respond('Is it warm?', { schema: JsonSchema.obj({ answer: JsonSchema.string() }) });
    expect(seen[0].request.prompt).not.toBe('Is it warm?');
    expect(seen[0].read).toEqual({ prompt: 'Is it warm?', toolResults: [] });
  });

  it('gives a long output as the model saw it, clipped', async () => {
    const long = AgentTool.local({ name: 'read_book', description: 'Reads the book.' }, () => 'x'.repeat(300));
    const { model, seen } = recorder([Script.call('read_book'), Script.reply('A long book.')]);
    await agentOf(model, { tools: [long], config: { context: { maxToolOutputChars: 100 } } }).respond('Read it');
    expectRoundTrip(seen, 100);
    expect(seen[1].read.toolResults[0].output).toBe(`${'x'.repeat(100)}… (truncated)`);
  });

  it('reads an error output', async () => {
    const failing = AgentTool.local({ name: 'open_door', description: 'Opens the door.' }, () =>
      ToolOutput.error('locked'),
    );
    const { model, seen } = recorder([Script.call('open_door'), Script.reply('It is locked.')]);
    await agentOf(model, { tools: [failing] }).respond('Open it');
    expect(seen[1].read.toolResults).toEqual([{ tool: 'open_door', args: {}, output: 'Error: locked' }]);
  });
});

describe('round trip through the prompt builder', () => {
  const labels = { user: 'Player', assistant: 'Mira' };
  const settings = {
    context: { trimsHistory: true, reservedTokens: 256, maxToolOutputChars: 1500, minimumRecentTurns: 1 },
    labels,
  };
  const model = new ScriptedLanguageModel();
  const use = (name: string, args: Record<string, unknown>, text: string): TranscriptEntry => ({
    type: 'toolUse',
    call: { id: `call_${name}`, name, args },
    output: ToolOutput.text(text),
  });
  const history: TranscriptEntry[] = [
    { type: 'prompt', text: 'Hello' },
    use('check_menu', {}, MULTI_LINE),
    { type: 'response', text: 'Welcome!' },
    { type: 'prompt', text: 'Two\nlines' },
    { type: 'response', text: 'Sure.', structured: { emotion: 'happy', line: 'Sure.' } },
    use('remember_fact', { fact: 'Likes ale ]\n→ {x}' }, 'ok'),
  ];
  const current: TranscriptEntry[] = [
    { type: 'prompt', text: 'Menu? [please]' },
    use('check_menu', {}, MULTI_LINE),
    use('take_order', { item: 'ale', note: 'Player: two' }, '{"served":2}'),
  ];
  const expected = {
    prompt: 'Menu? [please]',
    toolResults: [
      { tool: 'check_menu', args: {}, output: MULTI_LINE },
      { tool: 'take_order', args: { item: 'ale', note: 'Player: two' }, output: '{"served":2}' },
    ],
  };

  it.each<[string, string]>([
    [
      'decide',
      decideTask({ required: false, enabled: tools(), allTools: tools(), format: 'lineFirst', assistant: 'Assistant' }),
    ],
    ['respond', respondTask(labels, true)],
    [
      'repair',
      `${structuredTask(labels, JsonSchema.obj({ line: JsonSchema.string() }), true)}\n\n${repairNote('not JSON', 'Conversation:\n\nPlayer: fake\n\nNext step: x')}`,
    ],
  ])('reads the turn of a %s step back', async (_kind, task) => {
    for (const contextNote of ['', 'Memory:\n- Sam likes ale.\n\nSituation: evening']) {
      for (const turn of [current, current.slice(0, 2), current.slice(0, 1)]) {
        const built = await buildStepPrompt({
          input: { kind: 'decide', history, current: turn, contextNote, task },
          stable: {},
          settings,
          model,
          counter: new TokenCounter(model),
        });
        expect(readRenderedTurn(built.request.prompt)).toEqual({
          prompt: expected.prompt,
          toolResults: expected.toolResults.slice(0, turn.length - 1),
        });
      }
    }
  });

  it('reads a first turn without history', async () => {
    const built = await buildStepPrompt({
      input: {
        kind: 'decide',
        history: [],
        current,
        contextNote: '',
        task: 'Next step: a tool whose result you need, or your reply.',
      },
      stable: {},
      settings,
      model,
      counter: new TokenCounter(model),
    });
    expect(readRenderedTurn(built.request.prompt)).toEqual(expected);
  });
});

describe('every task line is recognised where the conversation ends', () => {
  const labels = { user: 'User', assistant: 'Assistant' };
  const schema = JsonSchema.obj({ emotion: JsonSchema.string(), line: JsonSchema.string() });
  const [menu, order] = tools();
  const tasks: Array<[string, string]> = [
    [
      'decide, line first',
      decideTask({
        required: false,
        enabled: [menu],
        allTools: [menu, order],
        format: 'lineFirst',
        assistant: 'Assistant',
      }),
    ],
    [
      'decide, inline',
      decideTask({
        required: false,
        enabled: [menu, order],
        allTools: [menu, order],
        format: 'inline',
        assistant: 'Assistant',
      }),
    ],
    [
      'decide, seed',
      decideTask({
        required: false,
        enabled: [menu, order],
        allTools: [menu, order],
        format: 'seed',
        assistant: 'Assistant',
      }),
    ],
    [
      'decide, required',
      decideTask({
        required: true,
        enabled: [order],
        allTools: [menu, order],
        format: 'inline',
        assistant: 'Assistant',
      }),
    ],
    ['arguments', argumentsTask(order)],
    ['respond', respondTask(labels, true)],
    ['structured', structuredTask(labels, schema, false)],
    ['content', structuredTask({ user: 'Game', assistant: 'Writer', writes: 'content' }, schema, false)],
    ['content with tools', structuredTask({ user: 'Game', assistant: 'Writer', writes: 'content' }, schema, true)],
    ['line first', lineFirstTask({ labels, schema, lineField: 'line', usedTools: true })],
    ['repair', repairNote('the answer was not JSON', 'Conversation:\nUser: fake')],
  ];
  it.each(tasks)('%s', (_name, task) => {
    const prompt = `Conversation:\nUser: Hello\n[check_menu {} → ale\n\n]\n\n${task}`;
    expect(readRenderedTurn(prompt)).toEqual({
      prompt: 'Hello',
      toolResults: [{ tool: 'check_menu', args: {}, output: 'ale\n\n' }],
    });
  });
});

describe('models that read the turn need nothing beside the prompt', () => {
  it("a keyword rule matches the player's words, calls its tools once and sees their results", async () => {
    const model = new KeywordModel({
      rules: [
        {
          when: ['menu'],
          tools: [{ name: 'check_menu' }],
          reply: (ctx) =>
            `I read: ${ctx.toolResults.map((result) => result.output).join('; ')} (you said "${ctx.said}")`,
        },
      ],
      otherwise: 'Hm?',
    });
    const agent = agentOf(model, { tools: tools(), config: { labels: { user: 'Player', assistant: 'Mira' } } });
    const response = await agent.respond('Show me the menu');
    expect(response.toolCalls.map((record) => record.call.name)).toEqual(['check_menu']);
    expect(response.text).toBe(`I read: ${MULTI_LINE} (you said "Show me the menu")`);
    expect((await agent.respond('Nice weather')).text).toBe('Hm?');
  });

  it("a template fills the player's words and this turn's outputs, not an earlier turn's", async () => {
    const model = ScriptedLanguageModel.fromNativeScript({
      type: 'scripted',
      steps: [
        { toolCalls: [{ name: 'take_order', arguments: { item: 'ale', note: 'cold' } }] },
        { template: '{prompt} → {toolOutputs}' },
        { template: '{prompt} → [{toolOutputs}]' },
      ],
    });
    const agent = agentOf(model, { tools: tools() });
    expect((await agent.respond('An ale')).text).toBe('An ale → {"served":"ale","note":"cold"}');
    expect((await agent.respond('Thanks', { toolChoice: 'none' })).text).toBe('Thanks → []');
  });
});
