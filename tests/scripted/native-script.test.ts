/**
 * Native-style scripts (the protocol's `{"type":"scripted"}` model shared with open-apple-models
 * and open-android-models), played unchanged through the public Agent and NPC API.
 */
import { Agent, AgentError, AgentRunner, JsonSchema, NPC, type AgentConfigInput } from '../../src';
import { ScriptedLanguageModel, readNativeScript, type NativeScript } from '../../src/testing';
import { FAST, failure, tavern } from '../agent/helpers';
import { MIRA, tavernTools } from '../npc/helpers';

function agentWith(script: NativeScript, config: AgentConfigInput = {}) {
  const bar = tavern();
  const model = ScriptedLanguageModel.fromNativeScript(script);
  const agent = new Agent(model, {
    instructions: 'You are Mira, an innkeeper.',
    tools: [bar.menu, bar.order],
    config: { ...FAST, ...config },
  });
  return { ...bar, model, agent };
}

const MODES: Array<[string, AgentConfigInput]> = [
  ['line-first (default)', {}],
  ['JSON envelopes (lineFirst: false)', { lineFirst: false }],
  ['seed-compatible (inlineReplies: false)', { inlineReplies: false }],
];

describe.each(MODES)('in %s mode', (_mode, config) => {
  it('a text step is the reply', async () => {
    const { agent, model } = agentWith({ type: 'scripted', steps: [{ text: 'Welcome to the Lantern!' }] }, config);
    const response = await agent.respond('Hello');
    expect(response.text).toBe('Welcome to the Lantern!');
    expect(response.toolCalls).toEqual([]);
    expect(model.remaining).toBe(0);
  });

  it('a tool round runs its calls in order (one decide answer each), then the answer step is the reply', async () => {
    const { agent, model, log } = agentWith(
      {
        type: 'scripted',
        steps: [
          {
            toolCalls: [
              { name: 'check_menu', arguments: {} },
              { name: 'take_order', arguments: { item: 'ale', quantity: 2 }, id: 'ignored' },
            ],
          },
          { text: 'Two ales, 6 gold.' },
        ],
      },
      config,
    );
    const response = await agent.respond('Two ales, please.');
    expect(log).toEqual(['check_menu', 'take_order {"item":"ale","quantity":2}']);
    expect(response.toolCalls.map((record) => record.call.name)).toEqual(['check_menu', 'take_order']);
    expect(response.toolCalls.every((record) => /^call_/.test(record.call.id))).toBe(true);
    expect(response.text).toBe('Two ales, 6 gold.');
    expect(model.kinds.slice(0, 3)).toEqual(['decide', 'decide', 'decide']);
    // Inline modes: the reply rides on the third decide step; the seed's mode asks once more.
    expect(model.calls).toBe(config.inlineReplies === false ? 4 : 3);
    expect(model.remaining).toBe(0);
  });

  it('a json step is a structured answer', async () => {
    const { agent } = agentWith({ type: 'scripted', steps: [{ json: { item: 'stew', price: 5 } }] }, config);
    const schema = JsonSchema.obj({ item: JsonSchema.string(), price: JsonSchema.integer() });
    const response = await agent.respond('What is warm?', { schema });
    expect(response.structured).toEqual({ item: 'stew', price: 5 });
  });

  it('an answer the agent cannot use is repaired with the next step', async () => {
    const { agent, model } = agentWith(
      { type: 'scripted', steps: [{ json: { item: 'stew' } }, { json: { item: 'stew', price: 5 } }] },
      config,
    );
    const schema = JsonSchema.obj({ item: JsonSchema.string(), price: JsonSchema.integer() });
    const response = await agent.respond('What is warm?', { schema });
    expect(response.structured).toEqual({ item: 'stew', price: 5 });
    expect(model.requests[model.calls - 1].isRepair).toBe(true);
    expect(model.remaining).toBe(0);
  });

  it('a template fills {prompt}, {toolOutput} and {toolOutputs}', async () => {
    const { agent } = agentWith(
      {
        type: 'scripted',
        steps: [
          {
            toolCalls: [
              { name: 'take_order', arguments: { item: 'ale', quantity: 1 } },
              { name: 'take_order', arguments: { item: 'stew', quantity: 1 } },
            ],
          },
          { template: 'You asked: {prompt} Last: {toolOutput} All: {toolOutputs}' },
        ],
      },
      config,
    );
    const response = await agent.respond('An ale and a stew.');
    expect(response.text).toBe('You asked: An ale and a stew. Last: Served 1 stew. All: Served 1 ale.; Served 1 stew.');
  });

  it('the next turn plays the next step, also when it starts with a reply step', async () => {
    const { agent, model } = agentWith(
      { type: 'scripted', steps: [{ text: 'Hello!' }, { text: 'Plain words.' }, { text: 'Goodbye!' }] },
      config,
    );
    expect((await agent.respond('Hi')).text).toBe('Hello!');
    expect((await agent.respond('Chat', { toolChoice: 'none' })).text).toBe('Plain words.');
    expect((await agent.respond('Bye')).text).toBe('Goodbye!');
    expect(model.remaining).toBe(0);
  });
});

describe('other steps', () => {
  it('an error step fails the turn with its code and message, and the turn leaves nothing', async () => {
    const { agent, model } = agentWith({
      type: 'scripted',
      steps: [{ error: 'guardrail_violation', message: 'Blocked by the filter.' }, { text: 'Fine.' }],
    });
    const error = await failure(agent.respond('Something rude'));
    expect(error.code).toBe('guardrail_violation');
    expect(error.message).toBe('Blocked by the filter.');
    expect(agent.history).toEqual([]);
    expect((await agent.respond('Sorry')).text).toBe('Fine.');
    expect(model.calls).toBe(2);
  });

  it('an error step without a message says it is scripted; a retryable one is retried with the next step', async () => {
    const { agent, model } = agentWith({
      type: 'scripted',
      steps: [{ error: 'rate_limited' }, { text: 'Now it works.' }],
    });
    expect((await agent.respond('Hi')).text).toBe('Now it works.');
    expect(model.calls).toBe(2);
    const bare = agentWith({ type: 'scripted', steps: [{ error: 'refusal' }] });
    expect((await failure(bare.agent.respond('Hi'))).message).toBe('Scripted failure (refusal).');
  });

  it('chunks split the streamed reply', async () => {
    const { agent } = agentWith(
      { type: 'scripted', steps: [{ text: 'One two three four', chunks: 4 }] },
      { lineFirst: false },
    );
    const run = agent.run('Count');
    const deltas: string[] = [];
    run.on('text', (event) => deltas.push(event.delta));
    expect((await run.response()).text).toBe('One two three four');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('One two three four');
  });

  it('a fallback plays once the steps run out; without one the model says the script is played', async () => {
    const { agent } = agentWith({
      type: 'scripted',
      steps: [{ text: 'First.' }],
      fallback: { text: '(script exhausted)' },
    });
    expect((await agent.respond('a')).text).toBe('First.');
    expect((await agent.respond('b')).text).toBe('(script exhausted)');
    expect((await agent.respond('c')).text).toBe('(script exhausted)');
    const empty = agentWith('scripted');
    const error = await failure(empty.agent.respond('Hi'));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/all 0 steps are played; add a step or a "fallback"/);
    expect((await failure(agentWith({ type: 'scripted' }).agent.respond('Hi'))).message).toMatch(/all 0 steps/);
  });

  it('a tool round where the agent wants a reply says so', async () => {
    const { agent } = agentWith({ type: 'scripted', steps: [{ toolCalls: [{ name: 'check_menu' }] }] });
    const error = await failure(agent.respond('Hi', { toolChoice: 'none' }));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/step 0 is a tool round, but the agent asked for a respond step/);
  });

  it("a forced tool with parameters gets the arguments of the round's call", async () => {
    const { agent, log } = agentWith({
      type: 'scripted',
      steps: [
        { toolCalls: [{ name: 'take_order', arguments: '{"item":"bread","quantity":3}' }] },
        { text: 'Three loaves.' },
      ],
    });
    const response = await agent.respond('Bread!', { toolChoice: { tool: 'take_order' } });
    expect(log).toEqual(['take_order {"item":"bread","quantity":3}']);
    expect(response.text).toBe('Three loaves.');
  });
});

describe('delays', () => {
  afterEach(() => jest.useRealTimers());

  it('any step may wait delayMs before it answers', async () => {
    jest.useFakeTimers();
    const { agent, model } = agentWith({
      type: 'scripted',
      steps: [
        { toolCalls: [{ name: 'check_menu' }], delayMs: 1000 },
        { text: 'Ale is 3.', delayMs: 2000 },
      ],
    });
    let done = false;
    const reply = agent.respond('Menu?').then((response) => {
      done = true;
      return response;
    });
    await jest.advanceTimersByTimeAsync(999);
    expect(model.calls).toBe(1);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await jest.advanceTimersByTimeAsync(1999);
    expect(model.calls).toBe(2);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect((await reply).text).toBe('Ale is 3.');
  });

  it('a delayed step can be cancelled', async () => {
    jest.useFakeTimers();
    const { agent } = agentWith({ type: 'scripted', steps: [{ text: 'Late.', delayMs: 60_000 }] });
    const run = agent.run('Hi');
    await jest.advanceTimersByTimeAsync(10);
    run.cancel();
    expect((await failure(run.response())).code).toBe('cancelled');
    expect(agent.history).toEqual([]);
  });
});

describe('through the NPC and the AgentRunner', () => {
  it('an NPC plays a tool round then a structured line', async () => {
    const bar = tavernTools();
    const model = ScriptedLanguageModel.fromNativeScript({
      type: 'scripted',
      steps: [
        { toolCalls: [{ name: 'check_menu', arguments: {} }] },
        { json: { emotion: 'happy', line: 'Stew is 5 gold, ale 3.' } },
        { json: { emotion: 'neutral', line: 'Good night.' } },
      ],
    });
    const npc = new NPC({ persona: MIRA, model, tools: [bar.menu, bar.order] });
    const turn = await npc.talk('What is warm?');
    expect(bar.log).toEqual(['check_menu']);
    expect(turn).toMatchObject({ line: 'Stew is 5 gold, ale 3.', emotion: 'happy', isFallback: false });
    expect((await npc.talk('Bye')).line).toBe('Good night.');
  });

  it("an NPC's text retry after a line without words plays the next step, as on Android", async () => {
    const model = ScriptedLanguageModel.fromNativeScript({
      type: 'scripted',
      steps: [{ json: { emotion: 'happy', line: '' } }, { text: '[happy] Welcome, traveller!' }],
    });
    const npc = new NPC({ persona: MIRA, model, tools: [tavernTools().menu] });
    const turn = await npc.talk('Hello');
    expect(turn).toMatchObject({ line: 'Welcome, traveller!', emotion: 'happy', isFallback: false });
    expect(model.remaining).toBe(0);
  });

  it('an AgentRunner session plays one script across its turns', async () => {
    const bar = tavern();
    const model = ScriptedLanguageModel.fromNativeScript({
      type: 'scripted',
      steps: [{ text: 'Hi Sam.' }, { template: 'You said: {prompt}' }],
    });
    const sessions = new AgentRunner({ model, agent: { tools: [bar.menu], config: FAST } });
    expect((await sessions.respond('sam', 'Hello')).text).toBe('Hi Sam.');
    expect((await sessions.respond('sam', 'One more')).text).toBe('You said: One more');
  });
});

describe('bad scripts', () => {
  it.each<[string, unknown, RegExp]>([
    ['not a script', 42, /"scripted" or an object/],
    ['a wrong type', { type: 'envelope', steps: [] }, /"type": "scripted"/],
    ['an unknown top-level key', { type: 'scripted', steps: [], style: 'native' }, /got "style"/],
    ['steps that are not a list', { type: 'scripted', steps: {} }, /must be a list/],
    ['a step that is not an object', { type: 'scripted', steps: [{ text: 'ok' }, 'hi'] }, /step 1 must be an object/],
    ['a step of no kind', { type: 'scripted', steps: [{ delayMs: 5 }] }, /step 0 needs exactly one of/],
    [
      'a step of two kinds',
      { type: 'scripted', steps: [{ text: 'a', json: {} }] },
      /step 0 needs exactly one of .*"text", "json"/,
    ],
    [
      'an unknown key',
      { type: 'scripted', steps: [{ text: 'a', delay: 5 }] },
      /step 0 \("text"\) does not take "delay"/,
    ],
    ['a text that is not a string', { type: 'scripted', steps: [{ text: 5 }] }, /step 0: "text" must be a string/],
    [
      'an unknown error code',
      { type: 'scripted', steps: [{ error: 'session_limit' }] },
      /step 0: "error" must be one of the 12/,
    ],
    [
      'an empty tool round',
      { type: 'scripted', steps: [{ toolCalls: [] }] },
      /step 0: "toolCalls" must be a non-empty list/,
    ],
    [
      'a call without a name',
      { type: 'scripted', steps: [{ text: 'a' }, { toolCalls: [{ arguments: {} }] }] },
      /step 1, call 0 needs a tool "name"/,
    ],
    [
      'arguments that are not an object',
      { type: 'scripted', steps: [{ toolCalls: [{ name: 'x', arguments: [1] }] }] },
      /step 0, call 0: "arguments" must be an object/,
    ],
    ['a negative delay', { type: 'scripted', steps: [{ text: 'a', delayMs: -1 }] }, /step 0: "delayMs" must be/],
    ['bad chunks', { type: 'scripted', steps: [{ text: 'a', chunks: 0 }] }, /step 0: "chunks" must be/],
    [
      'a bad fallback',
      { type: 'scripted', steps: [], fallback: { txt: 'a' } },
      /the fallback step needs exactly one of/,
    ],
  ])('refuses %s with invalid_request naming the step, before any model call', (_what, script, message) => {
    let error: unknown;
    try {
      ScriptedLanguageModel.fromNativeScript(script as NativeScript);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('invalid_request');
    expect((error as AgentError).message).toMatch(message);
    expect(() => readNativeScript(script)).toThrow(message);
  });
});

describe('scripts from a hostile client (issue 29, item 11)', () => {
  it("inserts the player's words as they are: no $& expansion, no {toolOutputs} filled in from them", async () => {
    const { agent } = agentWith({
      type: 'scripted',
      steps: [{ toolCalls: [{ name: 'check_menu' }] }, { template: 'You said: {prompt}' }],
    });
    const response = await agent.respond("$& and $' and {toolOutputs}");
    expect(response.text).toBe("You said: $& and $' and {toolOutputs}");
  });

  it.each([
    ['1e7 chunks', { type: 'scripted', steps: [{ text: 'x', chunks: 10_000_000 }] }, /chunks.*1 to 1000/],
    ['a 3e9 ms delay', { type: 'scripted', steps: [{ text: 'x', delayMs: 3e9 }] }, /delayMs.*0 to 3600000/],
    [
      '1,001 steps',
      { type: 'scripted', steps: Array.from({ length: 1001 }, () => ({ text: 'x' })) },
      /at most 1000 steps; got 1001/,
    ],
  ])('refuses %s with invalid_request before any model call', (_name, script, message) => {
    let error: unknown;
    try {
      readNativeScript(script);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(message) });
  });
});
