/**
 * A `decision/decide` request (or one of decideMany's) read and checked before any model call:
 * options, ids and the fallback are −32602 here, and its model and client tools are built.
 */
import type { Canceller } from '../contract/abort';
import { parseToolChoice } from '../core/agent';
import { checkDecision, DecisionEngine, type DecisionRequest } from '../game/decision';
import { parsePersona, type Persona } from '../game/persona';
import type { RequestInfo } from './context';
import { localClientTools, type DecisionContentContext, type ToolSetup } from './decision-content-context';
import { invalidParams, readingParams } from './errors';
import { MeteredModel, resolveModel, type ResolvedModel } from './models';
import { isRecord, ParamReader } from './params';
import { readWireTools } from './tool-definitions';
import { toolRecordOnWire, usageOnWire } from './wire-shapes';

/** A decision ready to run: checked, its model and tools built. */
export interface PreparedDecision {
  run: (signal: Canceller['signal']) => Promise<Record<string, unknown>>;
  warnings: string[];
}

export interface DecisionInput {
  params: ParamReader;
  /** decideMany's engine settings, used where a request sets none. */
  shared: ParamReader;
  /** decideMany's one model, which every request without a model of its own shares (as the seed's does, so a script plays on across the decisions). */
  sharedModel?: ResolvedModel;
  /** What tool/call names. */
  owner: Record<string, unknown>;
  request: RequestInfo;
}

/** An option's description is optional, as in the seed: the id stands in for it. */
function readOptions(params: ParamReader): DecisionRequest['options'] {
  const rawOptions = params.array('options');
  if (!rawOptions) throw invalidParams(`${params.where}.options is required (option objects or ids).`);
  const options = rawOptions.map((option) => {
    if (typeof option === 'string') return { id: option, description: option };
    return isRecord(option) && option.description === undefined ? { ...option, description: option.id } : option;
  });
  return options as DecisionRequest['options'];
}

/** The actor: an NPC by id (its persona), or a persona object. */
function readActor(context: DecisionContentContext, raw: unknown): Persona | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string') return context.npcs.get(raw).persona;
  return readingParams(() => parsePersona(raw));
}

/** The engine's settings, each from the request or else from decideMany's shared ones. */
function readEngineSettings(context: DecisionContentContext, input: DecisionInput) {
  const setting = <T>(read: (reader: ParamReader) => T | undefined): T | undefined =>
    read(input.params) ?? read(input.shared);
  const instructions = setting((reader) => reader.string('instructions'));
  const temperature = setting((reader) => reader.number('temperature', { min: 0, max: 2 }));
  const maxToolRounds = setting((reader) => reader.number('maxToolRounds', { integer: true, min: 0, max: 16 }));
  const timeoutSeconds =
    setting((reader) => reader.number('toolTimeoutSeconds', { min: 0, max: 86400 })) ??
    context.bridge.defaultToolTimeoutSeconds;
  const reason = setting((reader) => reader.string('reason'));
  if (reason !== undefined && reason !== 'after' && reason !== 'none')
    throw invalidParams('params.reason must be "after" or "none".');
  return { instructions, temperature, maxToolRounds, timeoutSeconds, reason: reason as 'after' | 'none' | undefined };
}

export function prepareDecision(context: DecisionContentContext, input: DecisionInput): PreparedDecision {
  const { params, shared, owner, request } = input;
  const situation = params.requiredString('situation');
  const options = readOptions(params);
  const actor = readActor(context, params.any('actor'));
  const facts = params.any('context');
  const { tools, warnings } = readWireTools(params.any('tools'));
  const choiceRaw = params.any('toolChoice');
  const toolChoice = choiceRaw === undefined ? undefined : readingParams(() => parseToolChoice(choiceRaw));
  const fallback = params.string('fallbackOptionID');
  const { timeoutSeconds, ...engineSettings } = readEngineSettings(context, input);
  const ownModel = params.any('model');
  const model =
    ownModel === undefined && input.sharedModel
      ? input.sharedModel
      : resolveModel(ownModel ?? shared.any('model'), context.bridge.models);
  if (model !== input.sharedModel) warnings.push(...model.warnings);
  const setup: ToolSetup = { tools, owner, requestId: request.id, timeoutSeconds, records: [] };
  const decisionRequest: DecisionRequest = { situation, options, tools: localClientTools(context, setup) };
  if (actor) decisionRequest.actor = actor;
  if (facts !== undefined) decisionRequest.facts = facts;
  if (toolChoice !== undefined) decisionRequest.toolChoice = toolChoice;
  if (fallback !== undefined) decisionRequest.fallback = fallback;
  // Options, ids and the fallback: −32602 before any model call.
  readingParams(() => checkDecision(decisionRequest));
  const metered = new MeteredModel(model.model);
  const engine = new DecisionEngine(metered, engineSettings);
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
}
