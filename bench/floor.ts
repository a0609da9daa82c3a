/**
 * The hand floor (bench/floor/*.txt, README there): per scenario, the prompt a program written
 * by hand for that character and turn would send, counted with the same Gemma 3 tokenizer as
 * what oam-cocos sends. Its output is the words the player reads and the actions' names and
 * values, nothing else; a lookup's facts are in its prompt. Nothing here is derived from the
 * project's own prompts, so the ratio can come out above 1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstTokenSeconds, stepSeconds, type CostModel, type StepCost } from '../demo/phone-cost-model';
import { gemmaTokens } from './tokenizer';

// The bench runs bundled from node_modules/ (scripts/run-ts.mjs), from the repository root.
const FLOOR_DIR = join(process.cwd(), 'bench', 'floor');

export interface FloorCall {
  cached: string;
  turn: string;
}

/** One `## cached` / `## turn` file of bench/floor/. */
export function readFloorCall(slug: string): FloorCall {
  const text = readFileSync(join(FLOOR_DIR, `${slug}.txt`), 'utf8');
  const match = /^## cached\n([\s\S]*?)\n## turn\n([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`bench/floor/${slug}.txt needs a "## cached" and a "## turn" part`);
  return { cached: match[1], turn: match[2].replace(/\n$/, '') };
}

export interface FloorRun {
  /** One per call: the floor's prompt and what it writes. */
  steps: StepCost[];
  /** The floor's call that writes the player's words (a value scenario: the last). */
  lineStep: number;
}

/**
 * Gemma tokens of the actions a floor call writes, in the syntax its prompt teaches
 * (`take_order(item="ale", quantity=2)`, one per line): a model must write the call, not only its values.
 */
export function actionTokens(actions: Array<{ name: string; args: Record<string, unknown> }>): number {
  const lines = actions.map(
    (action) =>
      `${action.name}(${Object.entries(action.args)
        .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
        .join(', ')})`,
  );
  return lines.length === 0 ? 0 : gemmaTokens(`\n${lines.join('\n')}`);
}

/**
 * The floor of a scenario: its calls (one file each) with their outputs. With one call, it writes
 * the words then the actions; with two, the first writes the actions whose result the words need
 * and the second the words.
 */
export function floorRun({
  slugs,
  words,
  actions,
}: {
  slugs: string[];
  words: string;
  actions: FloorActions;
}): FloorRun {
  const calls = slugs.map(readFloorCall);
  const steps = calls.map((call, index) => {
    const cacheableTokens = gemmaTokens(call.cached);
    const promptTokens = cacheableTokens + gemmaTokens(call.turn);
    const writesWords = index === calls.length - 1;
    const writesActions = calls.length === 1 || index === 0;
    const outputTokens = (writesWords ? gemmaTokens(words) : 0) + (writesActions ? actionTokens(actions) : 0);
    return { promptTokens, cacheableTokens, outputTokens };
  });
  return { steps, lineStep: calls.length - 1 };
}

export type FloorActions = Array<{ name: string; args: Record<string, unknown> }>;

/** The floor's first word and total under a cost model; `cold`: the first call finds its prefix uncached. */
export function floorTiming(
  run: FloorRun,
  { model, cold, deliversValue }: { model: CostModel; cold: boolean; deliversValue: boolean },
): { firstWord: number; total: number; promptTokens: number } {
  let elapsed = 0;
  let firstWord = 0;
  run.steps.forEach((step, index) => {
    const cached = !(cold && index === 0);
    if (index === run.lineStep)
      firstWord = elapsed + firstTokenSeconds(step, cached, model) + 1 / model.decodeTokensPerSecond;
    elapsed += stepSeconds(step, cached, model);
  });
  const promptTokens = run.steps.reduce((sum, step) => sum + step.promptTokens, 0);
  return { firstWord: deliversValue ? elapsed : firstWord, total: elapsed, promptTokens };
}
