/** The inspector's messages in one voice, from the core's English problems (validate-persona.ts). */
import { asSentence, problemText, schemaBounds } from '../../extension/persona/problem-text';
import { translatorFor } from '../../extension/persona/i18n';
import { validatePersona, PERSONA_SCHEMA } from '../../src/game/persona/validate-persona';

const en = require('../../i18n/en.js');
const zh = require('../../i18n/zh.js');
const translate = translatorFor(en);

function problemsOf(value: unknown, underField = true): string[] {
  const result = validatePersona(value);
  return result.ok ? [] : result.problems.map((problem) => problemText(problem, translate, underField));
}

describe('persona problems in one voice', () => {
  it('takes the sentence bounds from the schema', () => {
    expect(schemaBounds('maxSentences')).toEqual({ min: 1, max: 8 });
    expect(PERSONA_SCHEMA.properties.maxSentences).toMatchObject({ type: 'integer', minimum: 1, maximum: 8 });
  });

  it("words the core's problems as sentences with the value as the file has it", () => {
    expect(problemsOf({ name: '' })).toEqual([
      'Required: give the character a name; an NPC cannot use a persona without one.',
    ]);
    expect(problemsOf({})).toEqual(['Required: give the character a name; an NPC cannot use a persona without one.']);
    expect(problemsOf({ name: 'Bo', maxSentences: 999 })).toEqual(['Must be a whole number from 1 to 8; got 999.']);
    expect(problemsOf({ name: 'Bo', maxSentences: 0 })).toEqual(['Must be a whole number from 1 to 8; got 0.']);
    expect(problemsOf({ name: 'Bo', maxSentences: 'two' })).toEqual(['Must be a whole number from 1 to 8; got "two".']);
    expect(problemsOf({ name: 'Bo', goals: [1] })).toEqual(['Entry 1: Must be text; got 1.']);
    expect(problemsOf({ name: 'Bo', defaultEmotion: 'cheerful' })[0]).toMatch(
      /^Not one of the emotions: "cheerful"\. Pick one from the list\./,
    );
    expect(problemsOf({ name: 'Bo', style: 'gruff' })).toEqual([
      '"style" is not a persona field; an NPC refuses the file until it is removed. Did you mean "speakingStyle"?',
    ]);
    expect(problemsOf('{"name": ')).toEqual([
      expect.stringMatching(/^The file is not JSON: .+\(line 1, column 10\)\.$/),
    ]);
    expect(problemsOf('3')).toEqual(['The file is JSON but not a persona (an object with a "name"); got 3.']);
    // In the box at the top, a field's problem names the field.
    expect(problemsOf({ name: 'Bo', role: 5 }, false)).toEqual(['Role: Must be text; got 5.']);
  });

  it('gives anything else the same punctuation', () => {
    expect(problemText({ field: 'persona.role', message: 'is odd; got 5' }, translate, true)).toBe('Is odd; got 5.');
    expect(asSentence('fine already.')).toBe('Fine already.');
    expect(asSentence('did you?')).toBe('Did you?');
  });

  it('has every message in Chinese too', () => {
    const zt = translatorFor(zh);
    const result = validatePersona({ name: 'Bo', maxSentences: 999 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(problemText(result.problems[0], zt, true)).toBe('必须是 1 到 8 之间的整数；当前为 999。');
  });
});
