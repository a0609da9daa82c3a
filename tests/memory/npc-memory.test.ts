import { AgentError } from '../../src/contract/errors';
import {
  NPCMemory,
  addFact,
  attitude,
  clampRelationship,
  emptyMemory,
  parseMemoryState,
  renderMemoryNote,
} from '../../src/game/memory';

describe('facts', () => {
  test('de-duplicated ignoring case, punctuation and spacing', () => {
    const memory = new NPCMemory();
    expect(memory.remember("The player's name is Sam.")).toBe(true);
    expect(memory.remember("the player's name is sam")).toBe(false);
    expect(memory.remember("  THE PLAYER'S   NAME IS SAM!! ")).toBe(false);
    expect(memory.remember('The players name is Sam')).toBe(true); // a different word ("players")
    expect(memory.facts).toEqual(["The player's name is Sam.", 'The players name is Sam']);
  });

  test('empty or punctuation-only facts are not stored', () => {
    const memory = new NPCMemory();
    expect(memory.remember('')).toBe(false);
    expect(memory.remember('  ...  ')).toBe(false);
    expect(memory.facts).toEqual([]);
  });

  test('the oldest facts beyond the limit are dropped', () => {
    const memory = new NPCMemory();
    for (let index = 1; index <= 5; index++) memory.remember(`fact ${index}`, 3);
    expect(memory.facts).toEqual(['fact 3', 'fact 4', 'fact 5']);
  });

  test('default limit is 12', () => {
    const memory = new NPCMemory();
    for (let index = 1; index <= 20; index++) memory.remember(`fact ${index}`);
    expect(memory.facts).toHaveLength(12);
    expect(memory.facts[0]).toBe('fact 9');
  });

  test('a known fact keeps its place', () => {
    const result = addFact(['a', 'b', 'c'], 'A', 3);
    expect(result).toEqual({ facts: ['a', 'b', 'c'], added: false });
  });

  test('addFact does not change its input; a limit of 0 keeps nothing', () => {
    const facts = ['a'];
    expect(addFact(facts, 'b', 0)).toEqual({ facts: [], added: true });
    expect(facts).toEqual(['a']);
  });
});

describe('relationship', () => {
  test('clamped to -100…100 and whole', () => {
    expect(clampRelationship(150)).toBe(100);
    expect(clampRelationship(-150)).toBe(-100);
    expect(clampRelationship(12.6)).toBe(13);
    expect(clampRelationship(NaN)).toBe(0);
    expect(clampRelationship(Infinity)).toBe(0);
    const memory = new NPCMemory();
    expect(memory.adjustRelationship(70)).toBe(70);
    expect(memory.adjustRelationship(70)).toBe(100);
    memory.relationship = -500;
    expect(memory.relationship).toBe(-100);
    expect(memory.adjustRelationship(NaN)).toBe(-100);
  });

  test.each([
    [-100, 'hostile'],
    [-61, 'hostile'],
    [-60, 'unfriendly'],
    [-21, 'unfriendly'],
    [-20, 'neutral'],
    [0, 'neutral'],
    [20, 'neutral'],
    [21, 'friendly'],
    [60, 'friendly'],
    [61, 'trusting'],
    [100, 'trusting'],
  ])('attitude(%i) is %s', (value, expected) => {
    expect(attitude(value)).toBe(expected);
  });

  test('the memory reports its attitude', () => {
    expect(new NPCMemory({ relationship: 45 }).attitude).toBe('friendly');
  });
});

describe('state', () => {
  test('snapshot is a copy', () => {
    const memory = new NPCMemory({ facts: ['a'], relationship: 5, summary: 'met' });
    const snap = memory.snapshot();
    snap.facts.push('b');
    expect(memory.facts).toEqual(['a']);
    expect(JSON.parse(JSON.stringify(memory))).toEqual({ facts: ['a'], relationship: 5, summary: 'met' });
  });

  test('parseMemoryState fills missing keys, clamps and de-duplicates', () => {
    expect(parseMemoryState(undefined)).toEqual(emptyMemory());
    expect(parseMemoryState({})).toEqual(emptyMemory());
    expect(parseMemoryState({ facts: ['a', 'A.', ' '], relationship: 300, summary: ' s ' })).toEqual({
      facts: ['a'],
      relationship: 100,
      summary: 's',
    });
  });

  test.each([
    [[], 'memory: must be an object'],
    ['x', 'memory: must be an object'],
    [{ facts: 'a' }, 'memory.facts: must be a list of strings'],
    [{ facts: [1] }, 'memory.facts: must be a list of strings'],
    [{ relationship: '5' }, 'memory.relationship: must be a number'],
    [{ relationship: NaN }, 'memory.relationship: must be a number'],
    [{ summary: 3 }, 'memory.summary: must be a string'],
  ])('parseMemoryState rejects %j', (value, message) => {
    expect(() => parseMemoryState(value)).toThrow(AgentError);
    expect(() => parseMemoryState(value)).toThrow(message);
  });

  test('forget and replace', () => {
    const memory = new NPCMemory({ facts: ['a'], relationship: 5, summary: 's' });
    memory.replace({ facts: ['b'], relationship: 500, summary: 'x' });
    expect(memory.snapshot()).toEqual({ facts: ['b'], relationship: 100, summary: 'x' });
    memory.forget();
    expect(memory.snapshot()).toEqual(emptyMemory());
  });
});

describe('renderMemoryNote', () => {
  test('empty state and no relationship line → nothing', () => {
    expect(renderMemoryNote(emptyMemory(), { showRelationship: false })).toBe('');
    expect(renderMemoryNote(emptyMemory(), { showRelationship: false, secretsUnlocked: [] })).toBe('');
  });

  test('all lines, in order', () => {
    const note = renderMemoryNote(
      {
        facts: ["The player's name is Sam.", 'Sam owes 5 gold'],
        relationship: 65,
        summary: 'Sam asked about  the road.',
      },
      { showRelationship: true, secretsUnlocked: ['she hides smugglers in the cellar'] },
    );
    expect(note.split('\n')).toEqual([
      'Memory:',
      'You feel trusting toward the player (65 on -100..100).',
      "You remember: The player's name is Sam; Sam owes 5 gold.",
      'Earlier conversation: Sam asked about the road.',
      'You trust the player enough to share your secret: she hides smugglers in the cellar.',
    ]);
  });

  test('the relationship line only when asked for, even at 0', () => {
    expect(renderMemoryNote(emptyMemory(), { showRelationship: true })).toBe(
      'Memory:\nYou feel neutral toward the player (0 on -100..100).',
    );
    expect(renderMemoryNote({ facts: [], relationship: -70, summary: '' }, { showRelationship: false })).toBe('');
  });

  test('several unlocked secrets use the plural', () => {
    expect(renderMemoryNote(emptyMemory(), { showRelationship: false, secretsUnlocked: ['a', 'b'] })).toBe(
      'Memory:\nYou trust the player enough to share your secrets: a; b.',
    );
  });

  test('facts only', () => {
    expect(renderMemoryNote({ facts: ['likes ale'], relationship: 0, summary: '' }, { showRelationship: false })).toBe(
      'Memory:\nYou remember: likes ale.',
    );
  });
});
