/**
 * Two walks over a normalised schema node: its child schemas with their pointer segments (what
 * the analyzer and the violation finder descend into), and folding OpenAPI's `nullable: true`
 * into standard keywords.
 */
import { hasOwn, isPlainObject, type SchemaNode } from './schema-node';

/** Folds OpenAPI `nullable: true` into standard keywords. */
export function makeNullable(node: SchemaNode): void {
  if (node.enum && node.enum.indexOf(null) < 0) node.enum.push(null);
  if (hasOwn(node, 'const')) {
    node.enum = node.const === null ? [null] : [node.const, null];
    delete node.const;
  }
  if (node.type !== undefined) {
    const types = Array.isArray(node.type) ? node.type.slice() : [node.type];
    if (types.indexOf('null') < 0) types.push('null');
    node.type = types;
    return;
  }
  if (node.enum) return;
  if (node.anyOf) node.anyOf.push({ type: 'null' });
  else if (node.oneOf) node.oneOf.push({ type: 'null' });
  else if (node.$ref !== undefined || node.allOf) {
    const inner: SchemaNode = {};
    if (node.$ref !== undefined) inner.$ref = node.$ref;
    if (node.allOf) inner.allOf = node.allOf;
    delete node.$ref;
    delete node.allOf;
    node.anyOf = [inner, { type: 'null' }];
  }
}

/** Every child schema of a node, with its pointer segment(s) and the path used in messages. */
export function childNodes(node: SchemaNode): { node: SchemaNode; segments: string[] }[] {
  const out: { node: SchemaNode; segments: string[] }[] = [];
  const map = (key: 'properties' | '$defs' | 'definitions'): void => {
    const members = node[key];
    if (members) for (const name of Object.keys(members)) out.push({ node: members[name], segments: [key, name] });
  };
  map('properties');
  if (isPlainObject(node.additionalProperties))
    out.push({ node: node.additionalProperties as SchemaNode, segments: ['additionalProperties'] });
  if (node.items) out.push({ node: node.items, segments: ['items'] });
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[key];
    if (list) list.forEach((child, index) => out.push({ node: child, segments: [key, String(index)] }));
  }
  map('$defs');
  map('definitions');
  return out;
}
