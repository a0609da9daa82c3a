/**
 * Reads the one JSON object a model writes for a "decide" step. Our short form is
 * `{"tool": "take_order", "args": {…}}` or `{"reply": "…" | {…}}`; the seed's form
 * `{"action": "take_order" | "respond", "arguments": {…}}` and the many shapes small models
 * drift into (wrappers, OpenAI function calls, synonyms, bare words, sloppy or truncated
 * JSON) are read too. It never throws.
 */
import { compactJson, extractJson, isPlainObject } from '../json/extract';
import { findBalancedEnd } from '../json/scan';
import { parseLenient } from '../json/lenient';
import { inlineReplyOf } from './inline-reply';
import { ACTION_KEYS, ARGUMENT_KEYS, ARGUMENT_KEY_SET, META_KEYS, WRAPPER_KEYS } from './keys';
import { cleanName, compactName, isRespondWord, resolveAction, ResolvedAction } from './names';
import { stripReasoning } from '../calls/reasoning';
import { readFamilyCall } from './family-call';
import type { EnvelopeContext, EnvelopeParse } from './envelope-parse';

export type { EnvelopeContext, EnvelopeParse } from './envelope-parse';

/** Longest answer still read as a bare action word (`check_menu`, `respond.`). */
const MAX_BARE_WORD = 64;
const MAX_UNWRAP = 3;

export const PROBLEM_NOT_JSON = 'the answer was not a JSON object';
export const PROBLEM_NO_ACTION = 'the JSON object names no tool and no reply';
export const PROBLEM_REPLY_NOT_ALLOWED = '"reply" is not allowed now; you must call one of the tools';

export function parseEnvelope(text: string, ctx: EnvelopeContext): EnvelopeParse {
  // Reasoning is not the answer: JSON inside <think>…</think> is never read as one.
  const source = stripReasoning(typeof text === 'string' ? text : String(text));
  // Calls in a model family's own syntax (Gemma 4, FunctionGemma, Gemma 3 lists, Hermes tags,
  // Llama's <function=…>), before JSON: `[take_order(item="ale")]` would otherwise read as a list.
  const written = readFamilyCall(source, ctx);
  if (written) return written;
  const extracted = extractJson(source);
  const envelope = extracted ? firstObject(extracted.value) : undefined;
  if (!envelope || !extracted) return readBareWord(source, ctx) ?? { kind: 'invalid', problem: PROBLEM_NOT_JSON };
  const parsed = interpret(envelope, ctx);
  // Cut off before its arguments closed, a call's arguments are a guess: never run, repaired.
  if (parsed.kind === 'call' && !extracted.complete && !argumentsClosed(source.slice(extracted.start)))
    return { kind: 'invalid', problem: PROBLEM_CUT_OFF, tool: parsed.tool };
  if (parsed.kind === 'invalid' && parsed.problem === PROBLEM_NO_ACTION && parsed.tool === undefined) {
    // `take_order {"item": "ale"}`: the tool named just before the JSON, arguments inside it.
    const before = source
      .slice(0, extracted.start)
      .replace(/```[A-Za-z]*/g, '')
      .trim();
    const tool = before.length <= MAX_BARE_WORD ? resolveAction(before, ctx.toolNames) : undefined;
    if (tool && tool.kind === 'tool') return { kind: 'call', tool: tool.tool, argCandidates: [envelope] };
  }
  return parsed;
}

/**
 * For a step that asks only for one tool's arguments: the object itself, then the arguments
 * of an envelope wrapped around them, then any argument-key member. Empty when there is no
 * JSON object at all.
 */
export function argumentCandidates(text: string, toolName: string): unknown[] {
  const extracted = extractJson(typeof text === 'string' ? text : String(text));
  const root = extracted ? firstObject(extracted.value) : undefined;
  if (!root) return [];
  const candidates: unknown[] = [root];
  const envelope = interpret(root, { toolNames: [toolName], allowRespond: false });
  if (envelope.kind === 'call') candidates.push(...envelope.argCandidates);
  for (const key of Object.keys(root)) {
    if (ARGUMENT_KEY_SET.has(compactName(key))) candidates.push(readArguments(root[key]));
  }
  return dedupe(candidates);
}

function interpret(start: Record<string, unknown>, ctx: EnvelopeContext): EnvelopeParse {
  const envelope = unwrap(start, ctx.toolNames);
  const action = findAction(envelope, ctx.toolNames);
  if (action) {
    if (action.resolved.kind === 'tool') return call(action.resolved.tool, argumentsNextTo(envelope, action));
    if (action.resolved.kind === 'respond') return respond(ctx, inlineReplyOf(envelope));
    return { kind: 'invalid', problem: notAvailable(action.resolved.name, ctx) };
  }
  const keys = Object.keys(envelope).filter((key) => !META_KEYS.has(compactName(key)));
  if (keys.length === 1) {
    // `{"take_order": {…}}` or `{"respond": "Welcome!"}`
    const only = resolveAction(keys[0], ctx.toolNames);
    const value = envelope[keys[0]];
    if (only.kind === 'tool') return call(only.tool, [readArguments(value)]);
    if (only.kind === 'respond') return respond(ctx, replyValue(value));
  }
  const reply = inlineReplyOf(envelope);
  if (reply !== undefined) return respond(ctx, reply);
  for (const key of keys) {
    if (isRespondWord(key) && replyValue(envelope[key]) !== undefined) return respond(ctx, replyValue(envelope[key]));
  }
  return { kind: 'invalid', problem: PROBLEM_NO_ACTION };
}

/** Single-key wrappers (`{"tool_call": {…}}`, `{"tool_calls": [{…}]}`) around the envelope. */
function unwrap(envelope: Record<string, unknown>, toolNames: readonly string[]): Record<string, unknown> {
  let current = envelope;
  for (let level = 0; level < MAX_UNWRAP; level++) {
    const keys = Object.keys(current);
    if (keys.length !== 1 || !WRAPPER_KEYS.has(compactName(keys[0])) || toolNames.indexOf(keys[0]) >= 0) break;
    const inner = firstObject(current[keys[0]]);
    if (!inner) break;
    current = inner;
  }
  return current;
}

interface FoundAction {
  key: string;
  resolved: ResolvedAction;
  /** `arguments` inside an object-valued action (OpenAI `{"function": {"name", "arguments"}}`). */
  nested?: unknown;
}

/** The first action key naming a known action; else the first action key naming anything. */
function findAction(envelope: Record<string, unknown>, toolNames: readonly string[]): FoundAction | undefined {
  let firstUnknown: FoundAction | undefined;
  const keys = Object.keys(envelope);
  for (const actionKey of ACTION_KEYS) {
    for (const key of keys) {
      if (compactName(key) !== actionKey) continue;
      const value = envelope[key];
      let name: unknown = value;
      let nested: unknown;
      if (isPlainObject(value)) {
        name = value.name ?? value.tool ?? value.function_name ?? value.functionName;
        const argKey = Object.keys(value).find((candidate) => ARGUMENT_KEY_SET.has(compactName(candidate)));
        if (argKey !== undefined) nested = value[argKey];
      }
      if (typeof name !== 'string' || cleanName(name) === '') continue;
      const found: FoundAction = { key, resolved: resolveAction(name, toolNames), nested };
      if (found.resolved.kind !== 'unknown') return found;
      firstUnknown = firstUnknown ?? found;
    }
  }
  return firstUnknown;
}

/** Candidates in order: nested function arguments, explicit argument keys, sibling keys. */
function argumentsNextTo(envelope: Record<string, unknown>, action: FoundAction): unknown[] {
  const candidates: unknown[] = [];
  if (action.nested !== undefined) candidates.push(readArguments(action.nested));
  const keys = Object.keys(envelope);
  for (const argKey of ARGUMENT_KEYS) {
    for (const key of keys) if (compactName(key) === argKey) candidates.push(readArguments(envelope[key]));
  }
  const siblings: Record<string, unknown> = {};
  let hasSiblings = false;
  for (const key of keys) {
    const name = compactName(key);
    if (key === action.key || ARGUMENT_KEY_SET.has(name) || META_KEYS.has(name)) continue;
    Object.defineProperty(siblings, key, {
      value: envelope[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
    hasSiblings = true;
  }
  if (hasSiblings) candidates.push(siblings);
  return candidates;
}

/** An argument value as written: JSON text is parsed; blank text, null or undefined mean {}. */
function readArguments(value: unknown): unknown {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (trimmed === '') return {};
  const parsed = parseLenient(trimmed);
  if (parsed.ok) return parsed.value === null ? {} : parsed.value;
  const extracted = extractJson(trimmed);
  return extracted ? extracted.value : value;
}

function call(tool: string, argCandidates: unknown[]): EnvelopeParse {
  if (argCandidates.length > 0 && !argCandidates.some(isPlainObject)) {
    return { kind: 'invalid', problem: 'the arguments for ' + tool + ' must be a JSON object', tool };
  }
  return { kind: 'call', tool, argCandidates: dedupe(argCandidates) };
}

function respond(ctx: EnvelopeContext, reply: unknown): EnvelopeParse {
  if (!ctx.allowRespond) return { kind: 'invalid', problem: PROBLEM_REPLY_NOT_ALLOWED };
  return reply === undefined ? { kind: 'respond' } : { kind: 'respond', reply };
}

function replyValue(value: unknown): unknown {
  return typeof value === 'string' || isPlainObject(value) ? value : undefined;
}

function notAvailable(name: string, ctx: EnvelopeContext): string {
  const shown = name.length > 60 ? name.slice(0, 60) + '…' : name;
  const options = ctx.toolNames.slice();
  if (ctx.allowRespond) options.push('reply');
  return shown + ' is not an available tool; use one of: ' + listWords(options);
}

/** `a`, `a or b`, `a, b, or c`. */
function listWords(words: string[]): string {
  if (words.length === 0) return 'nothing';
  if (words.length === 1) return words[0];
  if (words.length === 2) return words[0] + ' or ' + words[1];
  return words.slice(0, -1).join(', ') + ', or ' + words[words.length - 1];
}

export const PROBLEM_CUT_OFF = 'the call was cut off before its arguments ended';

/** Whether a cut-off envelope's arguments member was written whole (`"args": {…}` closed, or a closed string). */
function argumentsClosed(json: string): boolean {
  const key = /"(?:args|arguments|parameters|input|params)"\s*:\s*/.exec(json);
  if (!key) return false;
  const at = key.index + key[0].length;
  if (json[at] === '{') return findBalancedEnd(json, at) >= 0;
  if (json[at] === '"') return /^"(?:[^"\\]|\\.)*"/.test(json.slice(at));
  return false;
}

/** A bare action word instead of JSON: `check_menu`, `` `check_menu()` ``, `respond.` */
function readBareWord(text: string, ctx: EnvelopeContext): EnvelopeParse | undefined {
  const word = text.replace(/```[A-Za-z]*/g, '').trim();
  if (word === '' || word.length > MAX_BARE_WORD || /[\r\n]/.test(word)) return undefined;
  // `[book_crossing` or `take_order(` was cut off: what it would have carried is unknown.
  if (/^[[(]/.test(word) || (word.indexOf('(') >= 0 && !/\)\W*$/.test(word))) return undefined;
  const resolved = resolveAction(word, ctx.toolNames);
  if (resolved.kind === 'tool') return { kind: 'call', tool: resolved.tool, argCandidates: [] };
  if (resolved.kind === 'respond') return respond(ctx, undefined);
  return undefined;
}

function firstObject(value: unknown): Record<string, unknown> | undefined {
  if (isPlainObject(value)) return value;
  if (Array.isArray(value)) {
    for (const item of value) if (isPlainObject(item)) return item;
  }
  return undefined;
}

function dedupe(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const value of values) {
    const key = compactJson(value);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(value);
  }
  return out;
}
