/**
 * Generated game content (an item, a quest, loot) as JSON valid against the game's schema,
 * keys in schema order: validated, repaired once, then `generation_failed` or an authored
 * fallback. A pool of content baked or written ahead of time (each item checked against the
 * schema) answers where no model runs, and when the model cannot: an item not drawn lately.
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
  /**
   * Content made ahead of time (each item valid against the schema): drawn where no model runs
   * (`withoutModel`) and when the model cannot produce valid content, before `fallback`. The item
   * drawn least lately comes first, so a pool of ten gives ten different items in a row.
   */
  pool?: unknown[];
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
  /** Asked before each request: true answers from the request's pool (or fallback) with no model call. */
  withoutModel?: () => boolean | Promise<boolean>;
}

// The format is the prefix's, stated once; saying "follow it exactly" too cost 7 Gemma tokens a call.
const DEFAULT_INSTRUCTIONS = 'You write short, vivid content for a video game.';

export class ContentGenerator {
  /** How many times each pool item was drawn, by its JSON: the least drawn goes next. */
  private readonly drawn = new Map<string, number>();

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
    const pool = checkedPool(schema, request.pool);
    if (this.options.withoutModel && (await this.options.withoutModel())) {
      if (pool.length > 0) return { value: this.draw(pool) as T, isFallback: true, modelCalls: 0 };
      if (fallback !== undefined) return { value: fallback as T, isFallback: true, modelCalls: 0 };
      throw new AgentError('model_unavailable', 'No model runs here and the request has no pool or fallback content.');
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
        (fallback !== undefined || pool.length > 0) &&
        !error.unexpected &&
        error.code !== 'cancelled' &&
        error.code !== 'invalid_request' &&
        error.code !== 'invalid_schema'
      ) {
        return { value: (pool.length > 0 ? this.draw(pool) : fallback) as T, isFallback: true, modelCalls: calls };
      }
      throw error;
    }
  }

  /** The pool item drawn least so far (the first of them); counts it. */
  private draw(pool: unknown[]): unknown {
    let best = pool[0];
    let bestCount = Infinity;
    for (const item of pool) {
      const count = this.drawn.get(JSON.stringify(item)) ?? 0;
      if (count < bestCount) {
        best = item;
        bestCount = count;
      }
    }
    this.drawn.set(JSON.stringify(best), bestCount + 1);
    return JSON.parse(JSON.stringify(best));
  }
}

/** The pool's items checked against the schema (keys in schema order); invalid_request naming the item. */
function checkedPool(schema: JsonSchema, pool: unknown[] | undefined): unknown[] {
  if (pool === undefined) return [];
  if (!Array.isArray(pool)) throw new AgentError('invalid_request', 'pool must be a list of content items.');
  return pool.map((item, index) => {
    const checked = schema.check(item);
    if (!checked.ok)
      throw new AgentError('invalid_request', `pool[${index}] does not fit the schema: ${checked.problem}.`);
    return checked.value;
  });
}
