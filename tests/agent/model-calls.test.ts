/**
 * The headline numbers: model calls per turn in the default (inline replies) mode and in the
 * seed-compatible mode, with the exact sequence of step kinds.
 */
import { Script, readRenderedTurn, type ScriptStep } from '../../src/testing';
import { tavernAgent } from './helpers';

type Mode = { name: string; inlineReplies: boolean };
const INLINE: Mode = { name: 'inline replies (default)', inlineReplies: true };
const SEED: Mode = { name: 'seed-compatible', inlineReplies: false };

/** The decide step's "answer now" in each mode: the reply itself, or the seed's respond + a reply step. */
function answer(mode: Mode, text: string): ScriptStep[] {
  return mode.inlineReplies ? [Script.reply(text)] : [Script.action('respond'), Script.text(text)];
}
function call(mode: Mode, name: string, args: Record<string, unknown> = {}): ScriptStep {
  return mode.inlineReplies ? Script.call(name, args) : Script.action(name, args);
}

describe.each([
  [INLINE.name, INLINE, { smallTalk: 1, oneTool: 2, twoTools: 3, none: 1, forcedParameterless: 1 }],
  [SEED.name, SEED, { smallTalk: 2, oneTool: 3, twoTools: 4, none: 1, forcedParameterless: 1 }],
])('model calls per turn, %s', (_name, mode, expected) => {
  const config = { inlineReplies: mode.inlineReplies };

  test('small talk with tools enabled', async () => {
    const { agent, model, log } = tavernAgent(answer(mode, 'Welcome, traveller!'), config);
    const response = await agent.respond('Hello there');
    expect(response.text).toBe('Welcome, traveller!');
    expect(model.calls).toBe(expected.smallTalk);
    expect(response.modelCalls).toBe(expected.smallTalk);
    expect(model.kinds).toEqual(mode.inlineReplies ? ['decide'] : ['decide', 'respond']);
    expect(response.steps.map((step) => step.kind)).toEqual(model.kinds);
    expect(log).toEqual([]);
  });

  test('one tool call', async () => {
    const { agent, model, log } = tavernAgent([call(mode, 'check_menu'), ...answer(mode, 'Ale is 3 coins.')], config);
    const response = await agent.respond('What do you have?');
    expect(response.text).toBe('Ale is 3 coins.');
    expect(model.calls).toBe(expected.oneTool);
    expect(response.modelCalls).toBe(expected.oneTool);
    expect(model.kinds).toEqual(mode.inlineReplies ? ['decide', 'decide'] : ['decide', 'decide', 'respond']);
    expect(log).toEqual(['check_menu']);
    expect(response.toolCalls.map((toolCall) => toolCall.call.name)).toEqual(['check_menu']);
  });

  test('two tool calls', async () => {
    const { agent, model, log } = tavernAgent(
      [
        call(mode, 'check_menu'),
        call(mode, 'take_order', { item: 'ale', quantity: 2 }),
        ...answer(mode, 'Two ales, 6 coins.'),
      ],
      config,
    );
    const response = await agent.respond('Two of the cheapest drink');
    expect(response.text).toBe('Two ales, 6 coins.');
    expect(model.calls).toBe(expected.twoTools);
    expect(model.kinds).toEqual(
      mode.inlineReplies ? ['decide', 'decide', 'decide'] : ['decide', 'decide', 'decide', 'respond'],
    );
    expect(log).toEqual(['check_menu', 'take_order {"item":"ale","quantity":2}']);
  });

  test("toolChoice 'none'", async () => {
    const { agent, model, log } = tavernAgent(['Just a chat, then.'], config);
    const response = await agent.respond('Hello', { toolChoice: 'none' });
    expect(response.text).toBe('Just a chat, then.');
    expect(model.calls).toBe(expected.none);
    expect(model.kinds).toEqual(['respond']);
    expect(log).toEqual([]);
  });

  test('{tool} with a parameterless tool runs it without a model step, then replies in one call', async () => {
    // Inline mode decides after the tool (the reply comes inline, or another tool); seed mode
    // goes straight to its reply step. One call either way.
    const script = mode.inlineReplies ? [Script.reply('Ale 3, stew 5, bread 1.')] : ['Ale 3, stew 5, bread 1.'];
    const step = mode.inlineReplies ? 'decide' : 'respond';
    const { agent, model, log } = tavernAgent(script, config);
    const run = agent.run('Menu?', { toolChoice: { tool: 'check_menu' } });
    const kinds: string[] = [];
    run.on('step', (event) => kinds.push(event.step.kind));
    const response = await run.response();
    expect(response.text).toBe('Ale 3, stew 5, bread 1.');
    expect(model.calls).toBe(expected.forcedParameterless);
    expect(model.kinds).toEqual([step]);
    expect(kinds).toEqual([step]);
    expect(log).toEqual(['check_menu']);
    // The reply step sees the tool's result.
    expect(model.requests[0].prompt).toContain('[check_menu {} → {"ale":3,"stew":5,"bread":1}]');
    expect(readRenderedTurn(model.requests[0].prompt).toolResults).toEqual([
      { tool: 'check_menu', args: {}, output: '{"ale":3,"stew":5,"bread":1}' },
    ]);
  });

  test('the agent has no tools: one call', async () => {
    const { Agent } = await import('../../src');
    const { ScriptedLanguageModel } = await import('../../src/testing');
    const model = new ScriptedLanguageModel(['Hi.']);
    const agent = new Agent(model, { config });
    expect((await agent.respond('Hello')).text).toBe('Hi.');
    expect(model.kinds).toEqual(['respond']);
  });

  test('completedToolRounds counts the rounds done before each step', async () => {
    const { agent, model } = tavernAgent([call(mode, 'check_menu'), ...answer(mode, 'Ale.')], config);
    const run = agent.run('Menu?');
    const rounds: number[] = [];
    run.on('step', (event) => rounds.push(event.step.completedToolRounds));
    await run.response();
    expect(rounds).toEqual(mode.inlineReplies ? [0, 1] : [0, 1, 1]);
    expect(model.requests.every((request) => request.isRepair === false)).toBe(true);
  });
});

test("'required' with one parameterless tool runs it without asking the model for arguments", async () => {
  const { Agent, AgentTool } = require('../../src') as typeof import('../../src');
  const { ScriptedLanguageModel, Script } = require('../../src/testing') as typeof import('../../src/testing');
  const ping = AgentTool.local({ name: 'ping', description: 'Pings.' }, () => 'pong');
  const model = new ScriptedLanguageModel([Script.reply('Pong it is.')]);
  const agent = new Agent(model, { tools: [ping] });
  const response = await agent.respond('ping please', { toolChoice: 'required' });
  expect(response.toolCalls.map((toolCall) => toolCall.call.name)).toEqual(['ping']);
  expect(model.kinds).toEqual(['decide']);
  expect(response.text).toBe('Pong it is.');
});

test('a forced parameterless tool never runs twice: the decide step after it no longer offers it', async () => {
  const { Script } = await import('../../src/testing');
  const { agent, model, log } = tavernAgent([
    Script.call('check_menu'),
    Script.reply('Ale is 3.'),
    Script.reply('Ale is 3.'),
  ]);
  const response = await agent.respond('Menu?', { toolChoice: { tool: 'check_menu' } });
  expect(log).toEqual(['check_menu']);
  // The follow-up decide offered only take_order; the model's second check_menu was not run.
  expect(model.requests[0].prompt).toMatch(/Tools available now: take_order\./);
  expect(response.toolCalls.filter((toolCall) => !toolCall.rejected).map((toolCall) => toolCall.call.name)).toEqual([
    'check_menu',
  ]);
});

test('a forced parameterless tool that is the only tool goes straight to the reply step', async () => {
  const { Agent, AgentTool } = await import('../../src');
  const { ScriptedLanguageModel } = await import('../../src/testing');
  const ran: string[] = [];
  const look = AgentTool.local({ name: 'look', description: 'Looks around.' }, () => {
    ran.push('look');
    return 'a dark room';
  });
  const model = new ScriptedLanguageModel(['It is dark.']);
  const response = await new Agent(model, { tools: [look] }).respond('Where am I?', { toolChoice: { tool: 'look' } });
  expect(ran).toEqual(['look']);
  expect(model.kinds).toEqual(['respond']);
  expect(response.text).toBe('It is dark.');
});
