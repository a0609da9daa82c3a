/**
 * Persona files and saves written to hurt (issue 29, item 5): over-long fields are refused by
 * name before an NPC is built, loaded facts are cut to the remember_fact tool's length, and the
 * text helpers that used end-anchored regexes (quadratic on "....x") strip in one pass.
 */
import { NPC, NPC_SAVE_VERSION } from '../../src';
import { ScriptedLanguageModel } from '../../src/testing';
import { validatePersona } from '../../src/game/persona';
import { MAX_FACT_LENGTH, parseMemoryState, renderMemoryNote } from '../../src/game/memory';
import { renderPersonaInstructions } from '../../src/game/persona/render-instructions';
import { trimEndChars, trimStartChars } from '../../src/game/trim-chars';

describe('persona field limits', () => {
  test.each([
    {
      what: 'name',
      persona: { name: 'A'.repeat(101) },
      field: 'persona.name',
      message: /at most 100 characters; got 101/,
    },
    {
      what: 'role',
      persona: { name: 'Ada', role: `${'.'.repeat(160_000)}a` },
      field: 'persona.role',
      message: /at most 1000 characters; got 160001/,
    },
    {
      what: 'backstory',
      persona: { name: 'Ada', backstory: 'x'.repeat(4001) },
      field: 'persona.backstory',
      message: /at most 4000/,
    },
    {
      what: 'goal',
      persona: { name: 'Ada', goals: ['ok', 'y'.repeat(501)] },
      field: 'persona.goals[1]',
      message: /at most 500/,
    },
    {
      what: 'list',
      persona: { name: 'Ada', secrets: Array.from({ length: 51 }, (_, index) => `s${index}`) },
      field: 'persona.secrets',
      message: /at most 50 entries; got 51/,
    },
  ])('an over-long $what is refused, naming the field', ({ persona, field, message }) => {
    const check = validatePersona(persona);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  test('an NPC is not built from a 160k-dot role: invalid_request before any model call', () => {
    const model = new ScriptedLanguageModel([]);
    expect(() => new NPC({ persona: { name: 'Ada', role: `${'.'.repeat(160_000)}a` }, model })).toThrow(
      expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(/role/) }),
    );
    expect(model.calls).toBe(0);
  });

  test('fields at the limits still build, and the role keeps its words', () => {
    const role = `${'.'.repeat(990)}innkeeper...`;
    const text = renderPersonaInstructions(
      { name: 'Ada', role, goals: [`${';'.repeat(400)}x;;;`] },
      { usesTools: false, secretsInPrefix: false },
    );
    expect(text).toContain('innkeeper, a character');
    expect(text).toContain('x.');
  });
});

describe('facts loaded from a save', () => {
  test('an 80k-dot fact is cut to the tool length, marked with "..."', () => {
    const state = parseMemoryState({ facts: [`Sam ${'.'.repeat(80_000)}x`, 'Sam likes stew.'] });
    expect(state.facts[0].length).toBe(MAX_FACT_LENGTH);
    expect(state.facts[0].endsWith('...')).toBe(true);
    expect(state.facts[1]).toBe('Sam likes stew.');
  });

  test('a restored NPC carries the cut fact into its memory note', () => {
    const fresh = new NPC({ persona: { name: 'Ada' }, model: new ScriptedLanguageModel([]) }).saveState();
    expect(fresh.version).toBe(NPC_SAVE_VERSION);
    const saved = { ...fresh, memory: { facts: [`Sam ${'.'.repeat(80_000)}`], relationship: 0, summary: '' } };
    const npc = NPC.restore(saved, { model: new ScriptedLanguageModel([]) });
    const note = renderMemoryNote(npc.memory.snapshot(), { showRelationship: false });
    expect(note.length).toBeLessThan(400);
    expect(note).toContain('Sam');
  });
});

describe('trimEndChars and trimStartChars', () => {
  test.each([
    ['a;b;;', '.;', 'a;b'],
    ['....', '.', ''],
    ['abc', '.', 'abc'],
    ['', '.', ''],
    ['100,000 dots then x', '.', 'keeps it whole'],
  ])('trimEndChars(%j) strips only the end', (text, chars, expected) => {
    if (expected === 'keeps it whole') text = `${'.'.repeat(100_000)}x`;
    if (expected === 'keeps it whole') expected = text;
    expect(trimEndChars(text, chars)).toBe(expected);
  });

  test('trimStartChars strips only the start', () => {
    expect(trimStartChars('**"attack"', '*"')).toBe('attack"');
    expect(trimStartChars('x**', '*')).toBe('x**');
  });
});

describe('hints for unknown fields', () => {
  test.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'a field named %s gets the list of known fields, not a prototype function',
    (field) => {
      const check = validatePersona(JSON.parse(`{"name": "Ada", "${field}": 1}`));
      expect(check.ok).toBe(false);
      if (check.ok) return;
      const text = check.problems.map((problem) => problem.message).join(' ');
      expect(text).not.toMatch(/function|native code/);
    },
  );
});
