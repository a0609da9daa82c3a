/**
 * Picks one of the game's options for a character ("attack", "flee", "beg"): the answer is
 * always one of the given ids or the fallback. Options are checked before any model call, and
 * a single option needs no model call at all.
 */
import { AgentError } from '../../contract/errors';
import { Canceller, linkSignal, type SignalLike } from '../../contract/abort';
import { Agent, type ToolChoice } from '../../core/agent';
import { JsonSchema } from '../../core/schema';
import type { LanguageModel } from '../../contract/language-model';
import { checkImageInput, type ImageInput } from '../../contract/image-input';
import { normalizePersona, type Persona } from '../persona';
import { factsLine } from '../facts';
import { setOwnKey } from '../../core/json';
import { readSnapshot, type AgentTool } from '../../core/tools';
import { trimEndChars, trimStartChars } from '../trim-chars';
import { checkWeighting, chooseByWeight, type WeightedOption } from './weighted-choice';

export interface DecisionOption extends WeightedOption {
  id: string;
  description: string;
}

export interface DecisionRequest {
  situation: string;
  options: DecisionOption[];
  /** Who decides: their role, personality and goals shape the choice. */
  actor?: Persona;
  /** Facts the model may use, shown as compact JSON. */
  facts?: unknown;
  /** A picture the character looks at (the badge a player holds up), for a model that takes images. */
  image?: ImageInput;
  tools?: AgentTool[];
  toolChoice?: ToolChoice;
  /** Returned (as a fallback) when the model cannot give a usable answer or the time budget runs out. */
  fallback?: string;
  /** Time budget (ms) after which the fallback is used (needs `fallback`). */
  timeoutMs?: number;
  signal?: SignalLike;
}

export interface Decision {
  optionId: string;
  reason: string;
  /** 0–100. */
  confidence: number;
  isFallback: boolean;
  modelCalls: number;
}

export interface DecisionEngineOptions {
  instructions?: string;
  temperature?: number;
  maxToolRounds?: number;
  /** 'none' (default): the id only, the fastest; 'after': the id first, then one short sentence and a confidence. */
  reason?: 'after' | 'none';
  /**
   * true (default): a lookup that can say in advance what it would return (`snapshot`, as the
   * world-state reader does) and says little (≤ 600 characters) goes into the prompt as facts
   * instead of costing a model call.
   */
  prefetchLookups?: boolean;
  inlineReplies?: boolean;
  /** Scheduler priority (default 50). */
  priority?: number;
  /**
   * Asked before each decision: true picks by the options' weights and conditions with no model
   * call (a shipped build with no model on this device; DecisionComponent asks OamRuntime).
   */
  withoutModel?: () => boolean | Promise<boolean>;
  /** The chance source of a decision without a model (default Math.random; tests give their own). */
  random?: () => number;
}

export type DecisionResult = { ok: true; decision: Decision } | { ok: false; error: AgentError };

const UNUSABLE = new Set([
  'guardrail_violation',
  'refusal',
  'generation_failed',
  'rate_limited',
  'busy',
  'model_unavailable',
  'tool_failed',
  'unsupported_language',
]);

export class DecisionEngine {
  /** Compiled once: compiling a validator costs ~1 ms. */
  private answerSchema: JsonSchema | undefined;

  constructor(
    readonly model: LanguageModel,
    private readonly options: DecisionEngineOptions = {},
  ) {}

  async decide(request: DecisionRequest): Promise<Decision> {
    const ids = checkDecision(request);
    if (ids.length === 1)
      return { optionId: ids[0], reason: 'It is the only option.', confidence: 100, isFallback: false, modelCalls: 0 };
    if (this.options.withoutModel && (await this.options.withoutModel())) {
      if (request.signal?.aborted)
        throw request.signal.reason instanceof AgentError
          ? request.signal.reason
          : new AgentError('cancelled', 'The decision was cancelled.');
      const picked = chooseByWeight(request.options, { facts: request.facts, random: this.options.random });
      const confidence = Math.round(picked.chance * 100);
      return { optionId: picked.id, reason: '', confidence, isFallback: true, modelCalls: 0 };
    }

    // Everything that can reject the request runs before the timer and the signal link exist.
    const prefetched = this.prefetch(request.tools ?? []);
    const tools = (request.tools ?? []).filter((tool) => !prefetched.names.has(tool.name));
    const agent = this.agentFor(request, tools);
    const prompt = decisionPrompt(request, prefetched.facts);
    const canceller = new Canceller();
    const unlink = linkSignal(request.signal, canceller);
    let timer: unknown;
    let timedOut = false;
    if (request.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        timedOut = true;
        canceller.abort(new AgentError('cancelled', 'The decision ran out of time.'));
      }, request.timeoutMs);
    }
    let calls = 0;
    try {
      const forced =
        request.toolChoice !== undefined && typeof request.toolChoice === 'object'
          ? request.toolChoice.tool
          : undefined;
      const run = agent.run(prompt, {
        schema: this.schema(),
        refine: (value) =>
          matchOption((value as { choice?: unknown }).choice, ids) === undefined
            ? `"choice" must be one of the option ids: ${ids.join(', ')}`
            : undefined,
        toolChoice:
          forced && prefetched.names.has(forced)
            ? 'none'
            : (request.toolChoice ?? (tools.length > 0 ? 'auto' : 'none')),
        signal: canceller.signal,
        images: request.image !== undefined ? [request.image] : undefined,
      });
      run.on('step', () => {
        calls++;
      });
      const response = await run.response();
      const value = response.structured as {
        choice: string;
        reason?: unknown;
        reasoning?: unknown;
        confidence?: number;
      };
      const optionId = matchOption(value.choice, ids);
      if (optionId === undefined)
        throw new AgentError('generation_failed', `The answer "${value.choice}" is not one of the options.`);
      return {
        optionId,
        reason: typeof value.reason === 'string' ? value.reason.trim() : '',
        confidence: clampConfidence(value.confidence),
        isFallback: false,
        modelCalls: calls,
      };
    } catch (caught) {
      const error = AgentError.from(caught);
      const outOfTime = timedOut && !(request.signal && request.signal.aborted);
      if (request.fallback !== undefined && !error.unexpected && (outOfTime || UNUSABLE.has(error.code))) {
        return { optionId: request.fallback, reason: '', confidence: 0, isFallback: true, modelCalls: calls };
      }
      throw error;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      unlink();
    }
  }

  /** Decides several at once with bounded concurrency; results in request order, failures isolated. */
  async decideMany(requests: DecisionRequest[], concurrency = 2): Promise<DecisionResult[]> {
    if (!(concurrency >= 1)) throw new AgentError('invalid_request', 'concurrency must be at least 1.');
    const results: DecisionResult[] = new Array(requests.length);
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const index = next++;
        try {
          results[index] = { ok: true, decision: await this.decide(requests[index]) };
        } catch (caught) {
          results[index] = { ok: false, error: AgentError.from(caught) };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
    return results;
  }

  /**
   * One answer schema for every option list: the ids are in the prompt, not the stable prefix,
   * so decisions with different options share the device's prefix cache (the answer is matched
   * to the ids when read).
   */
  private schema(): JsonSchema {
    if (this.answerSchema) return this.answerSchema;
    const props: Record<string, JsonSchema> = {
      choice: JsonSchema.string({ description: 'one option id' }),
    };
    const after = this.options.reason === 'after';
    if (after) {
      props.reason = JsonSchema.string({ description: 'why, in one short sentence' });
      props.confidence = JsonSchema.integer({ description: 'how sure you are, 0 to 100' });
    }
    // The seed's key for the reason, `reasoning`, is read as `reason` (the coercer renames a
    // missing key's near miss), so a seed-style answer is not refused into the fallback.
    this.answerSchema = JsonSchema.obj(props, { optional: after ? ['confidence'] : [] });
    return this.answerSchema;
  }

  /** Small lookups read now, as facts for the prompt, and the names of the tools they replace. */
  private prefetch(tools: readonly AgentTool[]): { facts: Record<string, unknown>; names: Set<string> } {
    const facts: Record<string, unknown> = {};
    const names = new Set<string>();
    if (this.options.prefetchLookups === false) return { facts, names };
    for (const tool of tools) {
      const snapshot = readSnapshot(tool);
      if (!snapshot) continue;
      const { value } = snapshot;
      const entries =
        value !== null && typeof value === 'object' && !Array.isArray(value)
          ? Object.entries(value as Record<string, unknown>)
          : [[tool.name, value] as [string, unknown]];
      for (const [key, factValue] of entries) setOwnKey(facts, key, factValue);
      names.add(tool.name);
    }
    return { facts, names };
  }

  private agentFor(request: DecisionRequest, tools: AgentTool[]): Agent {
    const actor = request.actor ? normalizePersona(request.actor) : undefined;
    const lines = [
      this.options.instructions ??
        `You decide what ${actor ? actor.name : 'a character'} does next in a video game, in character.`,
    ];
    if (actor) {
      if (actor.role) lines.push(`Role: ${actor.role}`);
      if (actor.personality) lines.push(`Personality: ${actor.personality}`);
      if (actor.goals.length > 0) lines.push(`Goals: ${actor.goals.join('; ')}`);
    }
    return new Agent(this.model, {
      instructions: lines.join('\n'),
      tools,
      config: {
        labels: { user: 'Game', assistant: actor ? actor.name.replace(/[:\n]/g, ' ') : 'Character' },
        temperature: this.options.temperature,
        toolPolicy: { maxToolRounds: this.options.maxToolRounds ?? 2 },
        inlineReplies: this.options.inlineReplies ?? true,
        // The id first, as plain words: the decision is known at its first token or two.
        replyLineField: 'choice',
        priority: this.options.priority ?? 50,
        label: actor ? `${actor.name} (decision)` : 'decision',
      },
    });
  }
}

/** Validates a request before any model call; returns the option ids. */
export function checkDecision(request: DecisionRequest): string[] {
  if (!request || typeof request.situation !== 'string' || !request.situation.trim()) {
    throw new AgentError('invalid_request', 'decide() needs a situation (what is happening).');
  }
  if (request.image !== undefined) checkImageInput(request.image, 'image');
  if (!Array.isArray(request.options) || request.options.length === 0) {
    throw new AgentError('invalid_request', 'decide() needs at least one option ({id, description}).');
  }
  const ids: string[] = [];
  request.options.forEach((option, index) => {
    const id = option && typeof option.id === 'string' ? option.id.trim() : '';
    if (!id) throw new AgentError('invalid_request', `options[${index}].id must be a non-empty string.`);
    if (typeof option.description !== 'string')
      throw new AgentError('invalid_request', `options[${index}].description must be a string.`);
    if (ids.indexOf(id) >= 0)
      throw new AgentError('invalid_request', `Option id "${id}" appears twice; ids must be unique.`);
    checkWeighting(option, `options[${index}]`);
    ids.push(id);
  });
  if (request.fallback !== undefined && ids.indexOf(request.fallback) < 0) {
    throw new AgentError(
      'invalid_request',
      `fallback "${request.fallback}" is not one of the option ids (${ids.join(', ')}).`,
    );
  }
  if (request.timeoutMs !== undefined && !(request.timeoutMs > 0)) {
    throw new AgentError('invalid_request', 'timeoutMs must be a positive number of milliseconds.');
  }
  if (request.timeoutMs !== undefined && request.fallback === undefined) {
    throw new AgentError('invalid_request', 'timeoutMs needs a fallback option to use when the time runs out.');
  }
  return ids;
}

function decisionPrompt(request: DecisionRequest, prefetched: Record<string, unknown>): string {
  const lines = [`Situation: ${request.situation.trim()}`];
  if (request.facts !== undefined) lines.push(factsLine(request.facts));
  if (Object.keys(prefetched).length > 0) lines.push(factsLine(prefetched));
  lines.push('Options:');
  for (const option of request.options) lines.push(`- ${option.id.trim()}: ${option.description.trim()}`);
  return lines.join('\n');
}

/** What a model wraps an option id in: markdown, quotes, brackets, a closing full stop. */
const WRAPPERS_BEFORE = ' \t\r\f\v\u00a0*_`"\'“”‘’([';
const WRAPPERS_AFTER = ' \t\r\f\v\u00a0*_`"\'“”‘’)].!,;:';

/**
 * The option an answer names. Written as plain words, a small model decorates the id
 * (`Flee.`, `**flee**`, `` `flee` ``, `choice: flee`, a reason on the next line): those are read
 * as the id; failing that, the one id the answer's first line names as a whole word.
 */
export function matchOption(choice: unknown, ids: readonly string[]): string | undefined {
  if (typeof choice !== 'string') return undefined;
  if (ids.indexOf(choice) >= 0) return choice;
  const firstLine = choice.trim().split('\n')[0];
  const labelled = firstLine.replace(/^\s*(?:choice|option|answer|decision)\s*[:=-]\s*/i, '');
  const bare = trimEndChars(trimStartChars(labelled, WRAPPERS_BEFORE), WRAPPERS_AFTER).toLowerCase();
  const exact = ids.find((id) => id.toLowerCase() === bare);
  if (exact) return exact;
  const named = ids.filter((id) =>
    new RegExp(`(^|[^\\w])${id.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w]|$)`).test(
      firstLine.toLowerCase(),
    ),
  );
  return named.length === 1 ? named[0] : undefined;
}

function clampConfidence(value: unknown): number {
  const confidence = typeof value === 'number' && isFinite(value) ? value : 50;
  return Math.max(0, Math.min(100, Math.round(confidence)));
}
