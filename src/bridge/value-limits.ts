/**
 * What a message's values may hold (protocol v1.0): at most MAX_DEPTH levels of nesting and
 * only finite numbers. JSON.parse reads any depth, but the rest of the host (schema checks,
 * merge patches, rendering, JSON.stringify) recurses, so a 5,000-deep context would otherwise
 * fail as `Maximum call stack size exceeded` deep inside a turn; and `1e400` parses as Infinity
 * where the transcript would record null. One iterative walk, before anything reads the value.
 */
export const MAX_DEPTH = 64;

interface Visit {
  value: unknown;
  depth: number;
  parent: Visit | null;
  key: string | number;
}

/** `params.options.note`, `params.goals[2]`, built only for the message. */
function pathOf(visit: Visit): string {
  const parts: string[] = [];
  for (let at: Visit | null = visit; at && at.parent; at = at.parent) {
    const key = String(at.key);
    parts.push(typeof at.key === 'number' ? `[${key}]` : `.${key.length > 40 ? `${key.slice(0, 40)}…` : key}`);
  }
  let root: Visit = visit;
  while (root.parent) root = root.parent;
  return String(root.key) + parts.reverse().join('');
}

/** Why `value` may not be used (naming where, e.g. `params.options.note`), or undefined when it is fine. */
export function valueProblem(value: unknown, where: string): string | undefined {
  const stack: Visit[] = [{ value, depth: 0, parent: null, key: where }];
  while (stack.length > 0) {
    const visit = stack.pop() as Visit;
    const current = visit.value;
    if (typeof current === 'number' && !Number.isFinite(current))
      return `${pathOf(visit)} is a number out of range (JSON numbers here must be finite).`;
    if (typeof current !== 'object' || current === null) continue;
    if (visit.depth >= MAX_DEPTH) return `${where} nests deeper than ${MAX_DEPTH} levels (at ${pathOf(visit)}).`;
    const depth = visit.depth + 1;
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++)
        stack.push({ value: current[index], depth, parent: visit, key: index });
    } else {
      for (const key of Object.keys(current))
        stack.push({ value: (current as Record<string, unknown>)[key], depth, parent: visit, key });
    }
  }
  return undefined;
}
