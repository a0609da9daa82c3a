/**
 * Turns over time: external tools answered by the game, cancellation at each stage (nothing of
 * the turn is kept), queued turns in order, close.
 */
import { AgentTool, JsonSchema, type NPCEvent, type ToolCall } from '../../src';
import { Script } from '../../src/testing';
import { events, failure, mira, tavernTools, until } from './helpers';

function pickLock(): AgentTool {
  return AgentTool.external({
    name: 'open_door',
    description: 'Opens a door in the game.',
    parameters: JsonSchema.obj({ door: JsonSchema.string() }),
  });
}

describe('external tools', () => {
  test('answered through externalToolCall + submit; the result reaches the next step', async () => {
    const door = pickLock();
    const { npc, model } = mira(
      [Script.call('open_door', { door: 'cellar' }), Script.reply({ emotion: 'happy', line: 'The cellar is open.' })],
      { tools: [door] },
    );
    const stream = npc.talkStream('Open the cellar');
    const calls: ToolCall[] = [];
    stream.on('externalToolCall', (event) => {
      calls.push(event.call);
      expect(stream.pendingToolCalls.map((pendingToolCall) => pendingToolCall.id)).toEqual([event.call.id]);
      expect(stream.submit('no-such-id', 'x')).toBe(false);
      expect(stream.submit(event.call.id, 'The cellar door swings open.')).toBe(true);
      expect(stream.submit(event.call.id, 'again')).toBe(false); // answered already
    });
    const turn = await stream.turn();
    expect(calls.map((call) => [call.name, call.args])).toEqual([['open_door', { door: 'cellar' }]]);
    expect(turn.line).toBe('The cellar is open.');
    expect(turn.toolCalls[0].call.name).toBe('open_door');
    expect(model.requests[1].prompt).toContain('The cellar door swings open.');
    expect(stream.submit(calls[0].id, 'late')).toBe(false);
  });

  test('the event order for an external call: externalToolCall, then toolResult', async () => {
    const door = pickLock();
    const { npc } = mira(
      [Script.call('open_door', { door: 'front' }), Script.reply({ emotion: 'neutral', line: 'Done.' })],
      { tools: [door] },
    );
    const stream = npc.talkStream('Open up');
    stream.on('externalToolCall', (event) => {
      setTimeout(() => stream.submit(event.call.id, 'opened'), 1);
    });
    const { events: evs } = await events(stream);
    const types = evs
      .map((event) => event.type)
      .filter((type) => type === 'externalToolCall' || type === 'toolResult' || type === 'toolCall');
    expect(types).toEqual(['externalToolCall', 'toolResult']);
  });

  test('answered by a per-turn externalTools handler', async () => {
    const door = pickLock();
    const { npc, model } = mira(
      [Script.call('open_door', { door: 'attic' }), Script.reply({ emotion: 'neutral', line: 'Attic open.' })],
      { tools: [door] },
    );
    const seen: string[] = [];
    const turn = await npc.talk('Attic please', {
      externalTools: (call) => {
        seen.push(call.name);
        return 'The attic hatch opens.';
      },
    });
    expect(seen).toEqual(['open_door']);
    expect(turn.line).toBe('Attic open.');
    expect(model.requests[1].prompt).toContain('The attic hatch opens.');
  });

  test('unanswered → a timeout error output after externalToolTimeoutMs; the NPC still replies', async () => {
    const door = pickLock();
    const { npc, model } = mira(
      [
        Script.call('open_door', { door: 'vault' }),
        Script.reply({ emotion: 'worried', line: 'The vault will not budge.' }),
      ],
      { tools: [door], options: { externalToolTimeoutMs: 5 } },
    );
    const turn = await npc.talk('Open the vault');
    expect(turn.line).toBe('The vault will not budge.');
    expect(turn.isFallback).toBe(false);
    expect(turn.toolCalls[0].output.kind).toBe('error');
    expect(model.requests[1].prompt).toMatch(/no answer/i);
  });
});

describe('cancellation', () => {
  test('during the model step → cancelled; history and memory unchanged', async () => {
    const { npc, model } = mira([Script.hang()], { memory: { facts: ['Likes ale.'], relationship: 5 } });
    const history = npc.history;
    const memory = npc.memory.snapshot();
    const stream = npc.talkStream('Hello');
    await until(() => model.calls === 1, 'the model step');
    expect(npc.isTalking).toBe(true);
    stream.cancel();
    const error = await failure(stream.turn());
    expect(error.code).toBe('cancelled');
    expect(stream.status).toBe('cancelled');
    expect(npc.history).toEqual(history);
    expect(npc.memory.snapshot()).toEqual(memory);
    await until(() => !npc.isTalking, 'idle');
  });

  test('during a tool, after a memory change was staged → cancelled; the staged memory is discarded', async () => {
    let release: () => void = () => undefined;
    const slow = AgentTool.local(
      { name: 'brew', description: 'Brews tea.' },
      () =>
        new Promise<string>((resolve) => {
          release = () => resolve('Tea is ready.');
        }),
    );
    const { npc, model } = mira(
      [
        Script.call('remember_fact', { fact: 'The player likes tea.' }),
        Script.call('change_relationship', { reason: 'kind', delta: 5 }),
        Script.call('brew'),
      ],
      { tools: [slow], options: { memoryTools: 'all', maxToolRounds: 4 } },
    );
    const stream = npc.talkStream('Some tea please');
    const started: string[] = [];
    stream.on('toolCall', (event) => started.push(event.call.name));
    await until(() => started.indexOf('brew') >= 0, 'the brew tool');
    stream.cancel('The player walked away.');
    release();
    const error = await failure(stream.turn());
    expect(error.code).toBe('cancelled');
    expect(npc.history).toEqual([]);
    expect(npc.memory.snapshot()).toEqual({ facts: [], relationship: 0, summary: '' });
    // The next turn commits only its own changes: nothing staged by the cancelled turn comes back.
    await until(() => !npc.isTalking, 'idle');
    model.append(
      Script.call('change_relationship', { reason: 'came back', delta: 1 }),
      Script.reply({ emotion: 'happy', line: 'Welcome back.' }),
    );
    const next = await npc.talk('Hi again');
    expect(next.line).toBe('Welcome back.');
    expect(npc.memory.facts).toEqual([]);
    expect(npc.memory.relationship).toBe(1);
  });

  test('through the caller signal', async () => {
    const { Canceller } = await import('../../src');
    const canceller = new Canceller();
    const { npc, model } = mira([Script.hang()]);
    const turn = npc.talk('Hello', { signal: canceller.signal });
    await until(() => model.calls === 1, 'the model step');
    canceller.abort();
    expect((await failure(turn)).code).toBe('cancelled');
    expect(npc.history).toEqual([]);
  });

  test('a signal aborted before the call → cancelled with no model call', async () => {
    const { Canceller } = await import('../../src');
    const canceller = new Canceller();
    canceller.abort();
    const { npc, model } = mira([Script.json({ emotion: 'happy', line: 'Hi.' })]);
    expect((await failure(npc.talk('Hello', { signal: canceller.signal }))).code).toBe('cancelled');
    expect(model.calls).toBe(0);
  });

  test('a queued turn cancelled before it starts never reaches the model; the others run', async () => {
    const { npc, model } = mira([
      Script.delay(5, Script.json({ emotion: 'happy', line: 'One.' })),
      Script.json({ emotion: 'happy', line: 'Three.' }),
    ]);
    const first = npc.talkStream('1');
    const second = npc.talkStream('2');
    const third = npc.talkStream('3');
    expect(second.status).toBe('queued');
    second.cancel();
    expect((await failure(second.turn())).code).toBe('cancelled');
    expect((await first.turn()).line).toBe('One.');
    expect((await third.turn()).line).toBe('Three.');
    expect(model.calls).toBe(2);
    expect(
      npc.history.filter((entry) => entry.type === 'prompt').map((entry) => (entry as { text: string }).text),
    ).toEqual(['1', '3']);
  });

  test('cancelling a finished turn changes nothing', async () => {
    const { npc } = mira([Script.json({ emotion: 'happy', line: 'Hi.' })]);
    const stream = npc.talkStream('Hello');
    const turn = await stream.turn();
    stream.cancel();
    expect(stream.status).toBe('completed');
    expect(turn.line).toBe('Hi.');
    expect(npc.turnCount).toBe(1);
  });

  test('the events iterable ends with the cancel error', async () => {
    const { npc, model } = mira([Script.hang()]);
    const stream = npc.talkStream('Hello');
    const collected = events(stream);
    await until(() => model.calls === 1, 'the model step');
    stream.cancel();
    const { events: evs, error } = await collected;
    expect(error?.code).toBe('cancelled');
    expect(evs.some((event: NPCEvent) => event.type === 'completed')).toBe(false);
  });
});

describe('queued turns', () => {
  test('run one at a time, in the order they were asked', async () => {
    const tools = tavernTools();
    const { npc, model } = mira(
      [
        Script.delay(5, Script.reply({ emotion: 'happy', line: 'First.' })),
        Script.call('check_menu'),
        Script.reply({ emotion: 'neutral', line: 'Second.' }),
        Script.reply({ emotion: 'happy', line: 'Third.' }),
      ],
      { tools: [tools.menu] },
    );
    const order: string[] = [];
    const turns = ['a', 'b', 'c'].map((prompt) =>
      npc.talk(prompt).then((turn) => {
        order.push(turn.line);
        return turn;
      }),
    );
    const done = await Promise.all(turns);
    expect(done.map((turn) => turn.line)).toEqual(['First.', 'Second.', 'Third.']);
    expect(order).toEqual(['First.', 'Second.', 'Third.']);
    // Each turn sees the one before it.
    expect(model.requests[1].prompt).toContain('First.');
    expect(model.requests[3].prompt).toContain('Second.');
    expect(npc.turnCount).toBe(3);
  });

  test('a failing turn does not stop the turns behind it', async () => {
    const { npc } = mira([Script.fail('invalid_request', 'bad'), Script.json({ emotion: 'happy', line: 'Fine.' })]);
    const first = npc.talk('a');
    const second = npc.talk('b');
    expect((await failure(first)).code).toBe('invalid_request');
    expect((await second).line).toBe('Fine.');
  });
});

describe('close', () => {
  test('cancels the running turn and refuses new ones', async () => {
    const { npc, model } = mira([Script.hang()]);
    const running = npc.talk('Hello');
    await until(() => model.calls === 1, 'the model step');
    npc.close();
    expect((await failure(running)).code).toBe('cancelled');
    const error = await failure(npc.talk('Again'));
    expect(error.code).toBe('invalid_request');
    expect(model.calls).toBe(1);
  });
});

describe('closing and pre-aborted signals', () => {
  const { NPC, Canceller } = require('../../src') as typeof import('../../src');
  const { ScriptedLanguageModel, Script } = require('../../src/testing') as typeof import('../../src/testing');

  test('close() cancels the running turn and the queued ones (code cancelled, not invalid_request)', async () => {
    const npc = new NPC({ persona: { name: 'Mira' }, model: new ScriptedLanguageModel([Script.hang()]) });
    const running = npc.talk('one').catch((error) => error.code);
    const queued = npc.talk('two').catch((error) => error.code);
    await new Promise((resolve) => setTimeout(resolve, 5));
    npc.close();
    expect(await Promise.all([running, queued])).toEqual(['cancelled', 'cancelled']);
    expect(npc.history).toEqual([]);
  });

  test('a turn whose signal was already aborted fails at once, not behind the running turn', async () => {
    const npc = new NPC({ persona: { name: 'Mira' }, model: new ScriptedLanguageModel([Script.hang()]) });
    const running = npc.talkStream('one');
    const canceller = new Canceller();
    canceller.abort();
    const code = await npc.talk('two', { signal: canceller.signal }).catch((error) => error.code);
    expect(code).toBe('cancelled');
    expect(running.status).toBe('running');
    running.cancel();
    await running.turn().catch(() => undefined);
  });
});
