/**
 * Models on the wire: `"system"` is the host's own model (absent → every turn fails with
 * model_unavailable), `{"type":"scripted","steps":[…],"fallback"?}` plays an open-apple-models
 * native script (reference §3.7), and any other `{"type": …}` goes to the host's modelFactory.
 */
import { AgentError } from '../contract/errors';
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
import { ScriptedLanguageModel, type NativeScript } from '../scripted/scripted-model';
import { invalidParams, readingParams } from './errors';
import { isRecord } from './params';
import { shown } from './shown';

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
    throw new AgentError(
      'model_unavailable',
      'The host gave the bridge no system model; use a scripted model or another type.',
    );
  }

  availability(): Promise<ModelAvailability> {
    return Promise.resolve({ status: 'unavailable', reason: 'unknown', detail: 'no system model' });
  }
}

export function resolveModel(raw: unknown, sources: ModelSources): ResolvedModel {
  if (raw === undefined || raw === null || raw === 'system') {
    if (sources.systemModel) return { model: sources.systemModel, name: 'system', warnings: [] };
    return {
      model: new UnavailableModel(),
      name: 'system',
      warnings: ['The system model is not available: turns will fail with model_unavailable.'],
    };
  }
  const spec = raw === 'scripted' ? { type: 'scripted' } : raw;
  if (!isRecord(spec) || typeof spec.type !== 'string') {
    throw invalidParams('params.model must be "system", "scripted" or an object with a "type".');
  }
  const custom = sources.modelFactory ? sources.modelFactory(spec) : undefined;
  if (custom) return { model: custom, name: spec.type, warnings: [] };
  if (spec.type !== 'scripted') throw invalidParams(`Unknown model type "${shown(spec.type)}".`);
  if (!sources.allowsScriptedModels) throw invalidParams('This host does not allow scripted models.');
  // The scripted model reads the script itself (a bad step is invalid_request naming it: −32602 here).
  const script = spec as unknown as NativeScript;
  return { model: readingParams(() => ScriptedLanguageModel.fromNativeScript(script)), name: 'scripted', warnings: [] };
}

/** Counts the tokens a request spends (the backend's figures, else the runtime's estimate). */
export class MeteredModel implements LanguageModel {
  readonly usage: TokenUsage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };

  countTokens?: (text: string) => Promise<number | null>;

  constructor(private readonly inner: LanguageModel) {
    // Exact counts stay available to the agent's budget (on Android each is a bridge round trip).
    const count = inner.countTokens;
    if (count) this.countTokens = (text) => count.call(inner, text);
  }

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
      const used = reported ?? {
        inputTokens: estimateTokens(input),
        cachedInputTokens: 0,
        outputTokens: estimateTokens(text),
      };
      this.usage.inputTokens += used.inputTokens;
      this.usage.cachedInputTokens += used.cachedInputTokens;
      this.usage.outputTokens += used.outputTokens;
    }
  }
}
