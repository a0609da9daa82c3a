/**
 * The JSON shape of one call inside a family's markup: `{"name": …, "arguments": {…}}` (Hermes,
 * Qwen), `{"name": …, "parameters": {…}}` (Llama 3.x), `{"tool_name": …, "parameters": …}`
 * (Command R), `{"function": {"name", "arguments"}}` (OpenAI), our `{"tool": …, "args": …}`.
 * Arguments written as a JSON string (`"arguments": "{\"a\": 1}"`, vLLM's Hermes test) are
 * parsed; arguments that are neither an object nor such a string make the call unreadable.
 */
import { isPlainObject } from '../json/extract';
import { parseLenient } from '../json/lenient';

const NAME_KEYS = ['name', 'tool_name', 'tool', 'function_name'];
const ARG_KEYS = ['arguments', 'parameters', 'args', 'input'];

export interface JsonCallShape {
  name: string;
  /** The arguments, when they were read. */
  args?: Record<string, unknown>;
  problem?: string;
  /** Whether the object had an arguments member (a bare `{"name": …}` may be words, not a call). */
  withArguments: boolean;
}

/** The call a JSON value describes; undefined when it names no function (not a call at all). */
export function readJsonCall(value: unknown): JsonCallShape | undefined {
  if (!isPlainObject(value)) return undefined;
  let source: Record<string, unknown> = value;
  if (isPlainObject(value.function)) source = value.function;
  const nameKey = NAME_KEYS.find((key) => typeof source[key] === 'string' && (source[key] as string).trim() !== '');
  if (nameKey === undefined) return undefined;
  const name = (source[nameKey] as string).trim();
  const argKey = ARG_KEYS.find((key) => key in source);
  if (argKey === undefined) return { name, args: {}, withArguments: false };
  const raw = source[argKey];
  if (raw === null || raw === undefined) return { name, args: {}, withArguments: true };
  if (isPlainObject(raw)) return { name, args: raw, withArguments: true };
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { name, args: {}, withArguments: true };
    const parsed = parseLenient(raw.trim());
    if (parsed.ok && isPlainObject(parsed.value)) return { name, args: parsed.value, withArguments: true };
  }
  return { name, problem: 'its arguments were not a JSON object', withArguments: true };
}
