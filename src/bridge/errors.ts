/**
 * JSON-RPC error objects of protocol v1.0 (reference §3.5): `{code, message, data: {code, …}}`.
 * Hosts branch on `data.code`; the 12 agent codes keep their numbers (−32001…−32012) through
 * `rpcCodeOf`, and the bridge's own codes sit beside them.
 */
import { AgentError, rpcCodeOf } from '../contract/errors';

/** The bridge's own error names and numbers (the agent's 12 come from rpcCodeOf). */
export const BRIDGE_CODES = {
  parse_error: -32700,
  invalid_message: -32600,
  method_not_found: -32601,
  invalid_params: -32602,
  internal_error: -32603,
  session_not_found: -32020,
  session_exists: -32021,
  session_limit: -32022,
  shut_down: -32023,
  npc_not_found: -32050,
  npc_exists: -32051,
  world_not_found: -32052,
  world_exists: -32053,
  world_error: -32054,
  limit_reached: -32055,
  subscription_not_found: -32056,
} as const;

export type BridgeErrorName = keyof typeof BRIDGE_CODES;

export interface RpcErrorObject {
  code: number;
  message: string;
  data: { code: string; [key: string]: unknown };
}

/** An error the bridge itself raises, with its wire name and any extra `data` members. */
export class BridgeError extends Error {
  readonly rpcCode: number;
  readonly dataCode: string;
  readonly data: Record<string, unknown>;

  constructor(name: BridgeErrorName, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = 'BridgeError';
    this.rpcCode = BRIDGE_CODES[name];
    this.dataCode = name;
    this.data = data;
    Object.setPrototypeOf(this, BridgeError.prototype);
  }
}

export function invalidParams(message: string, data: Record<string, unknown> = {}): BridgeError {
  return new BridgeError('invalid_params', message, data);
}

/**
 * Runs a parameter check: an agent's `invalid_request` raised while reading params is the
 * client's bad params (−32602), not a turn the agent rejected (−32011); schemas keep −32007.
 */
export function readingParams<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof AgentError && error.code === 'invalid_request') throw invalidParams(error.message);
    throw error;
  }
}

/** The param a malformed schema came in, for data.path (the seed's: "schema", "tools[0].parameters"). */
const schemaParams = new WeakMap<object, string>();

/** Notes that an invalid_schema error is about the schema sent as `path` (the first note stays). */
export function markSchemaParam(error: unknown, path: string): unknown {
  if (error instanceof AgentError && error.code === 'invalid_schema' && !schemaParams.has(error))
    schemaParams.set(error, path);
  return error;
}

/** Reads a schema sent as `path`: an invalid_schema thrown by `read` names that param in data.path. */
export function atSchemaParam<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw markSchemaParam(error, path);
  }
}

/** The wire form of anything thrown while handling a request. */
export function toRpcError(error: unknown): RpcErrorObject {
  if (error instanceof BridgeError) {
    return { code: error.rpcCode, message: error.message, data: { code: error.dataCode, ...error.data } };
  }
  if (error instanceof SyntaxError) {
    return { code: BRIDGE_CODES.invalid_params, message: error.message, data: { code: 'invalid_params' } };
  }
  // Only what a backend reported is a model failure: anything else thrown (a bug, a stack
  // overflow, a throwing hook) is the host's own internal error, never generation_failed.
  if (!(error instanceof AgentError) || error.unexpected) {
    const cause = error instanceof AgentError && error.cause !== undefined ? error.cause : error;
    const message = cause instanceof Error ? cause.message || cause.name : String(cause);
    return {
      code: BRIDGE_CODES.internal_error,
      message: `Internal error: ${message.slice(0, 500)}`,
      data: { code: 'internal_error' },
    };
  }
  const agentError = error;
  // The error's details (a reason such as max_turns_exceeded, a limit) go along; `code` stays the wire name.
  const data: RpcErrorObject['data'] = { ...(agentError.details ?? {}), code: agentError.code };
  if (agentError.code === 'invalid_schema') {
    // data.path: the param that held the schema, when the bridge knows it; schemaPath: the keyword inside it.
    const location = schemaLocation(agentError.message);
    Object.assign(data, { path: schemaParams.get(agentError) ?? location.path, schemaPath: location.schemaPath });
  }
  if (agentError.retryAfterMs !== undefined) {
    const seconds = Math.max(0, Math.ceil(agentError.retryAfterMs / 1000));
    data.retryAfter = `PT${seconds}S`;
    data.retryAfterSeconds = seconds;
  }
  return { code: rpcCodeOf(agentError.code), message: agentError.message, data };
}

/**
 * Where a schema is malformed, from the core's message (`$.properties.qty.type: …`): `path` as
 * the core writes it, `schemaPath` as a JSON pointer at the keyword (`#/properties/qty/type`).
 */
export function schemaLocation(message: string): { path: string; schemaPath: string } {
  const match = /^(\$\S*?):(?:\s|$)/.exec(message);
  const path = match ? match[1] : '$';
  const segments: string[] = [];
  const pattern = /\.([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g;
  let part: RegExpExecArray | null;
  while ((part = pattern.exec(path.slice(1))) !== null) {
    const segment = part[1] ?? part[2] ?? JSON.parse(`"${part[3]}"`);
    segments.push(String(segment).replace(/~/g, '~0').replace(/\//g, '~1'));
  }
  return { path, schemaPath: `#${segments.map((segment) => `/${segment}`).join('')}` };
}
