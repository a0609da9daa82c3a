/**
 * Schemas in words for prompts. Small models copy `"a" | "b"` unions and type names
 * literally, so choices read `one of "a", "b"`, booleans `true or false`, ranges
 * `integer 1-10`. Compact: this text is sent on every step.
 */
import { SchemaNode, declaredTypes, hasOwn, isPlainObject } from './schema-node';
import { listValues } from './violations';

export interface RenderContext {
  resolve(ref: string): SchemaNode;
}

const MAX_RENDER_DEPTH = 12;

function keyText(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

/** "1-10", "from -5 to 5", "at least 1", "above 0", "below 1". */
function rangeWords(node: SchemaNode): string {
  const lo = node.minimum ?? node.exclusiveMinimum;
  const hi = node.maximum ?? node.exclusiveMaximum;
  if (node.minimum !== undefined && node.maximum !== undefined) {
    return node.minimum >= 0 ? `${node.minimum}-${node.maximum}` : `from ${node.minimum} to ${node.maximum}`;
  }
  const parts: string[] = [];
  if (lo !== undefined) parts.push(node.minimum !== undefined ? `at least ${lo}` : `above ${lo}`);
  if (hi !== undefined) parts.push(node.maximum !== undefined ? `at most ${hi}` : `below ${hi}`);
  return parts.join(' and ');
}

function countWords(min: number | undefined, max: number | undefined, unit: string): string {
  const plural = (count: number): string => `${unit}${count === 1 ? '' : 's'}`;
  if (min !== undefined && max !== undefined)
    return min === max ? `exactly ${min} ${plural(min)}` : `${min}-${max} ${plural(max)}`;
  if (min !== undefined) return `at least ${min} ${plural(min)}`;
  if (max !== undefined) return `at most ${max} ${plural(max)}`;
  return '';
}

/** Description, default and examples in the form shown after a type. */
export function noteOf(node: SchemaNode): string {
  const parts: string[] = [];
  const text = node.description ?? node.title;
  if (text) parts.push(text);
  if (hasOwn(node, 'default')) parts.push(`default ${JSON.stringify(node.default)}`);
  if (Array.isArray(node.examples) && node.examples.length > 0)
    parts.push(
      `e.g. ${node.examples
        .slice(0, 2)
        .map((example) => JSON.stringify(example))
        .join(', ')}`,
    );
  return parts.join('; ');
}

function refName(ref: string): string {
  const slash = ref.lastIndexOf('/');
  const name =
    slash >= 0
      ? ref
          .slice(slash + 1)
          .replace(/~1/g, '/')
          .replace(/~0/g, '~')
      : '';
  return name || 'the whole';
}

export class SchemaRenderer {
  private readonly expanding: string[] = [];

  constructor(private readonly ctx: RenderContext) {}

  /** The node's type in words, without its own description. */
  words(node: SchemaNode, depth = 0): string {
    if (depth > MAX_RENDER_DEPTH) return 'any value';
    const parts: string[] = [];
    if (node.$ref !== undefined) parts.push(this.refWords(node.$ref, depth));
    const own = this.ownWords(node, depth);
    if (own) parts.push(own);
    if (node.allOf) {
      const merged = this.mergedObjectWords(node, depth);
      if (merged !== undefined) return merged;
      for (const branch of node.allOf) {
        const branchWords = this.words(branch, depth + 1);
        if (branchWords !== 'any value' && parts.indexOf(branchWords) < 0) parts.push(branchWords);
      }
    }
    const choices = node.anyOf ?? node.oneOf;
    if (choices) parts.push(this.choiceWords(choices, depth));
    if (parts.length === 0) return 'any value';
    return parts.join(' and ');
  }

  /** `{ item: one of "ale", "stew"; quantity?: integer 1-10 (how many) }` */
  objectWords(shape: ObjectShape, depth: number): string {
    const { properties, required, additional } = shape;
    const fields = properties.map(([name, prop]) => {
      const note = noteOf(prop);
      const optional = required.indexOf(name) < 0 ? '?' : '';
      return `${keyText(name)}${optional}: ${this.words(prop, depth + 1)}${note ? ` (${note})` : ''}`;
    });
    if (isPlainObject(additional)) fields.push(`any other key: ${this.words(additional as SchemaNode, depth + 1)}`);
    if (fields.length === 0) return additional === false ? '{}' : 'object';
    return `{ ${fields.join('; ')} }`;
  }

  private refWords(ref: string, depth: number): string {
    // A recursive definition is named instead of expanded again.
    if (this.expanding.indexOf(ref) >= 0) return `${refName(ref)} (same form as above)`;
    this.expanding.push(ref);
    try {
      const target = this.ctx.resolve(ref);
      return this.words(target, depth + 1);
    } finally {
      this.expanding.pop();
    }
  }

  private choiceWords(choices: SchemaNode[], depth: number): string {
    const words: string[] = [];
    for (const choice of choices) {
      const optionWords = this.words(choice, depth + 1);
      if (words.indexOf(optionWords) < 0) words.push(optionWords);
    }
    return words.join(' or ');
  }

  private ownWords(node: SchemaNode, depth: number): string {
    const nullable = node.enum ? node.enum.indexOf(null) >= 0 : hasOwn(node, 'const') ? node.const === null : false;
    if (node.enum) {
      const values = node.enum.filter((value) => value !== null);
      if (values.length === 0) return 'null';
      const text = values.length === 1 ? `exactly ${JSON.stringify(values[0])}` : `one of ${listValues(values)}`;
      return nullable ? `${text} or null` : text;
    }
    if (hasOwn(node, 'const')) return `exactly ${JSON.stringify(node.const)}`;
    const types = declaredTypes(node);
    if (!types) return this.shapeWords(node, undefined, depth);
    const base = types.filter((type) => type !== 'null');
    const texts: string[] = [];
    if (base.indexOf('integer') >= 0 && base.indexOf('number') >= 0) base.splice(base.indexOf('integer'), 1);
    for (const type of base) texts.push(this.shapeWords(node, type, depth));
    if (types.indexOf('null') >= 0) texts.push('null');
    return texts.join(' or ');
  }

  private shapeWords(node: SchemaNode, type: string | undefined, depth: number): string {
    switch (type) {
      case 'string': {
        const parts = ['string'];
        const length = countWords(node.minLength, node.maxLength, 'character');
        if (length) parts.push(length);
        if (node.pattern !== undefined) parts.push(`matching ${node.pattern}`);
        return parts.join(', ');
      }
      case 'integer':
      case 'number': {
        const range = rangeWords(node);
        return range ? `${type} ${range}` : type;
      }
      case 'boolean':
        return 'true or false';
      case 'null':
        return 'null';
      case 'array': {
        const item = node.items ? this.words(node.items, depth + 1) : 'any value';
        const count = countWords(node.minItems, node.maxItems, 'item');
        return `list of ${item}${count ? ` (${count})` : ''}`;
      }
      case 'object':
        return this.objectWords(
          {
            properties: Object.entries(node.properties ?? {}),
            required: node.required ?? [],
            additional: node.additionalProperties,
          },
          depth,
        );
      default:
        return '';
    }
  }

  /** allOf of object parts reads as one object with all their properties. */
  private mergedObjectWords(node: SchemaNode, depth: number): string | undefined {
    const shape = objectShape(node, this.ctx);
    if (!shape || node.anyOf || node.oneOf) return undefined;
    return this.objectWords(shape, depth);
  }
}

export interface ObjectShape {
  properties: [string, SchemaNode][];
  required: string[];
  additional: boolean | SchemaNode | undefined;
}

/**
 * The object a node describes, following $ref and merging allOf parts; undefined when the
 * node is not (only) an object schema.
 */
export function objectShape(node: SchemaNode, ctx: RenderContext, depth = 0): ObjectShape | undefined {
  if (depth > 16) return undefined;
  const parts: ObjectShape[] = [];
  const types = declaredTypes(node);
  const isObject = types !== undefined && types.indexOf('object') >= 0;
  if (isObject)
    parts.push({
      properties: Object.entries(node.properties ?? {}),
      required: node.required ?? [],
      additional: node.additionalProperties,
    });
  else if (types !== undefined) return undefined;
  const composed: SchemaNode[] = [];
  if (node.$ref !== undefined) composed.push(ctx.resolve(node.$ref));
  if (node.allOf) composed.push(...node.allOf);
  for (const sub of composed) {
    const shape = objectShape(sub, ctx, depth + 1);
    if (!shape) return undefined;
    parts.push(shape);
  }
  if (parts.length === 0) return undefined;
  const merged: ObjectShape = { properties: [], required: [], additional: undefined };
  for (const part of parts) {
    for (const [name, prop] of part.properties)
      if (!merged.properties.some(([existing]) => existing === name)) merged.properties.push([name, prop]);
    for (const name of part.required) if (merged.required.indexOf(name) < 0) merged.required.push(name);
    if (part.additional !== undefined && merged.additional === undefined) merged.additional = part.additional;
  }
  return merged;
}
