/**
 * Generated game content (an item, a quest, loot) as JSON valid against the game's schema,
 * keys in schema order: validated, repaired once, then `generation_failed` or an authored
 * fallback.
 */
import { AgentError } from '../../contract/errors';
import type { SignalLike } from '../../contract/abort';
import { Agent, type ToolChoice } from '../../core/agent';
import type { AgentTool } from '../../core/tools';
import { JsonSchema } from '../../core/schema';
import type { LanguageModel } from '../../contract/language-model';
import { factsLine } from '../facts';

export interface ContentRequest {
  prompt: string;
  schema: JsonSchema | Record<string, unknown>;
  /** Facts the content must respect, shown as compact JSON. */
  facts?: unknown;
  tools?: AgentTool[];
  toolChoice?: ToolChoice;
  instructions?: string;
  /** Returned instead of failing when the model cannot produce valid content (must itself be valid). */
  fallback?: unknown;
  signal?: SignalLike;
}

export interface ContentResult<T = unknown> {
  value: T;
  isFallback: boolean;
  modelCalls: number;
}

export interface ContentGeneratorOptions {
  instructions?: string;
  temperature?: number;
  inlineReplies?: boolean;
  /** Scheduler priority (default 40). */
  priority?: number;
}

const DEFAULT_INSTRUCTIONS = 'You write short, vivid content for a video game. Follow the requested format exactly.';

export class ContentGenerator {
  constructor(
    readonly model: LanguageModel,
    private readonly options: ContentGeneratorOptions = {},
  ) {}

  async generate<T = unknown>(request: ContentRequest): Promise<ContentResult<T>> {
    if (!request || typeof request.prompt !== 'string' || !request.prompt.trim()) {
      throw new AgentError('invalid_request', 'generate() needs a prompt (what to write).');
    }
    const schema = request.schema instanceof JsonSchema ? request.schema : JsonSchema.from(request.schema);
    let fallback: unknown;
    if (request.fallback !== undefined) {
      const checked = schema.check(request.fallback);
      if (!checked.ok)
        throw new AgentError('invalid_request', `The fallback content does not fit the schema: ${checked.problem}.`);
      fallback = checked.value;
    }
    const tools = request.tools ?? [];
    const agent = new Agent(this.model, {
      instructions: request.instructions ?? this.options.instructions ?? DEFAULT_INSTRUCTIONS,
      tools,
      config: {
        labels: { user: 'Game', assistant: 'Writer', writes: 'content' },
        temperature: this.options.temperature,
        inlineReplies: this.options.inlineReplies ?? true,
        priority: this.options.priority ?? 40,
        label: 'content',
      },
    });
    const prompt =
      request.facts !== undefined ? `${request.prompt.trim()}\n${factsLine(request.facts)}` : request.prompt.trim();
    let calls = 0;
    try {
      const run = agent.run(prompt, {
        schema,
        toolChoice: request.toolChoice ?? (tools.length > 0 ? 'auto' : 'none'),
        signal: request.signal,
      });
      run.on('step', () => {
        calls++;
      });
      const response = await run.response();
      return { value: response.structured as T, isFallback: false, modelCalls: calls };
    } catch (caught) {
      const error = AgentError.from(caught);
      if (
        fallback !== undefined &&
        !error.unexpected &&
        error.code !== 'cancelled' &&
        error.code !== 'invalid_request' &&
        error.code !== 'invalid_schema'
      ) {
        return { value: fallback as T, isFallback: true, modelCalls: calls };
      }
      throw error;
    }
  }
}
