/**
 * The byte-stable front of every prompt: instructions, the tool catalog in words and the
 * answer format. It depends only on the agent's set-up, never on the turn, so the device's
 * prefix cache applies to every step of every turn.
 */
import type { AgentTool } from '../tools';
import type { JsonSchema } from '../schema';
import type { AgentLabels } from '../agent/config';

export interface PrefixInput {
  instructions: string;
  tools: readonly AgentTool[];
  labels: AgentLabels;
  inlineReplies: boolean;
  /** The reply schema for structured turns (an NPC's reply shape), or undefined for text replies. */
  replySchema?: JsonSchema;
}

/** The stable text after the instructions (catalog + format), or '' when there is nothing to say. */
export function renderToolSection(input: PrefixInput): string {
  const { tools, labels } = input;
  const parts: string[] = [];
  if (tools.length > 0) {
    const catalog = tools.map((t) => {
      const args = t.isParameterless ? 'none' : t.parameters.render();
      const desc = t.description ? `${t.description.replace(/\s+/g, ' ').replace(/\.?$/, '.')} ` : '';
      return `- ${t.name}: ${desc}Arguments: ${args}`;
    });
    parts.push(`Tools ${labels.assistant} can use:\n${catalog.join('\n')}`);
    parts.push(formatRules(input));
  }
  if (input.replySchema) {
    parts.push(`${labels.assistant}'s reply is a JSON object with these keys:\n${input.replySchema.renderFields()}`);
  }
  return parts.join('\n\n');
}

function formatRules(input: PrefixInput): string {
  const { tools, labels } = input;
  const example = tools.find((t) => !t.isParameterless) ?? tools[0];
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
  lines.push(`Use a tool only when ${labels.user}'s message needs its facts or asks for its action. Answer directly for small talk or when the [tool results] already answer it.`);
  return lines.join('\n');
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
  if (Array.isArray(type)) type = type.find((t) => t !== 'null') ?? 'null';
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
      for (const [k, v] of Object.entries(props)) if (required.indexOf(k) >= 0) out[k] = exampleValue(v, depth + 1, neutral);
      return out;
    }
  }
}
