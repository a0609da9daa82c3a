/**
 * The peer projects' own tool-parser cases (vLLM, llama.cpp; tests/fixtures/peer/), read by the
 * core: every in-scope case reads right, no call is ever read with wrong arguments, and through
 * an agent the first asserted call runs with its arguments while the player sees no markup.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Agent, AgentTool, JsonSchema } from '../../src';
import { hasMarkup } from '../../src/core/calls';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { IN_SCOPE, judge, loadPeerCases, readAll, toolsOf, type PeerCase, type Tally } from './peer-cases';

const cases = loadPeerCases();
const inScope = cases.filter((testCase) => IN_SCOPE.has(testCase.format));

function tallyByFamily(list: PeerCase[]): Record<string, Tally> {
  const out: Record<string, Tally> = {};
  for (const testCase of list) {
    const tally = (out[testCase.format] ??= { right: 0, wrong: 0, notRead: 0 });
    tally[judge(testCase, readAll(testCase))]++;
  }
  return out;
}

describe('peer tool-parser fixtures', () => {
  test('every case cites its source', () => {
    expect(cases.length).toBeGreaterThanOrEqual(169);
    for (const testCase of cases) {
      expect(testCase.source.repo).toBeTruthy();
      expect(testCase.source.file).toBeTruthy();
    }
  });

  test.each(inScope.map((testCase) => [testCase.id, testCase.format, testCase] as const))(
    '%s (%s) reads every asserted call, each with its own arguments',
    (_id, _format, testCase) => {
      const read = readAll(testCase);
      expect(read).toEqual(testCase.expect.calls ?? []);
    },
  );

  test('no case of any family, in scope or not, is read with a wrong call', () => {
    const tallies = tallyByFamily(cases);
    const wrong = Object.keys(tallies).filter((family) => tallies[family].wrong > 0);
    expect(wrong).toEqual([]);
  });

  test("the docs' table of counts is the one measured", () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'reading-model-outputs.md'), 'utf8');
    const table = doc.slice(doc.indexOf('<!-- peer-tally -->'), doc.indexOf('<!-- /peer-tally -->'));
    const rows: Record<string, Tally> = {};
    for (const match of table.matchAll(/^\| ([\w.-]+) \| (\d+) \| (\d+) \| (\d+) \|$/gm))
      rows[match[1]] = { right: Number(match[2]), wrong: Number(match[3]), notRead: Number(match[4]) };
    expect(rows).toEqual(tallyByFamily(cases));
  });

  test('per family: read right / read wrong / not read', () => {
    expect(tallyByFamily(cases)).toEqual({
      gemma4: { right: 39, wrong: 0, notRead: 0 },
      functiongemma: { right: 16, wrong: 0, notRead: 0 },
      pythonic: { right: 21, wrong: 0, notRead: 0 },
      llama3_json: { right: 24, wrong: 0, notRead: 0 },
      hermes: { right: 37, wrong: 0, notRead: 0 },
      mistral: { right: 12, wrong: 0, notRead: 0 },
      xlam: { right: 7, wrong: 0, notRead: 0 },
      'generic-json': { right: 2, wrong: 0, notRead: 0 },
      'llama3-builtin': { right: 2, wrong: 0, notRead: 0 },
      'functionary-v3.1': { right: 1, wrong: 0, notRead: 0 },
      'functionary-v3.2': { right: 1, wrong: 0, notRead: 1 },
      'firefunction-v2': { right: 1, wrong: 0, notRead: 0 },
      'command-r7b': { right: 2, wrong: 0, notRead: 0 },
      'mistral-v11': { right: 0, wrong: 0, notRead: 3 },
    });
  });
});

/** An agent whose tools are the case's, each taking any arguments. */
function agentFor(testCase: PeerCase, output: string) {
  const tools = toolsOf(testCase).map((name) =>
    AgentTool.local(
      { name, description: `The ${name} tool.`, parameters: JsonSchema.from({ type: 'object' }) },
      () => 'done',
    ),
  );
  const model = new ScriptedLanguageModel([Script.text(output, 4)], { fallback: Script.text('All done.') });
  return new Agent(model, { instructions: 'You help.', tools });
}

describe('peer fixtures through an agent', () => {
  test.each(inScope.map((testCase) => [testCase.id, testCase] as const))(
    '%s: the first asserted call runs with its arguments, or none runs; no markup is shown',
    async (_id, testCase) => {
      const agent = agentFor(testCase, testCase.output);
      const run = agent.run('Go ahead.');
      const shown: string[] = [];
      run.on('text', (event) => shown.push(event.text));
      const response = await run.response();
      const ran = response.toolCalls.filter((record) => !record.rejected);
      const first = testCase.expect.calls?.[0];
      if (first) {
        expect(ran[0]?.call.name).toBe(first.name);
        expect(isDeepStrictEqual(ran[0]?.call.args, first.args)).toBe(true);
      } else expect(ran).toEqual([]);
      // Later calls of a parallel list are never run with a neighbour's arguments.
      for (const record of ran) {
        const asserted = (testCase.expect.calls ?? []).some(
          (call) => call.name === record.call.name && isDeepStrictEqual(call.args, record.call.args),
        );
        expect(asserted).toBe(true);
      }
      for (const text of [...shown, response.text]) expect(hasMarkup(text)).toBe(false);
    },
  );
});
