/**
 * A long conversation without compaction (the plain Agent has none): the library's CPU per model
 * step as the history grows to 1,000 turns, and the prompt's size in Gemma 3 tokens at every turn
 * against the model's 4,000-token window, on a model that cannot count tokens (only the runtime's
 * estimate keeps the prompt inside). Replies are 20–30 tokens; three turns in four run a tool
 * (a menu lookup with a JSON result, or an order). CPU is the median of the ten turns up to a checkpoint
 * (a mean would count a garbage collection or the first turns' compilation).
 */
import { Agent, AgentTool, JsonSchema } from '../src';
import { Script, ScriptedLanguageModel } from '../src/testing';
import { gemmaTokens } from './tokenizer';

const WINDOW = 4000;

const LINES = [
  'Evening! What is warm tonight, and is the back room free?',
  'Two ales for me and my friend from the mill, please.',
  'Have you heard anything about the old bridge on the north road?',
  'How much for a room with a window over the square, 3 nights?',
];
const REPLIES = [
  'Evening, love! The stew is hot and thick tonight, and the back room is yours if you keep the noise down.',
  'Two ales coming right up, and mind the mill dust on my clean counter, the pair of you.',
  "The bridge? Folk say the planks rotted after the spring floods; I'd take the ford by the willows instead.",
  "A window room over the square runs 12 silver for 3 nights, breakfast included, if you're up before the rooster.",
];

function tools(): AgentTool[] {
  const menu = AgentTool.local({ name: 'check_menu', description: 'Lists the menu with prices.' }, () => ({
    ale: { price: 3, stock: 14 },
    stew: { price: 5, stock: 6, hot: true },
    bread: { price: 1, stock: 20 },
    pie: { price: 4, stock: 2 },
    room: { night: 4, breakfast: true, free: [2, 5] },
  }));
  const order = AgentTool.local(
    {
      name: 'take_order',
      description: 'Serves an item.',
      parameters: JsonSchema.obj({
        item: JsonSchema.enumOf(['ale', 'stew', 'bread']),
        quantity: JsonSchema.integer({ minimum: 1, maximum: 10 }),
      }),
      sideEffect: true,
    },
    (args: { item: string; quantity: number }) => ({
      served: args.item,
      quantity: args.quantity,
      paid: args.quantity * 3,
    }),
  );
  return [menu, order];
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

interface TurnFigures {
  cpuMsPerStep: number;
  maxPromptTokens: number;
}

export interface LongHistoryFigures {
  turns: number;
  /** At turns 10, 100, 400 and 1,000 (those the run reaches). */
  checkpoints: Map<number, TurnFigures>;
  /** The largest prompt of the run, in Gemma 3 tokens, and its turn. */
  worst: { tokens: number; turn: number };
  /** Turns whose prompt went over the window. */
  overWindow: number;
}

/** Plays the conversation and measures it; `onPrompt` sees every prompt as it was sent. */
export async function longHistoryFigures(
  turns = 1000,
  onPrompt?: (prompt: string, turn: number) => void,
): Promise<LongHistoryFigures> {
  const checkpoints = [10, 100, 400, 1000].filter((turn) => turn <= turns);
  const model = new ScriptedLanguageModel([], { chunkDelayMs: 0 });
  const agent = new Agent(model, {
    instructions: 'You are Mira, the innkeeper of the Crooked Lantern.',
    tools: tools(),
  });
  const figures = new Map<number, TurnFigures>();
  let worst = { tokens: 0, turn: 0 };
  let overWindow = 0;
  const window: number[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const index = turn % LINES.length;
    const call =
      turn % 2 === 0 ? Script.call('check_menu') : Script.call('take_order', { item: 'ale', quantity: turn % 9 || 1 });
    const steps = turn % 4 === 0 ? [REPLIES[index]] : [call, REPLIES[index]];
    model.append(...steps);
    const before = model.requests.length;
    const cpu = process.cpuUsage();
    const response = await agent.respond(LINES[index]);
    const used = process.cpuUsage(cpu);
    let maxPromptTokens = 0;
    for (const request of model.requests.slice(before)) {
      const tokens = gemmaTokens(`${request.systemInstruction ?? ''}\n${request.promptPrefix ?? ''}${request.prompt}`);
      maxPromptTokens = Math.max(maxPromptTokens, tokens);
      onPrompt?.(request.prompt, turn);
    }
    if (maxPromptTokens > worst.tokens) worst = { tokens: maxPromptTokens, turn };
    if (maxPromptTokens > WINDOW) overWindow++;
    window.push((used.user + used.system) / 1000 / response.steps.length);
    if (window.length > 10) window.shift();
    if (checkpoints.includes(turn)) figures.set(turn, { cpuMsPerStep: median(window), maxPromptTokens });
  }
  return { turns, checkpoints: figures, worst, overWindow };
}

export async function benchLongHistory(turns = 1000): Promise<void> {
  const { checkpoints: figures, worst, overWindow } = await longHistoryFigures(turns);
  const last = [...figures.keys()].pop() ?? turns;
  console.log(`\n## Long conversation without compaction (${turns} turns, a model without countTokens)\n`);
  console.log('| turn | library CPU per step, ms | prompt, Gemma 3 tokens |');
  console.log('|---|---|---|');
  for (const [turn, figure] of figures)
    console.log(`| ${turn} | ${figure.cpuMsPerStep.toFixed(2)} | ${figure.maxPromptTokens} |`);
  const cpuAtEnd = figures.get(last)?.cpuMsPerStep ?? 0;
  console.log(
    `\nLargest prompt ${worst.tokens} tokens (turn ${worst.turn}); turns over the ${WINDOW}-token window: ${overWindow}.`,
  );
  console.log(
    `Goals: CPU per step ≤ 1 ms at turn ${turns}: ${cpuAtEnd <= 1 ? 'PASS' : 'MISS'} (${cpuAtEnd.toFixed(2)} ms); ` +
      `prompt ≤ the window at every turn: ${overWindow === 0 ? 'PASS' : 'MISS'}.`,
  );
}
