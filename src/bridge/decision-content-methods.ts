/**
 * `decision/decide`, `decision/decideMany` and `content/generate` (reference §3.3): options,
 * fallbacks and schemas are checked before any model call (−32602, −32007); client tools are
 * asked through `tool/call` (with the request's `index` in decideMany). A decision is read in
 * decision-prepare.ts.
 */
import { Canceller } from '../contract/abort';
import { JsonSchema } from '../core/schema';
import { ContentGenerator } from '../game/content';
import type { BridgeContext, MethodGroup, RequestInfo } from './context';
import { closedWireSchema } from './closed-schemas';
import { localClientTools, withCancel, type DecisionContentContext, type ToolSetup } from './decision-content-context';
import { prepareDecision, type PreparedDecision } from './decision-prepare';
import { atSchemaParam, invalidParams, toRpcError } from './errors';
import { resolveModel } from './models';
import type { NpcRegistry } from './npc-registry';
import { isRecord, ParamReader } from './params';
import { readWireTools } from './tool-definitions';

function decide(context: DecisionContentContext, raw: unknown, request: RequestInfo) {
  const params = new ParamReader(raw);
  const prepared = prepareDecision(context, { params, shared: new ParamReader({}), owner: {}, request });
  const warnings = [...prepared.warnings, ...params.unknownWarnings()];
  return withCancel(context, async (signal) => {
    const result = await prepared.run(signal);
    return warnings.length > 0 ? { ...result, warnings } : result;
  });
}

/** Runs the decisions `concurrency` at a time; a failed one is its own `{error}`, in its place. */
async function runAll(prepared: PreparedDecision[], concurrency: number, signal: Canceller['signal']) {
  const results: unknown[] = new Array(prepared.length);
  let next = 0;
  const worker = async () => {
    while (next < prepared.length) {
      const index = next++;
      try {
        results[index] = await prepared[index].run(signal);
      } catch (error) {
        results[index] = { error: toRpcError(error) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, prepared.length) }, worker));
  return results;
}

function decideMany(context: DecisionContentContext, raw: unknown, request: RequestInfo) {
  const params = new ParamReader(raw);
  const requests = params.array('requests');
  if (!requests || requests.length === 0)
    throw invalidParams('params.requests is required (a non-empty list of decisions).');
  const concurrency = params.number('maxConcurrency', { integer: true, min: 1, max: 16 }) ?? 2;
  const sharedModel = resolveModel(params.any('model'), context.bridge.models);
  // Every request is checked before the first one runs.
  const prepared = requests.map((item, index) => {
    if (!isRecord(item)) throw invalidParams(`params.requests[${index}] must be an object.`);
    const reader = new ParamReader(item, `params.requests[${index}]`);
    return prepareDecision(context, { params: reader, shared: params, sharedModel, owner: { index }, request });
  });
  const warnings = [...sharedModel.warnings, ...params.unknownWarnings()];
  return withCancel(context, async (signal) => {
    const results = await runAll(prepared, concurrency, signal);
    return warnings.length > 0 ? { results, warnings } : { results };
  });
}

function generate(context: DecisionContentContext, raw: unknown, request: RequestInfo) {
  const { bridge } = context;
  const params = new ParamReader(raw);
  const prompt = params.requiredString('prompt');
  if (!prompt.trim()) throw invalidParams('params.prompt must say what to write.');
  const schemaRaw = params.any('schema');
  if (schemaRaw === undefined) throw invalidParams('params.schema is required (a JSON Schema).');
  const schema = atSchemaParam('schema', () => JsonSchema.from(closedWireSchema(schemaRaw)));
  const instructions = params.string('instructions');
  const facts = params.any('context');
  const { tools, warnings } = readWireTools(params.any('tools'));
  const timeoutSeconds =
    params.number('toolTimeoutSeconds', { min: 0, max: 86400 }) ?? bridge.defaultToolTimeoutSeconds;
  const temperature = params.number('temperature', { min: 0, max: 2 });
  const model = resolveModel(params.any('model'), bridge.models);
  warnings.push(...schema.warnings, ...model.warnings, ...params.unknownWarnings());
  const setup: ToolSetup = { tools, owner: {}, requestId: request.id, timeoutSeconds, records: [] };
  const generator = new ContentGenerator(model.model, { temperature });
  const agentTools = localClientTools(context, setup);
  return withCancel(context, async (signal) => {
    const result = await generator.generate({ prompt, schema, instructions, facts, tools: agentTools, signal });
    return warnings.length > 0 ? { content: result.value, warnings } : { content: result.value };
  });
}

export function decisionContentMethods(bridge: BridgeContext, npcs: NpcRegistry): MethodGroup {
  const context: DecisionContentContext = { bridge, npcs, running: new Set<Canceller>() };
  return {
    methods: {
      'decision/decide': (raw: unknown, request: RequestInfo) => decide(context, raw, request),
      'decision/decideMany': (raw: unknown, request: RequestInfo) => decideMany(context, raw, request),
      'content/generate': (raw: unknown, request: RequestInfo) => generate(context, raw, request),
    },
    async shutdown() {
      for (const canceller of context.running) canceller.abort();
    },
  };
}
