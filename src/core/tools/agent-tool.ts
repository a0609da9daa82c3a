/**
 * A game action the model may call. `local` tools run a handler in the game; `external` tools
 * are answered later by the host (a Cocos node event, the preview panel) through the run.
 */
import { AgentError } from '../../contract/errors';
import type { SignalLike } from '../../contract/abort';
import { JsonSchema } from '../schema';
import type { ToolOutput } from './tool-output';
import type { ToolApproval } from './tool-approval';
import type { ToolCall } from './tool-call';

export type { ToolCall } from './tool-call';

export interface ToolContext {
  call: ToolCall;
  /** Aborts when the turn is cancelled or the tool times out. */
  signal: SignalLike;
}

/** A handler may return a string (text), a ToolOutput, or any JSON value; throwing gives an error output. */
export type ToolHandler<A = Record<string, unknown>> = (args: A, context: ToolContext) => unknown | Promise<unknown>;

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments: a JsonSchema or a plain schema object. Omitted → no parameters. */
  parameters?: JsonSchema | Record<string, unknown>;
  /** Local tools: how long the handler may run (default: the agent's toolTimeoutMs). External tools: how long to wait for the host (default: the agent's externalToolTimeoutMs). */
  timeoutMs?: number;
  /**
   * True when the reply does not need the tool's result (remembering a fact, playing an
   * animation, setting a quest flag): in the default line-first mode the model may call it after
   * its words in the same step, so the player's line streams first, the game applies the effect
   * when the step ends, and the turn saves a model call. If the call fails, the failure is in the
   * turn's tool calls and the transcript, so the next turn's prompt shows what really happened.
   */
  sideEffect?: boolean;
  /**
   * For a lookup: what it would return right now, read without arguments. An engine may place
   * it in the prompt instead of spending a model call on the lookup (a decision does, when it
   * is small). Undefined: nothing to say in advance.
   */
  snapshot?: () => unknown;
  /**
   * Looks at each call the model chose before it runs: allow it, change its arguments, or refuse
   * it with a reason the model reads (tool-approval.ts). Runs before the agent's approveToolCall.
   */
  approve?: ToolApproval;
}

/** Names the model uses for "no tool": a tool may not take them. */
export const RESERVED_TOOL_NAMES: readonly string[] = ['respond', 'respond_directly', 'reply'];

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

export class AgentTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly timeoutMs?: number;
  readonly execution: 'local' | 'external';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any tool's handler, whatever its argument type (ToolHandler<unknown> would refuse typed handlers)
  readonly handler?: ToolHandler<any>;
  readonly sideEffect: boolean;
  readonly snapshot?: () => unknown;
  readonly approve?: ToolApproval;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as for `handler` above
  private constructor(definition: ToolDefinition, execution: 'local' | 'external', handler?: ToolHandler<any>) {
    checkToolName(definition.name);
    if (typeof definition.description !== 'string') {
      throw new AgentError('invalid_request', `Tool "${definition.name}" needs a description (a string).`);
    }
    if (definition.timeoutMs !== undefined && !(definition.timeoutMs > 0)) {
      throw new AgentError(
        'invalid_request',
        `Tool "${definition.name}": timeoutMs must be a positive number of milliseconds.`,
      );
    }
    this.name = definition.name;
    this.description = definition.description.trim();
    this.parameters = toSchema(definition.parameters, definition.name);
    if (definition.timeoutMs !== undefined) this.timeoutMs = definition.timeoutMs;
    if (definition.sideEffect !== undefined && typeof definition.sideEffect !== 'boolean') {
      throw new AgentError('invalid_request', `Tool "${definition.name}": sideEffect must be true or false.`);
    }
    this.sideEffect = definition.sideEffect === true;
    if (definition.snapshot !== undefined && typeof definition.snapshot !== 'function') {
      throw new AgentError('invalid_request', `Tool "${definition.name}": snapshot must be a function.`);
    }
    if (definition.snapshot) this.snapshot = definition.snapshot;
    if (definition.approve !== undefined && typeof definition.approve !== 'function') {
      throw new AgentError('invalid_request', `Tool "${definition.name}": approve must be a function.`);
    }
    if (definition.approve) this.approve = definition.approve;
    this.execution = execution;
    if (handler) this.handler = handler;
  }

  static local<A = Record<string, unknown>>(definition: ToolDefinition, handler: ToolHandler<A>): AgentTool {
    if (typeof handler !== 'function') {
      throw new AgentError('invalid_request', `Tool "${definition.name}": a local tool needs a handler function.`);
    }
    return new AgentTool(definition, 'local', handler);
  }

  static external(definition: ToolDefinition): AgentTool {
    return new AgentTool(definition, 'external');
  }

  /** True when the tool takes no arguments, so a forced call needs no model step. */
  get isParameterless(): boolean {
    return this.parameters.isEmptyObject();
  }

  /** A plain, serialisable description (for transcripts, previews and the bridge). */
  toJSON(): {
    name: string;
    description: string;
    parameters: Record<string, unknown>;
    execution: 'local' | 'external';
    sideEffect?: true;
  } {
    const plain = {
      name: this.name,
      description: this.description,
      parameters: this.parameters.json,
      execution: this.execution,
    };
    return this.sideEffect ? { ...plain, sideEffect: true } : plain;
  }
}

export function checkToolName(name: unknown): void {
  if (typeof name !== 'string' || name.length === 0) {
    throw new AgentError('invalid_request', 'A tool needs a non-empty name.');
  }
  if (name !== name.trim()) {
    throw new AgentError('invalid_request', `Tool name "${name}" has spaces around it; remove them.`);
  }
  if (!NAME_PATTERN.test(name)) {
    throw new AgentError(
      'invalid_request',
      `Tool name "${name}" must start with a letter or _ and use only letters, digits, _, . or - (at most 64).`,
    );
  }
  if (RESERVED_TOOL_NAMES.indexOf(name.toLowerCase()) >= 0) {
    throw new AgentError(
      'invalid_request',
      `Tool name "${name}" is reserved (${RESERVED_TOOL_NAMES.join(', ')}); pick another name.`,
    );
  }
}

/** Rejects duplicate names in one tool list. */
export function checkToolSet(tools: readonly AgentTool[]): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (!(tool instanceof AgentTool)) {
      throw new AgentError(
        'invalid_request',
        'Tools must be built with AgentTool.local(...) or AgentTool.external(...).',
      );
    }
    if (seen.has(tool.name)) {
      throw new AgentError('invalid_request', `Two tools are named "${tool.name}"; tool names must be unique.`);
    }
    seen.add(tool.name);
  }
}

function toSchema(parameters: ToolDefinition['parameters'], toolName: string): JsonSchema {
  if (parameters === undefined) return JsonSchema.empty();
  let schema: JsonSchema;
  try {
    schema = parameters instanceof JsonSchema ? parameters : JsonSchema.from(parameters);
  } catch (error) {
    const agentError = AgentError.from(error, 'invalid_schema');
    throw new AgentError('invalid_schema', `Tool "${toolName}": ${agentError.message}`, { cause: error });
  }
  const type = (schema.json as { type?: unknown }).type;
  if (type !== undefined && type !== 'object') {
    throw new AgentError(
      'invalid_schema',
      `Tool "${toolName}": parameters must be an object schema (got type ${JSON.stringify(type)}).`,
    );
  }
  return schema;
}

let counter = 0;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh call id. Math.random is enough: ids only need to be unique within a game session. */
export function newCallId(): string {
  counter = (counter + 1) % 1_000_000;
  let id = 'call_';
  for (let index = 0; index < 18; index++) id += ALPHABET[Math.floor(Math.random() * ALPHABET.length)];
  const tail = counter.toString(36).padStart(6, '0').slice(-6);
  return id + tail;
}

export type { ToolOutput };
