/**
 * Compares an exchange with a vector's expectation. An expectation is JSON: objects match
 * when every member they name matches (members they do not name are not checked), arrays
 * match element by element with the same length, other values by equality. A few operator
 * objects (one or more of these keys, all of which must hold) say what a seed test asserts when
 * it is less than equality:
 *
 * - `{"$exact": v}`: deep equality, no other members allowed
 * - `{"$any": true}`: present, any value; `{"$absent": true}`: the member is not there
 * - `{"$contains": "s"}`, `{"$startsWith": "s"}`: a string containing / starting with s
 * - `{"$type": "string" | "number" | "boolean" | "object" | "array" | "null"}`
 * - `{"$some": p}`: an array with an element matching p; `{"$none": p}`: with none
 * - `{"$length": n}`: an array (or string) of length n
 * - `{"$includes": [...]}`: an array holding each of these values (in any order, among others)
 * - `{"$first": p}`: a non-empty array whose first element matches p
 * - `{"$all": [p, q, …]}`: matches every one of the patterns (for two `$some`s on one list)
 * - `{"$keys": [...]}` inside an object pattern: the actual members, in exactly this order
 */
import type { Json, JsonObject } from './normalize';

const OPERATORS = [
  '$exact',
  '$any',
  '$absent',
  '$contains',
  '$startsWith',
  '$type',
  '$some',
  '$none',
  '$length',
  '$includes',
  '$first',
  '$all',
];

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOf(value: Json): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/** Equality as the seed's JsonObject has it: members in any order (`$keys` checks the order). */
export function deepEqual(left: Json | undefined, right: Json | undefined): boolean {
  if (Array.isArray(left) || Array.isArray(right)) {
    return (
      Array.isArray(left) &&
      Array.isArray(right) &&
      left.length === right.length &&
      left.every((item, index) => deepEqual(item, right[index]))
    );
  }
  if (isObject(left) || isObject(right)) {
    if (!isObject(left) || !isObject(right)) return false;
    const keys = Object.keys(left);
    return (
      keys.length === Object.keys(right).length && keys.every((key) => key in right && deepEqual(left[key], right[key]))
    );
  }
  return left === right;
}

/** The operators of an operator object (all must hold), or undefined for a plain object pattern. */
function operators(pattern: JsonObject): string[] | undefined {
  const keys = Object.keys(pattern);
  return keys.length > 0 && keys.every((key) => OPERATORS.indexOf(key) >= 0) ? keys : undefined;
}

/** One operator of a pattern: `arg` is the operator's argument, `where` the path for messages. */
function matchOperator(operation: { name: string; arg: Json }, actual: Json | undefined, where: string): string[] {
  const { name, arg } = operation;
  const show = JSON.stringify(actual);
  const fail = (what: string) => [`${where}: expected ${what}, got ${show}`];
  if (actual === undefined) return name === '$absent' ? [] : fail(`a value (${name})`);
  switch (name) {
    case '$absent':
      return fail('no member');
    case '$any':
      return [];
    case '$exact':
      return deepEqual(arg, actual) ? [] : fail(JSON.stringify(arg));
    case '$contains':
      return typeof actual === 'string' && actual.indexOf(String(arg)) >= 0 ? [] : fail(`text containing ${arg}`);
    case '$startsWith':
      return typeof actual === 'string' && actual.startsWith(String(arg)) ? [] : fail(`text starting ${arg}`);
    case '$type':
      return typeOf(actual) === arg ? [] : fail(`a ${arg}`);
    case '$length':
      return (Array.isArray(actual) || typeof actual === 'string') && actual.length === arg
        ? []
        : fail(`length ${arg}`);
    case '$some':
    case '$none': {
      if (!Array.isArray(actual)) return fail('an array');
      const found = actual.some((item) => match(arg, item, where).length === 0);
      return found === (name === '$some')
        ? []
        : fail(`${name === '$some' ? 'an' : 'no'} element like ${JSON.stringify(arg)}`);
    }
    case '$all':
      return Array.isArray(arg) ? arg.flatMap((each) => match(each, actual, where)) : fail('a list of patterns');
    case '$first':
      return Array.isArray(actual) && actual.length > 0
        ? match(arg, actual[0], `${where}[0]`)
        : fail('a first element');
    case '$includes': {
      if (!Array.isArray(actual) || !Array.isArray(arg)) return fail('an array');
      const missing = arg.filter((value) => !actual.some((item) => deepEqual(value, item)));
      return missing.length ? fail(`also ${JSON.stringify(missing)}`) : [];
    }
    default:
      return fail(`a known operator, not ${name}`);
  }
}

/** Every way `actual` fails `pattern`, each naming its path; empty when it matches. */
export function match(pattern: Json, actual: Json | undefined, where = '$'): string[] {
  if (isObject(pattern)) {
    const names = operators(pattern);
    if (names) return names.flatMap((name) => matchOperator({ name, arg: pattern[name] }, actual, where));
    if (!isObject(actual)) return [`${where}: expected an object, got ${JSON.stringify(actual)}`];
    const problems: string[] = [];
    const order = pattern.$keys;
    if (Array.isArray(order) && !deepEqual(order, Object.keys(actual))) {
      problems.push(`${where}: expected members ${JSON.stringify(order)}, got ${JSON.stringify(Object.keys(actual))}`);
    }
    for (const [key, value] of Object.entries(pattern)) {
      if (key === '$keys') continue;
      problems.push(...match(value, actual[key], `${where}.${key}`));
    }
    return problems;
  }
  if (Array.isArray(pattern)) {
    if (!Array.isArray(actual)) return [`${where}: expected an array, got ${JSON.stringify(actual)}`];
    if (pattern.length !== actual.length) {
      return [`${where}: expected ${pattern.length} elements, got ${actual.length}: ${JSON.stringify(actual)}`];
    }
    return pattern.flatMap((item, index) => match(item, actual[index], `${where}[${index}]`));
  }
  return deepEqual(pattern, actual)
    ? []
    : [`${where}: expected ${JSON.stringify(pattern)}, got ${JSON.stringify(actual)}`];
}

/** The value at a dotted path (`response.result.toolCalls.0.id`), or undefined. */
export function valueAt(value: Json | undefined, path: string): Json | undefined {
  let here = value;
  for (const part of path.split('.')) {
    if (Array.isArray(here)) here = here[Number(part)];
    else if (isObject(here)) here = part in here ? here[part] : undefined;
    else return undefined;
  }
  return here;
}

/** A copy of `value` (a record or a pattern) without the member at `path`, so the rest can still be compared. */
export function without(value: Json | undefined, path: string): Json | undefined {
  if (value === undefined) return undefined;
  const copy = JSON.parse(JSON.stringify(value)) as Json;
  const parts = path.split('.');
  const last = parts.pop() as string;
  const parent = parts.length ? valueAt(copy, parts.join('.')) : copy;
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else if (isObject(parent)) {
    delete parent[last];
    // A pattern's member order no longer names the member taken out.
    const order = parent.$keys;
    if (Array.isArray(order)) parent.$keys = order.filter((key) => key !== last);
  }
  return copy;
}
