/**
 * Generated model outputs of every call family the core reads, for property tests and the fuzz
 * program: calls alone, in prose, several per output, wrapped, truncated, after reasoning. Each
 * output comes with the calls it holds, so a test can tell a call run with its own arguments
 * from one run with a guess. The renderings follow each family's documented grammar (the
 * readers' grammar is not consulted).
 */
import fc from 'fast-check';

export interface GeneratedCall {
  name: string;
  args: Record<string, string | number>;
}

export interface GeneratedOutput {
  text: string;
  calls: GeneratedCall[];
}

export const FAMILIES = [
  'gemma4',
  'gemma4-bare',
  'functionGemma',
  'pythonic-list',
  'pythonic-bare',
  'pythonic-fenced',
  'hermes',
  'llama3-function',
  'llama3-python-tag',
  'json',
] as const;
export type Family = (typeof FAMILIES)[number];

/** The control tokens and call shapes of every family, written out here so the check does not lean on the readers' own list. */
export const FORBIDDEN_IN_LINE: readonly RegExp[] = [
  /<\|tool_call>/,
  /<tool_call\|>/,
  /<\|"\|>/,
  /<\|channel>/,
  /<channel\|>/,
  /<start_function_call>/,
  /<end_function_call>/,
  /<escape>/,
  /<\/?tool_call>/,
  /<function[=\s]/,
  /<\/function>/,
  /<\|python_tag\|>/,
  /<\/?think>/,
  /```/,
  /\bcall:[A-Za-z_][\w.-]*\{/,
  /\[TOOL_CALLS\]/,
];

/** Words a line may hold; none of them looks like markup. */
const WORDS = fc.constantFrom(
  'Welcome aboard.',
  'Mind the rope, it bites.',
  "North it is, then, and I'll have none of your complaints.",
  'The river is high today [sighs] but we will make it.',
  'Two coins (no more) and we leave.',
  'Fares: three copper a head!',
);

const VALUE = fc.oneof(
  fc.constantFrom('north', 'south', 'a, b', 'it is "cold"', "O'Brien", 'x}y', 'semi;colon', 'new\nline'),
  fc.integer({ min: 0, max: 99 }),
);

const CALL: fc.Arbitrary<GeneratedCall> = fc.record({
  name: fc.constantFrom('book_crossing', 'check_tide', 'pay_toll'),
  args: fc.dictionary(fc.constantFrom('destination', 'seats', 'note'), VALUE, { maxKeys: 3 }),
});

function pyValue(value: string | number): string {
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

function delimitedArgs(args: GeneratedCall['args'], quote: string): string {
  return Object.keys(args)
    .map((key) => `${key}:${typeof args[key] === 'number' ? args[key] : `${quote}${args[key]}${quote}`}`)
    .join(',');
}

function pyArgs(args: GeneratedCall['args']): string {
  return Object.keys(args)
    .map((key) => `${key}=${pyValue(args[key])}`)
    .join(', ');
}

/** One call in a family's syntax; several calls of the list families share one list. */
export function render(family: Family, calls: GeneratedCall[]): string {
  const each = (fn: (call: GeneratedCall) => string, sep: string) => calls.map(fn).join(sep);
  switch (family) {
    case 'gemma4':
      return each((call) => `<|tool_call>call:${call.name}{${delimitedArgs(call.args, '<|"|>')}}<tool_call|>`, '');
    case 'gemma4-bare':
      return each((call) => `\ncall:${call.name}{${delimitedArgs(call.args, '<|"|>')}}`, '');
    case 'functionGemma':
      return each(
        (call) => `<start_function_call>call:${call.name}{${delimitedArgs(call.args, '<escape>')}}<end_function_call>`,
        '',
      );
    case 'pythonic-list':
      return `[${each((call) => `${call.name}(${pyArgs(call.args)})`, ', ')}]`;
    case 'pythonic-bare':
      return each((call) => `\n${call.name}(${pyArgs(call.args)})`, '');
    case 'pythonic-fenced':
      return `\n\`\`\`tool_code\n${each((call) => `${call.name}(${pyArgs(call.args)})`, '\n')}\n\`\`\``;
    case 'hermes':
      return each(
        (call) => `<tool_call>\n${JSON.stringify({ name: call.name, arguments: call.args })}\n</tool_call>`,
        '\n',
      );
    case 'llama3-function':
      return each((call) => `<function=${call.name}>${JSON.stringify(call.args)}</function>`, '\n');
    case 'llama3-python-tag':
      return `<|python_tag|>${each((call) => JSON.stringify({ name: call.name, parameters: call.args }), '; ')}`;
    case 'json':
      return `\n${each((call) => JSON.stringify({ tool: call.name, args: call.args }), '\n')}`;
  }
}

/** An output: optional reasoning, words and calls in some order, possibly cut off. */
export const MODEL_OUTPUT: fc.Arbitrary<GeneratedOutput> = fc
  .record({
    family: fc.constantFrom(...FAMILIES),
    calls: fc.array(CALL, { minLength: 0, maxLength: 3 }),
    before: fc.option(WORDS, { nil: undefined }),
    after: fc.option(WORDS, { nil: undefined }),
    reasoning: fc.constantFrom('', '<think>I should book it.</think>', '<|channel>thought\nBook it.<channel|>'),
    tag: fc.constantFrom('', '\n[happy]', ' [sad]'),
    cut: fc.option(fc.double({ min: 0.3, max: 1, noNaN: true }), { nil: undefined }),
  })
  .map(({ family, calls, before, after, reasoning, tag, cut }) => {
    const body = [before ?? '', calls.length > 0 ? render(family, calls) : '', after ?? ''].filter(Boolean).join(' ');
    const whole = `${reasoning}${body}${tag}`;
    const text = cut === undefined ? whole : whole.slice(0, Math.max(1, Math.floor(whole.length * cut)));
    return { text, calls };
  });
