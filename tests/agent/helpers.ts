/** Shared fixtures for the agent tests: the tavern tools of the seed's tests and small helpers. */
import {
  Agent,
  AgentError,
  AgentTool,
  JsonSchema,
  type AgentConfigInput,
  type AgentEvent,
  type AgentRun,
} from '../../src';
import { ScriptedLanguageModel, type ScriptStep } from '../../src/testing';

export interface Tavern {
  menu: AgentTool;
  order: AgentTool;
  /** Every tool run, in order: `check_menu` or `take_order {"item":…,"quantity":…}`. */
  log: string[];
}

export function tavern(): Tavern {
  const log: string[] = [];
  const menu = AgentTool.local({ name: 'check_menu', description: 'Lists the menu with prices.' }, () => {
    log.push('check_menu');
    return { ale: 3, stew: 5, bread: 1 };
  });
  const order = AgentTool.local(
    {
      name: 'take_order',
      description: 'Serves an item.',
      parameters: JsonSchema.obj({
        item: JsonSchema.enumOf(['ale', 'stew', 'bread']),
        quantity: JsonSchema.integer({ minimum: 1, maximum: 10 }),
      }),
    },
    (args: { item: string; quantity: number }) => {
      log.push(`take_order ${JSON.stringify(args)}`);
      return `Served ${args.quantity} ${args.item}.`;
    },
  );
  return { menu, order, log };
}

/** Fast retries so tests never wait for the real backoff. */
export const FAST: AgentConfigInput = { retry: { initialDelayMs: 1 } };

export function tavernAgent(
  steps: Array<ScriptStep | string>,
  config: AgentConfigInput = {},
  extra: { instructions?: string } = {},
) {
  const fixture = tavern();
  const model = new ScriptedLanguageModel(steps);
  const agent = new Agent(model, {
    instructions: extra.instructions ?? 'You are Mira, an innkeeper.',
    tools: [fixture.menu, fixture.order],
    config: { ...FAST, ...config, retry: { ...FAST.retry, ...(config.retry ?? {}) } },
  });
  return { ...fixture, model, agent };
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function failure(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    return error as AgentError;
  }
  throw new Error('expected the promise to reject');
}

/** Collects every event of a run through its async iterable; a failure is returned, not thrown. */
export async function collect(run: AgentRun): Promise<{ events: AgentEvent[]; error?: AgentError }> {
  const events: AgentEvent[] = [];
  try {
    for await (const event of run.events) events.push(event);
    return { events };
  } catch (error) {
    return { events, error: error as AgentError };
  }
}

/** Resolves once `predicate` holds, polling on timers (no wall-clock assertions). */
export async function until(predicate: () => boolean, what = 'condition', tries = 500): Promise<void> {
  for (let index = 0; index < tries; index++) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The reply as the caller saw it from text events: deltas since the last reset. */
export function shownText(events: AgentEvent[]): string {
  let text = '';
  for (const event of events) {
    if (event.type !== 'text') continue;
    text = event.isReset ? event.delta : text + event.delta;
  }
  return text;
}
