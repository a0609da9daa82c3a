/**
 * Tool timeouts count the agent's toolClock: a clock that does not advance (a paused game)
 * never times a tool out, and advancing it does, for external and local tools alike. The
 * real engine's clock (game time) is tested in tests/engine/contract.test.ts.
 */
import { Agent, AgentTool, JsonSchema, NPC, type ToolClock } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { until } from './helpers';

/** A clock moved by hand: nothing times out until advance() passes the deadline. */
function manualClock(): ToolClock & { advance(ms: number): void; pending(): number } {
  let now = 0;
  const timers: Array<{ at: number; callback: () => void; live: boolean }> = [];
  return {
    after(ms, callback) {
      const timer = { at: now + ms, callback, live: true };
      timers.push(timer);
      return () => {
        timer.live = false;
      };
    },
    advance(ms) {
      now += ms;
      for (const timer of timers.filter((entry) => entry.live && entry.at <= now)) {
        timer.live = false;
        timer.callback();
      }
    },
    pending: () => timers.filter((timer) => timer.live).length,
  };
}

const door = () =>
  AgentTool.external({
    name: 'open_door',
    description: 'Opens.',
    parameters: JsonSchema.obj({ door: JsonSchema.string() }),
  });

describe('toolClock', () => {
  test('an external tool waits on the clock, not on wall time; the timer is stopped by the answer', async () => {
    const clock = manualClock();
    const model = new ScriptedLanguageModel([Script.call('open_door', { door: 'n' }), Script.reply('Open.')]);
    const agent = new Agent(model, { tools: [door()], config: { externalToolTimeoutMs: 5, toolClock: clock } });
    const run = agent.run('Open');
    await until(() => run.pendingToolCalls.length === 1, 'the external call');
    await new Promise((resolve) => setTimeout(resolve, 30)); // wall time passes: no timeout
    expect(run.pendingToolCalls).toHaveLength(1);
    clock.advance(4);
    expect(run.submit(run.pendingToolCalls[0].id, 'opened')).toBe(true);
    expect(clock.pending()).toBe(0);
    expect((await run.response()).toolCalls[0].output).toEqual({ kind: 'text', text: 'opened' });
  });

  test('advancing the clock past the timeout times the external tool out', async () => {
    const clock = manualClock();
    const model = new ScriptedLanguageModel([Script.call('open_door', { door: 'n' }), Script.reply('Shut.')]);
    const agent = new Agent(model, { tools: [door()], config: { externalToolTimeoutMs: 5, toolClock: clock } });
    const run = agent.run('Open');
    await until(() => run.pendingToolCalls.length === 1, 'the external call');
    const id = run.pendingToolCalls[0].id;
    clock.advance(5);
    const response = await run.response();
    expect(response.toolCalls[0].output).toMatchObject({ kind: 'error', message: expect.stringMatching(/5 ms/) });
    expect(run.submit(id, 'late')).toBe(false);
  });

  test('a local tool times out on the clock too', async () => {
    const clock = manualClock();
    let started = false;
    const slow = AgentTool.local({ name: 'count_coins', description: 'Counts.' }, () => {
      started = true;
      return new Promise(() => undefined);
    });
    const model = new ScriptedLanguageModel([Script.call('count_coins'), Script.reply('Too many to count.')]);
    const agent = new Agent(model, { tools: [slow], config: { toolTimeoutMs: 50, toolClock: clock } });
    const run = agent.run('How many?');
    await until(() => started && clock.pending() === 1, 'the handler');
    clock.advance(50);
    expect((await run.response()).toolCalls[0].output).toMatchObject({ kind: 'error' });
  });

  test('a clock without after() is refused before any model call', () => {
    const model = new ScriptedLanguageModel([]);
    expect(() => new Agent(model, { config: { toolClock: {} as ToolClock } })).toThrow(/toolClock/);
    expect(() => new NPC({ persona: { name: 'Ada' }, model, toolClock: { after: 5 } as unknown as ToolClock })).toThrow(
      expect.objectContaining({ code: 'invalid_request' }),
    );
    expect(model.calls).toBe(0);
  });
});
