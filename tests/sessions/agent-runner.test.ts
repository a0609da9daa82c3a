/** AgentRunner: sessions by id (ML Kit's genai-agent model), single turns, eviction, delete, clear, close. */
import { AgentError, AgentRunner } from '../../src';
import { ScriptedLanguageModel, Script } from '../../src/testing';
import { FAST, failure, tavern } from '../agent/helpers';

function runner(
  steps: Parameters<ScriptedLanguageModel['append']> = [],
  options: Partial<ConstructorParameters<typeof AgentRunner>[0]> = {},
) {
  const model = new ScriptedLanguageModel(steps);
  const bar = tavern();
  const sessions = new AgentRunner({
    model,
    agent: { instructions: 'You are Mira, an innkeeper.', tools: [bar.menu, bar.order], config: FAST },
    ...options,
  });
  return { model, sessions, ...bar };
}

/** Lets queued turns start (their first step is sent a few microtasks after run()). */
async function ticks(count = 20): Promise<void> {
  for (let tick = 0; tick < count; tick++) await Promise.resolve();
}

describe('ids', () => {
  it('takes 1–128 printable characters, counted as code points', () => {
    const { sessions } = runner();
    expect(sessions.getOrCreate('a').id).toBe('a');
    expect(sessions.getOrCreate('x'.repeat(128)).id).toHaveLength(128);
    expect(sessions.getOrCreate('🍺'.repeat(128)).id).toBe('🍺'.repeat(128));
    expect(sessions.getOrCreate('player 1: Sam').id).toBe('player 1: Sam');
  });

  it.each([
    ['empty', ''],
    ['129 characters', 'x'.repeat(129)],
    ['a line break', 'a\nb'],
    ['a NUL', 'a\u0000'],
    ['DEL', 'a\u007f'],
    ['a lone surrogate', 'a\ud83c'],
  ])('refuses %s with invalid_request before any model call', async (_what, id) => {
    const { sessions, model } = runner([Script.reply('Hi.')]);
    expect(() => sessions.getOrCreate(id)).toThrow(AgentError);
    const error = await failure(sessions.respond(id, 'Hello'));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/session id/);
    expect(model.calls).toBe(0);
    expect(sessions.size).toBe(0);
  });

  it('refuses a non-string id', () => {
    const { sessions } = runner();
    expect(() => sessions.getOrCreate(42 as unknown as string)).toThrow(/must be a string/);
  });
});

describe('get-or-create', () => {
  it('returns the same session for the same id, and its turns share one history', async () => {
    const { sessions, model } = runner([Script.reply('Welcome!'), Script.reply('Ale is 3 gold.')]);
    const first = sessions.getOrCreate('sam');
    expect(sessions.getOrCreate('sam')).toBe(first);
    expect(sessions.has('sam')).toBe(true);
    expect(sessions.ids()).toEqual(['sam']);

    expect((await first.respond('Hello')).text).toBe('Welcome!');
    expect((await sessions.respond('sam', 'What does ale cost?')).text).toBe('Ale is 3 gold.');
    expect(model.calls).toBe(2);
    expect(model.requests[1].prompt).toContain('Welcome!');
    expect(first.agent.turnCount).toBe(2);
  });

  it('keeps sessions apart', async () => {
    const { sessions, model } = runner([Script.reply('Hi Sam.'), Script.reply('Hi Kim.')]);
    await sessions.respond('sam', 'I am Sam.');
    await sessions.respond('kim', 'I am Kim.');
    expect(model.requests[1].prompt).not.toContain('Sam');
    expect(sessions.getOrCreate('sam').agent.turnCount).toBe(1);
    expect(sessions.getOrCreate('kim').agent.turnCount).toBe(1);
  });

  it('gives a new session its own options over the defaults; an existing one keeps its own', async () => {
    const { sessions, model } = runner([Script.reply('Halt.')]);
    const guard = sessions.getOrCreate('guard', { instructions: 'You are a gate guard.', tools: [] });
    expect(guard.agent.instructions).toBe('You are a gate guard.');
    expect(guard.agent.tools).toEqual([]);
    expect(sessions.getOrCreate('guard', { instructions: 'ignored' }).agent.instructions).toBe('You are a gate guard.');
    expect(sessions.getOrCreate('inn').agent.tools.map((tool) => tool.name)).toEqual(['check_menu', 'take_order']);
    await guard.respond('Let me in.');
    expect(model.requests[0].systemInstruction).toBe('You are a gate guard.');
  });

  it("checks its own options and a session's before anything is created", () => {
    const model = new ScriptedLanguageModel();
    expect(() => new AgentRunner({ model, maxSessions: 0 })).toThrow(/maxSessions/);
    expect(() => new AgentRunner({ model, whenFull: 'drop' as never })).toThrow(/whenFull/);
    expect(() => new AgentRunner({ model, maxTurns: 0 })).toThrow(/maxTurns/);
    expect(() => new AgentRunner({ model: {} as never })).toThrow(/LanguageModel/);
    const sessions = new AgentRunner({ model });
    expect(() => sessions.getOrCreate('a', { config: { toolPolicy: { maxToolRounds: -1 } } })).toThrow(/maxToolRounds/);
    expect(sessions.has('a')).toBe(false);
  });
});

describe('single turns', () => {
  it('keeps no history and takes no session slot', async () => {
    const { sessions, model } = runner(
      [Script.reply('Ale is 3.'), Script.reply('Stew is 5.'), Script.reply('Welcome!')],
      { maxSessions: 1 },
    );
    expect((await sessions.runOnce('What does ale cost?').response()).text).toBe('Ale is 3.');
    expect((await sessions.respondOnce('And stew?')).text).toBe('Stew is 5.');
    expect(model.requests[1].prompt).not.toContain('ale cost');
    expect(sessions.size).toBe(0);
    await sessions.respond('sam', 'Hello');
    expect(model.requests[2].prompt).not.toContain('stew');
    expect(sessions.getOrCreate('sam').agent.turnCount).toBe(1);
    expect(model.calls).toBe(3);
  });

  it('runs tools and takes per-turn setup', async () => {
    const { sessions, log } = runner([Script.call('check_menu'), Script.reply('Ale is 3 gold.'), 'Plain words.']);
    const response = await sessions.respondOnce('What is on the menu?');
    expect(response.toolCalls.map((record) => record.call.name)).toEqual(['check_menu']);
    expect(log).toEqual(['check_menu']);
    expect((await sessions.respondOnce('Hi', {}, { tools: [] })).text).toBe('Plain words.');
  });
});

describe('eviction when full', () => {
  it('evicts the least recently used session (a use is a get or a turn)', async () => {
    const { sessions, model } = runner([Script.reply('Hi a.'), Script.reply('Hi b.')], { maxSessions: 3 });
    const sessionA = sessions.getOrCreate('a');
    sessions.getOrCreate('b');
    sessions.getOrCreate('c');
    await sessions.respond('a', 'Hello'); // a is now the most recent: b is the oldest
    expect(sessions.ids()).toEqual(['b', 'c', 'a']);
    sessions.getOrCreate('d');
    expect(sessions.ids()).toEqual(['c', 'a', 'd']);
    sessions.getOrCreate('c'); // a get counts as a use too
    sessions.getOrCreate('e');
    expect(sessions.ids()).toEqual(['d', 'c', 'e']);
    expect(sessionA.isOpen).toBe(false);
    expect(model.calls).toBe(1);
    // An evicted id comes back as a new session with an empty history.
    expect(sessions.getOrCreate('a').agent.turnCount).toBe(0);
  });

  it('skips sessions running a turn', async () => {
    const { sessions, model } = runner([Script.hang()], { maxSessions: 2 });
    const sessionA = sessions.getOrCreate('a');
    sessions.getOrCreate('b');
    const running = sessionA.run('Tell me a long story.');
    sessions.getOrCreate('b'); // b is now the most recent, a (busy) the least
    await ticks();
    expect(sessionA.isBusy).toBe(true);
    sessions.getOrCreate('c');
    expect(sessions.ids()).toEqual(['a', 'c']);
    expect(running.status).toBe('running');
    running.cancel();
    await failure(running.response());
    expect(model.calls).toBe(1);
  });

  it('fails with busy when every session is running a turn', async () => {
    const { sessions } = runner([Script.hang(), Script.hang()], { maxSessions: 2 });
    const runs = [sessions.run('a', 'One'), sessions.run('b', 'Two')];
    await ticks();
    let error: unknown;
    try {
      sessions.getOrCreate('c');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('busy');
    expect((error as AgentError).message).toMatch(/All 2 sessions are running a turn/);
    expect(sessions.ids()).toEqual(['a', 'b']);
    runs.forEach((run) => run.cancel());
  });

  it("with whenFull 'refuse', fails with invalid_request and a session_limit reason the protocol maps to -32022", async () => {
    const { sessions, model } = runner([Script.reply('Hi.')], { maxSessions: 1, whenFull: 'refuse' });
    sessions.getOrCreate('a');
    let error: AgentError | undefined;
    try {
      sessions.getOrCreate('b');
    } catch (caught) {
      error = caught as AgentError;
    }
    expect(error?.code).toBe('invalid_request');
    expect(error?.details).toEqual({ reason: 'session_limit', limit: 1 });
    expect(error?.toJSON()).toEqual(expect.objectContaining({ details: { reason: 'session_limit', limit: 1 } }));
    const viaRun = await failure(sessions.respond('b', 'Hello'));
    expect(viaRun.details).toEqual({ reason: 'session_limit', limit: 1 });
    expect(sessions.ids()).toEqual(['a']);
    expect(model.calls).toBe(0);
    // A freed slot can be used.
    sessions.delete('a');
    expect(sessions.getOrCreate('b').id).toBe('b');
  });
});

describe('delete, close, clear', () => {
  it('delete during a turn cancels it, at once, and frees the id', async () => {
    const { sessions, model } = runner([Script.reply('Welcome!'), Script.hang(), Script.reply('Fresh start.')]);
    await sessions.respond('sam', 'Hello');
    const session = sessions.getOrCreate('sam');
    const run = session.run('Tell me a long story.');
    await ticks();
    expect(run.status).toBe('running');
    expect(sessions.delete('sam')).toBe(true);
    expect(sessions.has('sam')).toBe(false);
    const error = await failure(run.response());
    expect(error.code).toBe('cancelled');
    expect(session.isOpen).toBe(false);
    expect((await failure(session.respond('Still there?'))).message).toMatch(/was deleted/);
    expect(sessions.delete('sam')).toBe(false);
    // The id now names a new, empty session.
    expect((await sessions.respond('sam', 'Hi again')).text).toBe('Fresh start.');
    expect(model.requests[2].prompt).not.toContain('Welcome!');
    expect(model.calls).toBe(3);
  });

  it('session.delete() is the same eviction', async () => {
    const { sessions } = runner([Script.hang()]);
    const session = sessions.getOrCreate('a');
    const run = session.run('Hi');
    await ticks();
    session.delete();
    expect(sessions.has('a')).toBe(false);
    expect((await failure(run.response())).code).toBe('cancelled');
  });

  it('session.close() frees the id now and lets the running turn finish first', async () => {
    const { sessions } = runner([Script.delay(5, Script.reply('Done.'))]);
    const session = sessions.getOrCreate('a');
    const run = session.run('Hi');
    await ticks();
    const closed = session.close();
    expect(sessions.has('a')).toBe(false);
    expect((await run.response()).text).toBe('Done.');
    await closed;
    expect(session.isOpen).toBe(false);
    expect((await failure(session.respond('More?'))).message).toMatch(/was closed/);
  });

  it('clear empties every history (after running turns) and keeps the sessions and their settings', async () => {
    const { sessions, model } = runner([
      Script.reply('Hi Sam.'),
      Script.reply('Hi Kim.'),
      Script.delay(5, Script.reply('Bye.')),
      Script.reply('Who?'),
    ]);
    await sessions.respond('sam', 'I am Sam.');
    await sessions.respond('kim', 'I am Kim.', {});
    const kim = sessions.getOrCreate('kim', { instructions: 'ignored' });
    kim.agent.contextNote = 'Kim owes 3 gold.';
    const running = sessions.run('sam', 'Goodbye');
    await ticks();
    await sessions.clear();
    expect((await running.response()).text).toBe('Bye.'); // finished before the clear
    expect(sessions.ids()).toEqual(['kim', 'sam']);
    expect(sessions.getOrCreate('sam').agent.history).toEqual([]);
    expect(kim.agent.history).toEqual([]);
    expect(kim.agent.contextNote).toBe('');
    expect(kim.agent.instructions).toBe('You are Mira, an innkeeper.');
    await sessions.respond('sam', 'Remember me?');
    expect(model.requests[3].prompt).not.toContain('Sam');
    expect(model.calls).toBe(4);
  });

  it('close cancels every turn, single ones too, and refuses later calls', async () => {
    const { sessions, model } = runner([Script.hang(), Script.hang()]);
    const inSession = sessions.run('a', 'Hi');
    const single = sessions.runOnce('Hi');
    await ticks();
    sessions.close();
    expect((await failure(inSession.response())).code).toBe('cancelled');
    expect((await failure(single.response())).code).toBe('cancelled');
    expect(sessions.isClosed).toBe(true);
    expect(() => sessions.getOrCreate('a')).toThrow(/was closed/);
    expect(() => sessions.has('a')).toThrow(/was closed/);
    expect(() => sessions.delete('a')).toThrow(/was closed/);
    await expect(sessions.clear()).rejects.toThrow(/was closed/);
    expect((await failure(sessions.respond('a', 'Hi'))).code).toBe('invalid_request');
    expect((await failure(sessions.respondOnce('Hi'))).message).toMatch(/was closed/);
    sessions.close(); // twice is fine
    expect(model.calls).toBe(2);
  });
});
