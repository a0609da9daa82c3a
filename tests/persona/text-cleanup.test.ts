import { cleanLine, LineCleaner, stripSpeakerLabel, stripWrappingQuotes } from '../../src/game/persona';

const NAMES = ['Greta', 'Old Tom'];

function streamed(text: string, names: readonly string[], chunk: number): { parts: string[]; total: string } {
  const cleaner = new LineCleaner(names);
  const parts: string[] = [];
  for (let index = 0; index < text.length; index += chunk) parts.push(cleaner.push(text.slice(index, index + chunk)));
  parts.push(cleaner.finish());
  const total = parts.join('');
  expect(cleaner.text).toBe(total);
  return { parts, total };
}

describe('stripSpeakerLabel', () => {
  test.each([
    ['Greta: Hello there.', 'Hello there.'],
    ['Greta says: Hello there.', 'Hello there.'],
    ['greta said: Hello there.', 'Hello there.'],
    ['**Greta**: Hello there.', 'Hello there.'],
    ['**Greta:** Hello there.', 'Hello there.'],
    ['*Greta*: Hello there.', 'Hello there.'],
    ['GRETA : Hello there.', 'Hello there.'],
    ['  Old Tom: Aye.', 'Aye.'],
  ])('%j → %j', (input, expected) => {
    expect(stripSpeakerLabel(input, NAMES)).toBe(expected);
  });

  test.each([
    'Greta is my name.',
    'Gretchen: hi',
    'Hello Greta: welcome',
    'Greta said she would come.',
    '*smiles* Welcome!',
    'Player: hi',
  ])('leaves %j alone', (input) => {
    expect(stripSpeakerLabel(input, NAMES)).toBe(input);
  });

  test('no names, no stripping', () => {
    expect(stripSpeakerLabel('Greta: hi', [])).toBe('Greta: hi');
    expect(stripSpeakerLabel('Greta: hi', ['', '  '])).toBe('Greta: hi');
  });
});

describe('stripWrappingQuotes', () => {
  test.each([
    ['"Welcome in."', 'Welcome in.'],
    ['“Welcome in.”', 'Welcome in.'],
    ['‘Welcome in.’', 'Welcome in.'],
    ['«Bienvenue.»', 'Bienvenue.'],
    ['„Willkommen.“', 'Willkommen.'],
    ["'Welcome in.'", 'Welcome in.'],
    ['  " Welcome in. "  ', 'Welcome in.'],
    ['Welcome in.', 'Welcome in.'],
    ['Say "hi" to Ulf.', 'Say "hi" to Ulf.'],
    ["'Tis a cold night.", "'Tis a cold night."],
    ['"Unclosed line', 'Unclosed line'],
    ['""', ''],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(stripWrappingQuotes(input)).toBe(expected);
  });
});

describe('cleanLine', () => {
  test('label, then quotes, then whitespace', () => {
    expect(cleanLine('**Greta:** "A room is 5 gold, love."\n', NAMES)).toBe('A room is 5 gold, love.');
    expect(cleanLine('Greta says: “Aye.”', NAMES)).toBe('Aye.');
    expect(cleanLine('  Hello.  ', NAMES)).toBe('Hello.');
  });

  test('a line that is only a label becomes empty', () => {
    expect(cleanLine('Greta:', NAMES)).toBe('');
    expect(cleanLine('**Greta:**  ', NAMES)).toBe('');
  });
});

const CASES = [
  '**Greta:** "A room is 5 gold, love."',
  'Greta: Hello there.',
  'Greta says: “Aye, the road is closed.”',
  'Gretchen: not a label',
  'Great day for it!',
  '"Welcome," she said. "Sit down."',
  "'Tis late, love.",
  "'Go home.'",
  '  spaced   out  ',
  'Old Tom: "Aye."  ',
  'Old Timer here.',
  '*Greta*: *wipes the bar* What now?',
  'G',
  '',
  '"',
  '«Oui.»',
];

describe('LineCleaner (streaming)', () => {
  test.each(CASES)('%j: 1-char, 3-char and whole chunks all equal cleanLine', (text) => {
    const expected = cleanLine(text, NAMES);
    for (const size of [1, 2, 3, 7, Math.max(1, text.length)]) {
      expect(streamed(text, NAMES, size).total).toBe(expected);
    }
  });

  test('text streams before the line is finished', () => {
    const { parts } = streamed('Greta: Hello there, love.', NAMES, 1);
    const beforeFinish = parts.slice(0, -1).join('');
    expect(beforeFinish).toBe('Hello there, love.');
  });

  test('a possible label is held back until decided', () => {
    const cleaner = new LineCleaner(NAMES);
    expect(cleaner.push('Gre')).toBe('');
    expect(cleaner.push('ta')).toBe('');
    expect(cleaner.push(':')).toBe('');
    expect(cleaner.push(' Hi')).toBe('Hi');
    expect(cleaner.push(' there')).toBe(' there');
    expect(cleaner.finish()).toBe('');
  });

  test('a name that turns into a word is released', () => {
    const cleaner = new LineCleaner(NAMES);
    expect(cleaner.push('Gre')).toBe('');
    expect(cleaner.push('at')).toBe('Great');
  });

  test('a closing quote and trailing spaces are held until the end', () => {
    const cleaner = new LineCleaner(NAMES);
    expect(cleaner.push('"Aye')).toBe('Aye');
    expect(cleaner.push('." ')).toBe('.');
    expect(cleaner.push(' and more"')).toBe('"  and more');
    expect(cleaner.finish()).toBe('');
    expect(cleaner.text).toBe('Aye."  and more');
  });

  test('push after finish adds nothing', () => {
    const cleaner = new LineCleaner(NAMES);
    cleaner.push('Hi');
    expect(cleaner.finish()).toBe('');
    expect(cleaner.push('more')).toBe('');
    expect(cleaner.finish()).toBe('');
    expect(cleaner.text).toBe('Hi');
  });

  test('random splits of many lines always add up (property)', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const alphabet = [
      'G',
      'r',
      'e',
      't',
      'a',
      ':',
      ' ',
      '"',
      '“',
      '”',
      "'",
      '*',
      'x',
      's',
      'y',
      '.',
      '\n',
      'O',
      'l',
      'd',
      'T',
      'o',
      'm',
    ];
    for (let round = 0; round < 400; round++) {
      const length = Math.floor(random() * 24);
      let text = random() < 0.5 ? 'Greta: ' : '';
      for (let letter = 0; letter < length; letter++) text += alphabet[Math.floor(random() * alphabet.length)];
      const expected = cleanLine(text, NAMES);
      const cleaner = new LineCleaner(NAMES);
      let out = '';
      let at = 0;
      while (at < text.length) {
        const size = 1 + Math.floor(random() * 4);
        out += cleaner.push(text.slice(at, at + size));
        at += size;
      }
      out += cleaner.finish();
      expect(out).toBe(expected);
    }
  });
});
