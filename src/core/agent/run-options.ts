/**
 * What a turn is asked with: the agent's setup it keeps, the options of a run and of each of its
 * tries, and the checks made on them before anything is queued (bad input fails the run with
 * invalid_request before any model call).
 */
import { AgentError } from '../../contract/errors';
import type { SignalLike } from '../../contract/abort';
import type { LanguageModel } from '../../contract/language-model';
import { checkImages, checkImagesAccepted, type ImageInput } from '../../contract/image-input';
import { AgentTool, checkToolSet } from '../tools';
import { JsonSchema } from '../schema';
import { resolveConfig, validateToolChoice, type AgentConfig, type AgentConfigInput, type ToolChoice } from './config';
import type { AgentResponse, ToolRecord } from './events';
import { resolveTurnTools } from './turn-setup';
import type { ExternalToolHandler } from './tool-runner';

/**
 * Everything a turn runs with besides its prompt. Built whole and checked by `createAgentSetup`,
 * never changed: a turn keeps the setup it was asked with, whatever is set after.
 */
export interface AgentSetup {
  readonly instructions: string;
  readonly tools: readonly AgentTool[];
  readonly config: AgentConfig;
}

/** One try of a turn. The first is the run's own options; `RunOptions.retry` gives the others. */
export interface TurnAttempt {
  /** Structured turn: the reply is JSON valid against this schema, keys in schema order. */
  schema?: JsonSchema | Record<string, unknown>;
  /**
   * A check beyond the schema (a decision's id among its options): a problem it names is
   * repaired like a schema violation. The schema, not this, is what the stable prefix describes.
   */
  refine?: (value: unknown) => string | undefined;
  toolChoice?: ToolChoice;
  enabledTools?: string[];
  /** A note for this try only; a function is read when the try starts (what is true by then). */
  context?: string | (() => string);
  /**
   * Checks the finished response before it is committed; throwing rejects the try, which then
   * fails with that error (and may be retried) and leaves no trace in the history.
   */
  accept?: (response: AgentResponse) => void;
}

/** Why a try of a turn failed, for `retry` and `fallback`. */
export interface TurnFailure {
  error: AgentError;
  /** 0 for the first try. */
  attempt: number;
  /** Every tool call of the turn so far (their side effects happened). */
  toolCalls: ToolRecord[];
}

export interface RunOptions extends TurnAttempt {
  signal?: SignalLike;
  /**
   * Pictures that go with the prompt (the player's drawn badge): sent with every model call of
   * this turn, each tries included, to a model whose capabilities say `imageInput`; refused
   * before any model call otherwise. Later turns see the words of this turn, not the pictures.
   */
  images?: ImageInput[];
  externalTools?: ExternalToolHandler;
  /**
   * Asked when a try fails (never when the turn was cancelled): the next try of the same turn,
   * in the same queue slot and event stream, or undefined to stop. An NPC retries as plain text.
   */
  retry?: (failure: TurnFailure) => TurnAttempt | undefined;
  /**
   * Asked when the last try failed: an answer to give instead (an authored line), kept out of the
   * history, or undefined to fail the turn with the error.
   */
  fallback?: (failure: TurnFailure) => { text: string; structured?: unknown } | undefined;
  /** Called when the turn starts (after the turns queued before it). */
  onStart?: () => void;
  /** Called at the commit point, with the response now in the history. */
  onCommit?: (response: AgentResponse) => void;
}

/** A checked setup: the tools as a set (unique names, none reserved), the settings over the defaults. */
export function createAgentSetup(
  input: { instructions?: string; tools?: readonly AgentTool[]; config?: AgentConfigInput } = {},
): AgentSetup {
  const tools = (input.tools ?? []).slice();
  checkToolSet(tools);
  return Object.freeze({
    instructions: input.instructions ?? '',
    tools: Object.freeze(tools),
    config: resolveConfig(input.config),
  });
}

/** A try's options checked against the setup, before any model call. */
export interface PreparedAttempt {
  schema?: JsonSchema;
  refine?: (value: unknown) => string | undefined;
  choice: ToolChoice;
  enabledTools?: string[];
  context?: string | (() => string);
  accept?: (response: AgentResponse) => void;
}

export function prepareAttempt(attempt: TurnAttempt, setup: AgentSetup): PreparedAttempt {
  if (attempt.context !== undefined && typeof attempt.context !== 'string' && typeof attempt.context !== 'function') {
    throw new AgentError('invalid_request', 'The context option must be a string (a note for this turn).');
  }
  if (attempt.accept !== undefined && typeof attempt.accept !== 'function')
    throw new AgentError('invalid_request', 'The accept option must be a function.');
  if (
    attempt.enabledTools !== undefined &&
    (!Array.isArray(attempt.enabledTools) || attempt.enabledTools.some((name) => typeof name !== 'string'))
  ) {
    throw new AgentError('invalid_request', 'enabledTools must be a list of tool names.');
  }
  const choice =
    attempt.toolChoice !== undefined ? validateToolChoice(attempt.toolChoice) : setup.config.toolPolicy.choice;
  let schema: JsonSchema | undefined;
  if (attempt.schema !== undefined)
    schema = attempt.schema instanceof JsonSchema ? attempt.schema : JsonSchema.from(attempt.schema);
  resolveTurnTools(setup.tools, choice, attempt.enabledTools ?? setup.config.toolPolicy.enabledTools);
  return {
    schema,
    refine: attempt.refine,
    choice,
    enabledTools: attempt.enabledTools,
    context: attempt.context,
    accept: attempt.accept,
  };
}

const HOOKS = ['retry', 'fallback', 'onStart', 'onCommit'] as const;

/** A run's whole input checked (its first try prepared): throws invalid_request. */
export function prepareRun(
  prompt: unknown,
  options: RunOptions,
  against: { setup: AgentSetup; model: LanguageModel },
): PreparedAttempt {
  if (typeof prompt !== 'string') throw new AgentError('invalid_request', 'The prompt must be a string.');
  for (const hook of HOOKS) {
    if (options[hook] !== undefined && typeof options[hook] !== 'function')
      throw new AgentError('invalid_request', `The ${hook} option must be a function.`);
  }
  const first = prepareAttempt(options, against.setup);
  checkImages(options.images, 'images');
  checkImagesAccepted(options.images, against.model.capabilities);
  return first;
}
