/**
 * The history's turns as the prompt shows them, each rendered and estimated once: an entry never
 * changes once it is in the history, so a step at turn 1,000 renders only what is new instead of
 * every old turn again (which made each step's cost grow with the conversation).
 */
import { estimateTokens } from '../../contract/language-model';
import { splitTurns, type TranscriptEntry } from '../transcript';
import type { AgentLabels } from './policy';
import { entryLines } from './render-conversation';

export interface RenderedHistoryTurn {
  /** The turn's lines, joined by line breaks. */
  text: string;
  /** Its estimated tokens. */
  tokens: number;
}

/** What a turn's rendering depends on besides its entries. */
export interface TurnRendering {
  labels: AgentLabels;
  maxOutputChars: number;
  renderStructured: (value: unknown) => string;
}

interface CachedTurn extends RenderedHistoryTurn {
  entries: number;
  user: string;
  assistant: string;
  maxOutputChars: number;
  renderStructured: (value: unknown) => string;
}

/** Keyed by a turn's first entry: the same object for as long as the turn is in a history. */
const cache = new WeakMap<TranscriptEntry, CachedTurn>();

export function renderedHistoryTurns(
  history: readonly TranscriptEntry[],
  rendering: TurnRendering,
): RenderedHistoryTurn[] {
  return splitTurns(history).map((turn) => renderedTurn(turn, rendering));
}

function renderedTurn(turn: readonly TranscriptEntry[], rendering: TurnRendering): RenderedHistoryTurn {
  const { labels, maxOutputChars, renderStructured } = rendering;
  const hit = cache.get(turn[0]);
  if (
    hit &&
    hit.entries === turn.length &&
    hit.user === labels.user &&
    hit.assistant === labels.assistant &&
    hit.maxOutputChars === maxOutputChars &&
    hit.renderStructured === renderStructured
  )
    return hit;
  const text = entryLines({ entries: turn, labels, maxOutputChars, renderStructured }).join('\n');
  const rendered: CachedTurn = {
    text,
    tokens: estimateTokens(text),
    entries: turn.length,
    user: labels.user,
    assistant: labels.assistant,
    maxOutputChars,
    renderStructured,
  };
  cache.set(turn[0], rendered);
  return rendered;
}
