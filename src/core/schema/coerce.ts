/**
 * Safe fixes for what small models get almost right: "2" for 2, "yes" for true, "Ale" for
 * "ale", `itemName` for `item_name`, a lone value where a list is expected. Anything that
 * could change the meaning (an ambiguous enum match, dropping keys while required ones are
 * missing) is left for validation to report. Never mutates its input.
 */
import {
  SchemaNode,
  TypeName,
  declaredTypes,
  hasOwn,
  isPlainObject,
  jsonTypeOf,
  looseKey,
  typeAccepts,
} from './schema-node';
import { setOwnKey } from '../json/own-key';

export interface CoerceContext {
  resolve(ref: string): SchemaNode;
  matches(node: SchemaNode, value: unknown): boolean;
}

const MAX_VALUE_DEPTH = 64;
/** Schema hops (refs, allOf, anyOf) allowed without descending into the value. */
const MAX_SCHEMA_HOPS = 48;
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** How deep in the value, and how many schema hops (refs, allOf, anyOf) at this depth. */
interface Nesting {
  depth: number;
  hops: number;
}

export class Coercer {
  constructor(private readonly ctx: CoerceContext) {}

  coerce(node: SchemaNode, value: unknown, nesting: Nesting = { depth: 0, hops: 0 }): unknown {
    const { depth, hops } = nesting;
    if (depth > MAX_VALUE_DEPTH || hops > MAX_SCHEMA_HOPS) return value;
    const hop: Nesting = { depth, hops: hops + 1 };
    let coerced = value;
    if (node.$ref !== undefined) coerced = this.coerce(this.ctx.resolve(node.$ref), coerced, hop);
    coerced = this.coerceOwn(node, coerced, depth);
    if (node.allOf) for (const part of node.allOf) coerced = this.coerce(part, coerced, hop);
    const choices = node.anyOf ?? node.oneOf;
    if (choices) coerced = this.coerceChoice(choices, coerced, hop);
    return coerced;
  }

  /** Whether null is a fine value for a node (then a null property is kept). */
  acceptsNull(node: SchemaNode, hops = 0): boolean {
    if (hops > MAX_SCHEMA_HOPS) return true;
    const types = declaredTypes(node);
    if (types && !typeAccepts(types, 'null')) return false;
    if (node.$ref !== undefined && !this.acceptsNull(this.ctx.resolve(node.$ref), hops + 1)) return false;
    if (node.allOf && !node.allOf.every((part) => this.acceptsNull(part, hops + 1))) return false;
    const choices = node.anyOf ?? node.oneOf;
    if (choices && !choices.some((choice) => this.acceptsNull(choice, hops + 1))) return false;
    return true;
  }

  /** `hop`: the nesting of the choices themselves (one hop past the node that lists them). */
  private coerceChoice(choices: SchemaNode[], value: unknown, hop: Nesting): unknown {
    for (const choice of choices) if (this.ctx.matches(choice, value)) return value;
    for (const choice of choices) {
      const fixed = this.coerce(choice, value, hop);
      if (this.ctx.matches(choice, fixed)) return fixed;
    }
    return value;
  }

  private coerceOwn(node: SchemaNode, value: unknown, depth: number): unknown {
    const types = declaredTypes(node);
    let coerced = types ? this.coerceType(types, value) : value;
    const valueType = jsonTypeOf(coerced);
    if (valueType === 'array' && node.items)
      coerced = (coerced as unknown[]).map((item) =>
        this.coerce(node.items as SchemaNode, item, { depth: depth + 1, hops: 0 }),
      );
    if (valueType === 'object' && (node.properties || node.additionalProperties !== undefined || node.required)) {
      coerced = this.coerceObject(node, coerced as Record<string, unknown>, depth);
    }
    if (node.enum) coerced = matchLoosely(node.enum, coerced);
    else if (hasOwn(node, 'const')) coerced = matchLoosely([node.const], coerced);
    return coerced;
  }

  private coerceType(types: TypeName[], value: unknown): unknown {
    const valueType = jsonTypeOf(value);
    if (typeAccepts(types, valueType)) return value;
    if (valueType === 'string') {
      const text = (value as string).trim();
      if ((types.indexOf('number') >= 0 || types.indexOf('integer') >= 0) && NUMERIC.test(text)) {
        const asNumber = Number(text);
        if (isFinite(asNumber)) return asNumber;
      }
      if (types.indexOf('boolean') >= 0) {
        const lower = text.toLowerCase();
        if (lower === 'true' || lower === 'yes') return true;
        if (lower === 'false' || lower === 'no') return false;
      }
      const wantsObject = types.indexOf('object') >= 0 && text.charAt(0) === '{';
      const wantsArray = types.indexOf('array') >= 0 && text.charAt(0) === '[';
      if (wantsObject || wantsArray) {
        try {
          const parsed: unknown = JSON.parse(text);
          if (typeAccepts(types, jsonTypeOf(parsed))) return parsed;
        } catch {
          // not JSON: leave it for the wrapping rule or for validation
        }
      }
    }
    if (
      (valueType === 'number' || valueType === 'integer' || valueType === 'boolean') &&
      types.indexOf('string') >= 0
    ) {
      return String(value);
    }
    if (types.indexOf('array') >= 0 && value !== null && value !== undefined) return [value];
    return value;
  }

  private coerceObject(node: SchemaNode, value: Record<string, unknown>, depth: number): Record<string, unknown> {
    const properties = node.properties ?? {};
    const names = Object.keys(properties);
    const required = node.required ?? [];
    const renamed: Record<string, unknown> = {};
    const present = Object.keys(value);
    for (const key of present) {
      let target = key;
      if (!hasOwn(properties, key)) {
        // itemName ↔ item_name ↔ "Item Name": renamed only when exactly one property fits and is free.
        const loose = looseKey(key);
        const fits = names.filter((name) => looseKey(name) === loose);
        const taken = fits.length === 1 && (hasOwn(value, fits[0]) || hasOwn(renamed, fits[0]));
        if (fits.length === 1 && !taken) target = fits[0];
      }
      setOwnKey(renamed, target, value[key]);
    }
    renameNearMisses({ renamed, properties, required });
    const missingRequired = required.some((name) => !hasOwn(renamed, name));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(renamed)) {
      const item = renamed[key];
      if (hasOwn(properties, key)) {
        const prop = properties[key];
        if (item === null && required.indexOf(key) < 0 && !this.acceptsNull(prop)) continue;
        setOwnKey(out, key, this.coerce(prop, item, { depth: depth + 1, hops: 0 }));
      } else if (isPlainObject(node.additionalProperties)) {
        setOwnKey(out, key, this.coerce(node.additionalProperties as SchemaNode, item, { depth: depth + 1, hops: 0 }));
      } else if (node.additionalProperties === false && !missingRequired) {
        continue;
      } else {
        setOwnKey(out, key, item);
      }
    }
    return out;
  }
}

/** "Ale" → "ale", "HOT-STEW" → "hot_stew", "2" → 2: only when exactly one allowed value fits. */
function matchLoosely(allowed: readonly unknown[], value: unknown): unknown {
  if (allowed.some((option) => option === value)) return value;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return value;
  const loose = looseKey(String(value));
  const fits = allowed.filter(
    (option) =>
      (typeof option === 'string' || typeof option === 'number' || typeof option === 'boolean') &&
      looseKey(String(option)) === loose,
  );
  return fits.length === 1 ? fits[0] : value;
}

/**
 * A required key that is missing takes the value of the one unknown key that is the same word
 * longer or shorter (`reasoning` for `reason`, the seed's key; `items` for `item`): only when
 * exactly one unknown key fits, and never a key the schema names.
 */
function renameNearMisses({
  renamed,
  properties,
  required,
}: {
  renamed: Record<string, unknown>;
  properties: Record<string, unknown>;
  required: readonly string[];
}): void {
  for (const name of required) {
    if (hasOwn(renamed, name)) continue;
    const wanted = looseKey(name);
    const fits = Object.keys(renamed).filter((key) => {
      if (hasOwn(properties, key)) return false;
      const loose = looseKey(key);
      const shorter = loose.length < wanted.length ? loose : wanted;
      return shorter.length >= 3 && loose !== wanted && (loose.startsWith(wanted) || wanted.startsWith(loose));
    });
    if (fits.length !== 1) continue;
    setOwnKey(renamed, name, renamed[fits[0]]);
    delete renamed[fits[0]];
  }
}
