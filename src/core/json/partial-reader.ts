/**
 * The partial value of a JSON answer while it streams, on every chunk, at a cost that does not
 * grow with the text: while the text ends inside a string (a line, a description), each push
 * only decodes the new characters onto that string; the whole text is read again only when
 * the string closes or something else is written (a key, a number, a bracket).
 */
import { extractJson, isPlainObject } from './extract';
import { parsePartialWithCut } from './lenient';
import { decodeStringTail, extendsText } from './string-tail';
import { setOwnKey } from './own-key';

/** The string still open at the end: where its undecoded text starts, and where it sits in the value. */
interface OpenString {
  quote: string;
  next: number;
  path: Array<string | number>;
  text: string;
}

/** Appended by the probe that checks the open string really is the last leaf. */
const PROBE = 'x';

export class PartialJsonReader {
  private lastInput = '';
  private value: unknown;
  private open: OpenString | undefined;

  /** Give the whole text so far; returns the partial value when it changed, else undefined. */
  push(text: string): unknown {
    if (text === this.lastInput) return undefined;
    const extendsLast = text.length > this.lastInput.length && extendsText(text, this.lastInput);
    this.lastInput = text;
    if (this.open && extendsLast) {
      const piece = decodeStringTail(text, this.open.next, this.open.quote);
      if (!piece.closed) {
        this.open.next = piece.next;
        if (piece.decoded === '') return undefined;
        this.open.text += piece.decoded;
        this.value = withLeaf(this.value, this.open.path, this.open.text);
        return this.value;
      }
    }
    this.open = undefined;
    const found = extractJson(text);
    if (!found) return undefined;
    const changed = JSON.stringify(found.value) !== JSON.stringify(this.value);
    this.value = found.value;
    if (!found.complete) this.open = openStringAt(text, found.start);
    return changed ? this.value : undefined;
  }
}

/** The string cut off at the end of the text, when it is the value's last leaf. */
function openStringAt(text: string, start: number): OpenString | undefined {
  const body = text.slice(start);
  const { result, cutValueAt } = parsePartialWithCut(body);
  if (!result.ok || cutValueAt < 0) return undefined;
  const quote = body[cutValueAt];
  if (quote !== '"' && quote !== "'") return undefined;
  const piece = decodeStringTail(body, cutValueAt + 1, quote);
  if (piece.closed || piece.next !== body.length) return undefined;
  const path = lastLeafPath(result.value);
  if (!path || leafAt(result.value, path) !== piece.decoded) return undefined;
  // One more character must land on that same leaf (rules out a look-alike elsewhere).
  const probe = parsePartialWithCut(body + PROBE);
  if (!probe.result.ok || leafAt(probe.result.value, path) !== piece.decoded + PROBE) return undefined;
  return { quote, next: start + piece.next, path, text: piece.decoded };
}

/** The path to the last member of the last member… when it ends at a string. */
function lastLeafPath(value: unknown): Array<string | number> | undefined {
  const path: Array<string | number> = [];
  let node = value;
  for (let depth = 0; depth < 64; depth++) {
    if (typeof node === 'string') return path;
    if (Array.isArray(node)) {
      if (node.length === 0) return undefined;
      path.push(node.length - 1);
      node = node[node.length - 1];
    } else if (isPlainObject(node)) {
      const keys = Object.keys(node);
      if (keys.length === 0) return undefined;
      path.push(keys[keys.length - 1]);
      node = node[keys[keys.length - 1]];
    } else {
      return undefined;
    }
  }
  return undefined;
}

function leafAt(value: unknown, path: ReadonlyArray<string | number>): unknown {
  let node = value;
  for (const step of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[step];
  }
  return node;
}

/** A copy of `value` along `path` with the leaf replaced: listeners keep the values they got. */
function withLeaf(value: unknown, path: ReadonlyArray<string | number>, leaf: string): unknown {
  if (path.length === 0) return leaf;
  const [step, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = value.slice();
    copy[step as number] = withLeaf(copy[step as number], rest, leaf);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source))
    setOwnKey(copy, key, key === step ? withLeaf(source[key], rest, leaf) : source[key]);
  return copy;
}
