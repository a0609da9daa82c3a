/**
 * The JSON Schema of a decide step's answer in the JSON envelope modes (`lineFirst: false`, the
 * seed-compatible mode): one `{tool, args}` shape per tool offered, or the reply. A backend that
 * constrains decoding (Chrome's `responseConstraint`) then cannot produce an answer the step
 * would have to repair. Line-first answers are words, not JSON, and get none.
 */
import type { AgentTool } from '../tools';
import type { JsonSchema } from '../schema';

export interface EnvelopeSchemaInput {
  tools: readonly AgentTool[];
  /** Whether answering without a tool is allowed in this step. */
  allowReply: boolean;
  /** The reply's schema for a structured turn; a string reply otherwise. */
  replySchema?: JsonSchema;
  /** The seed's form (`{"action", "arguments"}`, `respond`) instead of the short one. */
  seedForm: boolean;
}

/**
 * The schema, or undefined when one cannot be put together safely: a nested schema with its
 * own `$defs`/`$ref` would point at the union's root, where they are not.
 */
export function envelopeSchema(input: EnvelopeSchemaInput): Record<string, unknown> | undefined {
  const nested = [...input.tools.map((tool) => tool.parameters.json), input.replySchema?.json];
  if (nested.some((json) => json !== undefined && /"\$(?:ref|defs)"/.test(JSON.stringify(json)))) return undefined;
  const tool = input.seedForm ? 'action' : 'tool';
  const args = input.seedForm ? 'arguments' : 'args';
  const shapes: Array<Record<string, unknown>> = input.tools.map((agentTool) => ({
    type: 'object',
    // `enum` of one, not `const`: the older keyword decoders support more widely.
    properties: { [tool]: { enum: [agentTool.name] }, [args]: agentTool.parameters.json },
    // A tool without parameters need not spend tokens on `"args":{}`.
    required: agentTool.isParameterless ? [tool] : [tool, args],
  }));
  if (input.allowReply) {
    shapes.push(
      input.seedForm
        ? {
            type: 'object',
            properties: { action: { enum: ['respond'] }, arguments: { type: 'object' } },
            required: ['action'],
          }
        : {
            type: 'object',
            properties: { reply: input.replySchema ? input.replySchema.json : { type: 'string' } },
            required: ['reply'],
          },
    );
  }
  return shapes.length === 1 ? shapes[0] : { anyOf: shapes };
}
