/** Agent settings: defaults, validation, the tool-choice wire forms. */
import { Agent, validateToolChoice } from '../../src';
import {
  DEFAULT_CONTEXT_POLICY,
  DEFAULT_RETRY_POLICY,
  DEFAULT_TOOL_POLICY,
  parseToolChoice,
  resolveConfig,
} from '../../src/core/agent/config';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { failure, until } from './helpers';

test('the defaults the seed established (and inline replies on)', () => {
  const config = resolveConfig();
  expect(config.toolPolicy).toEqual({ choice: 'auto', maxToolRounds: 4, maxToolCalls: 12 });
  expect(config.context).toEqual({
    trimsHistory: true,
    reservedTokens: 256,
    maxToolOutputChars: 1500,
    minimumRecentTurns: 1,
  });
  expect(config.retry).toEqual({
    maxAttempts: 3,
    initialDelayMs: 300,
    maxRetryAfterMs: 5000,
    retriesGuardrailViolations: false,
  });
  expect(config.labels).toEqual({ user: 'User', assistant: 'Assistant' });
  expect(config).toMatchObject({
    inlineReplies: true,
    decisionTemperature: 0,
    decisionMaxTokens: 256,
    repairsInvalidOutput: true,
    dedupesToolCalls: true,
  });
  expect(DEFAULT_TOOL_POLICY.maxToolCalls).toBe(12);
  expect(DEFAULT_CONTEXT_POLICY.maxToolOutputChars).toBe(1500);
  expect(DEFAULT_RETRY_POLICY.maxAttempts).toBe(3);
});

test('partial settings merge; undefined keeps the default', () => {
  const config = resolveConfig({
    toolPolicy: { maxToolRounds: 2 },
    retry: { initialDelayMs: undefined },
    temperature: 0.7,
  });
  expect(config.toolPolicy.maxToolCalls).toBe(12);
  expect(config.toolPolicy.maxToolRounds).toBe(2);
  expect(config.retry.initialDelayMs).toBe(300);
  expect(config.temperature).toBe(0.7);
});

test.each([
  [{ toolPolicy: { choice: 'always' } }, /toolChoice/],
  [{ decisionMaxTokens: 8 }, /decisionMaxTokens/],
  [{ toolTimeoutMs: 0 }, /toolTimeoutMs/],
  [{ externalToolTimeoutMs: -1 }, /externalToolTimeoutMs/],
  [{ context: { maxInputTokens: 100 } }, /maxInputTokens/],
  [{ context: { reservedTokens: -1 } }, /reservedTokens/],
  [{ retry: { maxAttempts: 0 } }, /maxAttempts/],
  [{ labels: { assistant: 'A: B' } }, /labels.assistant/],
])('invalid setting %j is invalid_request', (input, message) => {
  expect(() => resolveConfig(input as never)).toThrow(
    expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(message) }),
  );
  expect(() => new Agent(new ScriptedLanguageModel(), { config: input as never })).toThrow(message);
});

test('tool choice wire forms', () => {
  expect(parseToolChoice('any')).toBe('required');
  expect(parseToolChoice('none')).toBe('none');
  expect(parseToolChoice({ type: 'function', function: { name: 'look' } })).toEqual({ tool: 'look' });
  expect(parseToolChoice({ name: 'look' })).toEqual({ tool: 'look' });
  expect(parseToolChoice({ tool: 'look' })).toEqual({ tool: 'look' });
  expect(() => parseToolChoice('sometimes')).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  expect(() => validateToolChoice({ tool: 3 })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
});

test('temperature, topK, seed and maxResponseTokens reach the reply step; decide steps use the decision settings', async () => {
  const model = new ScriptedLanguageModel([Script.action('respond'), 'Hi.']);
  const { AgentTool } = await import('../../src');
  const look = AgentTool.local({ name: 'look', description: 'Looks.' }, () => 'x');
  const agent = new Agent(model, {
    tools: [look],
    config: {
      inlineReplies: false,
      temperature: 0.8,
      topK: 40,
      seed: 7,
      maxResponseTokens: 120,
      decisionMaxTokens: 64,
      priority: 2,
      label: 'npc:mira',
    },
  });
  await agent.respond('Hi');
  expect(model.requests[0]).toMatchObject({
    kind: 'decide',
    temperature: 0,
    maxOutputTokens: 64,
    topK: 40,
    seed: 7,
    priority: 2,
    label: 'npc:mira',
  });
  expect(model.requests[1]).toMatchObject({
    kind: 'respond',
    temperature: 0.8,
    maxOutputTokens: 120,
    topK: 40,
    seed: 7,
  });
});

test('a foreign AbortSignal (Node AbortController) cancels a turn too', async () => {
  const model = new ScriptedLanguageModel([Script.hang()]);
  const agent = new Agent(model);
  const controller = new AbortController();
  const turn = agent.respond('Wait', { signal: controller.signal });
  await until(() => model.calls === 1, 'the model step');
  controller.abort();
  expect((await failure(turn)).code).toBe('cancelled');
  expect(agent.history).toEqual([]);
});

describe('config rejects out-of-range sampling and retry settings', () => {
  const { Agent, AgentError } = require('../../src') as typeof import('../../src');
  const { ScriptedLanguageModel } = require('../../src/testing') as typeof import('../../src/testing');
  test.each([
    [{ temperature: -0.1 }, /temperature/],
    [{ temperature: 3 }, /temperature/],
    [{ topK: 0 }, /topK/],
    [{ retry: { initialDelayMs: -1 } }, /initialDelayMs/],
    [{ retry: { maxRetryAfterMs: -5 } }, /maxRetryAfterMs/],
  ])('%j', (config, message) => {
    let caught: unknown;
    try {
      new Agent(new ScriptedLanguageModel(), { config });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AgentError);
    expect((caught as InstanceType<typeof AgentError>).code).toBe('invalid_request');
    expect((caught as Error).message).toMatch(message);
  });
});
