/**
 * The bench's figures as the docs print them: every block between `<!-- figures:NAME -->` markers
 * in docs/ (doc-blocks.ts) is written from here by `npm run docs:figures`, and
 * tests/docs/figures.test.ts fails when a doc's block differs from what this gives today. Only
 * exact figures go here (calls, Gemma 3 tokens, the cost model's seconds, fake-clock counts);
 * CPU times vary by machine and stay in `npm run bench`'s own output.
 */
import { barkBurst, playTurns, type TurnsFigures } from './background-work';
import { longHistoryFigures } from './long-history';
import {
  CONDITIONS,
  conditionSums,
  floorRow,
  floorTiming,
  stepCosts,
  timing,
  type Condition,
  type FloorRow,
} from './measure';
import { SCENARIOS, type Scenario, type ScenarioRun } from './scenarios';
import { tokenEstimateFigures } from './token-estimate';

/** How the docs name each scenario (the bench's own names are short for its columns). */
const DOC_NAMES: Record<string, string> = {
  'small talk, tools on': 'small talk, tools enabled',
  'one tool call': 'one tool call (the order as a side effect)',
  'two tool calls': 'menu and an order (the menu read ahead)',
  "toolChoice 'none'": "`toolChoice: 'none'`",
  '{tool} without parameters': '`{tool}` without parameters',
  'NPC small talk': 'NPC small talk',
  'NPC grounded question': 'NPC with a grounding tool (the menu)',
  'NPC memory update': 'NPC memory update (line + `remember_fact`)',
  'NPC order, result needed': 'NPC order whose line quotes the result (2 calls)',
  'decision (guard, one lookup)': 'decision after one lookup',
  'content (a loot item)': 'generated content',
};

type Mode = 'default' | 'seed';
type Recordings = (scenario: Scenario, mode: Mode, turn: 1 | 12) => ScenarioRun;

async function record(): Promise<Recordings> {
  const runs = new Map<string, ScenarioRun>();
  const key = (scenario: Scenario, mode: Mode, turn: number) => `${scenario.name}|${mode}|${turn}`;
  for (const scenario of SCENARIOS)
    for (const mode of ['default', 'seed'] as const)
      for (const turn of [1, 12] as const)
        runs.set(
          key(scenario, mode, turn),
          await scenario.create({ inline: mode === 'default', earlierTurns: turn - 1 })(),
        );
  return (scenario, mode, turn) => runs.get(key(scenario, mode, turn)) as ScenarioRun;
}

const seconds = (value: number) => value.toFixed(2);
const times = (value: number) => `${value.toFixed(2)}×`;
/** Against a goal: a third decimal when two would round a miss onto the goal (1.304× is not 1.30×). */
const against = (value: number, goal: number) =>
  value > goal && value.toFixed(2) === goal.toFixed(2) ? `${value.toFixed(3)}×` : times(value);
const thousands = (value: number) => value.toLocaleString('en-US');
/** A ratio to the real count in words: 1.12 → "12% above", 0.92 → "8% below". */
const offBy = (ratio: number) => `${Math.abs(Math.round((ratio - 1) * 100))}% ${ratio >= 1 ? 'above' : 'below'}`;
const docName = (scenario: Scenario) => DOC_NAMES[scenario.name] ?? scenario.name;

function comparison(find: Recordings): string {
  const [base] = CONDITIONS;
  const lines = [
    '| scenario | calls (default / seed) | prompt tokens: default / floor | first word: default / seed / floor | total: default / floor |',
    '|---|---|---|---|---|',
  ];
  const sums = { calls: 0, seedCalls: 0, total: 0, seedTotal: 0, floor: 0 };
  const rows = SCENARIOS.map((scenario) => floorRow(find(scenario, 'default', 1), scenario));
  for (const [index, scenario] of SCENARIOS.entries()) {
    const run = find(scenario, 'default', 1);
    const seed = find(scenario, 'seed', 1);
    const own = timing(run, base);
    const seedTime = timing(seed, base);
    const floor = floorTiming(run, scenario, base);
    sums.calls += run.modelCalls;
    sums.seedCalls += seed.modelCalls;
    sums.total += own.total;
    sums.seedTotal += seedTime.total;
    sums.floor += floor.total;
    lines.push(
      `| ${docName(scenario)} | ${run.modelCalls} / ${seed.modelCalls} | ${rows[index].promptTokens} / ${rows[index].floorTokens} | ${seconds(own.firstWord)} / ${seconds(seedTime.firstWord)} / ${seconds(floor.firstWord)} s | ${seconds(own.total)} / ${seconds(floor.total)} s |`,
    );
  }
  const lineRows = rows.filter((row) => row.scenario.delivers !== 'value');
  const worstWarm = Math.max(...lineRows.map((row) => row.warm));
  const worstCold = Math.max(...lineRows.map((row) => row.cold));
  lines.push(
    `| **all ${SCENARIOS.length}** | **${sums.calls}** / ${sums.seedCalls} | | worst ${times(worstWarm)} the floor (${times(worstCold)} cold) | **${sums.total.toFixed(1)} / ${sums.floor.toFixed(1)} s** (${times(sums.total / sums.floor)}; seed ${sums.seedTotal.toFixed(1)} s) |`,
  );
  return lines.join('\n');
}

function goals(find: Recordings): string {
  const rows = SCENARIOS.map((scenario) => floorRow(find(scenario, 'default', 1), scenario));
  const worst = (key: 'prompt' | 'warm' | 'cold', lineOnly: boolean) =>
    rows
      .filter((row) => !lineOnly || row.scenario.delivers !== 'value')
      .reduce((top, row) => (row[key] > top[key] ? row : top));
  const npc = rows.filter((row) => row.scenario.group === 'npc').map((row) => row.prompt);
  const order = rows.find((row) => row.scenario.name === 'NPC order, result needed') as FloorRow;
  const project = rows.reduce((sum, row) => sum + row.seconds.project, 0);
  const floor = rows.reduce((sum, row) => sum + row.seconds.floor, 0);
  const mark = (ok: boolean) => (ok ? 'met' : '**not met**');
  const prompt = worst('prompt', false);
  const warm = worst('warm', true);
  const cold = worst('cold', true);
  return [
    '| goal | today | |',
    '|---|---|---|',
    `| prompt tokens ≤ 1.4× the floor | worst ${against(prompt.prompt, 1.4)} (${docName(prompt.scenario)}); NPC turns ${times(Math.min(...npc))}–${times(Math.max(...npc))} | ${mark(prompt.prompt <= 1.4)} |`,
    `| first word ≤ 1.15× the floor, warm prefix | worst ${against(warm.warm, 1.15)} (${docName(warm.scenario)}) | ${mark(warm.warm <= 1.15)} |`,
    `| first word ≤ 1.3× the floor, cold prefix | worst ${against(cold.cold, 1.3)} (${docName(cold.scenario)}) | ${mark(cold.cold <= 1.3)} |`,
    `| the result-needed order's first word ≤ 1.15× | ${against(order.warm, 1.15)} | ${mark(order.warm <= 1.15)} |`,
    `| all scenarios' total ≤ 1.15× | ${against(project / floor, 1.15)} | ${mark(project / floor <= 1.15)} |`,
  ].join('\n');
}

function conditions(find: Recordings): string {
  const lines = [
    '| condition | default | seed | floor | ×floor | ×seed | worst first word |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const condition of CONDITIONS) {
    const { own, seed, floor, worst } = conditionSums(condition, SCENARIOS, (scenario, mode) =>
      find(scenario, mode, condition.turn),
    );
    const name = condition.name.replace('(no prewarm)', '(no `prewarm()`)');
    lines.push(
      `| ${name} | ${own.toFixed(1)} s | ${seed.toFixed(1)} s | ${floor.toFixed(1)} s | ${(own / floor).toFixed(2)} | ${(own / seed).toFixed(2)} | ${times(worst.ratio)} |`,
    );
  }
  // Fresh, at turn 12 and with a cold cache: the three a player meets most.
  const shown = [
    CONDITIONS[0],
    CONDITIONS.find((one) => one.turn === 12),
    CONDITIONS.find((one) => one.cold),
  ] as Condition[];
  const firstWords = (name: string) => {
    const scenario = SCENARIOS.find((candidate) => candidate.name === name) as Scenario;
    return shown.map((condition) => seconds(timing(find(scenario, 'default', condition.turn), condition).firstWord));
  };
  const [fresh, late, cold] = firstWords('NPC small talk');
  lines.push(
    '',
    `NPC small talk's first word: ${fresh} s fresh, ${late} s at turn 12, ${cold} s with a cold cache. NPC memory update's: ${firstWords('NPC memory update').join(' / ')} s.`,
  );
  return lines.join('\n');
}

/** What a prepare() while the player types could move in front of the first word (not built). */
function prefillAhead(find: Recordings): string {
  const small = SCENARIOS.find((scenario) => scenario.name === 'NPC small talk') as Scenario;
  const [first] = stepCosts(find(small, 'default', 12));
  const uncached = first.promptTokens - first.cacheableTokens;
  return `At turn 12, NPC small talk's first step prefills ${uncached} tokens outside the stable prefix (memory, summary, history, note): ${seconds(uncached / CONDITIONS[0].model.prefillTokensPerSecond)} s of its first word.`;
}

async function tokenEstimate(): Promise<Record<string, string>> {
  const { texts, estimates } = await tokenEstimateFigures();
  const [chars, runtime] = estimates;
  return {
    'token-estimate': `On ${texts} texts (the bench's prompts and outputs, a long conversation's prompts, the personas, the peers' fixtures) the runtime's estimate is below the real count on ${runtime.below} (its lowest: ${offBy(runtime.lowest)}), and ${offBy(runtime.median)} at the median; four characters per token was below on ${chars.below}, ${offBy(chars.median)} at the median and down to ${offBy(chars.lowest)}.`,
    'token-estimate-summary': `The benchmark measures the estimate against Gemma 3's tokenizer: ${offBy(runtime.median)} the real count at the median, below it on ${runtime.below} of ${texts} texts.`,
  };
}

async function longHistory(): Promise<string> {
  const { turns, worst, overWindow } = await longHistoryFigures();
  return `A long conversation without compaction and without \`countTokens\` (${thousands(turns)} turns): the largest prompt is ${thousands(worst.tokens)} Gemma tokens (turn ${worst.turn}), and ${overWindow} turns go over the 4,000-token window.`;
}

async function backgroundWork(): Promise<string> {
  const wasted = (figures: TurnsFigures) =>
    `${thousands(figures.wasted)} of ${thousands(figures.calls)} (${((100 * figures.wasted) / figures.calls).toFixed(1)}%)`;
  const share = (figures: TurnsFigures) => `${((100 * figures.wasted) / figures.calls).toFixed(1)}%`;
  const before = { reservedForConversation: 0, quietAfterConversationMs: 0 };
  const [old, now, quiet10, quiet30] = [
    await playTurns(before),
    await playTurns(),
    await playTurns({ quietAfterConversationMs: 10_000 }),
    await playTurns({ quietAfterConversationMs: 30_000 }),
  ];
  const [oldBurst, burst] = [await barkBurst(before), await barkBurst()];
  const waited = (figures: { waitMs: number }) => `${Math.round(figures.waitMs / 1000)} s`;
  return `Over ${thousands(now.turns)} turns of 50 NPCs with compaction on, wasted calls (stopped after they started, failed, summaries thrown away) were ${wasted(old)} before, ${wasted(now)} now (${share(quiet10)} with 10 s of quiet, ${share(quiet30)} with 30 s); after 30 barks, the player's line waited ${waited(oldBurst)} behind ${oldBurst.behind} background calls before, ${waited(burst)} behind ${burst.behind} now. The longest wait of a turn at conversation priority was ${(now.longestWaitMs / 1000).toFixed(1)} s.`;
}

/** Every figure block the docs hold, by name. */
export async function docFigures(): Promise<Record<string, string>> {
  const find = await record();
  return {
    comparison: comparison(find),
    goals: goals(find),
    conditions: conditions(find),
    'prefill-ahead': prefillAhead(find),
    ...(await tokenEstimate()),
    'long-history': await longHistory(),
    'background-work': await backgroundWork(),
  };
}
