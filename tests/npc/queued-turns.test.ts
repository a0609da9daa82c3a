/**
 * Turns that wait in the NPC's queue: one refused or cancelled while another runs leaves the
 * running turn's staged memory alone, and a queued turn runs whole with the settings it was
 * asked with (instructions, note and fallback lines alike).
 */
import { Canceller, type AgentError } from '../../src';
import { Script } from '../../src/testing';
import { mira, requestText } from './helpers';

describe('turns waiting in the queue', () => {
  test.each([
    ['refused (not a string)', (npc: ReturnType<typeof mira>['npc']) => npc.talkStream(42 as never)],
    [
      'cancelled while queued',
      (npc: ReturnType<typeof mira>['npc']) => {
        const stream = npc.talkStream('And you?');
        stream.cancel();
        return stream;
      },
    ],
    [
      'asked with an aborted signal',
      (npc: ReturnType<typeof mira>['npc']) => {
        const canceller = new Canceller();
        canceller.abort();
        return npc.talkStream('Hm?', { signal: canceller.signal });
      },
    ],
  ])('a turn %s leaves the running turn’s staged memory to be committed', async (_name, queueAnother) => {
    const { npc } = mira(
      [
        Script.call('remember_fact', { fact: 'The player is called Sam.' }),
        Script.delay(30, Script.reply({ emotion: 'happy', line: 'Nice to meet you, Sam.' })),
      ],
      { options: { memoryTools: 'all' } },
    );
    const running = npc.talkStream("I'm Sam");
    const other = await new Promise<ReturnType<typeof queueAnother>>((resolve) =>
      running.on('toolResult', () => resolve(queueAnother(npc))),
    );
    const failed = await other.turn().catch((error: AgentError) => error);
    const turn = await running.turn();
    expect(turn.line).toBe('Nice to meet you, Sam.');
    expect(npc.memory.facts).toEqual(['The player is called Sam.']);
    expect(failed).toMatchObject({ code: expect.stringMatching(/^(invalid_request|cancelled)$/) });
  });

  test('a queued turn keeps the persona and options it was asked with, note and fallback included', async () => {
    const { npc, model } = mira(
      [
        Script.delay(20, Script.reply({ emotion: 'happy', line: 'One moment.' })),
        Script.fail('refusal'),
        Script.fail('refusal'),
      ],
      { options: { fallbackLines: ['Busy night, love.'], secretsUnlockAtRelationship: 100 } },
    );
    const first = npc.talk('Hello');
    const queued = npc.talk('Any secrets?');
    // Changed while the second turn waits: it is for the turns asked for after this.
    npc.setOptions({ fallbackLines: ['Go away.'], secretsUnlockAtRelationship: 0 });
    await first;
    const turn = await queued;
    expect(turn).toMatchObject({ isFallback: true, line: 'Busy night, love.' });
    // The note of the queued turn was written with its own unlock rule: no secret in it.
    const secret = (npc.persona.secrets ?? [])[0];
    if (secret) expect(requestText(model.requests[1])).not.toContain(secret);
  });
});
