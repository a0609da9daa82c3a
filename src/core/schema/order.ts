/**
 * Puts object keys in the schema's property order (recursively), unknown keys last in their
 * original order, so stored and re-prompted JSON always reads the same way.
 */
import { RenderContext, objectShape } from './render';
import { SchemaNode, hasOwn, isPlainObject } from './schema-node';
import { setOwnKey } from '../json/own-key';

export interface OrderContext extends RenderContext {
  matches(node: SchemaNode, value: unknown): boolean;
}

const MAX_VALUE_DEPTH = 64;

export function orderValue(node: SchemaNode, value: unknown, ctx: OrderContext, depth = 0): unknown {
  if (depth > MAX_VALUE_DEPTH) return value;
  const effective = pickBranch(node, value, ctx);
  if (Array.isArray(value)) {
    const items = itemsOf(effective, ctx);
    return value.map((item) => (items ? orderValue(items, item, ctx, depth + 1) : copyPlain(item, depth + 1)));
  }
  if (!isPlainObject(value)) return value;
  const shape = objectShape(effective, ctx);
  const out: Record<string, unknown> = {};
  if (!shape) {
    for (const key of Object.keys(value)) setOwnKey(out, key, copyPlain(value[key], depth + 1));
    return out;
  }
  for (const [name, prop] of shape.properties) {
    if (hasOwn(value, name)) setOwnKey(out, name, orderValue(prop, value[name], ctx, depth + 1));
  }
  for (const key of Object.keys(value)) {
    if (hasOwn(out, key)) continue;
    setOwnKey(
      out,
      key,
      isPlainObject(shape.additional)
        ? orderValue(shape.additional as SchemaNode, value[key], ctx, depth + 1)
        : copyPlain(value[key], depth + 1),
    );
  }
  return out;
}

/** Follows $ref and picks the anyOf/oneOf branch the value matches (else the first that fits its shape). */
function pickBranch(node: SchemaNode, value: unknown, ctx: OrderContext, hops = 0): SchemaNode {
  if (hops > 16) return node;
  if (node.$ref !== undefined && !node.properties && !node.items && !node.anyOf && !node.oneOf && !node.allOf) {
    return pickBranch(ctx.resolve(node.$ref), value, ctx, hops + 1);
  }
  const choices = node.anyOf ?? node.oneOf;
  if (!choices || node.properties || node.items) return node;
  const matching = choices.filter((choice) => ctx.matches(choice, value));
  const shaped = choices.filter((choice) =>
    Array.isArray(value) ? itemsOf(choice, ctx) !== undefined : objectShape(choice, ctx) !== undefined,
  );
  const chosen = matching[0] ?? shaped[0];
  return chosen ? pickBranch(chosen, value, ctx, hops + 1) : node;
}

function itemsOf(node: SchemaNode, ctx: OrderContext, hops = 0): SchemaNode | undefined {
  if (node.items) return node.items;
  if (node.$ref !== undefined && hops < 16) return itemsOf(ctx.resolve(node.$ref), ctx, hops + 1);
  return undefined;
}

function copyPlain(value: unknown, depth: number): unknown {
  if (depth > MAX_VALUE_DEPTH) return value;
  if (Array.isArray(value)) return value.map((value) => copyPlain(value, depth + 1));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwnKey(out, key, copyPlain(value[key], depth + 1));
    return out;
  }
  return value;
}
