/**
 * Tries inside one turn (`retry`), an answer when every try failed (`fallback`), the one commit
 * point (`onCommit`), and the setup a turn keeps from the moment it was asked for.
 */
import { Agent, AgentError, createAgentSetup, type AgentEvent } from '../../src';
import { ScriptedLanguageModel, Script } from '../../src/testing';

const PERSON = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
  additionalProperties: false,
};

function agentWith(steps: Parameters<typeof Script.text>[0][] | ReturnType<typeof Script.text>[]): {
  agent: Agent;
  model: ScriptedLanguageModel;
} {
  const model = new ScriptedLanguageModel(steps as never, {});
  return { agent: new Agent(model, { config: { retry: { maxAttempts: 1, initialDelayMs: 1 } } }), model };
}

describe('tries inside one turn', () => {
  test('a failed try is followed by the retry; only the accepted try is in the history; calls and usage count both', async () => {
    const { agent, model } = agentWith([Script.fail('refusal', 'No JSON today.'), Script.text('Fine, in words then.')]);
    const events: AgentEvent['type'][] = [];
    const failures: string[] = [];
    const commits: string[] = [];
    const run = agent.run('Who are you?', {
      schema: PERSON,
      retry: (failure) => {
        failures.push(`${failure.attempt}:${failure.error.code}`);
        return failure.attempt === 0 ? { toolChoice: 'none', context: 'Answer in plain words.' } : undefined;
      },
      onCommit: (response) => commits.push(response.text),
    });
    for await (const event of run.events) events.push(event.type);
    const response = await run.response();
    expect(response.text).toBe('Fine, in words then.');
    expect(response.modelCalls).toBe(2);
    expect(response.steps).toHaveLength(1);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1].prompt).toContain('Answer in plain words.');
    expect(failures).toEqual(['0:refusal']);
    expect(commits).toEqual(['Fine, in words then.']);
    expect(events.filter((type) => type === 'attempt')).toHaveLength(1);
    expect(agent.history.map((entry) => entry.type)).toEqual(['prompt', 'response']);
  });

  test('every try failed: the fallback answers, nothing is kept, onCommit is not called', async () => {
    const { agent } = agentWith([Script.fail('refusal'), Script.fail('refusal')]);
    const commits: unknown[] = [];
    const seen: AgentEvent['type'][] = [];
    const run = agent.run('Hello', {
      retry: (failure) => (failure.attempt === 0 ? {} : undefined),
      fallback: (failure) => ({ text: `(${failure.error.code} after ${failure.attempt + 1} tries)` }),
      onCommit: (response) => commits.push(response),
    });
    run.on('fallback', (event) => seen.push(event.type));
    const response = await run.response();
    expect(response).toMatchObject({ text: '(refusal after 2 tries)', isFallback: true, modelCalls: 2 });
    expect(seen).toEqual(['fallback']);
    expect(commits).toEqual([]);
    expect(agent.history).toEqual([]);
    expect(agent.totalUsage.outputTokens).toBe(0);
  });

  test('without a fallback the last error fails the turn and the history stays as it was', async () => {
    const { agent } = agentWith([Script.text('Hi!'), Script.fail('guardrail_violation'), Script.fail('refusal')]);
    await agent.respond('First');
    const before = agent.history;
    const failure = await agent
      .respond('Second', { retry: (it) => (it.attempt === 0 ? {} : undefined) })
      .catch((error: AgentError) => error);
    expect(failure).toMatchObject({ code: 'refusal' });
    expect(agent.history).toEqual(before);
  });

  test('a cancel is never retried nor covered by the fallback', async () => {
    const { agent, model } = agentWith([Script.hang(), Script.text('never')]);
    const retry = jest.fn(() => ({}));
    const fallback = jest.fn(() => ({ text: 'never' }));
    const run = agent.run('Hello', { retry, fallback });
    run.on('step', () => run.cancel());
    await expect(run.response()).rejects.toMatchObject({ code: 'cancelled' });
    expect(retry).not.toHaveBeenCalled();
    expect(fallback).not.toHaveBeenCalled();
    // Cancelled as the first step began: the model got at most that one request, never a second try.
    expect(model.requests.length).toBeLessThan(2);
    expect(agent.history).toEqual([]);
  });

  test('a retry with bad options fails the turn with invalid_request; a hook that is not a function fails before any call', async () => {
    const { agent, model } = agentWith([Script.fail('refusal')]);
    const bad = await agent
      .respond('Hello', { retry: () => ({ toolChoice: { tool: 'nope' } }) })
      .catch((error: AgentError) => error);
    expect(bad).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/nope/) });
    const notAFunction = await agent
      .respond('Hello', { fallback: 'a line' as never })
      .catch((error: AgentError) => error);
    expect(notAFunction).toMatchObject({ code: 'invalid_request', message: 'The fallback option must be a function.' });
    expect(model.requests).toHaveLength(1);
  });

  test('a context function is read when the turn starts, after the turns queued before it', async () => {
    const { agent, model } = agentWith([Script.text('One.'), Script.text('Two.')]);
    let mood = 'calm';
    const first = agent.respond('First');
    const second = agent.respond('Second', { context: () => `Mood: ${mood}` });
    mood = 'angry';
    await Promise.all([first, second]);
    expect(model.requests[1].prompt).toContain('Mood: angry');
  });
});

describe('the setup a turn runs with', () => {
  test('a turn keeps the setup it was asked with; a change applies to the turns asked for after it', async () => {
    const model = new ScriptedLanguageModel([Script.text('A.'), Script.text('B.')]);
    const agent = new Agent(model, { instructions: 'You are Mira.' });
    const first = agent.respond('Hello');
    agent.instructions = 'You are Tom.';
    const second = agent.respond('Hello again');
    await Promise.all([first, second]);
    expect(model.requests[0].systemInstruction).toContain('You are Mira.');
    expect(model.requests[1].systemInstruction).toContain('You are Tom.');
  });

  test('replaceSetup swaps instructions, tools and settings at once; createAgentSetup starts from the defaults', async () => {
    const model = new ScriptedLanguageModel([Script.text('A.')]);
    const agent = new Agent(model, { config: { temperature: 0.9 } });
    const setup = createAgentSetup({ instructions: 'You are a guard.', config: { label: 'guard' } });
    agent.replaceSetup(setup);
    expect(agent.setup).toBe(setup);
    expect(agent.config.temperature).toBe(createAgentSetup().config.temperature);
    await agent.respond('Halt!');
    expect(model.requests[0]).toMatchObject({ label: 'guard' });
    expect(() => agent.replaceSetup({} as never)).toThrow(AgentError);
    expect(() => createAgentSetup({ config: { temperature: 7 } })).toThrow(/temperature/);
  });
});
