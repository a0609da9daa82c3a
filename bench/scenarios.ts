/**
 * The fixed scripted scenarios the benchmark plays, each in the default (inline reply) mode
 * and the seed-compatible mode. A stand-in model answers every step in the format the agent
 * asks for, so both modes get the same answers and differ only in the steps they take.
 */
import {
  Agent, ContentGenerator, DecisionEngine, JsonSchema, KeywordModel, NPC,
  type GenerationRequest, type KeywordRule, type LanguageModel,
} from '../src';
import { createTavernWorld, tavernTools } from '../demo/tavern/tavern-world';
import miraPersona from '../demo/tavern/mira.persona.json';

export interface ScenarioRun {
  requests: GenerationRequest[];
  outputs: string[];
  modelCalls: number;
}

export interface Scenario {
  name: string;
  group: 'agent' | 'npc';
  /** Builds the agent/NPC once; the returned function plays the scenario's turn on it (fresh history each time). */
  create(inline: boolean): () => Promise<ScenarioRun>;
}

/** Wraps a model to record what each step was sent and answered. */
class Recorder implements LanguageModel {
  requests: GenerationRequest[] = [];
  outputs: string[] = [];
  constructor(private readonly inner: LanguageModel) {}
  /** Starts a new recording; returns what was recorded since the last take. */
  take(): { requests: GenerationRequest[]; outputs: string[] } {
    const out = { requests: this.requests, outputs: this.outputs };
    this.requests = [];
    this.outputs = [];
    return out;
  }
  get capabilities() { return this.inner.capabilities; }
  availability() { return this.inner.availability(); }
  async *generate(request: GenerationRequest, signal?: Parameters<LanguageModel['generate']>[1]) {
    this.requests.push(request);
    const i = this.outputs.push('') - 1;
    for await (const chunk of this.inner.generate(request, signal)) {
      this.outputs[i] = chunk.text;
      yield chunk;
    }
  }
}

const TAVERN_RULES: KeywordRule[] = [
  { when: ['hello', 'evening'], reply: { emotion: 'happy', line: 'Welcome in! Sit anywhere you like.' } },
  { when: ['and two'], tools: [{ name: 'check_menu' }, { name: 'take_order', args: { item: 'ale', quantity: 2 } }], reply: { emotion: 'happy', line: 'Two ales, six gold. Enjoy!' } },
  { when: ['ale'], tools: [{ name: 'take_order', args: { item: 'ale', quantity: 2 } }], reply: { emotion: 'happy', line: 'Two ales, six gold. Enjoy!' } },
  { when: ['warm', 'menu'], tools: [{ name: 'check_menu' }], reply: { emotion: 'happy', line: "Stew's 5 gold, ale 3." } },
  { when: ['name is'], tools: [{ name: 'remember_fact', args: { fact: "The player's name is Sam." } }], reply: { emotion: 'happy', line: 'Sam it is. Welcome, Sam!' } },
];

function tavernModel(): Recorder {
  return new Recorder(new KeywordModel({ rules: TAVERN_RULES, otherwise: { emotion: 'neutral', line: 'Hm?' } }));
}

function agentTurn(line: string, inline: boolean, choice?: 'none' | { tool: string }): () => Promise<ScenarioRun> {
  const model = tavernModel();
  const world = createTavernWorld();
  const agent = new Agent(model, {
    instructions: 'You are Mira, the innkeeper of the Crooked Lantern. Answer in at most 2 short sentences.',
    tools: tavernTools(world),
    config: { inlineReplies: inline, labels: { user: 'Guest', assistant: 'Mira' } },
  });
  return async () => {
    const r = await agent.respond(line, choice ? { toolChoice: choice } : {});
    await agent.reset();
    return { ...model.take(), modelCalls: r.modelCalls };
  };
}

function npcTurn(line: string, inline: boolean, options: Record<string, unknown> = {}): () => Promise<ScenarioRun> {
  const model = tavernModel();
  const world = createTavernWorld();
  const npc = new NPC({ persona: miraPersona, model, world, tools: tavernTools(world), options: { inlineReplies: inline, worldContextPaths: ['player.gold'], ...options } });
  return async () => {
    const turn = await npc.talk(line);
    await npc.resetConversation(true);
    return { ...model.take(), modelCalls: turn.modelCalls };
  };
}

export const SCENARIOS: Scenario[] = [
  { name: 'small talk, tools on', group: 'agent', create: (inline) => agentTurn('Good evening!', inline) },
  { name: 'one tool call', group: 'agent', create: (inline) => agentTurn('Two ales, please.', inline) },
  { name: 'two tool calls', group: 'agent', create: (inline) => agentTurn('What is on the menu? And two ales.', inline) },
  { name: "toolChoice 'none'", group: 'agent', create: (inline) => agentTurn('Good evening!', inline, 'none') },
  { name: '{tool} without parameters', group: 'agent', create: (inline) => agentTurn('What is warm tonight?', inline, { tool: 'check_menu' }) },
  { name: 'NPC small talk', group: 'npc', create: (inline) => npcTurn('Hello there!', inline) },
  { name: 'NPC grounded question', group: 'npc', create: (inline) => npcTurn("What's warm tonight?", inline, { groundingTool: 'check_menu' }) },
  { name: 'NPC memory update', group: 'npc', create: (inline) => npcTurn('My name is Sam.', inline, { memoryTools: 'all' }) },
  {
    name: 'decision (guard, one lookup)', group: 'npc', create: (inline) => {
      const model = new Recorder(new KeywordModel({
        rules: [{ when: /./, tools: [{ name: 'read_world_state', args: { path: 'player' } }], reply: { line: '', json: { choice: 'warn', reason: 'The stranger is armed but calm.', confidence: 70 } } }],
      }));
      const world = createTavernWorld();
      const tools = world.tools({ readable: ['player'] }); // made once, as a game would
      const engine = new DecisionEngine(model, { inlineReplies: inline });
      return async () => {
        const d = await engine.decide({
          situation: 'A stranger walks up to the gate at night with a sword on his back.',
          options: [{ id: 'let_in', description: 'open the gate' }, { id: 'warn', description: 'tell him to leave his sword' }, { id: 'attack', description: 'raise the alarm' }],
          actor: { name: 'Brom', role: 'the night guard', personality: 'cautious' },
          tools,
        });
        return { ...model.take(), modelCalls: d.modelCalls };
      };
    },
  },
  {
    name: 'content (a loot item)', group: 'npc', create: (inline) => {
      const model = new Recorder(new KeywordModel({ rules: [{ when: /./, reply: { line: '', json: { name: 'Lantern of the Crooked Inn', rarity: 'rare', value: 40 } } }] }));
      const gen = new ContentGenerator(model, { inlineReplies: inline });
      const schema = JsonSchema.obj({ name: JsonSchema.string(), rarity: JsonSchema.enumOf(['common', 'rare', 'legendary']), value: JsonSchema.integer({ minimum: 1, maximum: 100 }) });
      return async () => {
        const r = await gen.generate({ prompt: 'Create one loot item a tavern keeper might hide.', schema });
        return { ...model.take(), modelCalls: r.modelCalls };
      };
    },
  },
];

