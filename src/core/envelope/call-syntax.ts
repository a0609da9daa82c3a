/**
 * Tool calls in the syntaxes Gemini Nano's own family is trained and documented to write, and
 * reasoning that must not be read as the answer:
 * - Gemma 3 (Google's function-calling guide): `[take_order(item="ale", quantity=2)]`, also
 *   bare, inside a code fence (```tool_code / ```python) or as `print(take_order(...))`;
 * - FunctionGemma: `<start_function_call>call:take_order{item:<escape>ale<escape>,quantity:2}<end_function_call>`;
 * - thinking models: `<think>…</think>` (also `<thinking>`, `<thought>`, `<reasoning>`) before
 *   the answer; JSON inside it is the model thinking, not answering. An unclosed block hides
 *   everything after it (the answer has not started).
 */
import { parseLenient } from '../json/lenient';
import { setOwnKey } from '../json/own-key';
import { resolveToolName } from './names';

const REASONING = /<(think|thinking|thought|reasoning)>/i;

/** `text` without its reasoning blocks (linear: each block is found with indexOf). */
export function stripReasoning(text: string): string {
  if (text.indexOf('<') < 0) return text;
  let out = '';
  let rest = text;
  for (;;) {
    const open = REASONING.exec(rest);
    if (!open) return out + rest;
    out += rest.slice(0, open.index);
    const closeTag = `</${open[1]}>`;
    const close = rest.toLowerCase().indexOf(closeTag.toLowerCase(), open.index + open[0].length);
    if (close < 0) return out; // still thinking: no answer yet
    rest = rest.slice(close + closeTag.length);
  }
}

export interface SyntaxCall {
  tool: string;
  args: Record<string, unknown>;
}

const FENCE = /^```[A-Za-z_]*\s*|\s*```$/g;
const MAX_CALL_CHARS = 20_000;

/** A call written in one of the family's syntaxes to a tool of `toolNames`, or undefined. */
export function readCallSyntax(text: string, toolNames: readonly string[]): SyntaxCall | undefined {
  if (text.length > MAX_CALL_CHARS) return undefined;
  const functionGemma =
    /<start_function_call>\s*call:\s*([A-Za-z_][\w.-]*)\s*\{([\s\S]*?)\}\s*(?:<end_function_call>|$)/.exec(text);
  if (functionGemma) {
    const tool = resolveToolName(functionGemma[1], toolNames);
    const args = tool ? readFunctionGemmaArgs(functionGemma[2]) : undefined;
    return tool && args ? { tool, args } : undefined;
  }
  let body = text.trim().replace(FENCE, '').trim();
  const printed = /^print\(([\s\S]*)\)$/.exec(body);
  if (printed) body = printed[1].trim();
  if (body.startsWith('[') && body.endsWith(']')) body = body.slice(1, -1).trim();
  const head = /^([A-Za-z_][\w.]*)\s*\(/.exec(body);
  if (!head || !body.endsWith(')')) return undefined;
  const tool = resolveToolName(head[1], toolNames);
  if (!tool) return undefined;
  const args = readKeywordArgs(body.slice(head[0].length, -1));
  return args ? { tool, args } : undefined;
}

/** `item="ale", quantity=2, tags=["a"]` → an object; undefined when it is not that shape. */
function readKeywordArgs(inner: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let index = 0;
  const length = inner.length;
  const skipSpace = () => {
    while (index < length && /\s/.test(inner[index])) index++;
  };
  skipSpace();
  while (index < length) {
    const key = /^[A-Za-z_]\w*/.exec(inner.slice(index, index + 128));
    if (!key) return undefined;
    index += key[0].length;
    skipSpace();
    if (inner[index] !== '=' && inner[index] !== ':') return undefined;
    index++;
    skipSpace();
    const end = valueEnd(inner, index);
    if (end <= index) return undefined;
    setOwnKey(out, key[0], pythonValue(inner.slice(index, end).trim()));
    index = end;
    skipSpace();
    if (index < length) {
      if (inner[index] !== ',') return undefined;
      index++;
      skipSpace();
    }
  }
  return out;
}

/** Where a value starting at `start` ends: the first `,` outside strings and brackets, or the end. */
function valueEnd(text: string, start: number): number {
  let depth = 0;
  let quote = '';
  for (let index = start; index < text.length; index++) {
    const ch = text[index];
    if (quote) {
      if (ch === '\\') index++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '{' || ch === '(') depth++;
    else if (ch === ']' || ch === '}' || ch === ')') depth--;
    else if (ch === ',' && depth === 0) return index;
  }
  return text.length;
}

/** A Python literal as JSON: quoted strings, numbers, lists, dicts and True/False/None (the lenient parser reads them). */
function pythonValue(raw: string): unknown {
  const parsed = parseLenient(raw);
  if (parsed.ok) return parsed.value;
  return raw; // a bare word: the model meant the text
}

/** FunctionGemma's `key:<escape>text<escape>,n:2` → an object. */
function readFunctionGemmaArgs(inner: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const parts = inner.split(/,(?=\s*[A-Za-z_]\w*\s*:)/);
  for (const part of parts) {
    if (!part.trim()) continue;
    const colon = part.indexOf(':');
    if (colon < 0) return undefined;
    const key = part.slice(0, colon).trim();
    if (!/^[A-Za-z_]\w*$/.test(key)) return undefined;
    const raw = part.slice(colon + 1).trim();
    const escaped = /^<escape>([\s\S]*)<escape>$/.exec(raw);
    setOwnKey(out, key, escaped ? escaped[1] : pythonValue(raw));
  }
  return out;
}
