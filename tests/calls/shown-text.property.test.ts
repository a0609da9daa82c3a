/**
 * The property of issue 22, on every path that yields words: for any model output of any
 * family (calls alone, in prose, several, truncated, after reasoning), what the player is shown,
 * streamed or final, holds none of the families' markup; and every call that runs carries the
 * arguments it was written with, never a neighbour's or a guess.
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { Agent, AgentError, AgentTool, JsonSchema, NPC, type ToolRecord } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import { FORBIDDEN_IN_LINE, MODEL_OUTPUT, type GeneratedOutput } from './model-outputs';

const SEED = 20261201;
const RUNS = 120;
const NAMES = ['book_crossing', 'check_tide', 'pay_toll'];

function tools(): AgentTool[] {
  return NAMES.map((name) =>
    AgentTool.local(
      {
        name,
        description: `The ${name} action.`,
        parameters: JsonSchema.from({
          type: 'object',
          properties: { destination: {}, seats: {}, note: {} },
          additionalProperties: false,
        }),
        sideEffect: name !== 'check_tide',
      },
      () => 'ok',
    ),
  );
}

function model(output: GeneratedOutput): ScriptedLanguageModel {
  return new ScriptedLanguageModel([Script.text(output.text, 5), Script.text(output.text, 5)], {
    fallback: Script.text('Off we go.'),
  });
}

function expectClean(shown: readonly string[]): void {
  for (const text of shown) for (const token of FORBIDDEN_IN_LINE) expect(text).not.toMatch(token);
}

function expectOwnArguments(records: readonly ToolRecord[], output: GeneratedOutput): void {
  for (const record of records.filter((candidate) => !candidate.rejected)) {
    const written = output.calls.some(
      (call) => call.name === record.call.name && isDeepStrictEqual({ ...call.args }, { ...record.call.args }),
    );
    expect(written).toBe(true);
  }
}

/** Runs a path; an AgentError is an allowed outcome (a fallback, an empty reply), anything else fails. */
async function settle<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AgentError) return undefined;
    throw error;
  }
}

const property = (check: (output: GeneratedOutput) => Promise<void>) =>
  fc.assert(fc.asyncProperty(MODEL_OUTPUT, check), { seed: SEED, numRuns: RUNS });

const BRAM = { name: 'Bram', role: 'the ferryman', fallbackLines: ['Mind the water.'] };

describe('nothing but words reaches the player, on every path', () => {
  test('an NPC line (line first, streamed and final)', async () => {
    await property(async (output) => {
      const npc = new NPC({ persona: BRAM, model: model(output), tools: tools() });
      const stream = npc.talkStream('Take me across.');
      const shown: string[] = [];
      stream.on('line', (event) => shown.push(event.line));
      const turn = await settle(stream.turn());
      if (turn) {
        shown.push(turn.line);
        expectOwnArguments(turn.toolCalls, output);
      }
      expectClean(shown);
    });
  });

  test('an NPC in the seed-compatible mode and in the text reply format', async () => {
    await property(async (output) => {
      for (const options of [{ inlineReplies: false }, { replyFormat: 'text' as const }]) {
        const npc = new NPC({ persona: BRAM, model: model(output), tools: tools(), options });
        const turn = await settle(npc.talk('Take me across.'));
        if (turn) {
          expectClean([turn.line]);
          expectOwnArguments(turn.toolCalls, output);
        }
      }
    });
  });

  test('an agent text reply, with tools allowed and with toolChoice none', async () => {
    await property(async (output) => {
      for (const toolChoice of ['auto', 'none'] as const) {
        const agent = new Agent(model(output), { instructions: 'You are Bram.', tools: tools() });
        const run = agent.run('Take me across.', { toolChoice });
        const shown: string[] = [];
        run.on('text', (event) => shown.push(event.text));
        const response = await settle(run.response());
        if (response) {
          shown.push(response.text);
          expectOwnArguments(response.toolCalls, output);
        }
        expectClean(shown);
      }
    });
  });

  test('a bark and a summary', async () => {
    await property(async (output) => {
      const npc = new NPC({ persona: BRAM, model: model(output) });
      const bark = await settle(npc.bark('A storm is coming.'));
      if (bark !== undefined) expectClean([bark]);
      const agent = new Agent(model(output), { instructions: 'You are Bram.' });
      await settle(agent.respond('Hello.'));
      await settle(agent.respond('And again.'));
      const summary = await settle(agent.summarizeOldTurns({ keepRecentTurns: 0 }));
      if (summary) expectClean([summary.summary]);
    });
  });
});
