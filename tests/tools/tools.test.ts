/** Tools: definitions and their checks, local handler outputs, timeouts, external tools answered by the host. */
import { Agent, AgentError, AgentTool, JsonSchema, RESERVED_TOOL_NAMES, ToolOutput, type ToolCall } from '../../src';
import { Script, ScriptedLanguageModel, type ScriptStep } from '../../src/testing';
import { FAST, until } from '../agent/helpers';

function agentWith(tools: AgentTool[], steps: Array<ScriptStep | string>, config = {}) {
  const model = new ScriptedLanguageModel(steps);
  const agent = new Agent(model, { instructions: 'You run a shop.', tools, config: { ...FAST, ...config } });
  return { model, agent };
}

function thrown(fn: () => unknown): AgentError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    return error as AgentError;
  }
  throw new Error('expected a throw');
}

describe('tool definitions', () => {
  test('reserved names are refused, in any case', () => {
    for (const name of [...RESERVED_TOOL_NAMES, 'Respond', 'REPLY']) {
      const error = thrown(() => AgentTool.local({ name, description: 'x' }, () => 'ok'));
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain('reserved');
    }
  });

  test.each(['', ' padded ', '9lives', 'has space', 'semi;colon', 'x'.repeat(65)])('bad name %j is refused', (name) => {
    expect(thrown(() => AgentTool.external({ name, description: 'x' })).code).toBe('invalid_request');
  });

  test('good names: letters, digits, _, . and -', () => {
    for (const name of ['a', '_x', 'shop.buy', 'take-order', 'T2'])
      expect(AgentTool.external({ name, description: '' }).name).toBe(name);
  });

  test('duplicate names in one agent are refused, also by setTools', () => {
    const first = AgentTool.local({ name: 'look', description: 'x' }, () => 'a');
    const second = AgentTool.external({ name: 'look', description: 'y' });
    const model = new ScriptedLanguageModel();
    expect(thrown(() => new Agent(model, { tools: [first, second] })).code).toBe('invalid_request');
    const agent = new Agent(model, { tools: [first] });
    expect(thrown(() => agent.setTools([first, second])).message).toContain('look');
    expect(agent.tools.map((tool) => tool.name)).toEqual(['look']);
  });

  test('tools must be AgentTool instances', () => {
    const fake = { name: 'x', description: 'y' } as unknown as AgentTool;
    expect(thrown(() => new Agent(new ScriptedLanguageModel(), { tools: [fake] })).code).toBe('invalid_request');
  });

  test('a malformed parameter schema is invalid_schema naming the tool', () => {
    const error = thrown(() =>
      AgentTool.external({
        name: 'bad',
        description: 'x',
        parameters: { type: 'object', properties: { n: { type: 'integr' } } },
      }),
    );
    expect(error.code).toBe('invalid_schema');
    expect(error.message).toContain('bad');
  });

  test('a non-object parameter schema is invalid_schema', () => {
    const error = thrown(() => AgentTool.external({ name: 'count', description: 'x', parameters: { type: 'string' } }));
    expect(error.code).toBe('invalid_schema');
    expect(error.message).toContain('object');
  });

  test('a local tool needs a handler; description must be a string; timeoutMs positive', () => {
    expect(thrown(() => AgentTool.local({ name: 'x', description: 'd' }, undefined as never)).code).toBe(
      'invalid_request',
    );
    expect(thrown(() => AgentTool.local({ name: 'x', description: 3 as never }, () => 1)).code).toBe('invalid_request');
    expect(thrown(() => AgentTool.external({ name: 'x', description: 'd', timeoutMs: 0 })).code).toBe(
      'invalid_request',
    );
    expect(thrown(() => AgentTool.external({ name: 'x', description: 'd', timeoutMs: -5 })).code).toBe(
      'invalid_request',
    );
  });

  test('parameterless and serialisable', () => {
    const none = AgentTool.external({ name: 'look', description: 'Looks around.' });
    expect(none.isParameterless).toBe(true);
    const some = AgentTool.external({
      name: 'go',
      description: 'Walks.',
      parameters: JsonSchema.obj({ to: JsonSchema.string() }),
    });
    expect(some.isParameterless).toBe(false);
    expect(JSON.parse(JSON.stringify(some))).toEqual({
      name: 'go',
      description: 'Walks.',
      parameters: some.parameters.json,
      execution: 'external',
    });
  });
});

describe('ToolOutput', () => {
  test('of(): strings are text, outputs stay, anything else is JSON', () => {
    expect(ToolOutput.of('hi')).toEqual({ kind: 'text', text: 'hi' });
    expect(ToolOutput.of({ a: 1 })).toEqual({ kind: 'json', value: { a: 1 } });
    expect(ToolOutput.of(undefined)).toEqual({ kind: 'json', value: null });
    expect(ToolOutput.of(ToolOutput.error('x'))).toEqual({ kind: 'error', message: 'x' });
    expect(ToolOutput.render(ToolOutput.json([1, 2]))).toBe('[1,2]');
    expect(ToolOutput.render(ToolOutput.error('gone'))).toBe('Error: gone');
    expect(ToolOutput.isError(ToolOutput.text('e'))).toBe(false);
  });
});

describe('local tools', () => {
  test.each([
    { label: 'text', handler: () => 'A sword.', output: { kind: 'text', text: 'A sword.' }, rendered: 'A sword.' },
    {
      label: 'json',
      handler: () => ({ price: 12 }),
      output: { kind: 'json', value: { price: 12 } },
      rendered: '{"price":12}',
    },
    { label: 'async json', handler: async () => [1, 2], output: { kind: 'json', value: [1, 2] }, rendered: '[1,2]' },
    {
      label: 'error output',
      handler: () => ToolOutput.error('out of stock'),
      output: { kind: 'error', message: 'out of stock' },
      rendered: 'Error: out of stock',
    },
  ])('a handler returning $label', async ({ handler, output, rendered }) => {
    const tool = AgentTool.local({ name: 'look', description: 'Looks.' }, handler);
    const { agent, model } = agentWith([tool], [Script.call('look'), Script.reply('Done.')]);
    const response = await agent.respond('Look');
    expect(response.toolCalls[0].output).toEqual(output);
    expect(model.requests[1].prompt).toContain(`[look {} → ${rendered}]`);
  });

  test('the handler gets the coerced arguments and a context with the call and a signal', async () => {
    let seen: { args: unknown; call?: ToolCall; aborted?: boolean } = { args: null };
    const tool = AgentTool.local(
      { name: 'buy', description: 'Buys.', parameters: JsonSchema.obj({ count: JsonSchema.integer() }) },
      (args, ctx) => {
        seen = { args, call: ctx.call, aborted: ctx.signal.aborted };
        return 'ok';
      },
    );
    const { agent } = agentWith([tool], [Script.call('buy', { count: '3' }), Script.reply('Bought.')]);
    const response = await agent.respond('Buy three');
    expect(seen.args).toEqual({ count: 3 });
    expect(seen.call?.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(seen.call?.name).toBe('buy');
    expect(seen.aborted).toBe(false);
    expect(response.toolCalls[0].call).toEqual(seen.call);
  });

  test('a throwing handler becomes an error output and the turn goes on', async () => {
    const tool = AgentTool.local({ name: 'look', description: 'Looks.' }, () => {
      throw new Error('the lamp is out');
    });
    const { agent, model } = agentWith([tool], [Script.call('look'), Script.reply('It is too dark.')]);
    const run = agent.run('Look');
    const completed: string[] = [];
    run.on('toolCompleted', (event) => completed.push(ToolOutput.render(event.record.output)));
    const response = await run.response();
    expect(response.text).toBe('It is too dark.');
    expect(response.toolCalls[0].output).toEqual({ kind: 'error', message: 'the lamp is out' });
    expect(completed).toEqual(['Error: the lamp is out']);
    expect(model.requests[1].prompt).toContain('[look {} → Error: the lamp is out]');
    // An error output is not a "successful call": the same call again runs again.
    expect(agent.history.filter((entry) => entry.type === 'toolUse')).toHaveLength(1);
  });

  test('a handler that rejects with a non-Error value', async () => {
    const tool = AgentTool.local({ name: 'look', description: 'Looks.' }, () => Promise.reject('nope'));
    const { agent } = agentWith([tool], [Script.call('look'), Script.reply('Hm.')]);
    expect((await agent.respond('Look')).toolCalls[0].output).toEqual({ kind: 'error', message: 'nope' });
  });

  test('a handler that never finishes times out (agent toolTimeoutMs) and its signal is aborted', async () => {
    let signalAborted = false;
    const tool = AgentTool.local(
      { name: 'look', description: 'Looks.' },
      (_a, ctx) =>
        new Promise(() => {
          ctx.signal.addEventListener('abort', () => {
            signalAborted = true;
          });
        }),
    );
    const { agent } = agentWith([tool], [Script.call('look'), Script.reply('Nothing to see.')], { toolTimeoutMs: 20 });
    const response = await agent.respond('Look');
    expect(response.text).toBe('Nothing to see.');
    expect(response.toolCalls[0].output.kind).toBe('error');
    expect(ToolOutput.render(response.toolCalls[0].output)).toContain('did not finish within 20 ms');
    expect(signalAborted).toBe(true);
  });

  test("the tool's own timeoutMs wins over the agent's", async () => {
    const tool = AgentTool.local(
      { name: 'look', description: 'Looks.', timeoutMs: 15 },
      () => new Promise(() => undefined),
    );
    const { agent } = agentWith([tool], [Script.call('look'), Script.reply('Hm.')], { toolTimeoutMs: 60_000 });
    expect(ToolOutput.render((await agent.respond('Look')).toolCalls[0].output)).toContain('15 ms');
  });

  test('toolStarted then toolCompleted for a local tool; no toolRequested', async () => {
    const tool = AgentTool.local({ name: 'look', description: 'Looks.' }, () => 'x');
    const { agent } = agentWith([tool], [Script.call('look'), Script.reply('Hm.')]);
    const run = agent.run('Look');
    const types: string[] = [];
    for (const type of ['toolStarted', 'toolRequested', 'toolCompleted'] as const) run.on(type, () => types.push(type));
    await run.response();
    expect(types).toEqual(['toolStarted', 'toolCompleted']);
  });
});

describe('external tools', () => {
  const door = () =>
    AgentTool.external({
      name: 'open_door',
      description: 'Opens a door.',
      parameters: JsonSchema.obj({ door: JsonSchema.string() }),
    });

  test('answered from the toolRequested event with run.submit', async () => {
    const { agent, model } = agentWith(
      [door()],
      [Script.call('open_door', { door: 'north' }), Script.reply('The door creaks open.')],
    );
    const run = agent.run('Open the north door');
    const requested: ToolCall[] = [];
    run.on('toolRequested', (event) => {
      requested.push(event.call);
      setTimeout(() => expect(run.submit(event.call.id, { opened: true })).toBe(true), 1);
    });
    const response = await run.response();
    expect(requested).toHaveLength(1);
    expect(requested[0].args).toEqual({ door: 'north' });
    expect(response.toolCalls[0].output).toEqual({ kind: 'json', value: { opened: true } });
    expect(model.requests[1].prompt).toContain('[open_door {"door":"north"} → {"opened":true}]');
  });

  test('an instant answer inside the toolRequested listener is not lost', async () => {
    const { agent } = agentWith([door()], [Script.call('open_door', { door: 'north' }), Script.reply('Open.')], {
      externalToolTimeoutMs: 0,
    });
    const run = agent.run('Open it');
    const accepted: boolean[] = [];
    run.on('toolRequested', (event) => accepted.push(run.submit(event.call.id, 'opened')));
    const response = await run.response();
    expect(accepted).toEqual([true]);
    expect(response.toolCalls[0].output).toEqual({ kind: 'text', text: 'opened' });
  });

  test('pendingToolCalls shows the waiting call; unknown, double and late answers return false', async () => {
    const { agent } = agentWith([door()], [Script.call('open_door', { door: 'east' }), Script.reply('Open.')]);
    const run = agent.run('Open east');
    expect(run.submit('call_nope', 'x')).toBe(false);
    await until(() => run.pendingToolCalls.length === 1, 'the external call');
    const call = run.pendingToolCalls[0];
    expect(call.name).toBe('open_door');
    expect(run.submit('call_unknown', 'x')).toBe(false);
    expect(run.submit(call.id, ToolOutput.text('opened'))).toBe(true);
    expect(run.submit(call.id, 'again')).toBe(false);
    expect(run.pendingToolCalls).toEqual([]);
    const response = await run.response();
    expect(response.toolCalls[0].output).toEqual({ kind: 'text', text: 'opened' });
    expect(run.submit(call.id, 'late')).toBe(false);
  });

  test('answered by the response(handler), also for a call that was already waiting', async () => {
    const { agent } = agentWith([door()], [Script.call('open_door', { door: 'west' }), Script.reply('Open.')]);
    const run = agent.run('Open west');
    await until(() => run.pendingToolCalls.length === 1, 'the external call');
    const seen: string[] = [];
    const response = await run.response(async (call) => {
      seen.push(`${call.name} ${JSON.stringify(call.args)}`);
      return { ok: true };
    });
    expect(seen).toEqual(['open_door {"door":"west"}']);
    expect(response.toolCalls[0].output).toEqual({ kind: 'json', value: { ok: true } });
  });

  test('answered by respond(prompt, {externalTools}); a throwing handler becomes an error output', async () => {
    const { agent } = agentWith(
      [door()],
      [Script.call('open_door', { door: 'a' }), Script.call('open_door', { door: 'b' }), Script.reply('One is stuck.')],
    );
    const response = await agent.respond('Open both', {
      externalTools: (call) => {
        if (call.args.door === 'b') throw new Error('door b is stuck');
        return 'opened';
      },
    });
    expect(response.toolCalls.map((record) => record.output)).toEqual([
      { kind: 'text', text: 'opened' },
      { kind: 'error', message: 'door b is stuck' },
    ]);
    expect(response.text).toBe('One is stuck.');
  });

  test('nobody answers: the call times out (externalToolTimeoutMs), a late answer is refused, the turn still replies', async () => {
    const { agent, model } = agentWith(
      [door()],
      [Script.call('open_door', { door: 'n' }), Script.reply('No one came.')],
      { externalToolTimeoutMs: 20 },
    );
    const run = agent.run('Open north');
    let id = '';
    run.on('toolRequested', (event) => {
      id = event.call.id;
    });
    const response = await run.response();
    expect(response.text).toBe('No one came.');
    expect(response.toolCalls[0].output.kind).toBe('error');
    expect(ToolOutput.render(response.toolCalls[0].output)).toContain('no answer');
    expect(run.submit(id, 'too late')).toBe(false);
    expect(model.requests[1].prompt).toContain('→ Error:');
  });

  test("an external tool's own timeoutMs wins", async () => {
    const tool = AgentTool.external({ name: 'ring', description: 'Rings a bell.', timeoutMs: 15 });
    const { agent } = agentWith([tool], [Script.call('ring'), Script.reply('Silence.')], {
      externalToolTimeoutMs: 60_000,
    });
    expect(ToolOutput.render((await agent.respond('Ring')).toolCalls[0].output)).toContain('15 ms');
  });
});

describe('tool outputs are detached from the game', () => {
  const { Agent, AgentTool } = require('../../src') as typeof import('../../src');
  const { ScriptedLanguageModel, Script } = require('../../src/testing') as typeof import('../../src/testing');

  test('a JSON output is copied: a later change to the game object does not rewrite the committed turn', async () => {
    const inventory = { ale: 3 };
    const look = AgentTool.local({ name: 'look', description: 'Looks.' }, () => inventory);
    const agent = new Agent(new ScriptedLanguageModel([Script.call('look'), Script.reply('Three ales.')]), {
      tools: [look],
    });
    await agent.respond('What is there?');
    inventory.ale = 0;
    const use = agent.history.find((entry) => entry.type === 'toolUse');
    expect(use).toMatchObject({ output: { kind: 'json', value: { ale: 3 } } });
  });

  test('an output that is not JSON (a cycle) becomes an error output; the turn still completes', async () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    const look = AgentTool.local({ name: 'look', description: 'Looks.' }, () => loop);
    const model = new ScriptedLanguageModel([Script.call('look'), Script.reply('Hm.')]);
    const agent = new Agent(model, { tools: [look] });
    const response = await agent.respond('Look');
    expect(response.toolCalls[0].output).toMatchObject({ kind: 'error' });
    expect((response.toolCalls[0].output as { message: string }).message).toMatch(
      /look returned a value that is not JSON/,
    );
    expect(response.text).toBe('Hm.');
  });
});
