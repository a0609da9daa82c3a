/**
 * The fuzz class for issue 22: generated outputs of every call family (tests/calls/model-outputs.ts:
 * calls alone, in prose, several per output, truncated, after reasoning) played as whole turns of
 * an NPC and of an agent. What must stay zero: calls run with arguments they were not written
 * with, markup shown to the player (streamed or final), errors that are not AgentErrors, hangs.
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { Agent, AgentError, AgentTool, JsonSchema, NPC, type ToolRecord } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { FORBIDDEN_IN_LINE, MODEL_OUTPUT, type GeneratedOutput } from '../calls/model-outputs';

export interface FamilyCounts {
  inputs: number;
  wrongArgumentCalls: number;
  markupShown: number;
  nonAgentErrors: number;
  hangs: number;
  firstProblems: string[];
}

const HANG_MS = 5_000;
const NAMES = ['book_crossing', 'check_tide', 'pay_toll'];
const BRAM = { name: 'Bram', role: 'the ferryman', fallbackLines: ['Mind the water.'] };

function tools(): AgentTool[] {
  return NAMES.map((name) =>
    AgentTool.local(
      {
        name,
        description: `The ${name} action.`,
        parameters: JsonSchema.from({ type: 'object', properties: { destination: {}, seats: {}, note: {} } }),
        sideEffect: name !== 'check_tide',
      },
      () => 'ok',
    ),
  );
}

function note(counts: FamilyCounts, problem: string): void {
  if (counts.firstProblems.length < 5) counts.firstProblems.push(problem);
}

function check(
  counts: FamilyCounts,
  output: GeneratedOutput,
  seen: { shown: string[]; records: readonly ToolRecord[] },
): void {
  const { shown, records } = seen;
  for (const text of shown) {
    const token = FORBIDDEN_IN_LINE.find((pattern) => pattern.test(text));
    if (token) {
      counts.markupShown++;
      note(
        counts,
        `markup ${token} shown: ${JSON.stringify(text).slice(0, 120)} from ${JSON.stringify(output.text).slice(0, 160)}`,
      );
      break;
    }
  }
  for (const record of records.filter((candidate) => !candidate.rejected)) {
    const written = output.calls.some(
      (call) => call.name === record.call.name && isDeepStrictEqual({ ...call.args }, { ...record.call.args }),
    );
    if (!written) {
      counts.wrongArgumentCalls++;
      note(
        counts,
        `${record.call.name}(${JSON.stringify(record.call.args)}) ran from ${JSON.stringify(output.text).slice(0, 160)}`,
      );
    }
  }
}

/** A turn's outcome within the hang limit: its value, an AgentError (allowed), or a counted problem. */
async function settle<T>(counts: FamilyCounts, work: Promise<T>, output: GeneratedOutput): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), HANG_MS);
  });
  try {
    const result = await Promise.race([work, hang]);
    if (result === 'hang') {
      counts.hangs++;
      note(counts, `hang on ${JSON.stringify(output.text).slice(0, 160)}`);
      return undefined;
    }
    return result as T;
  } catch (error) {
    if (!(error instanceof AgentError)) {
      counts.nonAgentErrors++;
      note(counts, `${String(error)} on ${JSON.stringify(output.text).slice(0, 160)}`);
    }
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

function model(output: GeneratedOutput): ScriptedLanguageModel {
  return new ScriptedLanguageModel([Script.text(output.text, 6), Script.text(output.text, 6)], {
    fallback: Script.text('Off we go.'),
  });
}

export async function fuzzFamilies(count: number, seed: number): Promise<FamilyCounts> {
  const counts: FamilyCounts = {
    inputs: 0,
    wrongArgumentCalls: 0,
    markupShown: 0,
    nonAgentErrors: 0,
    hangs: 0,
    firstProblems: [],
  };
  for (const output of fc.sample(MODEL_OUTPUT, { numRuns: count, seed })) {
    counts.inputs++;
    const npc = new NPC({ persona: BRAM, model: model(output), tools: tools() });
    const stream = npc.talkStream('Take me across.');
    const lines: string[] = [];
    stream.on('line', (event) => lines.push(event.line));
    const turn = await settle(counts, stream.turn(), output);
    if (turn) check(counts, output, { shown: [...lines, turn.line], records: turn.toolCalls });
    const agent = new Agent(model(output), { instructions: 'You are Bram.', tools: tools() });
    const run = agent.run('Take me across.');
    const texts: string[] = [];
    run.on('text', (event) => texts.push(event.text));
    const response = await settle(counts, run.response(), output);
    if (response) check(counts, output, { shown: [...texts, response.text], records: response.toolCalls });
  }
  return counts;
}

export function familyProblems(counts: FamilyCounts): number {
  return counts.wrongArgumentCalls + counts.markupShown + counts.nonAgentErrors + counts.hangs;
}
