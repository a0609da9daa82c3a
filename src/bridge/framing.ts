/**
 * One message per line (reference §3.1): reads a line into a request, a notification or a
 * reply to a `tool/call`, and refuses what is not JSON-RPC 2.0 (parse errors, batches, bad ids)
 * with the error to send back under a null id.
 */
import { BRIDGE_CODES, type RpcErrorObject } from './errors';
import { MAX_LINE_BYTES } from './line-splitter';
import { valueProblem } from './value-limits';

export type RequestId = string | number;

/** The largest id magnitude JSON numbers carry exactly: 2^53 − 1. */
const MAX_NUMERIC_ID = 9007199254740991;

export type Incoming =
  | { kind: 'blank' }
  /** `id`: the message's own id when it could be read (a good one), which the answer then echoes, as the seed does. */
  | { kind: 'invalid'; error: RpcErrorObject; id?: RequestId }
  /** `problem`: the params break the value limits (too deep, a non-finite number): answer −32602 without reading them. */
  | { kind: 'request'; id: RequestId; method: string; params: unknown; problem?: string }
  | { kind: 'notification'; method: string; params: unknown; problem?: string }
  | { kind: 'reply'; id: RequestId; result?: unknown; error?: unknown; problem?: string };

function invalid(code: 'parse_error' | 'invalid_message', message: string, id?: RequestId): Incoming {
  const error: Incoming = { kind: 'invalid', error: { code: BRIDGE_CODES[code], message, data: { code } } };
  if (id !== undefined) error.id = id;
  return error;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why an id cannot be used, or undefined when it is a good one. */
function idProblem(id: unknown): string | undefined {
  if (id === null) return 'The id must not be null (send a request without an id for a notification).';
  if (typeof id === 'string') return undefined;
  if (typeof id === 'number') {
    if (!isFinite(id) || Math.abs(id) > MAX_NUMERIC_ID)
      return `A numeric id must be at most 2^53-1 in magnitude; got ${id}. Use a string id for larger values.`;
    return undefined;
  }
  return `The id must be a string or a number; got ${Array.isArray(id) ? 'an array' : typeof id}.`;
}

export function parseLine(line: string): Incoming {
  // A UTF-8 line is never shorter in bytes than in UTF-16 units: this bound is the stdio one's.
  if (line.length > MAX_LINE_BYTES)
    return invalid('invalid_message', `A line may be at most ${MAX_LINE_BYTES} bytes; got ${line.length} characters.`);
  if (line.trim() === '') return { kind: 'blank' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return invalid('parse_error', `Not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (Array.isArray(value)) return invalid('invalid_message', 'Batches are not supported: send one message per line.');
  if (!isObject(value)) return invalid('invalid_message', 'A message must be a JSON object.');
  const hasId = Object.prototype.hasOwnProperty.call(value, 'id');
  const idIssue = hasId ? idProblem(value.id) : undefined;
  if (idIssue) return invalid('invalid_message', idIssue);
  const known = hasId ? (value.id as RequestId) : undefined;
  if (value.jsonrpc !== '2.0') return invalid('invalid_message', 'A message needs "jsonrpc": "2.0".', known);
  if (typeof value.method === 'string') {
    if (value.method === '') return invalid('invalid_message', 'The method must not be empty.', known);
    const problem = valueProblem(value.params, 'params');
    return hasId
      ? { kind: 'request', id: value.id as RequestId, method: value.method, params: value.params, problem }
      : { kind: 'notification', method: value.method, params: value.params, problem };
  }
  if (value.method !== undefined) return invalid('invalid_message', 'The method must be a string.', known);
  const isReply = hasId && ('result' in value || 'error' in value);
  if (isReply) {
    const problem = valueProblem(value.result, 'result') ?? valueProblem(value.error, 'error');
    return { kind: 'reply', id: value.id as RequestId, result: value.result, error: value.error, problem };
  }
  return invalid(
    'invalid_message',
    'A message needs a method (a request or notification) or a result or error (a reply).',
    known,
  );
}

export function resultLine(id: RequestId, result: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

export function errorLine(id: RequestId | null, error: RpcErrorObject): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error });
}

export function notificationLine(method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', method, params });
}

export function requestLine(id: RequestId, method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}
