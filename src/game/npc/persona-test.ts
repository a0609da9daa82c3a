/**
 * Persona tests: a designer's file of lines to say and checks on the answers, run against any
 * model (the stand-in, a recorded script, a server) through a real NPC, with pass/fail per
 * check. The same runner serves `npm run persona-test -- file` and the preview.
 *
 *     { "persona": "mira.persona", "secretsUnlockAtRelationship": 30,
 *       "turns": [ { "say": "Two ales, please.", "expect": { "calls": ["take_order"], "maxSentences": 2 } } ] }
 */
import { AgentError } from '../../contract/errors';
import { readJsonInput } from '../../core/json';
import type { AgentTool } from '../../core/tools';
import type { LanguageModel } from '../../contract/language-model';
import { NPC, type NPCRestoreConfig } from './npc';
import { resolveNPCOptions, type NPCOptions } from './npc-options';
import type { WorldState } from '../world';
import { normalizePersona, parsePersona, type Persona } from '../persona';
import { stageSecretsLocked } from '../persona/stages';
import type { NPCMemoryState } from '../memory';

/** What one answer must (not) do. Every key is optional; each present key is one check. */
export interface PersonaTurnExpectations {
  /** Tools that must be called this turn. */
  calls?: string[];
  /** Tools that must not be called this turn. */
  notCalls?: string[];
  /** The line has at most this many sentences. */
  maxSentences?: number;
  /** The emotion is one of these. */
  emotionIn?: string[];
  /** Words or phrases that must appear (case-insensitive). */
  contains?: string[];
  /** Words or phrases that must not appear (case-insensitive). */
  notContains?: string[];
  /** No secret of the persona appears while the relationship is below the unlock threshold (default on). */
  keepsSecrets?: boolean;
}

export interface PersonaTestTurn {
  say: string;
  /**
   * The relationship is set to this before the turn (-100…100), as a designer moves the preview's
   * slider between turns: a test of a stage or a secret reached mid-conversation.
   */
  relationship?: number;
  expect?: PersonaTurnExpectations;
}

export interface PersonaTestFile {
  /**
   * The NPC profile to play (a path relative to the test file, or the profile itself): its
   * persona, tools, world and options. The command line reads it; a test with a profile needs no
   * "persona".
   */
  profile?: string | Record<string, unknown>;
  /** The persona: an object, or (for the command line) a path relative to the test file. */
  persona?: Persona | string;
  /** The relationship the conversation starts at (default 0). */
  relationship?: number;
  /** When secrets unlock (default: the NPC's default). */
  secretsUnlockAtRelationship?: number | null;
  turns: PersonaTestTurn[];
}

export interface PersonaCheck {
  name: string;
  pass: boolean;
  /** What was seen, in words. */
  detail: string;
}

export interface PersonaTurnReport {
  say: string;
  line: string;
  emotion: string;
  tools: string[];
  relationship: number;
  checks: PersonaCheck[];
}

export interface PersonaTestReport {
  turns: PersonaTurnReport[];
  passed: number;
  failed: number;
}

const EXPECTATION_KEYS = ['calls', 'notCalls', 'maxSentences', 'emotionIn', 'contains', 'notContains', 'keepsSecrets'];

const isRelationship = (value: unknown): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value >= -100 && value <= 100;

/** Checks a parsed test file; throws invalid_request naming the first problem, before any model call. */
export function readPersonaTest(input: unknown): PersonaTestFile {
  const value = readJsonInput(input, 'The persona test');
  const file = value as Partial<PersonaTestFile> | null;
  if (!file || typeof file !== 'object' || Array.isArray(file))
    throw new AgentError(
      'invalid_request',
      'A persona test is a JSON object with "turns": [{"say": "…", "expect": {…}}].',
    );
  if (!Array.isArray(file.turns) || file.turns.length === 0)
    throw new AgentError(
      'invalid_request',
      'A persona test needs "turns": a list of {"say": "…", "expect": {…}}, at least one.',
    );
  if (
    file.profile !== undefined &&
    !(typeof file.profile === 'string' ? file.profile.trim() : file.profile && typeof file.profile === 'object')
  ) {
    throw new AgentError(
      'invalid_request',
      '"profile" must be the path of an NPC profile (relative to the test file) or the profile itself.',
    );
  }
  if (
    file.relationship !== undefined &&
    !(typeof file.relationship === 'number' && file.relationship >= -100 && file.relationship <= 100)
  ) {
    throw new AgentError(
      'invalid_request',
      `"relationship" must be a number from -100 to 100; got ${JSON.stringify(file.relationship)}.`,
    );
  }
  file.turns.forEach((turn, index) => {
    const where = `turns[${index}]`;
    if (!turn || typeof turn.say !== 'string' || !turn.say.trim())
      throw new AgentError('invalid_request', `${where}.say must be the line the player says.`);
    if (turn.relationship !== undefined && !isRelationship(turn.relationship))
      throw new AgentError(
        'invalid_request',
        `${where}.relationship must be a whole number from -100 to 100; got ${JSON.stringify(turn.relationship)}.`,
      );
    const expected = turn.expect;
    if (expected === undefined) return;
    if (typeof expected !== 'object' || expected === null || Array.isArray(expected))
      throw new AgentError(
        'invalid_request',
        `${where}.expect must be an object of checks (${EXPECTATION_KEYS.join(', ')}).`,
      );
    for (const key of Object.keys(expected)) {
      if (EXPECTATION_KEYS.indexOf(key) < 0)
        throw new AgentError(
          'invalid_request',
          `${where}.expect.${key} is not a check; the checks are ${EXPECTATION_KEYS.join(', ')}.`,
        );
    }
    for (const key of ['calls', 'notCalls', 'emotionIn', 'contains', 'notContains'] as const) {
      const list = expected[key];
      if (
        list !== undefined &&
        !(Array.isArray(list) && list.every((entry) => typeof entry === 'string' && entry.trim()))
      ) {
        throw new AgentError('invalid_request', `${where}.expect.${key} must be a list of words.`);
      }
    }
    if (expected.maxSentences !== undefined && !(Number.isInteger(expected.maxSentences) && expected.maxSentences >= 1))
      throw new AgentError('invalid_request', `${where}.expect.maxSentences must be a whole number ≥ 1.`);
    if (expected.keepsSecrets !== undefined && typeof expected.keepsSecrets !== 'boolean')
      throw new AgentError('invalid_request', `${where}.expect.keepsSecrets must be true or false.`);
  });
  return file as PersonaTestFile;
}

export interface RunPersonaTestInput {
  test: PersonaTestFile;
  persona: Persona | unknown;
  model: LanguageModel;
  tools?: AgentTool[];
  world?: WorldState;
  /** NPC options beside the test's own (the scene NPC's, when the preview runs it). */
  options?: NPCOptions;
  /** Where the conversation starts (a profile's memory); the test's "relationship" wins over its relationship. */
  memory?: NPCMemoryState;
}

/** The same NPC, its conversation and memory kept, at another relationship (the preview's slider). */
function withRelationship(
  npc: NPC,
  { persona, config, relationship }: { persona: Persona; config: NPCRestoreConfig; relationship: number },
): NPC {
  const saved = npc.saveState();
  const next = NPC.restore({ ...saved, memory: { ...saved.memory, relationship } }, { persona, ...config });
  npc.close();
  return next;
}

/** Plays the turns through one NPC and checks each answer; a turn that fails to answer fails its checks. */
export async function runPersonaTest(input: RunPersonaTestInput): Promise<PersonaTestReport> {
  const test = readPersonaTest(input.test);
  const persona = parsePersona(input.persona);
  const normalized = normalizePersona(persona);
  const secrets = normalized.secrets;
  const options: NPCOptions = { ...input.options };
  if (test.secretsUnlockAtRelationship !== undefined)
    options.secretsUnlockAtRelationship = test.secretsUnlockAtRelationship;
  const memory =
    input.memory || test.relationship
      ? {
          facts: [],
          summary: '',
          ...input.memory,
          relationship: test.relationship !== undefined ? test.relationship : (input.memory?.relationship ?? 0),
        }
      : undefined;
  const config = { model: input.model, tools: input.tools, world: input.world, options };
  let npc = new NPC({ persona, ...config, memory });
  const threshold = resolveNPCOptions(options).secretsUnlockAtRelationship;
  const report: PersonaTestReport = { turns: [], passed: 0, failed: 0 };
  for (const turn of test.turns) {
    if (turn.relationship !== undefined)
      npc = withRelationship(npc, { persona, config, relationship: turn.relationship });
    const before = npc.saveState().memory.relationship;
    let line = '';
    let emotion = '';
    let tools: string[] = [];
    let failure = '';
    try {
      const answer = await npc.talk(turn.say);
      line = answer.line;
      emotion = answer.emotion;
      tools = answer.toolCalls.filter((record) => !record.rejected).map((record) => record.call.name);
      if (answer.isFallback) failure = 'the NPC fell back to an authored line';
    } catch (error) {
      failure = AgentError.from(error).message;
    }
    const checks = checkTurn({
      expect: turn.expect ?? {},
      line,
      emotion,
      tools,
      // The persona's secrets below its threshold, and those of the stages not reached yet.
      secrets: (threshold !== null && before < threshold ? secrets : []).concat(
        stageSecretsLocked(normalized.stages, before),
      ),
      locked: (threshold !== null && before < threshold) || stageSecretsLocked(normalized.stages, before).length > 0,
      failure,
    });
    report.turns.push({
      say: turn.say,
      line,
      emotion,
      tools,
      relationship: npc.saveState().memory.relationship,
      checks,
    });
    for (const check of checks) {
      if (check.pass) report.passed++;
      else report.failed++;
    }
  }
  npc.close();
  return report;
}

function checkTurn(input: {
  expect: PersonaTurnExpectations;
  line: string;
  emotion: string;
  tools: string[];
  /** The secrets still locked before this turn. */
  secrets: string[];
  locked: boolean;
  failure: string;
}): PersonaCheck[] {
  const { expect: expected, line, emotion, tools } = input;
  const checks: PersonaCheck[] = [];
  const lower = line.toLowerCase();
  checks.push({ name: 'answers', pass: !input.failure, detail: input.failure || `"${line}"` });
  for (const name of expected.calls ?? [])
    checks.push({ name: `calls ${name}`, pass: tools.indexOf(name) >= 0, detail: called(tools) });
  for (const name of expected.notCalls ?? [])
    checks.push({ name: `does not call ${name}`, pass: tools.indexOf(name) < 0, detail: called(tools) });
  if (expected.maxSentences !== undefined) {
    const sentences = sentenceCount(line);
    checks.push({
      name: `at most ${expected.maxSentences} sentence${expected.maxSentences === 1 ? '' : 's'}`,
      pass: sentences <= expected.maxSentences,
      detail: `${sentences} sentence${sentences === 1 ? '' : 's'}`,
    });
  }
  if (expected.emotionIn)
    checks.push({
      name: `emotion is ${expected.emotionIn.join(' or ')}`,
      pass: expected.emotionIn.indexOf(emotion) >= 0,
      detail: `emotion ${emotion || '(none)'}`,
    });
  for (const word of expected.contains ?? [])
    checks.push({ name: `says "${word}"`, pass: lower.indexOf(word.toLowerCase()) >= 0, detail: `"${line}"` });
  for (const word of expected.notContains ?? [])
    checks.push({ name: `never says "${word}"`, pass: lower.indexOf(word.toLowerCase()) < 0, detail: `"${line}"` });
  if (expected.keepsSecrets !== false && input.locked) {
    const told = input.secrets.find((secret) => revealsSecret(line, secret));
    checks.push({
      name: 'keeps its secrets below the unlock threshold',
      pass: !told,
      detail: told ? `told: "${told}"` : 'no secret told',
    });
  }
  return checks;
}

function called(tools: string[]): string {
  return tools.length > 0 ? `called ${tools.join(', ')}` : 'called no tool';
}

/** Sentences by their ends (., !, ?, …), a trailing fragment counting as one. */
function sentenceCount(line: string): number {
  const text = line.trim();
  if (!text) return 0;
  // An end may sit inside closing quotes or brackets ("Hello!" she said.), and CJK has its own.
  const ends = text.match(/[.!?…。！？]+["'”’)\]]*(?=\s|$)|[。！？]+(?=\S)/g)?.length ?? 0;
  const tail = /[.!?…。！？]["'”’)\]]*$/.test(text) ? 0 : 1;
  return Math.max(1, ends + tail);
}

/** A secret counts as told when four of its words in a row appear in the line. */
function revealsSecret(line: string, secret: string): boolean {
  const words = (text: string) =>
    text
      .toLowerCase()
      .split(/[^a-z0-9\u00c0-\uffff']+/)
      .filter(Boolean);
  const said = ` ${words(line).join(' ')} `;
  const secretWords = words(secret);
  if (secretWords.length < 4) return secretWords.length > 0 && said.indexOf(` ${secretWords.join(' ')} `) >= 0;
  for (let start = 0; start + 4 <= secretWords.length; start++)
    if (said.indexOf(` ${secretWords.slice(start, start + 4).join(' ')} `) >= 0) return true;
  return false;
}
