/**
 * Models on the wire: `"system"` is the host's own model (absent → every turn fails with
 * model_unavailable), `{"type":"scripted","steps":[…],"fallback"?}` plays an open-apple-models
 * native script (reference §3.7), and any other `{"type": …}` goes to the host's modelFactory.
 */
import { AgentError, isAgentErrorCode } from '../contract/errors';
import type { SignalLike } from '../contract/abort';
import {
  DEFAULT_CAPABILITIES,
  estimateTokens,
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
  type ModelAvailability,
  type TokenUsage,
} from '../contract/language-model';
import { Script, ScriptedLanguageModel, type ScriptStep } from '../scripted/scripted-model';
import { invalidParams, readingParams } from './errors';
import { isRecord } from './params';

/** Builds a model for a custom `{"type": …}` spec; undefined leaves the spec to the bridge. */
export type ModelFactory = (spec: Record<string, unknown>) => LanguageModel | undefined;

export interface ModelSources {
  systemModel?: LanguageModel;
  modelFactory?: ModelFactory;
  allowsScriptedModels: boolean;
}

export interface ResolvedModel {
  model: LanguageModel;
  /** What `session/list` and `npc/list` show: "system", "scripted" or the custom type. */
  name: string;
  warnings: string[];
}

/** Stands in for an absent system model: turns fail with model_unavailable, nothing else does. */
export class UnavailableModel implements LanguageModel {
  readonly capabilities = { ...DEFAULT_CAPABILITIES, modelName: 'none' };

  // eslint-disable-next-line require-yield
  async *generate(): AsyncGenerator<GenerationChunk> {
    throw new AgentError('model_unavailable', 'The host gave the bridge no system model; use a scripted model or another type.');
  }

  availability(): Promise<ModelAvailability> {
    return Promise.resolve({ status: 'unavailable', reason: 'unknown', detail: 'no system model' });
  }
}

export function resolveModel(raw: unknown, sources: ModelSources): ResolvedModel {
  if (raw === undefined || raw === null || raw === 'system') {
    if (sources.systemModel) return { model: sources.systemModel, name: 'system', warnings: [] };
    return { model: new UnavailableModel(), name: 'system', warnings: ['The system model is not available: turns will fail with model_unavailable.'] };
  }
  const spec = raw === 'scripted' ? { type: 'scripted' } : raw;
  if (!isRecord(spec) || typeof spec.type !== 'string') {
    throw invalidParams('params.model must be "system", "scripted" or an object with a "type".');
  }
  const custom = sources.modelFactory ? sources.modelFactory(spec) : undefined;
  if (custom) return { model: custom, name: spec.type, warnings: [] };
  if (spec.type !== 'scripted') throw invalidParams(`Unknown model type "${spec.type}".`);
  if (!sources.allowsScriptedModels) throw invalidParams('This host does not allow scripted models.');
  return { model: readingParams(() => scriptedModel(spec)), name: 'scripted', warnings: [] };
}

type NativeScriptReader = (script: Record<string, unknown>) => ScriptedLanguageModel;

/** The scripted model's own reader of native scripts, when this build has it. */
function nativeReader(): NativeScriptReader | undefined {
  const reader = (ScriptedLanguageModel as unknown as { fromNativeScript?: NativeScriptReader }).fromNativeScript;
  return typeof reader === 'function' ? reader.bind(ScriptedLanguageModel) : undefined;
}

function scriptedModel(spec: Record<string, unknown>): ScriptedLanguageModel {
  const reader = nativeReader();
  if (reader) return reader(spec);
  return playNativeScript(spec);
}

/**
 * A stop-gap reader of native scripts, used only while ScriptedLanguageModel has no
 * fromNativeScript: each call of a `toolCalls` step answers one decide step, and an answer
 * step answers whatever step comes (as the reply of a decide step).
 */
function playNativeScript(spec: Record<string, unknown>): ScriptedLanguageModel {
  const steps = spec.steps === undefined ? [] : spec.steps;
  if (!Array.isArray(steps)) throw new AgentError('invalid_request', 'A scripted model\'s steps must be a list.');
  const played = steps.flatMap((step, index) => nativeSteps(step, `steps[${index}]`));
  const fallback = spec.fallback === undefined ? undefined : nativeSteps(spec.fallback, 'fallback')[0];
  return new ScriptedLanguageModel(played, fallback ? { fallback } : {});
}

function nativeSteps(raw: unknown, where: string): ScriptStep[] {
  if (!isRecord(raw)) throw new AgentError('invalid_request', `Scripted model ${where} must be an object.`);
  const delay = raw.delayMs;
  if (delay !== undefined && !(typeof delay === 'number' && delay >= 0)) {
    throw new AgentError('invalid_request', `Scripted model ${where}.delayMs must be a number ≥ 0.`);
  }
  const withDelay = (step: ScriptStep): ScriptStep => (delay ? Script.delay(delay as number, step) : step);
  if (Array.isArray(raw.toolCalls)) {
    return raw.toolCalls.map((call, index) => {
      if (!isRecord(call) || typeof call.name !== 'string') {
        throw new AgentError('invalid_request', `Scripted model ${where}.toolCalls[${index}] needs a name.`);
      }
      const args = isRecord(call.arguments) ? call.arguments : {};
      return withDelay(Script.dynamic((request) => (request.kind === 'toolArguments'
        ? JSON.stringify(args) : JSON.stringify({ tool: call.name, args }))));
    });
  }
  if (typeof raw.error === 'string') {
    if (!isAgentErrorCode(raw.error)) throw new AgentError('invalid_request', `Scripted model ${where}.error "${raw.error}" is not an error code.`);
    return [withDelay(Script.fail(raw.error, typeof raw.message === 'string' ? raw.message : undefined))];
  }
  if ('json' in raw) return [withDelay(Script.dynamic((request) => answer(request, raw.json, true)))];
  if (typeof raw.text === 'string') {
    const text = raw.text;
    return [withDelay(Script.dynamic((request) => answer(request, text, false)))];
  }
  if (typeof raw.template === 'string') return [withDelay(Script.template(raw.template))];
  throw new AgentError('invalid_request', `Scripted model ${where} must be a text, json, template, toolCalls or error step.`);
}

function answer(request: GenerationRequest, value: unknown, isJson: boolean): string {
  if (request.kind === 'decide') return JSON.stringify({ reply: value });
  return isJson ? JSON.stringify(value) : String(value);
}

/** Counts the tokens a request spends (the backend's figures, else the runtime's estimate). */
export class MeteredModel implements LanguageModel {
  readonly usage: TokenUsage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };

  constructor(private readonly inner: LanguageModel) {}

  get capabilities() {
    return this.inner.capabilities;
  }

  availability(): Promise<ModelAvailability> {
    return this.inner.availability();
  }

  async *generate(request: GenerationRequest, signal?: SignalLike): AsyncGenerator<GenerationChunk> {
    let reported: TokenUsage | undefined;
    let text = '';
    try {
      for await (const chunk of this.inner.generate(request, signal)) {
        text = chunk.text;
        if (chunk.usage) reported = chunk.usage;
        yield chunk;
      }
    } finally {
      const input = `${request.systemInstruction ?? ''}${request.promptPrefix ?? ''}${request.prompt}`;
      const used = reported ?? { inputTokens: estimateTokens(input), cachedInputTokens: 0, outputTokens: estimateTokens(text) };
      this.usage.inputTokens += used.inputTokens;
      this.usage.cachedInputTokens += used.cachedInputTokens;
      this.usage.outputTokens += used.outputTokens;
    }
  }
}
