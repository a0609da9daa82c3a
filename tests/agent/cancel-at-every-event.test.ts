/**
 * A cancel at every event of a turn, from inside the listener of that event: nothing of the
 * turn starts after the cancel (no further event, no tool handler, no external request), the
 * turn rejects with `cancelled`, and the history is as it was.
 */
import { Agent, AgentTool, type AgentEvent } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';

function setup() {
  const ran: string[] = [];
  const local = AgentTool.local({ name: 'check_menu', description: 'Lists the menu.' }, () => {
    ran.push('check_menu');
    return { ale: 3 };
  });
  const external = AgentTool.external({ name: 'pour', description: 'Pours a drink.' });
  const model = new ScriptedLanguageModel([Script.call('check_menu'), Script.call('pour'), Script.reply('Ale is 3.')]);
  const agent = new Agent(model, { tools: [local, external] });
  return { ran, agent, model };
}

/** The events of the whole turn when nobody cancels (the external call answered at once). */
async function fullRun(): Promise<AgentEvent['type'][]> {
  const { agent } = setup();
  const run = agent.run('What is there?', { externalTools: () => 'poured' });
  const types: AgentEvent['type'][] = [];
  for await (const event of run.events) types.push(event.type);
  await run.response();
  return types;
}

test('the uncancelled turn has the events this test cancels at', async () => {
  const types = await fullRun();
  for (const type of ['step', 'stepFinished', 'toolStarted', 'toolCompleted', 'toolRequested', 'text'])
    expect(types).toContain(type);
});

test('cancelling at each event in turn: nothing starts afterwards', async () => {
  const total = (await fullRun()).length;
  for (let index = 0; index < total - 1; index++) {
    const { ran, agent } = setup();
    let handled = 0;
    const run = agent.run('What is there?', {
      externalTools: () => {
        handled++;
        return 'poured';
      },
    });
    const seen: AgentEvent['type'][] = [];
    let cancelledAt = -1;
    const events: AgentEvent[] = [];
    const done = (async () => {
      for await (const event of run.events) {
        events.push(event);
        seen.push(event.type);
        if (seen.length - 1 === index) {
          cancelledAt = index;
          const toolsBefore = ran.length;
          const handledBefore = handled;
          run.cancel('test');
          // Whatever had not started by now never starts.
          await new Promise((resolve) => setTimeout(resolve, 20));
          expect({ index, ran: ran.length, handled }).toEqual({
            index,
            ran: toolsBefore,
            handled: handledBefore,
          });
        }
      }
    })().catch(() => undefined);
    await expect(run.response()).rejects.toMatchObject({ code: 'cancelled' });
    await done;
    expect(cancelledAt).toBe(index);
    expect(seen.length).toBe(index + 1); // no event after the one the cancel came from
    if (seen[index] === 'toolStarted') expect(ran).toEqual([]); // cancelled as it was announced: the handler never ran
    if (seen[index] === 'toolRequested') expect(handled).toBe(0);
    expect(agent.history).toEqual([]);
  }
});

test('a cancel from a synchronous on() listener of toolStarted stops the handler', async () => {
  const { ran, agent } = setup();
  const run = agent.run('What is there?');
  run.on('toolStarted', () => run.cancel('now'));
  await expect(run.response()).rejects.toMatchObject({ code: 'cancelled' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(ran).toEqual([]);
});

test('a cancel from a step listener: the model is not called for that step', async () => {
  const { agent, model } = setup();
  const run = agent.run('What is there?');
  run.on('step', () => run.cancel('now'));
  await expect(run.response()).rejects.toMatchObject({ code: 'cancelled' });
  expect(model.calls).toBe(0);
});
