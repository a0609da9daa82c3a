import { EMOTIONS, isEmotion, isEmotionTagPending, matchEmotion, parseEmotionTag } from '../../src/game/emotion';
import type { Emotion } from '../../src/game/emotion';

describe('EMOTIONS', () => {
  test('the 16 emotions in the seed order', () => {
    expect(EMOTIONS).toEqual([
      'neutral',
      'happy',
      'sad',
      'angry',
      'afraid',
      'surprised',
      'suspicious',
      'amused',
      'disgusted',
      'excited',
      'curious',
      'confused',
      'worried',
      'grateful',
      'annoyed',
      'proud',
    ]);
    expect(new Set(EMOTIONS).size).toBe(16);
  });

  test('isEmotion', () => {
    expect(isEmotion('happy')).toBe(true);
    expect(isEmotion('Happy')).toBe(false);
    expect(isEmotion(3)).toBe(false);
  });
});

describe('matchEmotion', () => {
  test.each(EMOTIONS.map((emotion) => [emotion]))('%s matches itself, any case, bracketed', (emotion) => {
    expect(matchEmotion(emotion)).toBe(emotion);
    expect(matchEmotion(emotion.toUpperCase())).toBe(emotion);
    expect(matchEmotion(`[${emotion[0].toUpperCase()}${emotion.slice(1)}]`)).toBe(emotion);
    expect(matchEmotion(` "${emotion}!" `)).toBe(emotion);
  });

  test.each([
    ['mad', 'angry'],
    ['furious', 'angry'],
    ['scared', 'afraid'],
    ['frightened', 'afraid'],
    ['joyful', 'happy'],
    ['cheerful', 'happy'],
    ['glad', 'happy'],
    ['gruff', 'annoyed'],
    ['grumpy', 'annoyed'],
    ['irritated', 'annoyed'],
    ['smug', 'proud'],
    ['nervous', 'worried'],
    ['anxious', 'worried'],
    ['thankful', 'grateful'],
    ['puzzled', 'confused'],
    ['intrigued', 'curious'],
    ['interested', 'curious'],
    ['shocked', 'surprised'],
    ['astonished', 'surprised'],
    ['wary', 'suspicious'],
    ['distrustful', 'suspicious'],
    ['disgust', 'disgusted'],
    ['thrilled', 'excited'],
    ['eager', 'excited'],
    ['amusement', 'amused'],
    ['laughing', 'amused'],
    ['sorrowful', 'sad'],
    ['unhappy', 'sad'],
    ['terrified', 'afraid'],
    ['skeptical', 'suspicious'],
    ['concerned', 'worried'],
    ['baffled', 'confused'],
    ['pleased', 'happy'],
    ['enraged', 'angry'],
    ['frustrated', 'annoyed'],
    ['amazed', 'surprised'],
    ['elated', 'excited'],
    ['gratitude', 'grateful'],
    ['calm', 'neutral'],
    ['upset', 'sad'],
  ])('synonym %s → %s', (word, emotion) => {
    expect(matchEmotion(word)).toBe(emotion);
    expect(matchEmotion(`${word.toUpperCase()}!!`)).toBe(emotion);
  });

  test('surrounding words, stage directions and punctuation', () => {
    expect(matchEmotion('*smiles happily*')).toBe('happy');
    expect(matchEmotion('very, very angry.')).toBe('angry');
    expect(matchEmotion('emotion: Suspicious')).toBe('suspicious');
    expect(matchEmotion('(feeling nervous)')).toBe('worried');
  });

  test('unknown, empty and non-string values give the fallback', () => {
    expect(matchEmotion('blorp')).toBe('neutral');
    expect(matchEmotion('')).toBe('neutral');
    expect(matchEmotion(undefined)).toBe('neutral');
    expect(matchEmotion(42)).toBe('neutral');
    expect(matchEmotion({ emotion: 'happy' })).toBe('neutral');
    expect(matchEmotion('blorp', undefined, 'sad')).toBe('sad');
  });

  test('a value outside the allowed subset goes to the nearest allowed one', () => {
    const allowed: Emotion[] = ['neutral', 'happy', 'sad', 'angry'];
    expect(matchEmotion('excited', allowed)).toBe('happy');
    expect(matchEmotion('thrilled', allowed)).toBe('happy');
    expect(matchEmotion('annoyed', allowed)).toBe('angry');
    expect(matchEmotion('worried', allowed)).toBe('sad');
    expect(matchEmotion('confused', allowed)).toBe('neutral');
    expect(matchEmotion('confused', allowed, 'sad')).toBe('sad');
    expect(matchEmotion('happy', allowed)).toBe('happy');
  });

  test('the result is always allowed, even when the fallback is not', () => {
    expect(matchEmotion('blorp', ['happy', 'sad'], 'neutral')).toBe('happy');
    expect(matchEmotion('blorp', ['sad', 'neutral'], 'angry')).toBe('neutral');
    for (const emotion of EMOTIONS) {
      expect(['happy', 'angry']).toContain(matchEmotion(emotion, ['happy', 'angry'], 'proud'));
    }
  });

  test('an empty allowed list means all', () => {
    expect(matchEmotion('proud', [])).toBe('proud');
  });
});

describe('parseEmotionTag', () => {
  test('a leading [emotion] tag', () => {
    expect(parseEmotionTag('[happy] Welcome in!')).toEqual({ emotion: 'happy', rest: 'Welcome in!' });
    expect(parseEmotionTag('  [Grumpy]What now?')).toEqual({ emotion: 'annoyed', rest: 'What now?' });
  });

  test('other bracket styles count only when they name an emotion', () => {
    expect(parseEmotionTag('(worried) Be careful.')).toEqual({ emotion: 'worried', rest: 'Be careful.' });
    expect(parseEmotionTag('*smiles happily* Hello.')).toEqual({ emotion: 'happy', rest: 'Hello.' });
    expect(parseEmotionTag('(to himself) Hmm.')).toEqual({ emotion: undefined, rest: '(to himself) Hmm.' });
  });

  test('an unknown word in square brackets is removed and read as the fallback', () => {
    expect(parseEmotionTag('[blorp] Hi.', undefined, 'sad')).toEqual({ emotion: 'sad', rest: 'Hi.' });
  });

  test('the allowed subset applies', () => {
    expect(parseEmotionTag('[excited] Yes!', ['neutral', 'happy'])).toEqual({ emotion: 'happy', rest: 'Yes!' });
  });

  test('no tag', () => {
    expect(parseEmotionTag('Hello [happy] there')).toEqual({ emotion: undefined, rest: 'Hello [happy] there' });
    expect(parseEmotionTag('')).toEqual({ emotion: undefined, rest: '' });
    expect(parseEmotionTag('[happy')).toEqual({ emotion: undefined, rest: '[happy' });
  });

  test('isEmotionTagPending while the tag may still be arriving', () => {
    expect(isEmotionTagPending('')).toBe(true);
    expect(isEmotionTagPending('  [hap')).toBe(true);
    expect(isEmotionTagPending('[happy]')).toBe(false);
    expect(isEmotionTagPending('Hello')).toBe(false);
    expect(isEmotionTagPending(`[${'x'.repeat(40)}`)).toBe(false);
  });
});
