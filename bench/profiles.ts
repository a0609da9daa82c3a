/**
 * What each sample NPC profile costs per turn on a phone: its player lines (or three generic
 * ones) played through the profile's own set-up (persona, tools, world, options) on its
 * keyword stand-in, every prompt counted with Gemma 3's tokenizer and timed with the cost
 * model. A designer's own profile: `npm run bench -- --profile path/to/x.npc-profile.json`
 * prints only that one. The stand-in writes short lines, so output times are a lower bound;
 * the prompt side is exactly what the NPC sends.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { NPC, type GenerationRequest, type LanguageModel } from '../src';
import { readProfileFile, profileStandIn } from '../demo/profiles/profile-file';
import { COST_MODEL, firstTokenSeconds, stepSeconds, type StepCost } from '../demo/phone-cost-model';
import { gemmaTokens } from './tokenizer';

const PROFILES_DIR = join(process.cwd(), 'demo', 'profiles'); // npm runs the bench from the repository's root
const GENERIC_LINES = ['Hello!', 'What can you tell me about this place?', 'Goodbye!'];

interface ProfileRow {
  name: string;
  turns: number;
  calls: number;
  promptMean: number;
  promptMax: number;
  cacheable: number;
  firstWordWarm: number;
  firstWordCold: number;
  turnSeconds: number;
}

/** Records every request the NPC sends, and the text each step wrote. */
function recording(inner: LanguageModel): {
  model: LanguageModel;
  steps: Array<{ request: GenerationRequest; text: string }>;
} {
  const steps: Array<{ request: GenerationRequest; text: string }> = [];
  const model: LanguageModel = {
    get capabilities() {
      return inner.capabilities;
    },
    availability: () => inner.availability(),
    async *generate(request, signal) {
      const step = { request, text: '' };
      steps.push(step);
      for await (const chunk of inner.generate(request, signal)) {
        step.text = chunk.text;
        yield chunk;
      }
    },
  };
  return { model, steps };
}

function costOf(request: GenerationRequest, text: string): StepCost {
  const system = gemmaTokens(request.systemInstruction ?? '');
  return {
    promptTokens: system + gemmaTokens((request.promptPrefix ?? '') + request.prompt),
    cacheableTokens: system + gemmaTokens(request.promptPrefix ?? ''),
    outputTokens: gemmaTokens(text),
  };
}

/** First word: every step before the one that writes the line, then that step's first token (line first). */
function turnTimes(costs: StepCost[], cold: boolean): { firstWord: number; total: number } {
  let elapsed = 0;
  let firstWord = 0;
  costs.forEach((cost, index) => {
    const cached = !(cold && index === 0);
    if (index === costs.length - 1) firstWord = elapsed + firstTokenSeconds(cost, cached);
    elapsed += stepSeconds(cost, cached);
  });
  return { firstWord, total: elapsed };
}

async function measure(file: string): Promise<ProfileRow> {
  const parts = readProfileFile(file);
  const recorder = recording(profileStandIn(parts, 0));
  const npc = new NPC({ ...parts, model: recorder.model });
  const lines = parts.profile.playerLines?.length ? parts.profile.playerLines : GENERIC_LINES;
  const prompts: number[] = [];
  let cacheable = 0;
  let warm = 0;
  let cold = 0;
  let total = 0;
  let calls = 0;
  for (const line of lines) {
    const before = recorder.steps.length;
    await npc.talk(line);
    await npc.settledState();
    // Background summaries are not what the player waits for.
    const steps = recorder.steps.slice(before).filter((step) => step.request.kind !== 'summary');
    const costs = steps.map((step) => costOf(step.request, step.text));
    calls += costs.length;
    for (const cost of costs) prompts.push(cost.promptTokens);
    cacheable = Math.max(cacheable, ...costs.map((cost) => cost.cacheableTokens));
    warm += turnTimes(costs, false).firstWord;
    cold += turnTimes(costs, true).firstWord;
    total += turnTimes(costs, false).total;
  }
  npc.close();
  const turns = lines.length;
  return {
    name: parts.persona.name,
    turns,
    calls,
    promptMean: Math.round(prompts.reduce((sum, value) => sum + value, 0) / Math.max(1, prompts.length)),
    promptMax: Math.max(...prompts),
    cacheable,
    firstWordWarm: warm / turns,
    firstWordCold: cold / turns,
    turnSeconds: total / turns,
  };
}

export async function benchProfiles(only?: string): Promise<void> {
  const files = only
    ? [only]
    : readdirSync(PROFILES_DIR)
        .filter((name) => name.endsWith('.npc-profile.json'))
        .sort()
        .map((name) => join(PROFILES_DIR, name));
  console.log(
    `\n## NPC profiles (their own set-up on their stand-in; Gemma 3 tokens; ${COST_MODEL.decodeTokensPerSecond} tok/s)\n`,
  );
  console.log(
    '| profile | turns | calls | prompt tokens, mean / max | stable prefix | first word warm / cold | turn |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const file of files) {
    const row = await measure(file);
    console.log(
      `| ${row.name} | ${row.turns} | ${row.calls} | ${row.promptMean} / ${row.promptMax} | ${row.cacheable} | ${row.firstWordWarm.toFixed(2)} / ${row.firstWordCold.toFixed(2)} s | ${row.turnSeconds.toFixed(2)} s |`,
    );
  }
}
