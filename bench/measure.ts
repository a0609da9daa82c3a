/**
 * How the bench turns a recorded scenario into a phone's seconds: each step's prompt, cached and
 * output tokens (Gemma 3's tokenizer), the cost model's time to the first word and to the end of
 * the turn, and the hand floor's under the same condition. Shared by `npm run bench` and the
 * figures it writes into the docs (doc-figures.ts).
 */
import { COST_MODEL, firstTokenSeconds, stepSeconds, type CostModel, type StepCost } from '../demo/phone-cost-model';
import { gemmaTokens } from './tokenizer';
import { floorRun, floorTiming as handFloorTiming } from './floor';
import type { Scenario, ScenarioRun } from './scenarios';

export interface Condition {
  name: string;
  model: CostModel;
  /** Which recording: a fresh conversation or one at turn 12. */
  turn: 1 | 12;
  /** The first step of the turn finds the prefix not cached (a first turn without prewarm()). */
  cold: boolean;
}

export const CONDITIONS: Condition[] = [
  { name: 'fresh conversation, warm prefix, 15 tok/s', model: COST_MODEL, turn: 1, cold: false },
  { name: 'turn 12 (history, memory, a summary)', model: COST_MODEL, turn: 12, cold: false },
  { name: 'first turn, cold prefix cache (no prewarm)', model: COST_MODEL, turn: 1, cold: true },
  { name: 'device without prefix caching', model: { ...COST_MODEL, cachedPrefillFactor: 1 }, turn: 1, cold: false },
  { name: 'slow decode, 9.6 tok/s', model: { ...COST_MODEL, decodeTokensPerSecond: 9.6 }, turn: 1, cold: false },
  { name: 'fast decode, 19 tok/s', model: { ...COST_MODEL, decodeTokensPerSecond: 19 }, turn: 1, cold: false },
];

export interface Timing {
  firstWord: number;
  total: number;
}

export function stepCosts(run: ScenarioRun): StepCost[] {
  return run.requests.map((request, index) => ({
    promptTokens:
      gemmaTokens(request.systemInstruction ?? '') + gemmaTokens((request.promptPrefix ?? '') + request.prompt),
    cacheableTokens: gemmaTokens(request.systemInstruction ?? '') + gemmaTokens(request.promptPrefix ?? ''),
    outputTokens: gemmaTokens(run.outputs[index] ?? ''),
  }));
}

export function timing(run: ScenarioRun, condition: Condition): Timing {
  const steps = stepCosts(run);
  // Every step of a turn has the same stable prefix: only the first can find it cold.
  const cached = (stepIndex: number) => !(condition.cold && stepIndex === 0);
  const ends: number[] = [];
  let elapsed = 0;
  steps.forEach((step, index) => {
    elapsed += stepSeconds(step, cached(index), condition.model);
    ends.push(elapsed);
  });
  const fw = run.firstWord;
  if (!fw || fw.step < 0) return { firstWord: elapsed, total: elapsed };
  const before = fw.step > 0 ? ends[fw.step - 1] : 0;
  return {
    firstWord:
      before +
      firstTokenSeconds(steps[fw.step], cached(fw.step), condition.model) +
      fw.tokens / condition.model.decodeTokensPerSecond,
    total: elapsed,
  };
}

/** The hand floor of a scenario under a condition, with the words and actions of the default mode's turn. */
export function floorTiming(
  run: ScenarioRun,
  scenario: Scenario,
  condition: Condition,
): Timing & { promptTokens: number } {
  return handFloorTiming(floorRun({ slugs: scenario.floor, words: run.floorText, actions: run.floorActions }), {
    model: condition.model,
    cold: condition.cold,
    deliversValue: scenario.delivers === 'value',
  });
}

/** One scenario's fresh default-mode turn against its hand floor: the ratios issue 26 sets goals for. */
export interface FloorRow {
  scenario: Scenario;
  promptTokens: number;
  floorTokens: number;
  /** Prompt tokens, first word warm and cold, and total, each as a multiple of the floor's. */
  prompt: number;
  warm: number;
  cold: number;
  total: number;
  seconds: { project: number; floor: number };
}

export function floorRow(run: ScenarioRun, scenario: Scenario): FloorRow {
  const [warmCondition] = CONDITIONS;
  const coldCondition = CONDITIONS.find((condition) => condition.cold) as Condition;
  const promptTokens = stepCosts(run).reduce((total, step) => total + step.promptTokens, 0);
  const warmFloor = floorTiming(run, scenario, warmCondition);
  const coldFloor = floorTiming(run, scenario, coldCondition);
  const warm = timing(run, warmCondition);
  return {
    scenario,
    promptTokens,
    floorTokens: warmFloor.promptTokens,
    prompt: promptTokens / warmFloor.promptTokens,
    warm: warm.firstWord / warmFloor.firstWord,
    cold: timing(run, coldCondition).firstWord / coldFloor.firstWord,
    total: warm.total / warmFloor.total,
    seconds: { project: warm.total, floor: warmFloor.total },
  };
}

/** One condition's sums over the scenarios, and the worst first word among the conversation ones. */
export interface ConditionSums {
  own: number;
  seed: number;
  floor: number;
  /** The largest first word as a multiple of its floor, and whose it is. */
  worst: { ratio: number; scenario?: Scenario };
}

/** `runOf` gives a scenario's recording in a mode, at the condition's turn. */
export function conditionSums(
  condition: Condition,
  scenarios: Scenario[],
  runOf: (scenario: Scenario, mode: 'default' | 'seed') => ScenarioRun,
): ConditionSums {
  const sums: ConditionSums = { own: 0, seed: 0, floor: 0, worst: { ratio: 0 } };
  for (const scenario of scenarios) {
    const run = runOf(scenario, 'default');
    const time = timing(run, condition);
    const floorTime = floorTiming(run, scenario, condition);
    sums.own += time.total;
    sums.seed += timing(runOf(scenario, 'seed'), condition).total;
    sums.floor += floorTime.total;
    const ratio = time.firstWord / floorTime.firstWord;
    if (scenario.delivers !== 'value' && ratio > sums.worst.ratio) sums.worst = { ratio, scenario };
  }
  return sums;
}
