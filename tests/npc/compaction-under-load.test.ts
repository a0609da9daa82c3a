/**
 * Compaction happens when due, even in a busy game: on one shared scheduler, conversation
 * turns (priority 100) queued back to back would keep a background summary (priority 0) waiting
 * forever; once a summary is overdue by a whole interval it goes at the NPC's own priority, so
 * the history stays bounded. One compaction is queued at a time.
 */
import { ModelScheduler, NPC } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';

const MIRA = { name: 'Mira', role: 'innkeeper', personality: 'warm' };

test('40 back-to-back turns on a busy scheduler: the history never grows past two intervals', async () => {
  const reply = (request: { kind: string }) =>
    request.kind === 'summary'
      ? 'They talked about ale.'
      : JSON.stringify(
          request.kind === 'decide'
            ? { reply: { emotion: 'neutral', line: 'Aye.' } }
            : { emotion: 'neutral', line: 'Aye.' },
        );
  const inner = new ScriptedLanguageModel([], { fallback: Script.delay(2, Script.dynamic(reply)) });
  const shared = new ModelScheduler(inner, { callsPerMinute: 0 });
  const npc = new NPC({ persona: MIRA, model: shared, options: { compactAfterTurns: 4, keepRecentTurns: 2 } });
  const other = new NPC({ persona: { ...MIRA, name: 'Brann' }, model: shared, options: { compactAfterTurns: 0 } });
  let longest = 0;
  let talking = true;
  // Another NPC talks without a pause: one of its turns is always queued at priority 100.
  const chatter = (async () => {
    while (talking) await other.talk('more');
  })();
  for (let index = 0; index < 40; index++) {
    await npc.talk(`Ale number ${index}?`);
    longest = Math.max(longest, npc.turnCount);
  }
  talking = false;
  await chatter;
  const summaries = inner.requests.filter((request) => request.kind === 'summary').length;
  expect(summaries).toBeGreaterThan(3);
  expect(longest).toBeLessThanOrEqual(4 + 4 + 2); // due at 4, forced by 8, plus the turns that end meanwhile
  expect(npc.memory.summary).toBe('They talked about ale.');
  // A summary still waiting for a quiet moment is cancelled with its NPC (no timer left behind).
  npc.close();
  other.close();
});
