import fc from 'fast-check';
import { CompletionScanner, hasCompleteObject } from '../../src/core/json';

const SEED = 20240611;

/** Text made of the characters that drive the scanner's decisions. */
const jsonish = fc.string({
  unit: fc.constantFrom(
    '{',
    '}',
    '[',
    ']',
    '"',
    "'",
    '`',
    ':',
    ',',
    '\\',
    'u',
    'a',
    ' ',
    '\t',
    '\n',
    '/',
    '*',
    '=',
    '|',
    '1',
    'x',
    '"a"',
    '{"a":',
    '}}',
    '```',
  ),
  maxLength: 60,
});

/** Pushes growing prefixes (chunk sizes from `sizes`) and checks each answer. */
function agreesWhileStreaming(text: string, sizes: number[]): void {
  const scanner = new CompletionScanner();
  let at = 0;
  let step = 0;
  while (at < text.length) {
    at = Math.min(text.length, at + sizes[step++ % sizes.length]);
    const prefix = text.slice(0, at);
    expect([prefix, scanner.push(prefix)]).toEqual([prefix, hasCompleteObject(prefix)]);
  }
}

describe('CompletionScanner', () => {
  it('agrees with hasCompleteObject on every prefix of arbitrary text', () => {
    fc.assert(
      fc.property(jsonish, (text) => agreesWhileStreaming(text, [1])),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('agrees with hasCompleteObject whatever the chunk sizes', () => {
    fc.assert(
      fc.property(
        fc.oneof(jsonish, fc.json({ maxDepth: 3 })),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 }),
        (text, sizes) => agreesWhileStreaming(text, sizes),
      ),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it.each([
    '{"a": "}"}',
    '{"reply": "He said "hi""}',
    '{"a": /* } */ 1}',
    '{"a": // }\n 1}',
    '{"a": "x" /}',
    '{"a": "\\"}"}',
    '{oops} {"a": 1}',
    'Sure:\n```json\n{"tool": "take_order", "args": {"item": "a}le", "quantity": 2}}\n```',
  ])('turns true exactly when %j closes, one character at a time', (text) => {
    agreesWhileStreaming(text, [1]);
    expect(new CompletionScanner().push(text)).toBe(hasCompleteObject(text));
  });

  it('starts over when the text does not extend the previous one', () => {
    const scanner = new CompletionScanner();
    expect(scanner.push('{"a": 1}')).toBe(true);
    expect(scanner.push('{"b": ')).toBe(false);
    expect(scanner.push('{"b": 2}')).toBe(true);
    expect(scanner.push('')).toBe(false);
    expect(scanner.push('prose {x} then')).toBe(false);
  });

  it('gives up after as many failed candidates as hasCompleteObject', () => {
    const text = '{x} '.repeat(30) + '{"a": 1}';
    expect(new CompletionScanner().push(text)).toBe(hasCompleteObject(text));
    agreesWhileStreaming(text, [3]);
  });

  it('stays false through a long open string and turns true at its end', () => {
    const scanner = new CompletionScanner();
    const text = JSON.stringify({ reply: 'word '.repeat(4000) });
    let answers = 0;
    for (let index = 8; index < text.length; index += 8) if (scanner.push(text.slice(0, index))) answers++;
    expect(answers).toBe(0);
    expect(scanner.push(text)).toBe(true);
  });
});
