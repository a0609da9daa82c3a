/**
 * The runtime's token estimate (src/contract/token-estimate.ts) against Gemma 3's tokenizer, beside
 * the old four characters per token, on texts the estimate was not written from alone: every
 * request and output of the bench's scenarios, a long conversation's prompts, the persona files
 * and the peers' tool-call fixtures. A prompt the estimate lets through
 * must fit the window, so it should rarely be below the real count.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { estimateTokens } from '../src/contract/language-model';
import { SCENARIOS } from './scenarios';
import { gemmaTokens } from './tokenizer';
import { longHistoryFigures } from './long-history';

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let start = 0; start < text.length; start += size) out.push(text.slice(start, start + size));
  return out;
}

async function scenarioTexts(): Promise<string[]> {
  const texts: string[] = [];
  for (const scenario of SCENARIOS) {
    for (const inline of [true, false]) {
      const run = await scenario.create({ inline, earlierTurns: 11 })();
      for (const request of run.requests)
        texts.push(request.systemInstruction ?? '', request.promptPrefix ?? '', request.prompt);
      texts.push(...run.outputs);
    }
  }
  return texts;
}

/** Every 50th turn's last prompt of a 400-turn conversation. */
async function longConversationTexts(): Promise<string[]> {
  const lastPrompt = new Map<number, string>();
  await longHistoryFigures(400, (prompt, turn) => {
    if (turn % 50 === 0) lastPrompt.set(turn, prompt);
  });
  return [...lastPrompt.values()];
}

/**
 * The persona files and the peers' tool-call fixtures. The docs are not measured: their prose
 * moves with every edit, and the figures written into them would then move too.
 */
function fileTexts(): string[] {
  const personas = readdirSync('demo/tavern')
    .filter((name) => name.endsWith('.json'))
    .map((name) => `demo/tavern/${name}`);
  const peers = ['toolcalls-vllm.json', 'toolcalls-llamacpp.json', 'jsonrepair.json'].map(
    (name) => `tests/fixtures/peer/${name}`,
  );
  return [
    ...personas.map((path) => readFileSync(path, 'utf8')),
    ...peers.flatMap((path) => chunks(JSON.stringify(JSON.parse(readFileSync(path, 'utf8'))), 1500).slice(0, 60)),
  ];
}

function quantile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

/** One estimate against the real counts. Ratios are estimate / real. */
export interface EstimateFigures {
  name: string;
  /** Texts where the estimate is below the real count (a prompt it lets through may not fit). */
  below: number;
  p2: number;
  median: number;
  /** The smallest ratio. */
  lowest: number;
}

/** The runtime's estimate and the old four characters per token on every text, against Gemma 3. */
export async function tokenEstimateFigures(): Promise<{ texts: number; estimates: EstimateFigures[] }> {
  const all = [...(await scenarioTexts()), ...(await longConversationTexts()), ...fileTexts()];
  const texts = [...new Set(all.filter((text) => text.length >= 20))];
  const real = texts.map((text) => gemmaTokens(text));
  const estimates: Array<[string, (text: string) => number]> = [
    ['4 characters per token (before)', (text) => Math.ceil(text.length / 4)],
    ['runtime (calibrated)', estimateTokens],
  ];
  return {
    texts: texts.length,
    estimates: estimates.map(([name, estimate]) => {
      const ratios = texts.map((text, index) => estimate(text) / real[index]).sort((left, right) => left - right);
      return {
        name,
        below: ratios.filter((ratio) => ratio < 1).length,
        p2: quantile(ratios, 0.02),
        median: quantile(ratios, 0.5),
        lowest: ratios[0],
      };
    }),
  };
}

/** A ratio as a signed percentage: 1.12 → "+12%". */
export function percent(ratio: number): string {
  return `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(0)}%`;
}

export async function benchTokenEstimate(): Promise<void> {
  const { texts, estimates } = await tokenEstimateFigures();
  console.log(`\n## The runtime's token estimate against Gemma 3 (${texts} texts)\n`);
  console.log('| estimate | texts below the real count | 2nd percentile | median | largest shortfall |');
  console.log('|---|---|---|---|---|');
  for (const row of estimates) {
    console.log(
      `| ${row.name} | ${row.below} | ${percent(row.p2)} | ${percent(row.median)} | ${percent(row.lowest)} |`,
    );
  }
}
