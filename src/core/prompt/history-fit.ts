/**
 * How much of the history a step's prompt can show: whole oldest turns are dropped until the
 * prompt fits the model's input budget, estimated first and counted exactly only near the limit
 * (each exact count is a bridge round trip on a phone). A prompt that cannot fit, even with only
 * the turns that are always kept, is context_size_exceeded.
 */
import { AgentError } from '../../contract/errors';
import type { SignalLike } from '../../contract/abort';
import { estimateTokens, type LanguageModel } from '../../contract/language-model';
import type { ContextPolicy } from './policy';
import type { RenderedHistoryTurn } from './rendered-history';
import type { TokenCounter } from './token-counter';

/** Tokens a turn's estimate may miss where turns are joined (word boundaries at the joins). */
const FRAMING_SLACK = 2;

/** Exact token counts per step while trimming (each is a bridge round trip on a phone). */
const MAX_EXACT_COUNTS = 3;

export interface HistoryFitInput {
  turns: readonly RenderedHistoryTurn[];
  /** The changing part of the prompt with the history from the turn given on. */
  compose: (fromTurn: number) => string;
  /** The stable prefix's text (system instruction and prompt prefix), counted with the prompt. */
  stableText: string;
  /** Input tokens the prompt may take. */
  budget: number;
  context: ContextPolicy;
  model: LanguageModel;
  counter: TokenCounter;
  signal?: SignalLike;
}

/** The prompt that fits: the oldest turn it shows, its text and its tokens, stable prefix included. */
export interface HistoryFit {
  from: number;
  prompt: string;
  total: number;
}

export async function fitHistory(input: HistoryFitInput): Promise<HistoryFit> {
  const { turns, compose, stableText, budget, context, model, counter, signal } = input;
  const stableTokens = estimateTokens(stableText);
  // The last turns the model always sees, even when they do not fit (then the turn fails).
  const keep = Math.min(context.minimumRecentTurns, turns.length);
  // Everything but the history's turns, estimated once; a turn adds its own estimate and a line break.
  const fixed = stableTokens + estimateTokens(compose(turns.length)) + FRAMING_SLACK;
  let historyTokens = 0;
  // A turn's line break is estimated at 1.2 and each turn's estimate rounds alone: 2 covers both.
  for (const turn of turns) historyTokens += turn.tokens + 2;
  // The oldest turn kept when the estimate is scaled by `scale`: linear, from the turns' own
  // estimates, so the prompt is composed once from there, never once per dropped turn.
  const fitFrom = (scale: number): number => {
    if (!context.trimsHistory) return 0;
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
  if (total > budget) throw overBudget({ total, budget, keep, context, hasTurns: turns.length > 0 });
  return { from, prompt, total };
}

function overBudget({
  total,
  budget,
  keep,
  context,
  hasTurns,
}: {
  total: number;
  budget: number;
  keep: number;
  context: ContextPolicy;
  hasTurns: boolean;
}): AgentError {
  if (!context.trimsHistory && hasTurns) {
    return new AgentError(
      'context_size_exceeded',
      `The prompt needs about ${total} tokens but the model takes ${budget}; enable context.trimsHistory or compact the history.`,
    );
  }
  const kept = keep > 0 ? ` with the last ${keep} turn${keep === 1 ? '' : 's'} kept (context.minimumRecentTurns)` : '';
  return new AgentError(
    'context_size_exceeded',
    `This turn${kept} needs about ${total} input tokens; the model takes ${budget}. Shorten the instructions, tools or the message, or compact the history.`,
  );
}
