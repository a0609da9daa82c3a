/**
 * The runtime's token estimate (src/contract/token-estimate.ts) against Gemma 3's tokenizer, beside
 * the old four characters per token, on texts the estimate was not written from alone: every
 * request and output of the bench's scenarios, a long conversation's prompts, the README and
 * docs, the persona files and the peers' tool-call fixtures. A prompt the estimate lets through
 * must fit the window, so it should rarely be below the real count.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { estimateTokens } from '../src/contract/language-model';
import { Agent } from '../src';
import { SCENARIOS } from './scenarios';
import { gemmaTokens } from './tokenizer';
import { benchLongHistory } from './long-history';

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

/** Every 50th prompt of a 400-turn conversation, caught as the agent sends it. */
async function longConversationTexts(): Promise<string[]> {
  const texts: string[] = [];
  const respond = Agent.prototype.respond;
  let turns = 0;
  Agent.prototype.respond = async function (this: Agent, ...args: Parameters<Agent['respond']>) {
    const response = await respond.apply(this, args);
    const model = this.model as unknown as { requests: Array<{ prompt: string }> };
    if (++turns % 50 === 0) texts.push(model.requests[model.requests.length - 1].prompt);
    return response;
  };
  const log = console.log;
  console.log = () => undefined;
  try {
    await benchLongHistory(400);
  } finally {
    console.log = log;
    Agent.prototype.respond = respond;
  }
  return texts;
}

function fileTexts(): string[] {
  const docs = [
    'README.md',
    ...readdirSync('docs')
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  const personas = readdirSync('demo/tavern')
    .filter((name) => name.endsWith('.json'))
    .map((name) => `demo/tavern/${name}`);
  const peers = ['toolcalls-vllm.json', 'toolcalls-llamacpp.json', 'jsonrepair.json'].map(
    (name) => `tests/fixtures/peer/${name}`,
  );
  return [
    ...docs.flatMap((path) => chunks(readFileSync(path, 'utf8'), 3000)),
    ...personas.map((path) => readFileSync(path, 'utf8')),
    ...peers.flatMap((path) => chunks(JSON.stringify(JSON.parse(readFileSync(path, 'utf8'))), 1500).slice(0, 60)),
  ];
}

function quantile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

export async function benchTokenEstimate(): Promise<void> {
  const all = [...(await scenarioTexts()), ...(await longConversationTexts()), ...fileTexts()];
  const texts = [...new Set(all.filter((text) => text.length >= 20))];
  const real = texts.map((text) => gemmaTokens(text));
  console.log(`\n## The runtime's token estimate against Gemma 3 (${texts.length} texts)\n`);
  console.log('| estimate | texts below the real count | 2nd percentile | median | largest shortfall |');
  console.log('|---|---|---|---|---|');
  const estimates: Array<[string, (text: string) => number]> = [
    ['4 characters per token (before)', (text) => Math.ceil(text.length / 4)],
    ['runtime (calibrated)', estimateTokens],
  ];
  for (const [name, estimate] of estimates) {
    const ratios = texts.map((text, index) => estimate(text) / real[index]).sort((left, right) => left - right);
    const below = ratios.filter((ratio) => ratio < 1).length;
    const pct = (ratio: number) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(0)}%`;
    console.log(
      `| ${name} | ${below} | ${pct(quantile(ratios, 0.02))} | ${pct(quantile(ratios, 0.5))} | ${pct(ratios[0])} |`,
    );
  }
}
