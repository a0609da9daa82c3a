/**
 * An object schema whose keys explain themselves, in one line a model copies the shape from:
 * `{"name": string, "rarity": "common"|"rare", "value": integer 1-100}` (37 Gemma tokens with its
 * lead-in, where the key list in words cost 46). A key with a description, a nested value or a
 * long enum keeps the list in words (JsonSchema.renderFields), so nothing is left unsaid.
 */
import type { JsonSchema } from '../schema';
import { MAX_ENUM_VALUES, numberRange } from './tool-catalog';

type Node = Record<string, unknown>;

/** What the one-line form can say of a key; any other keyword (a pattern, a length, a format) keeps the words. */
const SAID = new Set(['type', 'enum', 'minimum', 'maximum']);

function compactType(node: Node): string | undefined {
  if (Object.keys(node).some((keyword) => !SAID.has(keyword))) return undefined;
  if (Array.isArray(node.enum)) {
    const values = node.enum;
    if (values.length === 0 || values.length > MAX_ENUM_VALUES) return undefined;
    return values.map((value) => JSON.stringify(value)).join('|');
  }
  switch (node.type) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'true|false';
    case 'integer':
    case 'number': {
      const range = numberRange(node);
      return range ? `${String(node.type)} ${range}` : String(node.type);
    }
    default:
      return undefined;
  }
}

/** The one-line form, or undefined when some key needs words. */
export function compactObjectSchema(schema: JsonSchema): string | undefined {
  const json = schema.json as Node;
  if (json.type !== 'object' || json.anyOf || json.oneOf || json.allOf || json.$ref !== undefined) return undefined;
  const properties = (json.properties ?? {}) as Record<string, Node>;
  const required = Array.isArray(json.required) ? (json.required as string[]) : [];
  const parts: string[] = [];
  for (const [name, node] of Object.entries(properties)) {
    const type = node && typeof node === 'object' ? compactType(node) : undefined;
    if (type === undefined) return undefined;
    parts.push(`${JSON.stringify(name)}${required.indexOf(name) < 0 ? '?' : ''}: ${type}`);
  }
  return parts.length > 0 ? `{${parts.join(', ')}}` : undefined;
}
