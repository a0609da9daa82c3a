/**
 * How schema analysis names what is wrong: an `invalid_schema` error at a path like
 * `$.properties.mood.enum`, quoting the offending value briefly.
 */
import { AgentError } from '../../contract/errors';
import { appendKey } from './schema-node';

/** Keywords read `$.x-order`, `$.$ref`; odd ones are quoted like property names. */
export function appendKeyword(path: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key) ? `${path}.${key}` : appendKey(path, key);
}

export function invalid(path: string, reason: string): AgentError {
  return new AgentError('invalid_schema', `${path}: ${reason}`);
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 30 ? value.slice(0, 30) + '…' : value);
  return String(value);
}
