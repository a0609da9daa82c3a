/**
 * The references of an analysed schema tree, checked once the tree is built: every node's JSON
 * pointer, every local `$ref` pointing at a node of the tree, no schema that refers to itself
 * without nesting, and no chain of more than MAX_REF_HOPS references.
 */
import {
  SchemaNode,
  appendIndex,
  appendKey,
  escapePointerSegment,
  isPlainObject,
  refSegments,
  resolvePointer,
} from './schema-node';
import { childNodes } from './schema-children';
import { invalid } from './schema-problems';

export const MAX_REF_HOPS = 16;

export interface CheckedReferences {
  /** JSON pointer (without "#") of every node of the tree. */
  pointers: Map<SchemaNode, string>;
  /** The node a local `$ref` points at. */
  resolve(ref: string): SchemaNode;
}

/** Checks the references of the tree under `root`; throws invalid_schema naming the path. */
export function checkReferences(root: SchemaNode): CheckedReferences {
  const pointers = new Map<SchemaNode, string>();
  const paths = new Map<SchemaNode, string>();
  const refNodes: SchemaNode[] = [];
  const walk = (node: SchemaNode, pointer: string, path: string): void => {
    pointers.set(node, pointer);
    paths.set(node, path);
    if (node.$ref !== undefined) refNodes.push(node);
    for (const child of childNodes(node)) {
      const [key, rest] = child.segments;
      const keyPath = appendKey(path, key);
      const childPath =
        rest === undefined
          ? keyPath
          : key === 'anyOf' || key === 'oneOf' || key === 'allOf'
            ? appendIndex(keyPath, Number(rest))
            : appendKey(keyPath, rest);
      walk(child.node, pointer + '/' + child.segments.map(escapePointerSegment).join('/'), childPath);
    }
  };
  walk(root, '', '$');

  const targets = new Map<string, SchemaNode>();
  const resolveAt = (ref: string, path: string): SchemaNode => {
    const known = targets.get(ref);
    if (known) return known;
    const segments = refSegments(ref);
    const target = segments ? resolvePointer(root, segments) : undefined;
    if (!isPlainObject(target) || !pointers.has(target as SchemaNode)) {
      throw invalid(appendKey(path, '$ref'), `points at nothing: ${JSON.stringify(ref)}`);
    }
    targets.set(ref, target as SchemaNode);
    return target as SchemaNode;
  };
  for (const node of refNodes) resolveAt(node.$ref as string, paths.get(node) as string);

  // A chain of references that never reaches a real schema, or a schema that contains itself
  // without descending into a property or item, would recurse forever: reject both.
  const state = new Map<SchemaNode, 1 | 2>();
  const sameValueEdges = (node: SchemaNode): SchemaNode[] => {
    const out: SchemaNode[] = [];
    if (node.$ref !== undefined) out.push(targets.get(node.$ref) as SchemaNode);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (node[key]) out.push(...(node[key] as SchemaNode[]));
    return out;
  };
  const visit = (node: SchemaNode): void => {
    state.set(node, 1);
    for (const next of sameValueEdges(node)) {
      const seen = state.get(next);
      if (seen === 1)
        throw invalid(paths.get(node) as string, '$ref cycle: the schema refers to itself without nesting');
      if (seen === undefined) visit(next);
    }
    state.set(node, 2);
  };
  pointers.forEach((_p, node) => {
    if (!state.has(node)) visit(node);
  });

  for (const node of refNodes) {
    let hops = 0;
    let current: SchemaNode = node;
    while (current.$ref !== undefined) {
      hops++;
      if (hops > MAX_REF_HOPS)
        throw invalid(appendKey(paths.get(node) as string, '$ref'), `more than ${MAX_REF_HOPS} $ref hops`);
      current = targets.get(current.$ref) as SchemaNode;
    }
  }
  return {
    pointers,
    resolve(ref: string): SchemaNode {
      return targets.get(ref) ?? resolveAt(ref, '$');
    },
  };
}
