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
    (a: { item: string; quantity: number }) => {
      log.push(`take_order ${JSON.stringify(a)}`);
      return `Served ${a.quantity} ${a.item}.`;
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
  const t = tavern();
  const model = new ScriptedLanguageModel(steps);
  const agent = new Agent(model, {
    instructions: extra.instructions ?? 'You are Mira, an innkeeper.',
    tools: [t.menu, t.order],
    config: { ...FAST, ...config, retry: { ...FAST.retry, ...(config.retry ?? {}) } },
  });
  return { ...t, model, agent };
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function failure(p: Promise<unknown>): Promise<AgentError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AgentError);
    return e as AgentError;
  }
  throw new Error('expected the promise to reject');
}

/** Collects every event of a run through its async iterable; a failure is returned, not thrown. */
export async function collect(run: AgentRun): Promise<{ events: AgentEvent[]; error?: AgentError }> {
  const events: AgentEvent[] = [];
  try {
    for await (const e of run.events) events.push(e);
    return { events };
  } catch (e) {
    return { events, error: e as AgentError };
  }
}

/** Resolves once `predicate` holds, polling on timers (no wall-clock assertions). */
export async function until(predicate: () => boolean, what = 'condition', tries = 500): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (predicate()) return;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The reply as the caller saw it from text events: deltas since the last reset. */
export function shownText(events: AgentEvent[]): string {
  let text = '';
  for (const e of events) {
    if (e.type !== 'text') continue;
    text = e.isReset ? e.delta : text + e.delta;
  }
  return text;
}
