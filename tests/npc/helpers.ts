/** Shared fixtures for the NPC tests: Mira the innkeeper, her tavern tools and event helpers. */
import {
  AgentError,
  AgentTool,
  JsonSchema,
  NPC,
  type DialogueStream,
  type NPCEvent,
  type NPCOptions,
  type WorldState,
  type GenerationRequest,
} from '../../src';
import { ScriptedLanguageModel, type ScriptStep } from '../../src/testing';

export { failure, until } from '../agent/helpers';

export const MIRA = {
  name: 'Mira',
  role: 'the innkeeper of the Crooked Lantern',
  personality: 'Warm and a little nosy.',
  secrets: ['She saw the mayor hide silver in the old mill'],
};

export interface TavernTools {
  menu: AgentTool;
  order: AgentTool;
  /** Every tool run, in order. */
  log: string[];
}

export function tavernTools(): TavernTools {
  const log: string[] = [];
  const menu = AgentTool.local({ name: 'check_menu', description: 'Lists the menu with prices.' }, () => {
    log.push('check_menu');
    return { ale: 3, stew: 5 };
  });
  const order = AgentTool.local(
    {
      name: 'take_order',
      description: 'Serves an item.',
      parameters: JsonSchema.obj({
        item: JsonSchema.enumOf(['ale', 'stew']),
        quantity: JsonSchema.integer({ minimum: 1, maximum: 10 }),
      }),
    },
    (args: { item: string; quantity: number }) => {
      log.push(`take_order ${args.quantity} ${args.item}`);
      return `Served ${args.quantity} ${args.item}.`;
    },
  );
  return { menu, order, log };
}

export interface MiraSetup {
  tools?: AgentTool[];
  world?: WorldState;
  options?: NPCOptions;
  persona?: unknown;
  memory?: { facts?: string[]; relationship?: number; summary?: string };
}

/** Mira over a scripted model. Tools default to none (pass `tools` for the tavern tools). */
export function mira(steps: Array<ScriptStep | string>, setup: MiraSetup = {}) {
  const model = new ScriptedLanguageModel(steps);
  const npc = new NPC({
    persona: setup.persona ?? MIRA,
    model,
    tools: setup.tools,
    world: setup.world,
    options: setup.options,
    memory: setup.memory as never,
  });
  return { model, npc };
}

/** Every event of a stream, in order, and its failure if it failed. */
export async function events(stream: DialogueStream): Promise<{ events: NPCEvent[]; error?: AgentError }> {
  const out: NPCEvent[] = [];
  try {
    for await (const event of stream.events) out.push(event);
    return { events: out };
  } catch (error) {
    return { events: out, error: error as AgentError };
  }
}

/** The line as the player saw it: deltas appended, a reset starts over. */
export function shownLine(evs: NPCEvent[]): string {
  let line = '';
  for (const event of evs) {
    if (event.type !== 'line') continue;
    line = event.isReset ? event.delta : line + event.delta;
  }
  return line;
}

/** All the text the model saw in one request. */
export function requestText(request: GenerationRequest): string {
  return [request.systemInstruction ?? '', request.promptPrefix ?? '', request.prompt].join('\n');
}

/** The stable part of a request: what the device's prefix cache keys on. */
export function stablePrefix(request: GenerationRequest): string {
  return `${request.systemInstruction ?? ''}\u0000${request.promptPrefix ?? ''}`;
}
