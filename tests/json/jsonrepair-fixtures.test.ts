/**
 * jsonrepair's own test cases (josdejong/jsonrepair src/index.test.ts, transcribed in
 * tests/fixtures/peer/jsonrepair.json), read the way the core reads a model's JSON: extractJson
 * (fences and prose skipped, a cut-off object read in partial mode, then the lenient parser).
 *
 * Out of scope, by group, because a model's answer to a game means something else there:
 * JSONP callbacks, MongoDB types, regular expressions, `+` string concatenation, newline- or
 * comma-separated values at the top level (the core reads the first JSON value of an answer and
 * leaves prose as prose: `hello world` is a reply, not the string "hello world"), bare words and
 * invalid numbers at the top level, leading-zero numbers kept as text, and jsonrepair's refusals
 * of text after a value (the core takes the first value out of prose on purpose).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { extractJson } from '../../src/core/json';

interface RepairCase {
  id: string;
  source: { repo: string; file: string; line: number; test: string };
  input: string;
  expected?: unknown;
  expectError?: boolean;
}

const OUT_OF_SCOPE = [
  'should strip JSONP notation',
  'should strip MongoDB data types',
  'should repair regular expressions',
  'should escape quotes in repaired regular expressions',
  'should concatenate strings',
  'should repair newline separated json',
  'should repair a comma separated list with value',
  'should repair a number with leading zeros',
  'should parse an unquoted string',
  'should turn unknown symbols into a string',
  'should turn invalid unrepairable numbers into strings',
  'parse keywords',
  'should throw an exception in case of non-repairable issues',
];

const cases = (
  JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'peer', 'jsonrepair.json'), 'utf8')) as {
    cases: RepairCase[];
  }
).cases;
const groupOf = (testCase: RepairCase) => testCase.source.test.split(' > ').slice(-1)[0];
const inScope = cases.filter((testCase) => !OUT_OF_SCOPE.some((group) => groupOf(testCase).startsWith(group)));

function readsRight(testCase: RepairCase): boolean {
  const found = extractJson(testCase.input);
  if (testCase.expectError) return found === undefined;
  return found !== undefined && isDeepStrictEqual(JSON.parse(JSON.stringify(found.value)), testCase.expected);
}

describe('jsonrepair fixtures', () => {
  test('every case cites its source line', () => {
    expect(cases).toHaveLength(428);
    for (const testCase of cases) expect(testCase.source.line).toBeGreaterThan(0);
  });

  test('the repairs issue 22 names read as jsonrepair reads them', () => {
    const named = [
      '{“a”:“b”}',
      '{"a":\u2002"foo"}',
      '{"a" 2}',
      '{"a":2]',
      '{\n"values":[1,2,3\n}',
      '{"time":"12:20}',
      '[1,2,3,...]',
      '{\\"stringified\\": \\"hello \\\\"world\\\\"\\"}',
    ];
    for (const input of named) {
      const testCase = cases.find((candidate) => candidate.input === input);
      expect(testCase).toBeDefined();
      expect(readsRight(testCase as RepairCase)).toBe(true);
    }
  });

  test('in scope: how many read as jsonrepair reads them (a regression fails this)', () => {
    const right = inScope.filter(readsRight).length;
    expect({ inScope: inScope.length, right }).toEqual({ inScope: 335, right: 248 });
  });
});
