import {
  emptyForm,
  fieldOfProblem,
  formFromPersona,
  personaFromForm,
  personaJsonText,
  validateForm,
  withoutUnknownFields,
  canWriteBack,
} from '../../extension/persona/form-model';
import { PERSONA_TEMPLATE, readPersonaFile } from '../../extension/persona/persona-file';
import { PERSONA_FIELDS } from '../../src/game/persona';

describe('the inspector form model', () => {
  it('round-trips the template: persona → form → the same JSON, keys in schema order', () => {
    const form = formFromPersona(PERSONA_TEMPLATE);
    const out = personaFromForm(form);
    expect(out).toEqual(PERSONA_TEMPLATE);
    expect(Object.keys(out)).toEqual(['$schema', ...PERSONA_FIELDS]);
    expect(personaJsonText(form)).toBe(`${JSON.stringify(PERSONA_TEMPLATE, null, 2)}\n`);
  });

  it('writes fields in schema order whatever order the file had', () => {
    const form = formFromPersona({ fallbackLines: ['Eh?'], maxSentences: 3, name: 'Bo', goals: ['eat'] });
    expect(Object.keys(personaFromForm(form))).toEqual(['name', 'goals', 'maxSentences', 'fallbackLines']);
  });

  it('leaves out empty optional fields and blank list entries, trims text', () => {
    const form = emptyForm();
    form.name = '  Bo ';
    form.role = '   ';
    form.goals = ['', '  eat  ', ' '];
    form.secrets = [''];
    expect(personaFromForm(form)).toEqual({ name: 'Bo', goals: ['eat'] });
  });

  it('always writes the name, so an empty one is reported on the name field', () => {
    const form = emptyForm();
    expect(personaFromForm(form)).toEqual({ name: '' });
    const validation = validateForm(form);
    expect(validation.ok).toBe(false);
    expect(validation.byField.name).toEqual([{ field: 'persona.name', message: 'must not be empty' }]);
  });

  it('turns a typed number into a number and keeps other text so it is reported', () => {
    const form = formFromPersona({ name: 'Bo' });
    form.maxSentences = ' 3 ';
    expect(personaFromForm(form).maxSentences).toBe(3);
    form.maxSentences = '2.5';
    expect(personaFromForm(form).maxSentences).toBe('2.5');
    expect(validateForm(form).byField.maxSentences![0].message).toBe('must be a whole number; got "2.5"');
    form.maxSentences = '0';
    expect(validateForm(form).byField.maxSentences![0].message).toBe('must be at least 1; got 0');
    form.maxSentences = '';
    expect(validateForm(form).ok).toBe(true);
  });

  it('reports an emotion that is not one of the 16 on the emotion field', () => {
    const form = formFromPersona({ name: 'Bo', defaultEmotion: 'sleepy' });
    expect(form.defaultEmotion).toBe('sleepy');
    expect(validateForm(form).byField.defaultEmotion).toHaveLength(1);
  });

  it('keeps unknown keys on save, reports them in general, and can remove them', () => {
    const form = formFromPersona({ name: 'Bo', speaking_style: 'gruff' });
    expect(personaFromForm(form)).toEqual({ name: 'Bo', speaking_style: 'gruff' });
    const validation = validateForm(form);
    expect(validation.byField.general).toEqual([
      { field: 'persona.speaking_style', message: 'is not a persona field; did you mean "speakingStyle"?' },
    ]);
    expect(personaFromForm(withoutUnknownFields(form))).toEqual({ name: 'Bo' });
  });

  it('reads wrong types from a broken file as far as it can', () => {
    const form = formFromPersona({ name: 7, goals: 'be rich', knowledge: ['a', 3, null], maxSentences: 2 });
    expect(form.name).toBe('7');
    expect(form.goals).toEqual(['be rich']);
    expect(form.knowledge).toEqual(['a', '3', '']);
    expect(form.maxSentences).toBe('2');
    expect(readPersonaFile(personaJsonText(form)).status).toBe('ok');
  });

  it.each([null, [], 'text', 3])('gives an empty form for %p', (value) => {
    expect(formFromPersona(value)).toEqual(emptyForm());
  });

  it('maps problem paths to form fields', () => {
    expect(fieldOfProblem({ field: 'persona.goals[2]', message: '' })).toBe('goals');
    expect(fieldOfProblem({ field: 'persona.name', message: '' })).toBe('name');
    expect(fieldOfProblem({ field: 'persona', message: '' })).toBe('general');
    expect(fieldOfProblem({ field: 'persona.colour', message: '' })).toBe('general');
  });
});

describe('what the form cannot show (issue 29, item 6)', () => {
  test('wrong-typed values and non-text list entries are listed for Save to ask about', () => {
    const form = formFromPersona({
      name: 'Mira',
      backstory: { years: 30 },
      role: 3,
      goals: [{ step: 1 }, 'Keep the inn'],
      knowledge: 'one fact',
      secrets: { a: 1 },
    });
    expect(form.unshown).toEqual([
      'role: the number 3, saved as text',
      'backstory: an object, dropped',
      'goals[0]: an object, dropped',
      'secrets: an object, dropped',
    ]);
    expect(formFromPersona({ name: 'Mira', goals: ['a'], role: 'x' }).unshown).toEqual([]);
  });

  test('a __proto__ key stays an own, unknown key through the form and back', () => {
    const form = formFromPersona(JSON.parse('{"name": "Mira", "__proto__": {"admin": true}}'));
    expect(Object.keys(form.unknown)).toEqual(['__proto__']);
    const written = personaFromForm(form);
    expect(Object.keys(written)).toEqual(['name', '__proto__']);
    expect(Object.getPrototypeOf(written)).toBe(Object.prototype);
    expect((written as { admin?: boolean }).admin).toBeUndefined();
  });

  test('canWriteBack is false for a value JSON.stringify cannot write', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 20_000; level++) deep = { a: deep };
    expect(canWriteBack({ name: 'Bo', notes: deep })).toBe(false);
    expect(canWriteBack({ name: 'Bo' })).toBe(true);
  });
});

test('blank list entries, a true maxSentences and a $schema that is not text are listed too', () => {
  const form = formFromPersona({ name: 'Mira', goals: ['a', ' '], maxSentences: true, $schema: 5 });
  expect(form.unshown).toEqual([
    'maxSentences: true, saved as text',
    '$schema: the number 5, dropped',
    'goals[1]: an empty entry, dropped',
  ]);
});
