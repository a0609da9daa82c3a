/**
 * Tool definitions on the wire (reference §3.6): `{name, description, parameters?,
 * execution: "client", timeoutSeconds?}` or OpenAI's `{"type":"function","function":{…}}`.
 * Every tool sent by a client is answered by that client through `tool/call`.
 */
import { AgentError } from '../contract/errors';
import { AgentTool, type ToolHandler } from '../core/tools';
import { JsonSchema } from '../core/schema';
import { invalidParams, markSchemaParam, readingParams } from './errors';
import { isRecord, ParamReader } from './params';
import { closedWireSchema } from './closed-schemas';
import { shown } from './shown';

/** More tools than this in one prompt make a small model choose badly: warned about, not refused. */
export const MANY_TOOLS = 5;
const WIRE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** Longest timer the JS runtimes keep exactly (larger values fire at once). */
export const MAX_TIMER_MS = 2_147_483_647;

export interface WireTool {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** This tool's own wait for the client's answer, when it sets one (0 = forever). */
  timeoutSeconds?: number;
  /** Every warning about the tool, each starting with its name (`wave: …`), as lists carry them. */
  warnings: string[];
  /** The definition as received, unwrapped (for saves and `npc/state`). */
  wire: Record<string, unknown>;
}

function unwrap(raw: unknown, where: string): Record<string, unknown> {
  if (!isRecord(raw)) throw invalidParams(`${where} must be a tool definition object.`);
  if (raw.type === 'function' && isRecord(raw.function)) return raw.function;
  return raw;
}

/** Reads one definition; bad ones are −32602 (a malformed parameters schema is −32007). */
export function readWireTool(raw: unknown, where: string): WireTool {
  const plain = unwrap(raw, where);
  const reader = new ParamReader(plain, where);
  const name = reader.requiredString('name');
  if (!WIRE_NAME.test(name)) {
    throw invalidParams(`${where}.name "${shown(name)}" must be 1-64 characters from A-Z a-z 0-9 _ - .`);
  }
  const description = reader.string('description');
  const execution = reader.string('execution');
  if (execution !== undefined && execution !== 'client') {
    throw invalidParams(`${where}.execution must be "client" (tools sent over the protocol run in the client).`);
  }
  const timeoutSeconds = reader.number('timeoutSeconds', { min: 0, max: 86400 });
  const rawParameters = reader.any('parameters');
  let parameters: JsonSchema;
  try {
    parameters = rawParameters === undefined ? JsonSchema.empty() : JsonSchema.from(closedWireSchema(rawParameters));
  } catch (error) {
    const schemaError = AgentError.from(error, 'invalid_schema');
    // The message keeps the core's `$…` path first, so data.path and data.schemaPath can be read from it.
    const wrapped = new AgentError('invalid_schema', `${schemaError.message} (in ${where}.parameters)`, {
      cause: error,
    });
    throw markSchemaParam(wrapped, `${where.replace(/^params\./, '')}.parameters`);
  }
  const warnings = parameters.warnings.map((warning) => `${name}: ${warning}`);
  if (!description || !description.trim()) warnings.push(`${name}: no description; the model chooses tools by it.`);
  // The core's own checks (reserved names such as "respond", object parameters).
  readingParams(() => AgentTool.external({ name, description: description ?? '', parameters }));
  const wire: Record<string, unknown> = { name, description: description ?? '', parameters: parameters.json };
  if (timeoutSeconds !== undefined) wire.timeoutSeconds = timeoutSeconds;
  const tool: WireTool = { name, description: description ?? '', parameters, warnings, wire };
  if (timeoutSeconds !== undefined) tool.timeoutSeconds = timeoutSeconds;
  return tool;
}

/** Reads a list of definitions: unique names, warnings for each and for the list. */
export function readWireTools(raw: unknown, where = 'params.tools'): { tools: WireTool[]; warnings: string[] } {
  if (raw === undefined || raw === null) return { tools: [], warnings: [] };
  if (!Array.isArray(raw)) throw invalidParams(`${where} must be a list of tool definitions.`);
  const tools = raw.map((item, index) => readWireTool(item, `${where}[${index}]`));
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) throw invalidParams(`Two tools are named "${tool.name}"; tool names must be unique.`);
    seen.add(tool.name);
  }
  const warnings = tools.flatMap((tool) => tool.warnings);
  if (tools.length > MANY_TOOLS) {
    warnings.push(`${tools.length} tools: more than ${MANY_TOOLS} make a small on-device model choose worse.`);
  }
  return { tools, warnings };
}

/** The `tools/validate` entry of one tool (Android's `rendered` included). */
/**
 * A `tools/validate` entry: its `warnings` are its parameters schema's, without the name (as the
 * seed's); the list's own warnings, named, carry the rest (a missing description).
 */
export function describeWireTool(tool: WireTool): Record<string, unknown> {
  return {
    name: tool.name,
    warnings: tool.parameters.warnings,
    generationSchema: tool.parameters.json,
    rendered: tool.parameters.render(),
  };
}

/**
 * The AgentTool the core runs. `external`: answered through the run's external-tool handler
 * (sessions and NPCs, so events say `execution: "client"`); `local`: the handler itself asks the
 * client (decisions and content, which take no external handler). The core's own timeout is
 * pushed out of the way: the bridge keeps the protocol's timeout on its injectable timer.
 */
export function toAgentTool(tool: WireTool, handler?: ToolHandler): AgentTool {
  const definition = { name: tool.name, description: tool.description, parameters: tool.parameters };
  // External tools wait as long as the agent's externalToolTimeoutMs, which the bridge sets to 0 (forever).
  return handler
    ? AgentTool.local({ ...definition, timeoutMs: MAX_TIMER_MS }, handler)
    : AgentTool.external(definition);
}
