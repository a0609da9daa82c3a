/** A turn limit (`details.reason` 'max_turns_exceeded') is a generation_failed that is not transient: never retried. */
import { Agent, AgentError, reasonOf } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';

function overTurnLimit(): AgentError {
  return new AgentError('generation_failed', 'The turn needed more steps than maxTurns allows.', {
    details: { reason: 'max_turns_exceeded' },
  });
}

function agentOver(model: ScriptedLanguageModel): Agent {
  return new Agent(model, { instructions: 'You are Mira, an innkeeper.', config: { retry: { initialDelayMs: 1 } } });
}

describe('a turn limit is not retried', () => {
  test('max_turns_exceeded fails the turn after one model call, the reason kept', async () => {
    const model = new ScriptedLanguageModel([
      Script.dynamic(() => {
        throw overTurnLimit();
      }),
      Script.reply('never'),
    ]);
    const agent = agentOver(model);
    const failed = await agent.respond('Hi').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(AgentError);
    expect((failed as AgentError).code).toBe('generation_failed');
    expect(reasonOf(failed)).toBe('max_turns_exceeded');
    expect(model.calls).toBe(1);
    expect(agent.history).toEqual([]);
  });

  test('a plain generation_failed is still retried', async () => {
    const model = new ScriptedLanguageModel([Script.fail('generation_failed'), Script.reply('Hello!')]);
    const response = await agentOver(model).respond('Hi');
    expect(response.text).toBe('Hello!');
    expect(model.calls).toBe(2);
  });
});
