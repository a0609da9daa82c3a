/**
 * Turns ajv's errors into short, plain violations a small model can act on in a repair
 * prompt: JSONPath-like paths (`$.items[2].name`) and messages such as
 * `must be at most 10; got 12`.
 */
import type { ErrorObject } from 'ajv';
import { childNodes } from './schema-children';
import { SchemaNode, appendIndex, appendKey, isPlainObject } from './schema-node';

export interface Violation {
  /** Where in the value, like `$.quantity` or `$.items[2].name`. */
  path: string;
  /** What is wrong, like `must be at most 10; got 12`. */
  message: string;
}

const MAX_SHOWN = 4;
const MAX_ENUM_SHOWN = 12;

/** `$.quantity: must be at most 10; got 12; $.item: …`: at most 4, then "and N more". */
export function formatViolations(violations: Violation[]): string {
  const shown = violations.slice(0, MAX_SHOWN).map((violation) => `${violation.path}: ${violation.message}`);
  if (violations.length > MAX_SHOWN) shown.push(`and ${violations.length - MAX_SHOWN} more`);
  return shown.join('; ');
}

/** A value as it appears after "got": short, quoted strings, shapes for containers. */
export function describeGot(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

function typeWords(type: unknown): string {
  const names = Array.isArray(type) ? (type as string[]) : String(type).split(',');
  const words = names.map((name) => TYPE_WORDS[name] ?? name);
  return words.length <= 2 ? words.join(' or ') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

export function listValues(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_ENUM_SHOWN).map((value) => JSON.stringify(value));
  if (values.length > MAX_ENUM_SHOWN) shown.push('…');
  return shown.join(', ');
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The message for one ajv error at its own instance path. */
function messageOf(error: ErrorObject, value: unknown): string {
  const params = error.params as Record<string, unknown>;
  const got = describeGot(value);
  switch (error.keyword) {
    case 'type':
      return `must be ${typeWords(params.type)}; got ${got}`;
    case 'enum':
      return `must be one of ${listValues(params.allowedValues as unknown[])}; got ${got}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}; got ${got}`;
    case 'minimum':
      return `must be at least ${params.limit}; got ${got}`;
    case 'maximum':
      return `must be at most ${params.limit}; got ${got}`;
    case 'exclusiveMinimum':
      return `must be greater than ${params.limit}; got ${got}`;
    case 'exclusiveMaximum':
      return `must be less than ${params.limit}; got ${got}`;
    case 'minLength':
      return `must be at least ${plural(params.limit as number, 'character')}; got ${typeof value === 'string' ? [...value].length : got}`;
    case 'maxLength':
      return `must be at most ${plural(params.limit as number, 'character')}; got ${typeof value === 'string' ? [...value].length : got}`;
    case 'minItems':
      return `must have at least ${plural(params.limit as number, 'item')}; got ${Array.isArray(value) ? value.length : got}`;
    case 'maxItems':
      return `must have at most ${plural(params.limit as number, 'item')}; got ${Array.isArray(value) ? value.length : got}`;
    case 'pattern':
      return `must match the pattern ${params.pattern}; got ${got}`;
    case 'oneOf':
      return 'matches more than one of the allowed forms';
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

interface Item {
  /** ajv instance path segments of where the violation is. */
  segments: string[];
  message: string;
  keyword: string;
  /** The schema node the failing keyword belongs to (identity), for anyOf grouping. */
  owner: object | undefined;
}

function decodeInstancePath(instancePath: string): string[] {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function valueAt(root: unknown, segments: readonly string[]): unknown {
  let current = root;
  for (const segment of segments) {
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isPlainObject(current)) current = current[segment];
    else return undefined;
  }
  return current;
}

/** `$`, `$.a`, `$.items[2].name`: arrays get brackets, odd keys get quoted. */
export function jsonPath(root: unknown, segments: readonly string[]): string {
  let path = '$';
  let current = root;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      path = appendIndex(path, Number(segment));
      current = current[Number(segment)];
    } else {
      path = appendKey(path, segment);
      current = isPlainObject(current) ? current[segment] : undefined;
    }
  }
  return path;
}

function isUnder(segments: readonly string[], prefix: readonly string[]): boolean {
  if (segments.length < prefix.length) return false;
  for (let index = 0; index < prefix.length; index++) if (segments[index] !== prefix[index]) return false;
  return true;
}

/** What a composition needs from the schema module to summarise its failures. */
export interface CompositionHelpers {
  /** Resolves a local $ref to its node. */
  resolve(ref: string): SchemaNode;
  /** The node in words (for "must be <words>; got …"). */
  words(node: SchemaNode): string;
}

/**
 * Every node reachable from a node through references and compositions, and (unless
 * sameValueOnly) children: the nodes whose keywords may have produced an error.
 */
function reachable(start: SchemaNode, helpers: CompositionHelpers, sameValueOnly: boolean): Set<object> {
  const seen = new Set<object>();
  const stack: SchemaNode[] = [start];
  while (stack.length > 0) {
    const node = stack.pop() as SchemaNode;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const child of childNodes(node)) {
      const key = child.segments[0];
      if (!sameValueOnly || key === 'anyOf' || key === 'oneOf' || key === 'allOf') stack.push(child.node);
    }
    if (node.$ref !== undefined) stack.push(helpers.resolve(node.$ref));
  }
  return seen;
}

/**
 * Converts ajv's error list. A failed anyOf/oneOf leaves its branches' errors in the list;
 * they are replaced by the errors of the one branch whose type fits the value, or else by a
 * single "must be <the choices in words>" line, so a small model is not told four
 * contradictory things about one field.
 */
export function toViolations(errors: readonly ErrorObject[], value: unknown, helpers: CompositionHelpers): Violation[] {
  let items: Item[] = [];
  for (const error of errors) {
    const segments = decodeInstancePath(error.instancePath);
    const owner = error.parentSchema as object | undefined;
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required') {
      items.push({
        segments: segments.concat(String(params.missingProperty)),
        message: 'is required',
        keyword: 'required',
        owner,
      });
    } else if (error.keyword === 'additionalProperties') {
      items.push({
        segments: segments.concat(String(params.additionalProperty)),
        message: 'is not allowed',
        keyword: 'additionalProperties',
        owner,
      });
    } else if ((error.keyword === 'anyOf' || error.keyword === 'oneOf') && owner) {
      items = summariseComposition({ items, error, segments, value, helpers });
    } else {
      items.push({ segments, message: messageOf(error, valueAt(value, segments)), keyword: error.keyword, owner });
    }
  }
  // A wrong type already says enough; "must be one of" on top of it is noise.
  const typed = items.filter((item) => item.keyword === 'type');
  items = items.filter(
    (item) =>
      !(
        (item.keyword === 'enum' || item.keyword === 'const') &&
        typed.some(
          (typedItem) => typedItem.owner === item.owner && typedItem.segments.join('/') === item.segments.join('/'),
        )
      ),
  );
  const out: Violation[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const violation = { path: jsonPath(value, item.segments), message: item.message };
    const key = `${violation.path}\u0000${violation.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(violation);
  }
  return out;
}

/** An anyOf/oneOf failure and the items found so far at and below its spot. */
interface CompositionFailure {
  items: Item[];
  error: ErrorObject;
  segments: string[];
  value: unknown;
  helpers: CompositionHelpers;
}

function summariseComposition({ items, error, segments, value, helpers }: CompositionFailure): Item[] {
  const owner = error.parentSchema as SchemaNode;
  const branches = (error.keyword === 'anyOf' ? owner.anyOf : owner.oneOf) ?? [];
  const here = segments.join('/');
  // An error right at this spot comes from a branch evaluated on this same value; a deeper
  // one from anything a branch reaches (recursive schemas reach each other, hence two sets).
  const nearSets = branches.map((branch) => reachable(branch, helpers, true));
  const farSets = branches.map((branch) => reachable(branch, helpers, false));
  const inBranch = (item: Item): number[] => {
    const hits: number[] = [];
    if (!item.owner || !isUnder(item.segments, segments)) return hits;
    const sets = item.segments.join('/') === here ? nearSets : farSets;
    sets.forEach((set, index) => set.has(item.owner as object) && hits.push(index));
    return hits;
  };
  const kept: Item[] = [];
  const perBranch: Item[][] = branches.map(() => []);
  for (const item of items) {
    const hits = inBranch(item);
    if (hits.length === 0) kept.push(item);
    else for (const index of hits) perBranch[index].push(item);
  }
  const passing = (error.params as { passingSchemas?: number[] | null }).passingSchemas;
  if (error.keyword === 'oneOf' && passing) {
    kept.push({ segments, message: messageOf(error, undefined), keyword: 'oneOf', owner });
    return kept;
  }
  // A branch "fits" when the value at this spot has its type and its fixed value(s).
  const fitting = perBranch
    .map((errs) => ({ errs }))
    .filter(
      ({ errs }) =>
        !errs.some(
          (entry) =>
            entry.segments.join('/') === here &&
            (entry.keyword === 'type' ||
              entry.keyword === 'enum' ||
              entry.keyword === 'const' ||
              entry.keyword === 'anyOf'),
        ),
    );
  if (fitting.length === 1 && fitting[0].errs.length > 0) {
    kept.push(...fitting[0].errs);
  } else {
    const words = helpers.words(owner);
    kept.push({
      segments,
      message: `must be ${words.length > 160 ? words.slice(0, 160) + '…' : words}; got ${describeGot(valueAt(value, segments))}`,
      keyword: 'anyOf',
      owner,
    });
  }
  return kept;
}
