/**
 * The live eval's scenarios, in the seed's style (its proxy evals: an innkeeper, a guard,
 * structured NPC replies, decisions, barks, content). Each scenario plays a few items (a
 * player line, a situation, a prompt) through the public API only, and says for each what
 * the model did first and whether the outcome is right. The tools and facts are the eval's
 * own, not the demo's, so a recording made today still replays when the demo changes.
 */
import {
  Agent,
  AgentTool,
  ContentGenerator,
  DecisionEngine,
  JsonSchema,
  NPC,
  WorldState,
  type AgentResponse,
  type LanguageModel,
  type Persona,
  type ToolRecord,
} from '../src';

/** What one item ended with, as the scenario judges it. */
export interface ItemResult {
  /** The first thing the model did: a tool's name, or `reply` when it answered without one. */
  firstAction?: string;
  /** The scenario's check: the right tool, a fact in the line, a valid value. */
  pass: boolean;
  /** Why it passed or failed, in a few words. */
  detail: string;
  /** What the player or the game got: the line, the option id, the content as JSON. */
  output: string;
  /** True when an authored fallback stood in for the model's answer. */
  fallback: boolean;
}

export interface ItemSpec {
  /** The player line, situation or prompt, as shown in the report. */
  input: string;
  /** The first action that is right, when the scenario has one. */
  expectedFirstAction?: string;
}

/** What the runner gives a scenario for one run. */
export interface ScenarioContext {
  model: LanguageModel;
  /** Plays one item: the runner times it, collects its model steps and catches its failure. */
  item(spec: ItemSpec, play: () => Promise<ItemResult>): Promise<void>;
}

export interface EvalScenario {
  id: string;
  title: string;
  /** One sentence: what "right" means here. */
  checks: string;
  play(context: ScenarioContext): Promise<void>;
}

/** The reply action's name in the score (not a tool: the model answered directly). */
export const REPLY = 'reply';

const MENU = { ale: 3, stew: 5, bread: 1, cider: 4 };
const MENU_ITEMS = Object.keys(MENU);

function firstActionOf(toolCalls: readonly ToolRecord[]): string {
  return toolCalls.length > 0 ? toolCalls[0].call.name : REPLY;
}

function actionResult(response: AgentResponse, expected: string): ItemResult {
  const firstAction = firstActionOf(response.toolCalls);
  const spoke = response.text.trim().length > 0;
  const pass = firstAction === expected && spoke;
  const detail =
    firstAction === expected
      ? spoke
        ? `${expected} first`
        : `${expected} first, but no line`
      : `${firstAction} first, expected ${expected}`;
  return { firstAction, pass, detail, output: response.text, fallback: false };
}

function innkeeperTools(): AgentTool[] {
  return [
    AgentTool.local(
      { name: 'check_menu', description: "Lists tonight's food and drink with prices in gold." },
      () => MENU,
    ),
    AgentTool.local(
      {
        name: 'take_order',
        description: 'Serves food or drink to the guest.',
        parameters: JsonSchema.obj({
          item: JsonSchema.enumOf(MENU_ITEMS, { description: 'what the guest ordered' }),
          quantity: JsonSchema.integer({ minimum: 1, maximum: 10, description: 'how many' }),
        }),
      },
      (args: { item: keyof typeof MENU; quantity: number }) => ({
        served: args.quantity,
        item: args.item,
        cost: MENU[args.item] * args.quantity,
      }),
    ),
    AgentTool.local(
      {
        name: 'rent_room',
        description: 'Gives the guest a room upstairs for some nights (4 gold a night).',
        parameters: JsonSchema.obj({
          nights: JsonSchema.integer({ minimum: 1, maximum: 7, description: 'how many nights' }),
        }),
      },
      (args: { nights: number }) => ({ room: 3, nights: args.nights, cost: 4 * args.nights }),
    ),
  ];
}

const INNKEEPER_INSTRUCTIONS =
  'You are Mira, the innkeeper of the Crooked Lantern. Answer in at most 2 short sentences.';
const TAVERN_LABELS = { user: 'Guest', assistant: 'Mira' };

const innkeeper: EvalScenario = {
  id: 'innkeeper',
  title: 'innkeeper, right action per line',
  checks: 'the first action is the expected tool (or a direct reply for small talk), and she speaks',
  async play({ model, item }) {
    // One conversation per run: the lines come one after another, as a guest says them.
    const agent = new Agent(model, {
      instructions: INNKEEPER_INSTRUCTIONS,
      tools: innkeeperTools(),
      config: { labels: TAVERN_LABELS },
    });
    const lines: Array<[string, string]> = [
      ['Good evening! Lovely fire you have going.', REPLY],
      ["What's warm to eat tonight?", 'check_menu'],
      ['Two ales, please.', 'take_order'],
      ['I need a bed for two nights.', 'rent_room'],
    ];
    for (const [line, expected] of lines) {
      await item({ input: line, expectedFirstAction: expected }, async () =>
        actionResult(await agent.respond(line), expected),
      );
    }
  },
};

const forcedTool: EvalScenario = {
  id: 'forced-tool',
  title: 'forced tool, arguments',
  checks:
    "toolChoice {tool: 'take_order'}: the call is made, with arguments valid against its schema " +
    'that name the ordered item and count',
  async play({ model, item }) {
    const orders: Array<[string, { item: string; quantity: number }]> = [
      ['Three bowls of stew for my friends.', { item: 'stew', quantity: 3 }],
      ['One cider, please.', { item: 'cider', quantity: 1 }],
      ['Give me two loaves of bread for the road.', { item: 'bread', quantity: 2 }],
    ];
    for (const [line, expected] of orders) {
      // A fresh agent per order: the arguments must come from this line alone.
      const agent = new Agent(model, {
        instructions: INNKEEPER_INSTRUCTIONS,
        tools: innkeeperTools(),
        config: { labels: TAVERN_LABELS },
      });
      await item({ input: line, expectedFirstAction: 'take_order' }, async () => {
        const response = await agent.respond(line, { toolChoice: { tool: 'take_order' } });
        const call = response.toolCalls.find((record) => record.call.name === 'take_order');
        const args = call?.call.args as { item?: unknown; quantity?: unknown } | undefined;
        const made = call !== undefined && !call.rejected;
        const right = made && args?.item === expected.item && args?.quantity === expected.quantity;
        const detail = !call
          ? 'no take_order call'
          : call.rejected
            ? 'arguments stayed invalid: the call was not made'
            : right
              ? `${JSON.stringify(args)}`
              : `${JSON.stringify(args)}, expected ${JSON.stringify(expected)}`;
        return {
          firstAction: firstActionOf(response.toolCalls),
          pass: right,
          detail,
          output: response.text,
          fallback: false,
        };
      });
    }
  },
};

function guardTools(): AgentTool[] {
  const text = (value: string) => () => value;
  return [
    AgentTool.local(
      { name: 'open_gate', description: 'Opens the north gate for someone who may pass.' },
      text('The gate swings open.'),
    ),
    AgentTool.local(
      {
        name: 'raise_alarm',
        description: 'Rings the alarm bell: the garrison turns out.',
        parameters: JsonSchema.obj({ threat: JsonSchema.string({ description: 'what is coming' }) }),
      },
      text('The bell rings; the garrison is on its way.'),
    ),
    AgentTool.local(
      {
        name: 'check_papers',
        description: "Reads a traveller's travel papers against the list of wanted names.",
        parameters: JsonSchema.obj({ traveller: JsonSchema.string({ description: "the traveller's name" }) }),
      },
      text('Papers in order; not on the wanted list.'),
    ),
    AgentTool.local(
      {
        name: 'send_runner',
        description: 'Sends the gate boy running for someone.',
        parameters: JsonSchema.obj({ to: JsonSchema.enumOf(['captain', 'healer']) }),
      },
      text('The boy is off like an arrow.'),
    ),
    AgentTool.local(
      { name: 'light_beacon', description: 'Lights the beacon on the tower so ships and riders can find the town.' },
      text('The beacon burns bright.'),
    ),
  ];
}

const guard: EvalScenario = {
  id: 'guard',
  title: 'guard, five tools',
  checks: 'the first action is the one tool of five the line calls for, and he speaks',
  async play({ model, item }) {
    const lines: Array<[string, string]> = [
      ['Orcs! A whole warband is coming over the hill!', 'raise_alarm'],
      ["Here are my travel papers. I'm Tomas of Millbrook.", 'check_papers'],
      ['My friend is bleeding badly, get help!', 'send_runner'],
      ["The fog is so thick the ships can't find the harbour.", 'light_beacon'],
      ['You have checked my papers, they are in order. May I pass now?', 'open_gate'],
    ];
    for (const [line, expected] of lines) {
      const agent = new Agent(model, {
        instructions: 'You are Brom, the night guard at the north gate of Millbrook. Answer in one short sentence.',
        tools: guardTools(),
        config: { labels: { user: 'Traveler', assistant: 'Brom' } },
      });
      await item({ input: line, expectedFirstAction: expected }, async () =>
        actionResult(await agent.respond(line), expected),
      );
    }
  },
};

const MIRA: Persona = {
  name: 'Mira',
  role: 'the innkeeper of the Crooked Lantern',
  personality: 'Warm, quick-witted and a little nosy.',
  speakingStyle: 'Short, friendly sentences.',
  knowledge: ['Old Hendrik runs the mill by the river', 'The road north is flooded'],
  maxSentences: 2,
  fallbackLines: ["Sorry love, it's loud in here. Say that again?"],
};

const npcFacts: EvalScenario = {
  id: 'npc-facts',
  title: 'NPC structured reply, facts',
  checks: 'the line states the fact from the tool output, the world state or the persona, and it is no fallback',
  async play({ model, item }) {
    const world = new WorldState({ player: { gold: 12 } });
    const npc = new NPC({
      persona: MIRA,
      model,
      world,
      tools: innkeeperTools().slice(0, 1),
      options: { worldContextPaths: ['player.gold'] },
    });
    const questions: Array<[string, string, RegExp, string]> = [
      ['How much is the stew tonight?', 'check_menu', /\b5\b|\bfive\b/i, 'the stew costs 5'],
      ['How much gold do I have left?', REPLY, /\b12\b|\btwelve\b/i, 'the player has 12 gold'],
      ['Who runs the mill?', REPLY, /hendrik/i, 'Hendrik runs the mill'],
    ];
    for (const [line, expected, fact, factName] of questions) {
      await item({ input: line, expectedFirstAction: expected }, async () => {
        const turn = await npc.talk(line);
        const mentions = fact.test(turn.line);
        const detail = turn.isFallback ? 'fallback line' : mentions ? `says ${factName}` : `does not say ${factName}`;
        return {
          firstAction: firstActionOf(turn.toolCalls),
          pass: mentions && !turn.isFallback,
          detail,
          output: turn.line,
          fallback: turn.isFallback,
        };
      });
    }
  },
};

const decisions: EvalScenario = {
  id: 'decision',
  title: 'decisions',
  checks: 'DecisionEngine picks the expected option, not the fallback',
  async play({ model, item }) {
    const engine = new DecisionEngine(model);
    const options = [
      { id: 'let_in', description: 'open the gate and let them in' },
      { id: 'warn', description: 'tell them to leave their weapons and wait' },
      { id: 'attack', description: 'raise the alarm and fight' },
    ];
    const situations: Array<[string, string]> = [
      ['A calm stranger with a sword on his back asks for shelter at night.', 'warn'],
      ['A goblin raiding party charges the gate with torches.', 'attack'],
      ["The captain returns from patrol and shows the garrison's own seal.", 'let_in'],
    ];
    for (const [situation, expected] of situations) {
      await item({ input: situation }, async () => {
        const decision = await engine.decide({
          situation,
          options,
          fallback: 'warn',
          actor: { name: 'Brom', role: 'the night guard', personality: 'cautious but fair' },
        });
        const right = decision.optionId === expected && !decision.isFallback;
        const detail = decision.isFallback
          ? 'fallback option'
          : right
            ? expected
            : `${decision.optionId}, expected ${expected}`;
        return { pass: right, detail, output: decision.optionId, fallback: decision.isFallback };
      });
    }
  },
};

/** A bark is one line of at most this many words, with no speaker label or tag in front. */
const BARK_MAX_WORDS = 25;

const barks: EvalScenario = {
  id: 'bark',
  title: 'barks',
  checks: `the model wrote one line of at most ${BARK_MAX_WORDS} words, with no label, tag or quotes around it`,
  async play({ model, item }) {
    // The raw answer is judged, not only the cleaned line: a bark the library had to clean is a miss.
    let raw = '';
    const watched: LanguageModel = {
      get capabilities() {
        return model.capabilities;
      },
      availability: () => model.availability(),
      async *generate(request, signal) {
        for await (const chunk of model.generate(request, signal)) {
          raw = chunk.text;
          yield chunk;
        }
      },
    };
    const npc = new NPC({ persona: MIRA, model: watched });
    const situations = [
      'It starts to rain hard outside.',
      'A bard begins a cheerful tune by the fire.',
      'The stew pot boils over in the kitchen.',
    ];
    for (const situation of situations) {
      await item({ input: situation }, async () => {
        raw = '';
        const line = await npc.bark(situation);
        const problem = barkProblem(raw, MIRA.name);
        return { pass: problem === undefined, detail: problem ?? 'one clean line', output: line, fallback: false };
      });
    }
  },
};

/** Why a raw bark is not one clean line, or undefined when it is. */
export function barkProblem(raw: string, name: string): string | undefined {
  const lines = raw
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  if (lines.length === 0) return 'empty';
  if (lines.length > 1) return `${lines.length} lines`;
  const line = lines[0];
  if (new RegExp(`^\\**${name}\\**\\s*:`, 'i').test(line) || /^[A-Z][a-z]+:\s/.test(line)) return 'speaker label';
  if (/^\[[^\]]*\]/.test(line) || /^\([^)]*\)/.test(line)) return 'tag in front';
  if (/^["“].*["”]$/.test(line)) return 'quoted';
  const words = line.split(/\s+/).length;
  if (words > BARK_MAX_WORDS) return `${words} words`;
  return undefined;
}

const LOOT_SCHEMA = JsonSchema.obj({
  name: JsonSchema.string({ minLength: 3, maxLength: 40 }),
  rarity: JsonSchema.enumOf(['common', 'rare', 'legendary']),
  value: JsonSchema.integer({ minimum: 1, maximum: 100, description: 'price in gold' }),
});
const LOOT_FALLBACK = { name: 'Dusty bottle', rarity: 'common', value: 2 };

const content: EvalScenario = {
  id: 'content',
  title: 'content',
  checks: 'ContentGenerator returns a value valid against its schema, not the fallback',
  async play({ model, item }) {
    const generator = new ContentGenerator(model);
    const prompts = [
      'Create one loot item a tavern keeper might hide behind the bar.',
      'Create the reward for clearing the rats out of the cellar.',
    ];
    for (const prompt of prompts) {
      await item({ input: prompt }, async () => {
        const result = await generator.generate({ prompt, schema: LOOT_SCHEMA, fallback: LOOT_FALLBACK });
        const checked = LOOT_SCHEMA.check(result.value);
        const pass = checked.ok && !result.isFallback;
        const detail = result.isFallback ? 'fallback content' : checked.ok ? 'valid' : checked.problem;
        return { pass, detail, output: JSON.stringify(result.value), fallback: result.isFallback };
      });
    }
  },
};

export const SCENARIOS: EvalScenario[] = [innkeeper, forcedTool, guard, npcFacts, decisions, barks, content];
