/** Structured turns: a runtime schema for the reply, validated, coerced, ordered, repaired once. */
import { Agent, JsonSchema, type AgentEvent } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { collect, failure, FAST, tavernAgent } from './helpers';

const mood = () =>
  JsonSchema.obj({
    mood: JsonSchema.enumOf(['happy', 'sad']),
    line: JsonSchema.string(),
    coins: JsonSchema.integer({ minimum: 0 }),
  });

function plainAgent(steps: Array<string | ReturnType<typeof Script.text>>, config = {}) {
  const model = new ScriptedLanguageModel(steps);
  return { model, agent: new Agent(model, { instructions: 'You are Brom.', config: { ...FAST, ...config } }) };
}

const partials = (events: AgentEvent[]) =>
  events.filter((event) => event.type === 'partial').map((event) => (event as { value: unknown }).value);

describe('structured output', () => {
  test('valid output: coerced, keys in schema order, text is its JSON; a first plain turn is sent raw + task', async () => {
    const { agent, model } = plainAgent(['{"line": "Hello!", "coins": "3", "mood": "Happy", "extra": 1}']);
    const response = await agent.respond('Greet me', { schema: mood() });
    expect(response.structured).toEqual({ mood: 'happy', line: 'Hello!', coins: 3 });
    expect(Object.keys(response.structured as object)).toEqual(['mood', 'line', 'coins']);
    expect(response.text).toBe('{"mood":"happy","line":"Hello!","coins":3}');
    expect(model.kinds).toEqual(['structured']);
    expect(model.requests[0].prompt.startsWith('Greet me\n\n')).toBe(true);
    // The keys are listed once, in the cached prefix; the task line points at them.
    expect(model.requests[0].promptPrefix).toContain('"mood"');
    expect(model.requests[0].prompt).toContain('Answer with that JSON object only.');
    expect(agent.history[1]).toEqual({ type: 'response', text: response.text, structured: response.structured });
  });

  test('a plain JSON Schema object works too', async () => {
    const { agent } = plainAgent(['{"n": 2}']);
    const response = await agent.respond('n?', {
      schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false },
    });
    expect(response.structured).toEqual({ n: 2 });
  });

  test('one repair with the violation quoted', async () => {
    const { agent, model } = plainAgent([
      '{"mood": "angry", "line": "Grr", "coins": 1}',
      '{"mood": "sad", "line": "Grr", "coins": 1}',
    ]);
    const response = await agent.respond('How are you?', { schema: mood() });
    expect(response.structured).toEqual({ mood: 'sad', line: 'Grr', coins: 1 });
    expect(model.kinds).toEqual(['structured', 'structured']);
    expect(model.requests.map((request) => request.isRepair)).toEqual([false, true]);
    expect(model.requests[1].prompt).toContain('$.mood');
    expect(model.requests[1].prompt).toContain('angry');
  });

  test('still invalid after the repair: generation_failed, nothing in the history', async () => {
    const { agent, model } = plainAgent(['{"mood": "angry"}', 'not json at all']);
    const error = await failure(agent.respond('How are you?', { schema: mood() }));
    expect(error.code).toBe('generation_failed');
    expect(error.message).toContain('structured output stayed invalid after a repair attempt');
    expect(error.message).toContain('not JSON');
    expect(model.calls).toBe(2);
    expect(agent.history).toEqual([]);
    expect(agent.transcript.entries).toEqual([]);
  });

  test('partial values stream as the JSON grows; the last one is the answer', async () => {
    const { agent } = plainAgent([Script.text('{"mood": "happy", "line": "A fine day to you", "coins": 4}', 8)]);
    const { events } = await collect(agent.run('Hi', { schema: mood() }));
    const values = partials(events);
    expect(values.length).toBeGreaterThan(2);
    expect(values[values.length - 1]).toEqual({ mood: 'happy', line: 'A fine day to you', coins: 4 });
    // No two consecutive partials are the same.
    for (let index = 1; index < values.length; index++) expect(values[index]).not.toEqual(values[index - 1]);
    expect(events[events.length - 1].type).toBe('completed');
    expect(events.some((event) => event.type === 'text')).toBe(false);
  });

  test('an array root', async () => {
    const { agent, model } = plainAgent(['Here: ["a", "b", "c"]']);
    const response = await agent.respond('Three letters', { schema: JsonSchema.array(JsonSchema.string()) });
    expect(response.structured).toEqual(['a', 'b', 'c']);
    expect(model.requests[0].prompt).toContain('JSON of this form');
  });

  test('a malformed runtime schema fails at once with invalid_schema, no model call', async () => {
    const { agent, model } = plainAgent([]);
    const error = await failure(
      agent.respond('x', { schema: { type: 'object', properties: { a: { type: 'strang' } } } }),
    );
    expect(error.code).toBe('invalid_schema');
    expect(model.calls).toBe(0);
  });

  test('the inline structured reply in the decide step: one call, partials streamed', async () => {
    const { agent, model } = tavernAgent([Script.reply({ line: 'Welcome!', mood: 'happy', coins: '0' }, 6)]);
    const { events } = await collect(agent.run('Hi', { schema: mood() }));
    const done = events[events.length - 1] as Extract<AgentEvent, { type: 'completed' }>;
    expect(done.response.structured).toEqual({ mood: 'happy', line: 'Welcome!', coins: 0 });
    expect(Object.keys(done.response.structured as object)).toEqual(['mood', 'line', 'coins']);
    expect(model.kinds).toEqual(['decide']);
    expect(partials(events).length).toBeGreaterThan(0);
    // The reply shape is in the byte-stable prefix.
    // Keys that explain themselves are one line (compact-schema.ts).
    expect(model.requests[0].promptPrefix).toContain(
      'reply is one JSON object: {"mood": "happy"|"sad", "line": string, "coins": integer}',
    );
  });

  test('an invalid inline structured reply gets one structured repair step', async () => {
    const { agent, model } = tavernAgent([
      Script.reply({ mood: 'furious', line: 'Out!', coins: 0 }),
      '{"mood": "sad", "line": "Out!", "coins": 0}',
    ]);
    const response = await agent.respond('Hi', { schema: mood() });
    expect(response.structured).toEqual({ mood: 'sad', line: 'Out!', coins: 0 });
    expect(model.kinds).toEqual(['decide', 'structured']);
    expect(model.requests[1].isRepair).toBe(true);
    expect(model.requests[1].prompt).toContain('furious');
  });

  test('an invalid inline reply and an invalid repair: generation_failed', async () => {
    const { agent, model } = tavernAgent([Script.reply({ mood: 'furious' }), '{"mood": "furious"}']);
    expect((await failure(agent.respond('Hi', { schema: mood() }))).code).toBe('generation_failed');
    expect(model.calls).toBe(2);
  });

  test('tools, then the structured reply (seed mode: decide, decide, structured)', async () => {
    const { agent, model } = tavernAgent(
      [Script.action('check_menu'), Script.action('respond'), '{"mood": "happy", "line": "Ale is 3.", "coins": 3}'],
      { inlineReplies: false },
    );
    const response = await agent.respond('Menu?', { schema: mood() });
    expect(model.kinds).toEqual(['decide', 'decide', 'structured']);
    expect(model.requests[2].prompt).toContain('using the facts from the tool results');
    expect(model.requests[2].prompt).toContain('Answer with that JSON object only');
    expect(response.toolCalls).toHaveLength(1);
  });

  test('an earlier structured reply shows as key: value in the conversation; a custom renderer applies', async () => {
    const { agent, model } = plainAgent(['{"mood": "happy", "line": "Hi!", "coins": 1}', 'Fine.']);
    await agent.respond('Hello', { schema: mood() });
    await agent.respond('And now?');
    expect(model.requests[1].prompt).toContain('Assistant: mood: happy; line: Hi!; coins: 1');
    expect(model.requests[1].prompt).not.toContain('{"mood"');

    const custom = plainAgent(['{"mood": "happy", "line": "Hi!", "coins": 1}', 'Fine.'], {
      structuredReplyRenderer: (reply: unknown) => (reply as { line: string }).line,
    });
    await custom.agent.respond('Hello', { schema: mood() });
    await custom.agent.respond('And now?');
    expect(custom.model.requests[1].prompt).toContain('Assistant: Hi!\n');
  });
});

test('a structured step answered in the decide format ({"reply": {…}}) is unwrapped, not repaired', async () => {
  const { Agent, JsonSchema } = require('../../src') as typeof import('../../src');
  const { ScriptedLanguageModel, Script } = require('../../src/testing') as typeof import('../../src/testing');
  const schema = JsonSchema.obj({ mood: JsonSchema.string(), line: JsonSchema.string() });
  const model = new ScriptedLanguageModel([Script.reply({ mood: 'calm', line: 'Fine.' })]);
  const agent = new Agent(model);
  const response = await agent.respond('How are you?', { schema, toolChoice: 'none' });
  expect(response.structured).toEqual({ mood: 'calm', line: 'Fine.' });
  expect(model.kinds).toEqual(['structured']);
});

test('a decide step that writes the reply object without the "reply" wrapper is taken as the reply', async () => {
  const { Agent, AgentTool, JsonSchema } = require('../../src') as typeof import('../../src');
  const { ScriptedLanguageModel, Script } = require('../../src/testing') as typeof import('../../src/testing');
  const schema = JsonSchema.obj({ emotion: JsonSchema.string(), line: JsonSchema.string() });
  const ping = AgentTool.local({ name: 'ping', description: 'Pings.' }, () => 'pong');
  const model = new ScriptedLanguageModel([Script.json({ emotion: 'happy', line: 'Hello there.' })]);
  const agent = new Agent(model, { tools: [ping] });
  const response = await agent.respond('Hi', { schema });
  expect(response.structured).toEqual({ emotion: 'happy', line: 'Hello there.' });
  expect(model.kinds).toEqual(['decide']);
});
