/**
 * The tool list of a line-first prompt in its compact form: one line per tool, a call signature
 * in the syntax the model answers in, then what it does. `take_order(item: "ale"|"stew",
 * quantity: 1-10): Serves food or drink. item: what the player ordered` costs about half the
 * tokens of the word form (`Arguments: { item: one of "ale", "stew" (what …); quantity: integer
 * 1-10 (how many) }`). A parameter whose schema has no compact form (objects, arrays, unions,
 * references) keeps the word form, so nothing a tool needs is left out.
 */
import type { AgentTool } from '../tools';

type Node = Record<string, unknown>;

/** At most this many enum values are spelled out; a longer list keeps the word form. */
export const MAX_ENUM_VALUES = 8;
/** A value that reads as itself without quotes: not a number, not true/false/null, no spaces. */
const PLAIN_WORD = /^(?!(?:true|false|null)$)[A-Za-z_][\w-]*$/;

function compactType(node: Node): string | undefined {
  if (node.$ref !== undefined || node.anyOf || node.oneOf || node.allOf) return undefined;
  const values = node.enum;
  if (Array.isArray(values)) {
    if (values.length === 0 || values.length > MAX_ENUM_VALUES) return undefined;
    // Plain words need no quotes (`ale|stew`, 4 Gemma tokens fewer for four); the call example
    // shows how a value is written.
    if (values.every((value) => typeof value === 'string' && PLAIN_WORD.test(value))) return values.join('|');
    return values.map((value) => JSON.stringify(value)).join('|');
  }
  if ('const' in node) return JSON.stringify(node.const);
  switch (node.type) {
    case undefined: // any value: its note says what it may be
    case 'string':
      return '';
    case 'boolean':
      return 'true|false';
    case 'integer':
    case 'number':
      return numberRange(node) ?? String(node.type);
    default:
      return undefined;
  }
}

/** `1-10`, or `-10..10` (not `-10-10`: a range with a negative end must read as one); undefined without both ends. */
export function numberRange(node: Node): string | undefined {
  const low = typeof node.minimum === 'number' ? node.minimum : undefined;
  const high = typeof node.maximum === 'number' ? node.maximum : undefined;
  if (low === undefined || high === undefined) return undefined;
  return low < 0 ? `${low}..${high}` : `${low}-${high}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * `name(a: 1-10, b)` and the parameters' notes (`b: one short fact`), or undefined when some
 * parameter has no compact form.
 */
function signature(tool: AgentTool): { call: string; notes: string[] } | undefined {
  if (tool.isParameterless) return { call: `${tool.name}()`, notes: [] };
  const json = tool.parameters.json as Node;
  const properties = (json.properties ?? {}) as Record<string, Node>;
  const required = Array.isArray(json.required) ? (json.required as string[]) : [];
  const params: string[] = [];
  const notes: string[] = [];
  for (const [name, node] of Object.entries(properties)) {
    const type = compactType(node);
    if (type === undefined) return undefined;
    const optional = required.indexOf(name) < 0 ? '?' : '';
    params.push(type ? `${name}${optional}: ${type}` : `${name}${optional}`);
    // A listed value says what it is (`item: "ale"|"stew"`): its note would only cost tokens.
    const note = typeof node.description === 'string' && !Array.isArray(node.enum) ? oneLine(node.description) : '';
    if (note) notes.push(`${name}: ${note.replace(/\.$/, '')}`);
  }
  return { call: `${tool.name}(${params.join(', ')})`, notes };
}

/** One line per tool: `- name(params): Description. param: note; param: note` */
export function renderCompactCatalog(tools: readonly AgentTool[]): string {
  return tools
    .map((tool) => {
      const described = tool.description ? oneLine(tool.description).replace(/\.?$/, '.') : '';
      const compact = signature(tool);
      if (!compact) return `- ${tool.name}: ${described} Arguments: ${tool.parameters.render()}`.replace(/: {2}/, ': ');
      const notes = compact.notes.length > 0 ? ` ${compact.notes.join('; ')}` : '';
      // The line's end closes a description with nothing after it; its full stop is a token more.
      const text = notes ? described : described.replace(/\.$/, '');
      return `- ${compact.call}:${text ? ` ${text}` : ''}${notes}`;
    })
    .join('\n');
}
