/**
 * `decision/decide`, `decision/decideMany` and `content/generate` (reference §3.3): options,
 * fallbacks and schemas are checked before any model call (−32602, −32007); client tools are
 * asked through `tool/call` (with the request's `index` in decideMany).
 */
import { Canceller } from '../contract/abort';
import { parseToolChoice, type ToolRecord } from '../core/agent';
import { JsonSchema } from '../core/schema';
import type { AgentTool } from '../core/tools';
import { ContentGenerator } from '../game/content';
import { checkDecision, DecisionEngine, type DecisionRequest } from '../game/decision';
import { parsePersona, type Persona } from '../game/persona';
import type { BridgeContext, MethodGroup, RequestInfo } from './context';
import { closedWireSchema } from './closed-schemas';
import { atSchemaParam, invalidParams, readingParams, toRpcError } from './errors';
import { MeteredModel, resolveModel, type ResolvedModel } from './models';
import type { NpcRegistry } from './npc-methods';
import { isRecord, ParamReader } from './params';
import { readWireTools, toAgentTool, type WireTool } from './tool-definitions';
import { toolRecordOnWire, usageOnWire } from './wire-shapes';

/** A decision or a content request, ready to run: checked, its model and tools built. */
interface Prepared<T> {
  run: (signal: Canceller['signal']) => Promise<T>;
  warnings: string[];
}

interface ToolSetup {
  tools: WireTool[];
  owner: Record<string, unknown>;
  requestId: RequestInfo['id'];
  timeoutSeconds: number;
  records: ToolRecord[];
}

export function decisionContentMethods(context: BridgeContext, npcs: NpcRegistry): MethodGroup {
  const running = new Set<Canceller>();

  /** Client tools as local tools whose handler asks the client (these engines take no external handler). */
  const localClientTools = (setup: ToolSetup): AgentTool[] =>
    setup.tools.map((tool) =>
      toAgentTool(tool, async (_args, toolContext) => {
        const started = context.timers.now();
        const timeoutSeconds = tool.timeoutSeconds ?? setup.timeoutSeconds;
        const output = await context.toolCalls.call(
          { owner: setup.owner, requestId: setup.requestId ?? null, timeoutSeconds },
          toolContext.call,
          toolContext.signal,
        );
        setup.records.push({ call: toolContext.call, output, durationMs: context.timers.now() - started });
        return output;
      }),
    );

  const withCancel = <T>(work: (signal: Canceller['signal']) => Promise<T>): Promise<T> => {
    const canceller = new Canceller();
    running.add(canceller);
    return work(canceller.signal).finally(() => running.delete(canceller));
  };

  const readActor = (raw: unknown): Persona | undefined => {
    if (raw === undefined) return undefined;
    if (typeof raw === 'string') return npcs.get(raw).persona;
    return readingParams(() => parsePersona(raw));
  };

  /**
   * `shared`: decideMany's engine settings, used where a request sets none; `sharedModel`: its
   * one model, which every request without a model of its own shares (as the seed's does, so a
   * script plays on across the decisions); `owner`: what tool/call names.
   */
  const prepareDecision = (input: {
    params: ParamReader;
    shared: ParamReader;
    sharedModel?: ResolvedModel;
    owner: Record<string, unknown>;
    request: RequestInfo;
  }): Prepared<Record<string, unknown>> => {
    const { params, shared, owner, request } = input;
    const situation = params.requiredString('situation');
    const rawOptions = params.array('options');
    if (!rawOptions) throw invalidParams(`${params.where}.options is required (option objects or ids).`);
    // An option's description is optional, as in the seed: the id stands in for it.
    const options = rawOptions.map((option) => {
      if (typeof option === 'string') return { id: option, description: option };
      return isRecord(option) && option.description === undefined ? { ...option, description: option.id } : option;
    });
    const actor = readActor(params.any('actor'));
    const facts = params.any('context');
    const { tools, warnings } = readWireTools(params.any('tools'));
    const choiceRaw = params.any('toolChoice');
    const toolChoice = choiceRaw === undefined ? undefined : readingParams(() => parseToolChoice(choiceRaw));
    const fallback = params.string('fallbackOptionID');
    const setting = <T>(read: (reader: ParamReader) => T | undefined): T | undefined => read(params) ?? read(shared);
    const instructions = setting((reader) => reader.string('instructions'));
    const temperature = setting((reader) => reader.number('temperature', { min: 0, max: 2 }));
    const maxToolRounds = setting((reader) => reader.number('maxToolRounds', { integer: true, min: 0, max: 16 }));
    const timeoutSeconds =
      setting((reader) => reader.number('toolTimeoutSeconds', { min: 0, max: 86400 })) ??
      context.defaultToolTimeoutSeconds;
    const reason = setting((reader) => reader.string('reason'));
    if (reason !== undefined && reason !== 'after' && reason !== 'none')
      throw invalidParams('params.reason must be "after" or "none".');
    const ownModel = params.any('model');
    const model =
      ownModel === undefined && input.sharedModel
        ? input.sharedModel
        : resolveModel(ownModel ?? shared.any('model'), context.models);
    if (model !== input.sharedModel) warnings.push(...model.warnings);
    const setup: ToolSetup = { tools, owner, requestId: request.id, timeoutSeconds, records: [] };
    const decisionRequest: DecisionRequest = {
      situation,
      options: options as DecisionRequest['options'],
      tools: localClientTools(setup),
    };
    if (actor) decisionRequest.actor = actor;
    if (facts !== undefined) decisionRequest.facts = facts;
    if (toolChoice !== undefined) decisionRequest.toolChoice = toolChoice;
    if (fallback !== undefined) decisionRequest.fallback = fallback;
    // Options, ids and the fallback: −32602 before any model call.
    readingParams(() => checkDecision(decisionRequest));
    const metered = new MeteredModel(model.model);
    const engine = new DecisionEngine(metered, {
      instructions,
      temperature,
      maxToolRounds,
      reason: reason as 'after' | 'none' | undefined,
    });
    return {
      warnings,
      run: async (signal) => {
        const decision = await engine.decide({ ...decisionRequest, signal });
        return {
          optionID: decision.optionId,
          reasoning: decision.reason,
          confidence: decision.confidence,
          toolCalls: setup.records.map(toolRecordOnWire),
          usage: usageOnWire(metered.usage),
          isFallback: decision.isFallback,
        };
      },
    };
  };

  const decide = (raw: unknown, request: RequestInfo) => {
    const params = new ParamReader(raw);
    const prepared = prepareDecision({ params, shared: new ParamReader({}), owner: {}, request });
    const warnings = [...prepared.warnings, ...params.unknownWarnings()];
    return withCancel(async (signal) => {
      const result = await prepared.run(signal);
      return warnings.length > 0 ? { ...result, warnings } : result;
    });
  };

  const decideMany = (raw: unknown, request: RequestInfo) => {
    const params = new ParamReader(raw);
    const requests = params.array('requests');
    if (!requests || requests.length === 0)
      throw invalidParams('params.requests is required (a non-empty list of decisions).');
    const concurrency = params.number('maxConcurrency', { integer: true, min: 1, max: 16 }) ?? 2;
    const sharedModel = resolveModel(params.any('model'), context.models);
    // Every request is checked before the first one runs.
    const prepared = requests.map((item, index) => {
      if (!isRecord(item)) throw invalidParams(`params.requests[${index}] must be an object.`);
      const reader = new ParamReader(item, `params.requests[${index}]`);
      return prepareDecision({ params: reader, shared: params, sharedModel, owner: { index }, request });
    });
    const warnings = [...sharedModel.warnings, ...params.unknownWarnings()];
    return withCancel(async (signal) => {
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
      return warnings.length > 0 ? { results, warnings } : { results };
    });
  };

  const generate = (raw: unknown, request: RequestInfo) => {
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
      params.number('toolTimeoutSeconds', { min: 0, max: 86400 }) ?? context.defaultToolTimeoutSeconds;
    const temperature = params.number('temperature', { min: 0, max: 2 });
    const model = resolveModel(params.any('model'), context.models);
    warnings.push(...schema.warnings, ...model.warnings, ...params.unknownWarnings());
    const setup: ToolSetup = { tools, owner: {}, requestId: request.id, timeoutSeconds, records: [] };
    const generator = new ContentGenerator(model.model, { temperature });
    const agentTools = localClientTools(setup);
    return withCancel(async (signal) => {
      const result = await generator.generate({ prompt, schema, instructions, facts, tools: agentTools, signal });
      return warnings.length > 0 ? { content: result.value, warnings } : { content: result.value };
    });
  };

  return {
    methods: { 'decision/decide': decide, 'decision/decideMany': decideMany, 'content/generate': generate },
    async shutdown() {
      for (const canceller of running) canceller.abort();
    },
  };
}
