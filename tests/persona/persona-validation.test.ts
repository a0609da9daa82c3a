import { AgentError } from '../../src/contract/errors';
import {
  normalizePersona,
  parsePersona,
  validatePersona,
  findJsonSyntaxError,
  PERSONA_SCHEMA,
  PERSONA_FIELDS,
  PERSONA_STRUCTURED_FIELDS,
} from '../../src/game/persona';
import type { Persona } from '../../src/game/persona';

const FULL: Persona = {
  name: 'Greta',
  role: 'the innkeeper of the Rusty Tankard',
  personality: 'warm, nosy and quick to laugh',
  speakingStyle: "short folksy sentences, calls everyone 'love'",
  backstory: 'Ran the inn for thirty years after her husband vanished at sea.',
  goals: ['keep the inn full', 'find out who stole the silver'],
  knowledge: ['a room costs 5 gold', 'the blacksmith is Ulf'],
  secrets: ['she hides smugglers in the cellar'],
  defaultEmotion: 'happy',
  maxSentences: 3,
  greeting: 'Welcome, love!',
  fallbackLines: ['Busy night, love.', 'Ask me later.'],
};

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('invalid_request');
    return (error as AgentError).message;
  }
  throw new Error('expected a throw');
}

describe('parsePersona: good input', () => {
  test('a full persona object passes unchanged', () => {
    expect(parsePersona(FULL)).toEqual(FULL);
  });

  test('JSON text passes, with a $schema key allowed and dropped', () => {
    const text = JSON.stringify({ $schema: './persona.schema.json', ...FULL });
    const persona = parsePersona(text);
    expect(persona).toEqual(FULL);
    expect('$schema' in persona).toBe(false);
  });

  test('a byte order mark before the JSON is tolerated', () => {
    expect(parsePersona('\uFEFF{"name":"Ulf"}')).toEqual({ name: 'Ulf' });
  });

  test('name only is enough and no defaults are filled in by parsing', () => {
    expect(parsePersona({ name: 'Ulf' })).toEqual({ name: 'Ulf' });
  });

  test('the result does not share lists with the input', () => {
    const input = { name: 'Ulf', goals: ['forge'] };
    const persona = parsePersona(input);
    persona.goals!.push('x');
    expect(input.goals).toEqual(['forge']);
  });
});

describe('parsePersona: bad input names the field', () => {
  test('missing name', () => {
    expect(messageOf(() => parsePersona({ role: 'smith' }))).toContain('persona.name: is required');
  });

  test('empty or blank name', () => {
    expect(messageOf(() => parsePersona({ name: '' }))).toContain('persona.name: must not be empty');
    expect(messageOf(() => parsePersona({ name: '   ' }))).toContain('persona.name: must not be empty');
  });

  test('maxSentences below 1', () => {
    expect(messageOf(() => parsePersona({ name: 'Ulf', maxSentences: 0 }))).toContain(
      'persona.maxSentences: must be at least 1; got 0',
    );
  });

  test('maxSentences not a whole number', () => {
    expect(messageOf(() => parsePersona({ name: 'Ulf', maxSentences: 1.5 }))).toContain(
      'persona.maxSentences: must be a whole number; got 1.5',
    );
    expect(messageOf(() => parsePersona({ name: 'Ulf', maxSentences: '2' }))).toContain(
      'persona.maxSentences: must be a whole number; got "2"',
    );
  });

  test.each([
    ['name', 42, 'persona.name: must be text (a string); got 42'],
    ['role', true, 'persona.role: must be text (a string); got true'],
    ['personality', ['a'], 'persona.personality: must be text (a string); got a list'],
    ['speakingStyle', null, 'persona.speakingStyle: must be text (a string); got null'],
    ['backstory', {}, 'persona.backstory: must be text (a string); got an object'],
    ['greeting', 1, 'persona.greeting: must be text (a string); got 1'],
    ['goals', 'be rich', 'persona.goals: must be a list; got "be rich"'],
    ['knowledge', {}, 'persona.knowledge: must be a list; got an object'],
    ['secrets', 'x', 'persona.secrets: must be a list; got "x"'],
    ['fallbackLines', 3, 'persona.fallbackLines: must be a list; got 3'],
  ])('wrong type for %s', (field, value, expected) => {
    expect(messageOf(() => parsePersona({ name: 'Ulf', [field]: value }))).toContain(expected);
  });

  test('a list item of the wrong type is named by index', () => {
    expect(messageOf(() => parsePersona({ name: 'Ulf', goals: ['ok', 7] }))).toContain(
      'persona.goals[1]: must be text (a string); got 7',
    );
    expect(messageOf(() => parsePersona({ name: 'Ulf', fallbackLines: [null] }))).toContain(
      'persona.fallbackLines[0]: must be text (a string); got null',
    );
  });

  test('an unknown emotion lists the allowed ones and suggests a synonym', () => {
    const message = messageOf(() => parsePersona({ name: 'Ulf', defaultEmotion: 'joyful' }));
    expect(message).toContain('persona.defaultEmotion: must be one of neutral, happy,');
    expect(message).toContain('got "joyful" (did you mean "happy"?)');
    const plain = messageOf(() => parsePersona({ name: 'Ulf', defaultEmotion: 'blorp' }));
    expect(plain).not.toContain('did you mean');
  });

  test('an unknown field is rejected with a suggestion', () => {
    expect(messageOf(() => parsePersona({ name: 'Ulf', speaking_style: 'gruff' }))).toContain(
      'persona.speaking_style: is not a persona field; did you mean "speakingStyle"?',
    );
    expect(messageOf(() => parsePersona({ name: 'Ulf', mood: 'x' }))).toContain(
      'persona.mood: is not a persona field; known fields: name, role,',
    );
  });

  test('every problem is reported at once', () => {
    const message = messageOf(() => parsePersona({ maxSentences: 0, goals: 'x', extra: 1 }));
    expect(message).toContain('persona.name: is required');
    expect(message).toContain('persona.maxSentences: must be at least 1; got 0');
    expect(message).toContain('persona.goals: must be a list');
    expect(message).toContain('persona.extra: is not a persona field');
  });

  test('not JSON text gives the position', () => {
    const message = messageOf(() => parsePersona('{"name": }'));
    expect(message).toMatch(/^persona is not JSON: Unexpected token "}" at position 9 \(line 1, column 10\)$/);
  });

  test('not JSON text on a later line gives line and column', () => {
    const message = messageOf(() => parsePersona('{\n  "name": "Ulf",\n  role: "smith"\n}'));
    expect(message).toContain('persona is not JSON:');
    expect(message).toContain('line 3, column 3');
  });

  test('empty and truncated text', () => {
    expect(messageOf(() => parsePersona(''))).toBe('persona is not JSON: the text is empty');
    expect(messageOf(() => parsePersona('{"name": "Ulf"'))).toContain('Unexpected end of JSON input at position 14');
  });

  test.each([
    [null, 'null'],
    [[], 'a list'],
    [5, '5'],
    [undefined, 'undefined'],
    ['"Ulf"', '"Ulf"'],
  ])('a value that is not an object (%p)', (value, got) => {
    expect(messageOf(() => parsePersona(value))).toBe(`persona: must be an object with at least a "name"; got ${got}`);
  });
});

describe('validatePersona', () => {
  test('ok with the persona', () => {
    expect(validatePersona(FULL)).toEqual({ ok: true, persona: FULL });
  });

  test('problems as field and message pairs for the inspector', () => {
    const result = validatePersona({ name: 'Ulf', maxSentences: -1, secrets: [1] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(
      expect.arrayContaining([
        { field: 'persona.secrets[0]', message: 'must be text (a string); got 1' },
        { field: 'persona.maxSentences', message: 'must be at least 1; got -1' },
      ]),
    );
    expect(result.problems).toHaveLength(2);
  });

  test('never throws, even for odd values', () => {
    for (const value of [undefined, null, 0, 'nope', '[]', Symbol('x'), () => 1]) {
      expect(validatePersona(value).ok).toBe(false);
    }
  });
});

describe('the published schema', () => {
  test('draft-07 with an $id, titles and descriptions for every field', () => {
    const schema = PERSONA_SCHEMA as {
      $schema: string;
      $id: string;
      properties: Record<string, { title?: string; description?: string }>;
      additionalProperties: boolean;
      required: string[];
    };
    expect(schema.$schema).toContain('draft-07');
    expect(schema.$id).toMatch(/^https:\/\/.+persona\.schema\.json$/);
    expect(schema.required).toEqual(['name']);
    expect(schema.additionalProperties).toBe(false);
    for (const field of PERSONA_FIELDS) {
      expect(schema.properties[field].title).toBeTruthy();
      expect(schema.properties[field].description).toBeTruthy();
    }
    expect(Object.keys(schema.properties).sort()).toEqual(
      ['$schema', ...PERSONA_FIELDS, ...PERSONA_STRUCTURED_FIELDS].sort(),
    );
  });
});

describe('normalizePersona', () => {
  test('fills the defaults', () => {
    const persona = normalizePersona({ name: 'Ulf' });
    expect(persona).toEqual({
      name: 'Ulf',
      role: '',
      personality: '',
      speakingStyle: '',
      backstory: '',
      goals: [],
      knowledge: [],
      secrets: [],
      defaultEmotion: 'neutral',
      maxSentences: 2,
      greeting: '',
      fallbackLines: [],
      stages: [],
      sampleLines: [],
    });
  });

  test('keeps authored values, tidies whitespace and drops empty list entries', () => {
    const persona = normalizePersona({
      name: ' Ulf ',
      backstory: 'line one\n  line two',
      goals: ['', ' forge ', '  '],
      maxSentences: 4,
    });
    expect(persona.name).toBe('Ulf');
    expect(persona.backstory).toBe('line one line two');
    expect(persona.goals).toEqual(['forge']);
    expect(persona.maxSentences).toBe(4);
  });

  test('reads values that skipped validation as absent or at least 1', () => {
    const odd = { name: 'Ulf', maxSentences: 0, defaultEmotion: 'joy', goals: 'x' } as unknown as Persona;
    const persona = normalizePersona(odd);
    expect(persona.maxSentences).toBe(1);
    expect(persona.defaultEmotion).toBe('neutral');
    expect(persona.goals).toEqual([]);
    expect(normalizePersona({ name: 'Ulf', maxSentences: NaN }).maxSentences).toBe(2);
  });
});

describe('findJsonSyntaxError', () => {
  test.each(['{}', '[]', '{"a":[1,-2.5e3,true,false,null,"x\\u00e9\\n"]}', ' 1 ', '"s"'])('valid %s', (text) => {
    expect(findJsonSyntaxError(text)).toBeUndefined();
    expect(() => JSON.parse(text)).not.toThrow();
  });

  test.each([
    ['{"a":1,}', 7],
    ['{a:1}', 1],
    ['[1 2]', 3],
    ['{"a":01}', 6],
    ['{"a":"x\\q"}', 8],
    ['{"a":1} x', 8],
    ['nul', 0],
    ['{"a":"\n"}', 6],
  ])('%j fails at %i like JSON.parse does', (text, position) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonSyntaxError(text)?.position).toBe(position);
  });
});
