/**
 * What a turn is asked with (its input, the agent's setup) and the checks made on it before any
 * model call: the tool settings, and what the turn's stable prefix depends on.
 */
import { AgentError } from '../../contract/errors';
import type { AgentTool } from '../tools';
import type { JsonSchema } from '../schema';
import type { TokenCounter } from '../prompt/token-counter';
import type { PrefixCache } from '../prompt/prefix-cache';
import type { PrefixInput } from '../prompt/stable-prefix';
import type { TranscriptEntry } from '../transcript';
import type { AgentConfig, ToolChoice } from './config';

export interface TurnInput {
  prompt: string;
  schema?: JsonSchema;
  /** A check beyond the schema; the problem it names is repaired like a schema violation. */
  refine?: (value: unknown) => string | undefined;
  choice: ToolChoice;
  enabledTools?: string[];
  /** A note for this turn only (the situation, the world right now). */
  context?: string;
}

export interface TurnSetup {
  instructions: string;
  contextNote: string;
  tools: readonly AgentTool[];
  history: readonly TranscriptEntry[];
  counter: TokenCounter;
  prefixes: PrefixCache;
}

/** Checks the turn's tool settings before any model call; throws invalid_request. */
export function resolveTurnTools(
  tools: readonly AgentTool[],
  choice: ToolChoice,
  enabledNames?: readonly string[],
): { enabled: AgentTool[]; forced?: AgentTool } {
  let enabled = tools.slice();
  if (enabledNames) {
    for (const name of enabledNames) {
      if (!tools.some((tool) => tool.name === name)) {
        throw new AgentError(
          'invalid_request',
          `enabledTools names "${name}", which is not one of this agent's tools (${tools.map((tool) => tool.name).join(', ') || 'none'}).`,
        );
      }
    }
    enabled = tools.filter((tool) => enabledNames.indexOf(tool.name) >= 0);
  }
  let forced: AgentTool | undefined;
  if (typeof choice === 'object') {
    forced = tools.find((tool) => tool.name === choice.tool);
    if (!forced) {
      throw new AgentError(
        'invalid_request',
        `toolChoice names "${choice.tool}", which is not one of this agent's tools (${tools.map((tool) => tool.name).join(', ') || 'none'}).`,
      );
    }
  }
  return { enabled, forced };
}

/** What the stable prefix of a turn depends on. */
export function prefixInput(
  setup: Pick<TurnSetup, 'instructions' | 'tools'>,
  config: AgentConfig,
  schema: JsonSchema | undefined,
): PrefixInput {
  return {
    instructions: setup.instructions,
    tools: setup.tools,
    labels: config.labels,
    inlineReplies: config.inlineReplies,
    lineFirst: config.lineFirst,
    replyLineField: config.replyLineField,
    replySchema: schema,
  };
}
