/**
 * The peer projects' tool-parser cases (tests/fixtures/peer/), and how the core reads each:
 * every call in the output, resolved against the case's tools, compared with the calls the
 * peer's test asserts. "wrong" is any call run that the peer does not assert, or with other
 * arguments; "not read" is an asserted call the core did not find.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findCalls } from '../../src/core/calls';
import { callArguments, callContext } from '../../src/core/envelope/family-call';
import { parseEnvelope, resolveToolName } from '../../src/core/envelope';

export interface PeerCall {
  name: string;
  args: Record<string, unknown>;
}

export interface PeerCase {
  id: string;
  source: { repo: string; file: string; test?: string; commit?: string };
  format: string;
  output: string;
  expect: { calls?: PeerCall[]; respond?: boolean };
  toolNames?: string[];
}

/**
 * The families phones and browsers run (Gemma 4, Gemma 3, FunctionGemma on Gemini Nano's side;
 * Qwen/Hermes, Llama 3.x on llama.cpp and Ollama; the generic JSON Gemma templates get), and the
 * JSON list forms the envelope reader already takes. Mistral v11's `[TOOL_CALLS]name{…}` and
 * Functionary v3.2's `>>>name` are server-side formats of models no phone runs: out of scope.
 */
export const IN_SCOPE = new Set([
  'gemma4',
  'functiongemma',
  'pythonic',
  'hermes',
  'llama3_json',
  'llama3-builtin',
  'functionary-v3.1',
  'generic-json',
  'mistral',
  'xlam',
  'firefunction-v2',
  'command-r7b',
]);

const FIXTURES = join(__dirname, '..', 'fixtures', 'peer');

export function loadPeerCases(): PeerCase[] {
  const files = ['toolcalls-vllm.json', 'toolcalls-llamacpp.json', 'toolcalls-extra.json'];
  return files.flatMap(
    (file) => (JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as { cases: PeerCase[] }).cases,
  );
}

/** The tools a case offers: the ones its test declares, else the ones it expects to be called. */
export function toolsOf(testCase: PeerCase): string[] {
  const names = testCase.toolNames ?? (testCase.expect.calls ?? []).map((call) => call.name);
  return names.filter((name, index) => names.indexOf(name) === index);
}

/** Every call the core reads in the output, with its arguments, in order (unreadable ones left out). */
export function readAll(testCase: PeerCase): PeerCall[] {
  const toolNames = toolsOf(testCase);
  const out: PeerCall[] = [];
  for (const call of findCalls(testCase.output, callContext(toolNames))) {
    const tool = resolveToolName(call.name, toolNames);
    if (!tool) continue;
    const args = callArguments(call, tool, {});
    if ('args' in args) out.push({ name: tool, args: args.args });
  }
  // Calls written only as JSON: the decide step's envelope reader takes the first one.
  if (out.length === 0) {
    const env = parseEnvelope(testCase.output, { toolNames, allowRespond: true });
    if (env.kind === 'call')
      out.push({ name: env.tool, args: (env.argCandidates[0] ?? {}) as Record<string, unknown> });
  }
  return out;
}

export interface Tally {
  right: number;
  wrong: number;
  notRead: number;
}

/** right: exactly the asserted calls; wrong: a call with another name or other arguments; not read: fewer calls, all right. */
export function judge(testCase: PeerCase, read: PeerCall[]): keyof Tally {
  const expected = testCase.expect.calls ?? [];
  for (let index = 0; index < read.length; index++) {
    const want = expected[index];
    if (!want || want.name !== read[index].name || JSON.stringify(want.args) !== JSON.stringify(read[index].args))
      return 'wrong';
  }
  return read.length === expected.length ? 'right' : 'notRead';
}
