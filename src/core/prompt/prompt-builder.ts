/**
 * Builds each step's request: the stable prefix (system instruction + catalog), then the
 * changing part (context note, conversation, this turn's tool results, a short task line),
 * trimmed to the model's input budget by dropping whole oldest turns.
 */
import { AgentError } from '../../contract/errors';
import { raceSignal, type SignalLike } from '../../contract/abort';
import type { GenerationRequest, LanguageModel, StepKind } from '../../contract/language-model';
import { estimateTokens } from '../../contract/language-model';
import type { PromptSettings } from './policy';
import type { TranscriptEntry } from '../transcript';
import { entryLines, renderStructuredPlain } from './render-conversation';
import { renderedHistoryTurns } from './rendered-history';

export interface StablePrompt {
  systemInstruction?: string;
  promptPrefix?: string;
}

export interface StepPromptInput {
  kind: StepKind;
  history: readonly TranscriptEntry[];
  /** This turn so far: its prompt entry and tool uses. */
  current: readonly TranscriptEntry[];
  contextNote: string;
  task: string;
  /** True when the prompt may be sent raw (first plain turn: no history, tools or note). */
  raw?: boolean;
}

/** Tokens a turn's estimate may miss where turns are joined (word boundaries at the joins). */
const FRAMING_SLACK = 2;

/** Exact token counts per step while trimming (each is a bridge round trip on a phone). */
const MAX_EXACT_COUNTS = 3;

export interface BuiltPrompt {
  request: GenerationRequest;
  trimmedTurns: number;
  promptTokens: number;
  cachedTokens: number;
}

/** The prefix split for the model: instructions as system text where supported, else in front. */
export function stablePrompt(instructions: string, toolSection: string, model: LanguageModel): StablePrompt {
  const ins = instructions.trim();
  if (model.capabilities.systemInstructions) {
    return {
      systemInstruction: ins || undefined,
      promptPrefix: toolSection ? `${toolSection}\n\n` : undefined,
    };
  }
  const joined = [ins, toolSection].filter(Boolean).join('\n\n');
  return { promptPrefix: joined ? `${joined}\n\n` : undefined };
}

/** The most characters of text the counter keeps as cache keys (whole prompts are keys too). */
const MAX_CACHED_CHARS = 200_000;

/**
 * Counts tokens exactly with the model when it can, caching by text (blocks repeat across
 * steps). The cache is bounded by the characters it holds, not only by entries: whole prompts
 * are keys, and a long session must not keep megabytes of old prompts alive.
 */
export class TokenCounter {
  private cache = new Map<string, number>();
  private cachedChars = 0;
  constructor(private readonly model: LanguageModel) {}

  async count(text: string, signal?: SignalLike): Promise<number> {
    if (!text) return 0;
    const hit = this.cache.get(text);
    if (hit !== undefined) return hit;
    let exact: number | null | undefined = null;
    if (this.model.countTokens) {
      try {
        exact = await raceSignal(this.model.countTokens(text), signal);
      } catch (error) {
        if (signal?.aborted) throw error; // cancelled: stop; any other failure: fall back to the estimate
        exact = null;
      }
    }
    const value = typeof exact === 'number' && exact >= 0 ? exact : estimateTokens(text);
    if (this.cache.size >= 256 || this.cachedChars + text.length > MAX_CACHED_CHARS) {
      this.cache.clear();
      this.cachedChars = 0;
    }
    if (text.length <= MAX_CACHED_CHARS) {
      this.cache.set(text, value);
      this.cachedChars += text.length;
    }
    return value;
  }
}

/** What buildStepPrompt works from. */
export interface StepPromptSources {
  input: StepPromptInput;
  stable: StablePrompt;
  settings: PromptSettings;
  model: LanguageModel;
  counter: TokenCounter;
  signal?: SignalLike;
}

export async function buildStepPrompt(sources: StepPromptSources): Promise<BuiltPrompt> {
  const { input, stable, settings: config, model, counter, signal } = sources;
  const rendering = {
    labels: config.labels,
    maxOutputChars: config.context.maxToolOutputChars,
    renderStructured: config.structuredReplyRenderer ?? renderStructuredPlain,
  };
  const turns = renderedHistoryTurns(input.history, rendering);
  const currentLines = entryLines({ entries: input.current, ...rendering }).join('\n');
  const note = input.contextNote.trim();

  const stableText = (stable.systemInstruction ?? '') + (stable.promptPrefix ?? '');
  const stableTokens = estimateTokens(stableText);
  const compose = (fromTurn: number): string => {
    if (input.raw && turns.length === 0 && !note) {
      const first = input.current[0];
      if (first && first.type === 'prompt') return input.task ? `${first.text}\n\n${input.task}` : first.text;
    }
    const parts: string[] = [];
    if (note) parts.push(note);
    const convo = turns
      .slice(fromTurn)
      .map((turn) => turn.text)
      .concat(currentLines ? [currentLines] : []);
    parts.push(`Conversation:\n${convo.join('\n')}`);
    if (input.task) parts.push(input.task);
    return parts.join('\n\n');
  };

  const budget = (config.context.maxInputTokens ?? model.capabilities.maxInputTokens) - config.context.reservedTokens;
  // The last turns the model always sees, even when they do not fit (then the turn fails).
  const keep = Math.min(config.context.minimumRecentTurns, turns.length);
  // Everything but the history's turns, estimated once; a turn adds its own estimate and a line break.
  const fixed = stableTokens + estimateTokens(compose(turns.length)) + FRAMING_SLACK;
  let historyTokens = 0;
  // A turn's line break is estimated at 1.2 and each turn's estimate rounds alone: 2 covers both.
  for (const turn of turns) historyTokens += turn.tokens + 2;
  // The oldest turn kept when the estimate is scaled by `scale`: linear, from the turns' own
  // estimates, so the prompt is composed once from there, never once per dropped turn.
  const fitFrom = (scale: number): number => {
    if (!config.context.trimsHistory) return 0;
    let kept = historyTokens;
    let index = 0;
    while (index < turns.length - keep && Math.ceil((fixed + kept) * scale) > budget) {
      kept -= turns[index].tokens + 2;
      index++;
    }
    return index;
  };
  let from = fitFrom(1);
  let prompt = compose(from);
  let total = stableTokens + estimateTokens(prompt);
  // Exact counting only near the limit: it costs a bridge round trip per new text. The estimate
  // is then scaled by the last exact count (it errs high, so more turns may fit than it thought,
  // or fewer), and the result is counted again, at most MAX_EXACT_COUNTS times per step.
  for (let exactCounts = 0; model.countTokens && exactCounts < MAX_EXACT_COUNTS;) {
    if (exactCounts === 0 && total <= budget * 0.6) break;
    const estimate = stableTokens + estimateTokens(prompt);
    total = (await counter.count(stableText, signal)) + (await counter.count(prompt, signal));
    exactCounts++;
    const next = fitFrom(total / Math.max(1, estimate));
    // Out of counts, a prompt that fits stays as counted rather than grow uncounted.
    if (next === from || (next < from && exactCounts >= MAX_EXACT_COUNTS)) break;
    from = next;
    prompt = compose(from);
    total = Math.ceil((stableTokens + estimateTokens(prompt)) * (total / Math.max(1, estimate)));
  }
  if (total > budget) {
    if (!config.context.trimsHistory && turns.length > 0) {
      throw new AgentError(
        'context_size_exceeded',
        `The prompt needs about ${total} tokens but the model takes ${budget}; enable context.trimsHistory or compact the history.`,
      );
    }
    const kept =
      keep > 0 ? ` with the last ${keep} turn${keep === 1 ? '' : 's'} kept (context.minimumRecentTurns)` : '';
    throw new AgentError(
      'context_size_exceeded',
      `This turn${kept} needs about ${total} input tokens; the model takes ${budget}. Shorten the instructions, tools or the message, or compact the history.`,
    );
  }
  const request: GenerationRequest = { kind: input.kind, prompt };
  if (stable.systemInstruction) request.systemInstruction = stable.systemInstruction;
  if (stable.promptPrefix) request.promptPrefix = stable.promptPrefix;
  return { request, trimmedTurns: from, promptTokens: total, cachedTokens: stableTokens };
}
