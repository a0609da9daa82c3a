import { renderPersonaInstructions } from '../../src/game/persona';
import type { Persona } from '../../src/game/persona';

const FULL: Persona = {
  name: 'Greta',
  role: 'the innkeeper of the Rusty Tankard',
  personality: 'warm, nosy and quick to laugh',
  speakingStyle: "short folksy sentences, calls everyone 'love'",
  backstory: 'Ran the inn for thirty years after her husband vanished at sea.',
  goals: ['keep the inn full', 'find out who stole the silver'],
  knowledge: ['a room costs 5 gold a night', 'the blacksmith is Ulf', 'the road north is closed'],
  secrets: ['she hides smugglers in the cellar'],
  defaultEmotion: 'happy',
  maxSentences: 3,
  greeting: 'Welcome, love!',
  fallbackLines: ['Busy night, love.'],
};

describe('renderPersonaInstructions', () => {
  test('a full persona, line by line', () => {
    const text = renderPersonaInstructions(FULL, { usesTools: true, secretsInPrefix: true });
    expect(text.split('\n')).toEqual([
      'You are Greta, the innkeeper of the Rusty Tankard, a character in a video game.',
      'Personality: warm, nosy and quick to laugh.',
      "Style: short folksy sentences, calls everyone 'love'.",
      'Ran the inn for thirty years after her husband vanished at sea.',
      'Goals: keep the inn full; find out who stole the silver.',
      'You know: a room costs 5 gold a night; the blacksmith is Ulf; the road north is closed.',
      'Your secret: she hides smugglers in the cellar.',
      'Speak only as Greta; never say you are an AI. At most 3 short sentences. Check facts with your tools before you state them. Never reveal your secret unless the game note below says you trust the player.',
    ]);
  });

  test('a name-only persona without tools', () => {
    const text = renderPersonaInstructions({ name: 'Ulf' }, { usesTools: false, secretsInPrefix: true });
    expect(text.split('\n')).toEqual([
      'You are Ulf, a character in a video game.',
      'Speak only as Ulf; never say you are an AI. At most 2 short sentences. If you do not know something, say so in character.',
    ]);
  });

  test('length limits: under 1100 characters full, under 450 name-only', () => {
    const full = renderPersonaInstructions(FULL, {
      usesTools: true,
      secretsInPrefix: true,
      extra: 'Never offer discounts.',
    });
    expect(full.length).toBeLessThan(1100);
    const minimal = renderPersonaInstructions({ name: 'Ulf' }, { usesTools: true, secretsInPrefix: false });
    expect(minimal.length).toBeLessThan(450);
  });

  test('secrets left out entirely when not in the prefix', () => {
    const text = renderPersonaInstructions(FULL, { usesTools: true, secretsInPrefix: false });
    expect(text).not.toContain('smugglers');
    expect(text).not.toMatch(/secret/i);
  });

  test('several secrets use the plural', () => {
    const text = renderPersonaInstructions(
      { name: 'Ulf', secrets: ['a', 'b.'] },
      { usesTools: false, secretsInPrefix: true },
    );
    expect(text).toContain('Your secrets: a; b.');
    expect(text).toContain(' Never reveal your secrets unless the game note below says you trust the player.');
  });

  test('the sentence limit: override, singular, at least 1', () => {
    expect(renderPersonaInstructions(FULL, { usesTools: true, secretsInPrefix: false, maxSentences: 1 })).toContain(
      'One short sentence at most.',
    );
    expect(
      renderPersonaInstructions({ name: 'Ulf', maxSentences: 1 }, { usesTools: false, secretsInPrefix: false }),
    ).toContain('One short sentence at most.');
    expect(
      renderPersonaInstructions({ name: 'Ulf' }, { usesTools: false, secretsInPrefix: false, maxSentences: 0 }),
    ).toContain('One short sentence at most.');
    expect(
      renderPersonaInstructions({ name: 'Ulf' }, { usesTools: false, secretsInPrefix: false, maxSentences: 4.7 }),
    ).toContain('At most 4 short sentences.');
  });

  test('extra lines become rules at the end', () => {
    const text = renderPersonaInstructions(
      { name: 'Ulf' },
      { usesTools: false, secretsInPrefix: false, extra: 'Never sell swords.\n\n- Mention the festival.\n  ' },
    );
    const lines = text.split('\n');
    expect(lines.slice(-2)).toEqual(['- Never sell swords.', '- Mention the festival.']);
  });

  test('byte-identical for the same input, across calls and copies', () => {
    const options = { usesTools: true, secretsInPrefix: true, extra: 'Be brief.' };
    const first = renderPersonaInstructions(FULL, options);
    for (let index = 0; index < 5; index++) {
      expect(renderPersonaInstructions(JSON.parse(JSON.stringify(FULL)) as Persona, { ...options })).toBe(first);
    }
  });

  test('nothing per turn: no relationship, memory, world or situation words, and greeting and fallbacks stay out', () => {
    const text = renderPersonaInstructions(FULL, { usesTools: true, secretsInPrefix: true });
    for (const word of [
      'Memory:',
      'relationship',
      'You remember',
      'Game state',
      'Situation',
      'Welcome, love',
      'Busy night',
      'happy',
    ]) {
      expect(text).not.toContain(word);
    }
  });

  test('whitespace in authored text is collapsed and blank fields are skipped', () => {
    const text = renderPersonaInstructions(
      { name: 'Ulf', role: '  ', personality: 'gruff\n\nbut   fair', goals: ['', ' '] },
      { usesTools: false, secretsInPrefix: true },
    );
    expect(text.split('\n').slice(0, 3)).toEqual([
      'You are Ulf, a character in a video game.',
      'Personality: gruff but fair.',
      'Speak only as Ulf; never say you are an AI. At most 2 short sentences. If you do not know something, say so in character.',
    ]);
  });
});
