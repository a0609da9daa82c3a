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

export function orderValue(node: SchemaNode, value: unknown, ctx: OrderContext): unknown {
  return orderAt(node, value, { ctx, depth: 0 });
}

/** Where the walk is: the schema context and how deep in the value. */
interface OrderWalk {
  ctx: OrderContext;
  depth: number;
}

function orderAt(node: SchemaNode, value: unknown, walk: OrderWalk): unknown {
  const { ctx, depth } = walk;
  if (depth > MAX_VALUE_DEPTH) return value;
  const deeper: OrderWalk = { ctx, depth: depth + 1 };
  const effective = pickBranch(node, value, ctx);
  if (Array.isArray(value)) {
    const items = itemsOf(effective, ctx);
    return value.map((item) => (items ? orderAt(items, item, deeper) : copyPlain(item, depth + 1)));
  }
  if (!isPlainObject(value)) return value;
  const shape = objectShape(effective, ctx);
  const out: Record<string, unknown> = {};
  if (!shape) {
    for (const key of Object.keys(value)) setOwnKey(out, key, copyPlain(value[key], depth + 1));
    return out;
  }
  for (const [name, prop] of shape.properties) {
    if (hasOwn(value, name)) setOwnKey(out, name, orderAt(prop, value[name], deeper));
  }
  for (const key of Object.keys(value)) {
    if (hasOwn(out, key)) continue;
    setOwnKey(
      out,
      key,
      isPlainObject(shape.additional)
        ? orderAt(shape.additional as SchemaNode, value[key], deeper)
        : copyPlain(value[key], depth + 1),
    );
  }
  return out;
}

/** Follows $ref and picks the anyOf/oneOf branch the value matches (else the first that fits its shape). */
function pickBranch(node: SchemaNode, value: unknown, ctx: OrderContext): SchemaNode {
  let current = node;
  for (let hops = 0; hops <= 16; hops++) {
    if (
      current.$ref !== undefined &&
      !current.properties &&
      !current.items &&
      !current.anyOf &&
      !current.oneOf &&
      !current.allOf
    ) {
      current = ctx.resolve(current.$ref);
      continue;
    }
    const choices = current.anyOf ?? current.oneOf;
    if (!choices || current.properties || current.items) return current;
    const matching = choices.filter((choice) => ctx.matches(choice, value));
    const shaped = choices.filter((choice) =>
      Array.isArray(value) ? itemsOf(choice, ctx) !== undefined : objectShape(choice, ctx) !== undefined,
    );
    const chosen = matching[0] ?? shaped[0];
    if (!chosen) return current;
    current = chosen;
  }
  return current;
}

function itemsOf(node: SchemaNode, ctx: OrderContext, hops = 0): SchemaNode | undefined {
  if (node.items) return node.items;
  if (node.$ref !== undefined && hops < 16) return itemsOf(ctx.resolve(node.$ref), ctx, hops + 1);
  return undefined;
}

function copyPlain(value: unknown, depth: number): unknown {
  if (depth > MAX_VALUE_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => copyPlain(item, depth + 1));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwnKey(out, key, copyPlain(value[key], depth + 1));
    return out;
  }
  return value;
}
