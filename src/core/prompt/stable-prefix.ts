/**
 * The byte-stable front of every prompt: instructions, the tool catalog in words and the
 * answer format. It depends only on the agent's set-up, never on the turn, so the device's
 * prefix cache applies to every step of every turn.
 */
import type { AgentTool } from '../tools';
import type { JsonSchema } from '../schema';
import { answerName, type AgentLabels } from './policy';
import { renderCompactCatalog } from './tool-catalog';
import { compactObjectSchema } from './compact-schema';

export interface PrefixInput {
  instructions: string;
  tools: readonly AgentTool[];
  labels: AgentLabels;
  inlineReplies: boolean;
  /** Replies written line first (plain words, then JSON lines); only with inlineReplies. */
  lineFirst: boolean;
  /** The spoken-text key of a structured reply, written first in line-first mode. */
  replyLineField?: string;
  /** The reply schema for structured turns (an NPC's reply shape), or undefined for text replies. */
  replySchema?: JsonSchema;
}

/**
 * A parameterless lookup with a snapshot is read into every line-first turn's note
 * (`check_menu now: {…}`, turn.ts), so listing it too would only cost tokens; when its snapshot
 * cannot be read, the note offers it instead.
 */
export function isPrefetchedLookup(tool: AgentTool): boolean {
  return tool.isParameterless && !tool.sideEffect && typeof tool.snapshot === 'function';
}

/** The stable text after the instructions (catalog + format), or '' when there is nothing to say. */
export function renderToolSection(input: PrefixInput): string {
  if (writesLineFirst(input)) return renderLineFirstSection(input);
  const { tools, labels } = input;
  const parts: string[] = [];
  if (tools.length > 0) {
    const catalog = tools.map((tool) => {
      const args = tool.isParameterless ? 'none' : tool.parameters.render();
      const desc = tool.description ? `${tool.description.replace(/\s+/g, ' ').replace(/\.?$/, '.')} ` : '';
      return `- ${tool.name}: ${desc}Arguments: ${args}`;
    });
    parts.push(`Tools ${labels.assistant} can use:\n${catalog.join('\n')}`);
    parts.push(formatRules(input));
  }
  if (input.replySchema) {
    const compact = compactObjectSchema(input.replySchema);
    parts.push(
      compact
        ? `${answerName(labels)} is one JSON object: ${compact}`
        : `${answerName(labels)} is a JSON object with these keys:\n${input.replySchema.renderFields()}`,
    );
  }
  return parts.join('\n\n');
}

/**
 * The line-first section, kept short (every token of it is prefilled on a cold turn): the
 * compact catalog without the lookups read ahead, one rule block, and only the reply keys that
 * need words (the spoken line and a listed tag are said by the rules).
 */
function renderLineFirstSection(input: PrefixInput): string {
  const parts: string[] = [];
  const listed = input.tools.filter((tool) => !isPrefetchedLookup(tool));
  // No tool to list: the turn's own task line gives the format; only the reply's keys need words.
  // A reply that is the words alone (a decision's choice) is said by the task line.
  if (listed.length === 0)
    return input.replySchema && !wordsOnly(input.replySchema, input.replyLineField)
      ? `${answerName(input.labels)} has these parts:\n${input.replySchema.renderFields()}`
      : '';
  parts.push(`Tools:\n${renderCompactCatalog(listed)}`);
  parts.push(lineFirstRules({ ...input, tools: listed }));
  const others = otherReplyKeys(input);
  if (others) parts.push(others);
  return parts.join('\n\n');
}

/** The reply keys besides the words, the tag and the optional flags, in words; '' when there are none. */
function otherReplyKeys(input: PrefixInput): string {
  const schema = input.replySchema;
  if (!schema) return '';
  const trailer = replyTrailerOf(schema, input.replyLineField);
  const json = schema.json as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  const required = json.required ?? [];
  const fields = schema.renderFields().split('\n');
  const lines: string[] = [];
  for (const [key, prop] of Object.entries(json.properties ?? {})) {
    if (key === input.replyLineField || key === trailer.tagKey) continue;
    // An optional flag is said by the rules, as the JSON line to write (flagRules).
    if (prop.type === 'boolean' && required.indexOf(key) < 0) continue;
    const field = fields.find((line) => line.startsWith(`- ${JSON.stringify(key)}`));
    if (field) lines.push(field);
  }
  return lines.length > 0 ? `Other keys, each on its own line as JSON:\n${lines.join('\n')}` : '';
}

function formatRules(input: PrefixInput): string {
  const { tools, labels } = input;
  const example = tools.find((tool) => !tool.isParameterless) ?? tools[0];
  const exampleArgs = JSON.stringify(exampleArguments(example));
  const replyExample = input.replySchema ? JSON.stringify(exampleValue(input.replySchema.json, 0, true)) : '"…"';
  const lines: string[] = ['When asked for the next step, answer with one JSON object and nothing else:'];
  if (input.inlineReplies) {
    // Compact JSON on purpose: models copy the example's spacing, and every space is a token.
    lines.push(`- to use a tool: {"tool":"${example.name}","args":${exampleArgs}}`);
    lines.push(`- to answer ${labels.user}: {"reply":${replyExample}}`);
  } else {
    lines.push(`- to use a tool: {"action":"${example.name}","arguments":${exampleArgs}}`);
    lines.push(`- to answer ${labels.user} without a tool: {"action":"respond","arguments":{}}`);
  }
  lines.push(
    `Use a tool only when ${labels.user}'s message needs its facts or asks for its action. Answer directly for small talk or when the [tool results] already answer it.`,
  );
  return lines.join('\n');
}

/** True when replies are written line first: the words, then JSON lines. */
export function writesLineFirst(
  input: Pick<PrefixInput, 'inlineReplies' | 'lineFirst' | 'replySchema' | 'replyLineField'>,
): boolean {
  if (!input.inlineReplies || !input.lineFirst) return false;
  return !input.replySchema || lineFieldOf(input.replySchema, input.replyLineField) !== undefined;
}

/** True when the reply's only key is its words (the line field). */
function wordsOnly(schema: JsonSchema, lineField: string | undefined): boolean {
  const props = (schema.json as { properties?: Record<string, unknown> }).properties ?? {};
  const keys = Object.keys(props);
  return lineField !== undefined && keys.length === 1 && keys[0] === lineFieldOf(schema, lineField);
}

/** `choice (one option id)`: the words-only reply's key and its description, or undefined. */
export function wordsOnlyLabel(schema: JsonSchema, lineField: string | undefined): string | undefined {
  if (!lineField || !wordsOnly(schema, lineField)) return undefined;
  const prop = (schema.json as { properties: Record<string, { description?: unknown }> }).properties[lineField];
  return typeof prop.description === 'string' && prop.description ? `${lineField} (${prop.description})` : lineField;
}

/** The reply's spoken-text key when the schema has it as a string property. */
export function lineFieldOf(schema: JsonSchema, field: string | undefined): string | undefined {
  if (!field) return undefined;
  const props = (schema.json as { properties?: Record<string, { type?: unknown }> }).properties;
  return props && props[field] && props[field].type === 'string' ? field : undefined;
}

/**
 * How a line-first reply writes its other keys after the words. One required string key (an
 * NPC's emotion) is a tag, `[happy]` (4 tokens with its line break, where `{"emotion":"happy"}`
 * costs 6); several are one JSON object. `text` is the sentence that says so, '' when the
 * words are the whole reply.
 */
export function replyTrailerOf(
  schema: JsonSchema | undefined,
  lineField: string | undefined,
): { tagKey?: string; text: string } {
  if (!schema) return { text: '' };
  const example = exampleValue(schema.json, 0, true) as Record<string, unknown>;
  if (lineField) delete example[lineField];
  const keys = Object.keys(example);
  if (keys.length === 0) return { text: '' };
  const props = (schema.json as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  const optional = Object.keys(props).filter((key) => key !== lineField && keys.indexOf(key) < 0);
  const sample = optional.length > 0 ? exampleValue(props[optional[0]] as Record<string, unknown>, 1, true) : undefined;
  // An optional flag is only ever written to say true.
  const more =
    optional.length > 0
      ? ` Optional keys, only when they apply, go on their own line as JSON, e.g. {"${optional[0]}":${JSON.stringify(sample === false ? true : sample)}}.`
      : '';
  const tag = keys.length === 1 ? tagExample(props[keys[0]] as Record<string, unknown> | undefined) : undefined;
  if (tag) return { tagKey: keys[0], text: `Then, on a new line, the ${keys[0]} in brackets, e.g. [${tag}].${more}` };
  return { text: `Then, on a new line, the reply's other keys as one JSON object: ${JSON.stringify(example)}.${more}` };
}

/** The values a reply key's tag may hold: its enum, or the list its description gives (`one of: a, b, c`). */
export function tagValuesOf(schema: JsonSchema | undefined, key: string | undefined): string[] | undefined {
  if (!schema || key === undefined) return undefined;
  const props = (schema.json as { properties?: Record<string, Record<string, unknown>> }).properties ?? {};
  const prop = props[key];
  if (!prop) return undefined;
  if (Array.isArray(prop.enum)) return prop.enum.filter((value): value is string => typeof value === 'string');
  const listed = typeof prop.description === 'string' ? /one of:?\s*([^.;]+)/i.exec(prop.description) : null;
  if (!listed) return undefined;
  return listed[1]
    .split(/,|\bor\b|\|/)
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

/**
 * A tag only for a short, listed value (an enum, or a description that lists `one of: …`, as an
 * NPC's emotion): a sentence such as a decision's reason does not fit in brackets. The example
 * is the first listed value, so a model copies a real one, never a placeholder.
 */
function tagExample(schema: Record<string, unknown> | undefined): string | undefined {
  if (!schema || schema.type !== 'string') return undefined;
  if (Array.isArray(schema.enum) && typeof schema.enum[0] === 'string') return schema.enum[0];
  const listed = typeof schema.description === 'string' ? /one of:?\s*([^,.;]+)/i.exec(schema.description) : null;
  return listed ? listed[1].trim() : undefined;
}

/** At most this many tag values are listed; a longer list is shown by its first few, as examples. */
const MAX_LISTED_TAGS = 8;
const TAG_EXAMPLES = 3;

/**
 * How the words are followed: the tag, with its values when they are few (a subset an NPC is
 * held to) or a few examples when they are many (any word for it is read leniently), and the
 * optional flags as the JSON line to write.
 */
function lineFirstTrailer(input: PrefixInput): string {
  const trailer = replyTrailerOf(input.replySchema, input.replyLineField);
  if (!trailer.tagKey) return trailer.text.replace(/^Then/, 'then');
  const tags = tagValuesOf(input.replySchema, trailer.tagKey) ?? [];
  const shown = tags.length <= MAX_LISTED_TAGS ? tags : tags.slice(0, TAG_EXAMPLES);
  const bracketed = shown.map((tag) => `[${tag}]`);
  const values =
    bracketed.length === 0
      ? '[neutral]'
      : tags.length <= MAX_LISTED_TAGS
        ? `one of ${bracketed.join(', ')}`
        : `e.g. ${bracketed.slice(0, -1).join(', ')} or ${bracketed[bracketed.length - 1]}`;
  return `then the ${trailer.tagKey} on a new line, ${values}.${flagRules(input)}`;
}

/** ` Write {"end":true} on its own line only when you say goodbye…` for each optional flag of the reply. */
function flagRules(input: PrefixInput): string {
  const json = (input.replySchema?.json ?? {}) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const required = json.required ?? [];
  return Object.entries(json.properties ?? {})
    .filter(([key, prop]) => prop.type === 'boolean' && required.indexOf(key) < 0)
    .map(([key, prop]) => {
      const when = typeof prop.description === 'string' ? prop.description.replace(/^true /, '') : 'when it applies';
      return ` Add a line {"${key}":true} ${when}.`;
    })
    .join('');
}

function lineFirstRules(input: PrefixInput): string {
  const { tools, labels } = input;
  const needed = tools.filter((tool) => !tool.sideEffect);
  const effects = tools.filter((tool) => tool.sideEffect);
  const trailer = lineFirstTrailer(input);
  // Without a trailer plain words need no rule: the step ends on the speaker's cue (`Mira:`).
  // Words that are the whole reply (a decision's choice) are said, as the step cannot tell.
  const alone = input.replySchema ? wordsOnlyLabel(input.replySchema, input.replyLineField) : undefined;
  const lines: string[] = trailer
    ? [`Reply with ${labels.assistant}'s words, ${trailer}`]
    : alone
      ? [`Reply with ${labels.assistant}'s ${alone}.`]
      : [];
  if (effects.length > 0) {
    const example = effects.find((tool) => !tool.isParameterless) ?? effects[0];
    lines.push(`Actions go after the words: ${callExample(example)}`);
  }
  if (needed.length > 0) {
    const example = needed.find((tool) => !tool.isParameterless) ?? needed[0];
    // With actions listed too, the lookups are named (fewer names than the actions, as a rule:
    // 8 Gemma tokens fewer for an NPC with three actions and one lookup).
    const what =
      effects.length > 0 ? `what ${needed.map((tool) => tool.name).join(' or ')} returns` : "a tool's result";
    // Gemma's own call syntax (Google's Gemma 3 function-calling guide): 12 Gemma tokens where
    // {"tool":…,"args":…} costs 17, 4 where it costs 11 without arguments. Only when the
    // message needs a result: small talk answers at once.
    lines.push(`If you need ${what}, write only its call first: ${callExample(example)}`);
  }
  return lines.join('\n');
}

/** `name(key="value", n=1)`: the family's call syntax, shorter than a JSON envelope. */
export function callExample(tool: AgentTool): string {
  const args = exampleArguments(tool);
  return formatCall(
    tool.name,
    args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {},
  );
}

/** A call in Gemma's syntax, `name(key="value", n=1)`: what the line-first prompt teaches and the stand-in writes. */
export function formatCall(name: string, args: Record<string, unknown>): string {
  const parts = Object.entries(args).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return `${name}(${parts.join(', ')})`;
}

/** A concrete example built from the schema (small models copy abstract templates literally). */
export function exampleArguments(tool: AgentTool): unknown {
  return exampleValue(tool.parameters.json, 0);
}

/**
 * `neutral`: for a reply example, enum values become "…": a concrete first option in the example
 * biases a small model that copies it (a guard's decision would lean to option one).
 */
function exampleValue(schema: Record<string, unknown> | undefined, depth: number, neutral = false): unknown {
  if (!schema || depth > 4) return {};
  const enums = schema.enum as unknown[] | undefined;
  if (Array.isArray(enums) && enums.length > 0) return neutral ? '…' : enums[0];
  if ('const' in schema) return schema.const;
  let type = schema.type as string | string[] | undefined;
  if (Array.isArray(type)) type = type.find((name) => name !== 'null') ?? 'null';
  const variants = (schema.anyOf ?? schema.oneOf) as Array<Record<string, unknown>> | undefined;
  if (!type && Array.isArray(variants) && variants.length > 0) return exampleValue(variants[0], depth + 1, neutral);
  switch (type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'string':
      return '…';
    case 'array':
      return [exampleValue(schema.items as Record<string, unknown>, depth + 1, neutral)];
    case 'null':
      return null;
    default: {
      const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : Object.keys(props);
      const out: Record<string, unknown> = {};
      // Optional keys stay out of the example: every key a model copies costs output tokens.
      for (const [name, value] of Object.entries(props))
        if (required.indexOf(name) >= 0) out[name] = exampleValue(value, depth + 1, neutral);
      return out;
    }
  }
}
