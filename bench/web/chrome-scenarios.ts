/**
 * The four scenarios run through ChromePromptModel: an NPC turn, a tool turn, a decision and
 * generated content (the tavern of demo/). Used by the headless-Chromium test (on the Prompt
 * API stand-in), the opt-in check on Chrome's real model (OAM_CHROME_NANO=1) and the bench.
 */
import {
  Agent,
  ContentGenerator,
  DecisionEngine,
  JsonSchema,
  KeywordModel,
  NPC,
  generateText,
  worldStateTools,
  type GenerationChunk,
  type GenerationRequest,
  type KeywordRule,
  type LanguageModel,
} from '../../src';
import { createTavernWorld, tavernTools } from '../../demo/tavern/tavern-world';
import miraPersona from '../../demo/tavern/mira.persona.json';
import type { BrainInput } from './prompt-api-stand-in';

export interface ScenarioOutcome {
  name: string;
  /** The line, the decision's id or the content as JSON. */
  text: string;
  modelCalls: number;
  tools: string[];
  /** Requests that repeated an invalid answer with a repair note. */
  repairs: number;
  /** Per model step: its kind, and the usage the backend reported. */
  steps: Array<{ kind: string; inputTokens: number; cachedInputTokens: number; outputTokens: number }>;
  world?: unknown;
}

export const TAVERN_RULES: KeywordRule[] = [
  { when: ['hello', 'evening'], reply: { emotion: 'happy', line: 'Welcome in! Sit anywhere you like.' } },
  {
    when: ['ale'],
    tools: [{ name: 'take_order', args: { item: 'ale', quantity: 2 } }],
    reply: { emotion: 'happy', line: 'Two ales, six gold. Enjoy!' },
  },
];
const DECISION_RULES: KeywordRule[] = [
  {
    when: /./,
    reply: { line: '', json: { choice: 'warn', reason: 'The stranger is armed but calm.', confidence: 70 } },
  },
];
const CONTENT_RULES: KeywordRule[] = [
  { when: /./, reply: { line: '', json: { name: 'Lantern of the Crooked Inn', rarity: 'rare', value: 40 } } },
];

/**
 * Wraps the backend so each step is counted and, for the stand-in, the brain can answer the
 * request the core made (a test double's shortcut: the keyword stand-in needs the step kind).
 */
export class Observed implements LanguageModel {
  current: GenerationRequest | undefined;
  readonly requests: GenerationRequest[] = [];
  readonly usage: ScenarioOutcome['steps'] = [];
  constructor(readonly inner: LanguageModel) {}
  get capabilities() {
    return this.inner.capabilities;
  }
  availability() {
    return this.inner.availability();
  }
  countTokens(text: string) {
    return this.inner.countTokens ? this.inner.countTokens(text) : Promise.resolve(null);
  }
  async *generate(
    request: GenerationRequest,
    signal?: Parameters<LanguageModel['generate']>[1],
  ): AsyncGenerator<GenerationChunk, void, undefined> {
    this.current = request;
    this.requests.push(request);
    let last: ScenarioOutcome['steps'][number] | undefined;
    try {
      for await (const chunk of this.inner.generate(request, signal)) {
        if (chunk.usage) last = { kind: request.kind, ...chunk.usage };
        yield chunk;
      }
    } finally {
      // Also when the core stops reading early: the last usage seen is the step's.
      if (last) this.usage.push(last);
    }
  }
  take(): { repairs: number; steps: ScenarioOutcome['steps'] } {
    const out = { repairs: this.requests.filter((request) => request.isRepair).length, steps: this.usage.splice(0) };
    this.requests.splice(0);
    return out;
  }
}

/** A brain for the stand-in: the keyword rules answer the request the core made, as the stand-in model would. */
export function keywordBrain(
  observed: Observed,
  rules: KeywordRule[],
  check?: (input: BrainInput, request: GenerationRequest) => void,
): (input: BrainInput) => Promise<string> {
  const keyword = new KeywordModel({ rules, otherwise: { emotion: 'neutral', line: 'Hm?' } });
  // The brain sees only the text, as a model would; the request is the step it answers.
  return async (input) => {
    const request = observed.current as GenerationRequest;
    if (check) check(input, request);
    return (await generateText(keyword, request)).text;
  };
}

export type ScenarioName = 'npc' | 'tool' | 'decision' | 'content';
export const SCENARIO_NAMES: ScenarioName[] = ['npc', 'tool', 'decision', 'content'];

/** The keyword stand-in itself, the reference a backend's turn is compared with. */
export function keywordModel(name: ScenarioName): KeywordModel {
  return new KeywordModel({ rules: rulesFor(name), otherwise: { emotion: 'neutral', line: 'Hm?' } });
}

/** The rules the stand-in's brain answers each scenario with. */
export function rulesFor(name: ScenarioName): KeywordRule[] {
  return name === 'decision' ? DECISION_RULES : name === 'content' ? CONTENT_RULES : TAVERN_RULES;
}

export async function runScenario(name: ScenarioName, observed: Observed): Promise<ScenarioOutcome> {
  observed.take();
  switch (name) {
    case 'npc': {
      const world = createTavernWorld();
      const npc = new NPC({ persona: miraPersona, model: observed, world, tools: tavernTools(world) });
      const turn = await npc.talkStream('Hello there!').turn();
      return {
        name: 'NPC turn',
        text: turn.line,
        modelCalls: turn.modelCalls,
        tools: turn.toolCalls.map((toolCall) => toolCall.call.name),
        ...observed.take(),
      };
    }
    case 'tool': {
      const world = createTavernWorld();
      const agent = new Agent(observed, {
        instructions: 'You are Mira, the innkeeper of the Crooked Lantern. Answer in at most 2 short sentences.',
        tools: tavernTools(world),
        config: { labels: { user: 'Guest', assistant: 'Mira' } },
      });
      const response = await agent.run('Two ales, please.').response();
      return {
        name: 'tool turn',
        text: response.text,
        modelCalls: response.modelCalls,
        tools: response.toolCalls.map((toolCall) => toolCall.call.name),
        world: world.get('player.gold'),
        ...observed.take(),
      };
    }
    case 'decision': {
      const world = createTavernWorld();
      const engine = new DecisionEngine(observed);
      const decision = await engine.decide({
        situation: 'A stranger walks up to the gate at night with a sword on his back.',
        options: [
          { id: 'let_in', description: 'open the gate' },
          { id: 'warn', description: 'tell him to leave his sword' },
          { id: 'attack', description: 'raise the alarm' },
        ],
        actor: { name: 'Brom', role: 'the night guard', personality: 'cautious' },
        tools: worldStateTools(world, { readable: ['player'] }),
      });
      return {
        name: 'decision',
        text: decision.optionId,
        modelCalls: decision.modelCalls,
        tools: [],
        ...observed.take(),
      };
    }
    default: {
      const gen = new ContentGenerator(observed);
      const schema = JsonSchema.obj({
        name: JsonSchema.string(),
        rarity: JsonSchema.enumOf(['common', 'rare', 'legendary']),
        value: JsonSchema.integer({ minimum: 1, maximum: 100 }),
      });
      const result = await gen.generate({ prompt: 'Create one loot item a tavern keeper might hide.', schema });
      return {
        name: 'content',
        text: JSON.stringify(result.value),
        modelCalls: result.modelCalls,
        tools: [],
        ...observed.take(),
      };
    }
  }
}
