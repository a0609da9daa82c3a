/**
 * The seed's remaining settings: `context.minimumRecentTurns` (the last N completed turns are
 * always sent, even when the budget is tight) and `retry.retriesGuardrailViolations`; and the
 * token counting while trimming stays bounded however long the history is.
 */
import { Agent, type TranscriptEntry } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';

function history(turns: number, words = 40): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  for (let index = 0; index < turns; index++) {
    out.push({ type: 'prompt', text: `Question ${index}: ${'word '.repeat(words)}` });
    out.push({ type: 'response', text: `Answer ${index}: ${'word '.repeat(words)}` });
  }
  return out;
}

describe('context.minimumRecentTurns', () => {
  test('the oldest turns are trimmed; the last turn is kept (default 1)', async () => {
    const model = new ScriptedLanguageModel([Script.reply('ok')]);
    const agent = new Agent(model, { config: { context: { maxInputTokens: 900 } } });
    await agent.replaceHistory(history(20));
    await agent.run('Now?').response();
    const prompt = model.requests[0].prompt;
    expect(prompt).toContain('Question 19');
    expect(prompt).not.toContain('Question 0:');
  });

  test('minimumRecentTurns 3 keeps the last three even when the budget wants fewer: the turn fails, naming the setting', async () => {
    const model = new ScriptedLanguageModel([Script.reply('ok')]);
    const agent = new Agent(model, { config: { context: { maxInputTokens: 700, minimumRecentTurns: 3 } } });
    await agent.replaceHistory(history(20, 120));
    await expect(agent.run('Now?').response()).rejects.toMatchObject({
      code: 'context_size_exceeded',
      message: expect.stringMatching(/last 3 turns kept \(context\.minimumRecentTurns\)/),
    });
    expect(model.calls).toBe(0);
  });

  test('minimumRecentTurns 0 may drop every earlier turn', async () => {
    const model = new ScriptedLanguageModel([Script.reply('ok')]);
    const agent = new Agent(model, { config: { context: { maxInputTokens: 600, minimumRecentTurns: 0 } } });
    await agent.replaceHistory(history(5, 150));
    await expect(agent.run('Now?').response()).resolves.toMatchObject({ text: 'ok' });
    expect(model.requests[0].prompt).not.toContain('Question');
  });

  test('a bad value is refused before any model call', () => {
    expect(() => new Agent(new ScriptedLanguageModel([]), { config: { context: { minimumRecentTurns: -1 } } })).toThrow(
      /minimumRecentTurns/,
    );
  });
});

describe('token counting while trimming is bounded', () => {
  test('a 400-turn history costs at most a few exact counts per step, not one per trimmed turn', async () => {
    let counts = 0;
    const model = new ScriptedLanguageModel([Script.reply('ok')], {
      countTokens: (text) => {
        counts++;
        return Math.ceil(text.length / 3.6);
      },
    });
    const agent = new Agent(model, { config: { context: { maxInputTokens: 2000 } } });
    await agent.replaceHistory(history(400, 10));
    await agent.run('Now?').response();
    expect(counts).toBeLessThanOrEqual(6); // 3 exact counts × (prefix + prompt)
    expect(model.requests[0].prompt).toContain('Question 399');
  });
});

describe('retry.retriesGuardrailViolations', () => {
  test('off by default: a blocked step fails at once', async () => {
    const model = new ScriptedLanguageModel([Script.fail('guardrail_violation'), Script.reply('ok')]);
    await expect(new Agent(model, {}).run('Hi').response()).rejects.toMatchObject({ code: 'guardrail_violation' });
    expect(model.calls).toBe(1);
  });

  test('on: the step is retried like a transient failure', async () => {
    const model = new ScriptedLanguageModel([Script.fail('guardrail_violation'), Script.reply('ok')]);
    const agent = new Agent(model, { config: { retry: { retriesGuardrailViolations: true, initialDelayMs: 1 } } });
    await expect(agent.run('Hi').response()).resolves.toMatchObject({ text: 'ok' });
    expect(model.calls).toBe(2);
  });
});
