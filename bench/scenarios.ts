/**
 * The fixed scripted scenarios the benchmark plays, each in the default (inline reply) mode
 * and the seed-compatible mode. A stand-in model answers every step in the format the agent
 * asks for, so both modes get the same answers and differ only in the steps they take.
 */
import {
  Agent,
  ContentGenerator,
  DecisionEngine,
  JsonSchema,
  KeywordModel,
  NPC,
  worldStateTools,
  type GenerationChunk,
  type GenerationRequest,
  type KeywordContext,
  type KeywordRule,
  type LanguageModel,
  type ToolRecord,
} from '../src';
import { gemmaPieces } from './tokenizer';
import { createTavernWorld, tavernTools } from '../demo/tavern/tavern-world';
import miraPersona from '../demo/tavern/mira.persona.json';

export interface ScenarioRun {
  requests: GenerationRequest[];
  outputs: string[];
  modelCalls: number;
  /** When the player's first word appeared: the step and how many chunks (tokens) it had streamed; undefined: at the end. */
  firstWord?: { step: number; tokens: number };
  /** What the floor must still write: the words the player reads, or a decision's id, or content's values. */
  floorText: string;
  /** Actions the floor must still name (lookups excluded: their facts can be in the prompt). */
  floorActions: Array<{ name: string; args: Record<string, unknown> }>;
}

export interface ScenarioSetup {
  inline: boolean;
  /** Earlier turns to play first (a conversation at turn 12 has 11). */
  earlierTurns: number;
}

export interface Scenario {
  name: string;
  group: 'agent' | 'npc';
  /** What the player waits for: the first word of a line, or a whole value (a decision's id, content). */
  delivers?: 'line' | 'value';
  /** The hand floor's calls: files of bench/floor/ (README there). */
  floor: string[];
  /** Builds the agent/NPC once; the returned function plays the scenario's turn on it (fresh history each time). */
  create(setup: ScenarioSetup): () => Promise<ScenarioRun>;
}

/** Lookups: the floor places their facts in the prompt instead of calling them. */
const LOOKUPS = new Set(['check_menu', 'read_world_state']);
const EARLIER_LINES = [
  'Good evening!',
  'Busy tonight?',
  'What is on the menu?',
  'Any news from the road?',
  'Lovely fire.',
  'Thanks, Mira.',
];

/**
 * Wraps a model to record what each step was sent and answered, re-streamed one Gemma token
 * per chunk as a phone streams it (a 3-chunk stand-in would hide late first words).
 */
class Recorder implements LanguageModel {
  requests: GenerationRequest[] = [];
  outputs: string[] = [];
  /** Chunks streamed so far in the current step. */
  tokensStreamed = 0;
  constructor(private readonly inner: LanguageModel) {}
  /** Starts a new recording; returns what was recorded since the last take. */
  take(): { requests: GenerationRequest[]; outputs: string[] } {
    const out = { requests: this.requests, outputs: this.outputs };
    this.requests = [];
    this.outputs = [];
    return out;
  }
  /** The step now streaming and its token count, for first-word marks. */
  mark(): { step: number; tokens: number } {
    return { step: this.requests.length - 1, tokens: this.tokensStreamed };
  }
  get capabilities() {
    return this.inner.capabilities;
  }
  availability() {
    return this.inner.availability();
  }
  async *generate(request: GenerationRequest, signal?: Parameters<LanguageModel['generate']>[1]) {
    this.requests.push(request);
    const slot = this.outputs.push('') - 1;
    let last: GenerationChunk | undefined;
    for await (const chunk of this.inner.generate(request, signal)) last = chunk;
    const text = last?.text ?? '';
    this.outputs[slot] = text;
    this.tokensStreamed = 0;
    const pieces = gemmaPieces(text);
    let sofar = '';
    for (let index = 0; index < pieces.length; index++) {
      sofar += pieces[index];
      this.tokensStreamed = index + 1;
      if (index < pieces.length - 1) yield { delta: pieces[index], text: sofar };
    }
    yield { ...(last as GenerationChunk), delta: pieces[pieces.length - 1] ?? '', text };
  }
}

/** What take_order answered this turn, for a line that quotes it. */
function goldLeft(ctx: KeywordContext): string {
  const result = ctx.toolResults.find((entry) => entry.tool === 'take_order');
  const left = result && /"goldLeft":(\d+)/.exec(result.output);
  return left ? left[1] : 'no gold';
}

// Two short sentences each (20–30 Gemma tokens), as a real model writes for a persona with
// maxSentences 2; a stand-in that answers in 8 words would flatter every first-word ratio.
const TAVERN_RULES: KeywordRule[] = [
  {
    when: ['hello', 'evening'],
    reply: { emotion: 'happy', line: "Welcome in, love! Pull up a stool by the fire and tell me how the road's been." },
  },
  {
    when: ['and two'],
    tools: [{ name: 'check_menu' }, { name: 'take_order', args: { item: 'ale', quantity: 2 } }],
    reply: {
      emotion: 'happy',
      line: "Stew's five gold and ale's three, love. Two ales coming right up, mind the foam!",
    },
  },
  {
    when: ['how much'],
    tools: [{ name: 'take_order', args: { item: 'ale', quantity: 2 } }],
    reply: (ctx) => ({
      emotion: 'happy',
      line: `Two ales, that's six gold, love. You've ${goldLeft(ctx)} left in your purse, so spend it wisely!`,
    }),
  },
  {
    when: ['ale'],
    tools: [{ name: 'take_order', args: { item: 'ale', quantity: 2 } }],
    reply: {
      emotion: 'happy',
      line: "Two ales coming right up, that's six gold. Mind the foam, it's a lively barrel!",
    },
  },
  {
    when: ['warm', 'menu'],
    tools: [{ name: 'check_menu' }],
    reply: { emotion: 'happy', line: "Stew's bubbling at five gold a bowl, and ale's three. The bread's fresh too!" },
  },
  {
    when: ['name is'],
    tools: [{ name: 'remember_fact', args: { fact: "The player's name is Sam." } }],
    reply: {
      emotion: 'happy',
      line: 'Sam it is, then, and welcome! I never forget a face, nor the name that goes with it.',
    },
  },
];

function tavernModel(): Recorder {
  return new Recorder(new KeywordModel({ rules: TAVERN_RULES, otherwise: { emotion: 'neutral', line: 'Hm?' } }));
}

/** Each play starts with the player's purse full again (the bench plays a turn many times). */
function newEvening(world: ReturnType<typeof createTavernWorld>): void {
  world.set('player.gold', 20);
  world.set('player.inventory', []);
}

function actionsOf(records: readonly ToolRecord[]): ScenarioRun['floorActions'] {
  return records
    .filter((record) => !LOOKUPS.has(record.call.name))
    .map((record) => ({ name: record.call.name, args: record.call.args }));
}

function agentTurn(line: string, setup: ScenarioSetup, choice?: 'none' | { tool: string }): () => Promise<ScenarioRun> {
  const model = tavernModel();
  const world = createTavernWorld();
  const agent = new Agent(model, {
    instructions: 'You are Mira, the innkeeper of the Crooked Lantern. Answer in at most 2 short sentences.',
    // The replies do not use the order's result: a side effect in both modes (like for like).
    tools: tavernTools(world, { orderIsSideEffect: true }),
    config: { inlineReplies: setup.inline, labels: { user: 'Guest', assistant: 'Mira' } },
  });
  return async () => {
    newEvening(world);
    for (let turnIndex = 0; turnIndex < setup.earlierTurns; turnIndex++)
      await agent.respond(EARLIER_LINES[turnIndex % EARLIER_LINES.length]);
    model.take();
    let firstWord: ScenarioRun['firstWord'];
    const run = agent.run(line, choice ? { toolChoice: choice } : {});
    run.on('text', (event) => {
      if (!firstWord && event.text.trim()) firstWord = model.mark();
    });
    const response = await run.response();
    await agent.reset();
    return {
      ...model.take(),
      modelCalls: response.modelCalls,
      firstWord,
      floorText: response.text,
      floorActions: actionsOf(response.toolCalls),
    };
  };
}

function npcTurn(
  line: string,
  setup: ScenarioSetup,
  { resultNeeded = false, ...options }: Record<string, unknown> = {},
): () => Promise<ScenarioRun> {
  const model = tavernModel();
  const world = createTavernWorld();
  const npc = new NPC({
    persona: miraPersona,
    model,
    world,
    // The same in both modes: a side effect unless the scenario's line quotes the order's result.
    tools: tavernTools(world, { orderIsSideEffect: !resultNeeded }),
    options: {
      inlineReplies: setup.inline,
      worldContextPaths: ['player.gold'],
      compactAfterTurns: 8,
      keepRecentTurns: 4,
      ...options,
    },
  });
  return async () => {
    newEvening(world);
    for (let turnIndex = 0; turnIndex < setup.earlierTurns; turnIndex++)
      await npc.talk(EARLIER_LINES[turnIndex % EARLIER_LINES.length]);
    await npc.settledState(); // the summary of the earlier turns is written before the measured turn
    model.take();
    let firstWord: ScenarioRun['firstWord'];
    const stream = npc.talkStream(line);
    stream.on('line', (event) => {
      if (!firstWord && event.line.trim()) firstWord = model.mark();
    });
    const turn = await stream.turn();
    await npc.settledState();
    await npc.resetConversation(true);
    // A summary written in the background after the turn is not part of what the player waited for.
    const taken = model.take();
    const kept = taken.requests.map((_, index) => index).filter((index) => taken.requests[index].kind !== 'summary');
    return {
      requests: kept.map((index) => taken.requests[index]),
      outputs: kept.map((index) => taken.outputs[index]),
      modelCalls: turn.modelCalls,
      firstWord,
      // The floor's prompt asks for the mood on the line after the words, as ours does.
      floorText: `${turn.line}\n[${turn.emotion}]`,
      floorActions: actionsOf(turn.toolCalls),
    };
  };
}
export const SCENARIOS: Scenario[] = [
  {
    name: 'small talk, tools on',
    group: 'agent',
    floor: ['agent-small-talk'],
    create: (setup) => agentTurn('Good evening!', setup),
  },
  {
    name: 'one tool call',
    group: 'agent',
    floor: ['agent-one-tool'],
    create: (setup) => agentTurn('Two ales, please.', setup),
  },
  {
    name: 'two tool calls',
    group: 'agent',
    floor: ['agent-two-tools'],
    create: (setup) => agentTurn('What is on the menu? And two ales.', setup),
  },
  {
    name: "toolChoice 'none'",
    group: 'agent',
    floor: ['agent-no-tools'],
    create: (setup) => agentTurn('Good evening!', setup, 'none'),
  },
  {
    name: '{tool} without parameters',
    group: 'agent',
    floor: ['agent-forced-lookup'],
    create: (setup) => agentTurn('What is warm tonight?', setup, { tool: 'check_menu' }),
  },
  {
    name: 'NPC small talk',
    group: 'npc',
    floor: ['npc-small-talk'],
    create: (setup) => npcTurn('Hello there!', setup),
  },
  {
    name: 'NPC grounded question',
    group: 'npc',
    floor: ['npc-grounded'],
    create: (setup) => npcTurn("What's warm tonight?", setup, { groundingTool: 'check_menu' }),
  },
  {
    name: 'NPC memory update',
    group: 'npc',
    floor: ['npc-memory'],
    create: (setup) => npcTurn('My name is Sam.', setup, { memoryTools: 'all' }),
  },
  {
    name: 'NPC order, result needed',
    group: 'npc',
    floor: ['npc-order-result', 'npc-order-result-2'],
    create: (setup) => npcTurn('Two ales, how much is left?', setup, { resultNeeded: true }),
  },
  {
    name: 'decision (guard, one lookup)',
    group: 'npc',
    delivers: 'value',
    floor: ['decision-guard'],
    create: ({ inline }) => {
      const model = new Recorder(
        new KeywordModel({
          rules: [
            {
              when: /./,
              tools: [{ name: 'read_world_state', args: { path: 'player' } }],
              reply: { line: '', json: { choice: 'warn', reason: 'The stranger is armed but calm.', confidence: 70 } },
            },
          ],
        }),
      );
      const world = createTavernWorld();
      const tools = worldStateTools(world, { readable: ['player'] }); // made once, as a game would
      // The seed-compatible mode answers as the seed does: a lookup step, a reason and a confidence.
      const engine = new DecisionEngine(
        model,
        inline ? {} : { inlineReplies: false, reason: 'after', prefetchLookups: false },
      );
      return async () => {
        const decision = await engine.decide({
          situation: 'A stranger walks up to the gate at night with a sword on his back.',
          options: [
            { id: 'let_in', description: 'open the gate' },
            { id: 'warn', description: 'tell him to leave his sword' },
            { id: 'attack', description: 'raise the alarm' },
          ],
          actor: { name: 'Brom', role: 'the night guard', personality: 'cautious' },
          tools,
        });
        return { ...model.take(), modelCalls: decision.modelCalls, floorText: decision.optionId, floorActions: [] };
      };
    },
  },
  {
    name: 'content (a loot item)',
    group: 'npc',
    delivers: 'value',
    floor: ['content-loot'],
    create: ({ inline }) => {
      const model = new Recorder(
        new KeywordModel({
          rules: [
            { when: /./, reply: { line: '', json: { name: 'Lantern of the Crooked Inn', rarity: 'rare', value: 40 } } },
          ],
        }),
      );
      const gen = new ContentGenerator(model, { inlineReplies: inline });
      const schema = JsonSchema.obj({
        name: JsonSchema.string(),
        rarity: JsonSchema.enumOf(['common', 'rare', 'legendary']),
        value: JsonSchema.integer({ minimum: 1, maximum: 100 }),
      });
      return async () => {
        const result = await gen.generate({ prompt: 'Create one loot item a tavern keeper might hide.', schema });
        // The floor's prompt asks for the item as compact JSON, so that is what it writes.
        return {
          ...model.take(),
          modelCalls: result.modelCalls,
          floorText: JSON.stringify(result.value),
          floorActions: [],
        };
      };
    },
  },
];
