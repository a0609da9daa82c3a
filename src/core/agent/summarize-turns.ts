/**
 * The summary step of history compaction: old turns written out as the conversation lines a
 * prompt shows, summarised by one bounded model call into whole sentences.
 */
import { playerText } from '../player-text/player-text';
import { wholeSentences } from '../player-text/whole-sentences';
import { AgentError } from '../../contract/errors';
import type { SignalLike } from '../../contract/abort';
import type { LanguageModel } from '../../contract/language-model';
import { generateText } from '../../contract/language-model';
import { entryLines, renderStructuredPlain } from '../prompt/render-conversation';
import type { TranscriptEntry } from '../transcript';
import type { AgentConfig } from './config';

export interface CompactOptions {
  keepRecentTurns?: number;
  instructions?: string;
  signal?: SignalLike;
}

/** Output cap of a summary step: the default 120 words fit; 13 s at 15 tokens/s at the very worst. */
const SUMMARY_MAX_TOKENS = 200;

const DEFAULT_SUMMARY_INSTRUCTIONS =
  'Summarise the conversation so far in at most 120 words of plain prose. Keep names, facts, numbers and promises.';

/** What a summary is made of: the turns, the settings that render them, and how to ask. */
export interface SummaryInput {
  turns: TranscriptEntry[][];
  config: AgentConfig;
  options: CompactOptions & { earlierSummary?: string; priority?: number };
}

/** The summary of `turns`, with one model call; an empty summary is generation_failed. */
export async function summarizeTurns(model: LanguageModel, { turns, config, options }: SummaryInput): Promise<string> {
  const render = config.structuredReplyRenderer ?? renderStructuredPlain;
  const lines = turns
    .map((turn) =>
      entryLines({
        entries: turn,
        labels: config.labels,
        maxOutputChars: config.context.maxToolOutputChars,
        renderStructured: render,
      }).join('\n'),
    )
    .join('\n');
  const earlier = options.earlierSummary ? `Earlier summary: ${options.earlierSummary}\n\n` : '';
  const prompt = `${earlier}Conversation:\n${lines}\n\n${options.instructions ?? DEFAULT_SUMMARY_INSTRUCTIONS}`;
  const { text, finishReason } = await generateText(
    model,
    {
      kind: 'summary',
      prompt,
      temperature: config.decisionTemperature,
      // Bounded: a summary runs in the background, but a turn may still wait for its slot (a
      // scheduler preempts it; a bare model does not). 120 words are about 160 tokens.
      maxOutputTokens: SUMMARY_MAX_TOKENS,
      priority: options.priority ?? 0,
      label: config.label,
    },
    options.signal,
  );
  // Cut by the cap, a summary keeps its whole sentences only: half a fact is worse than none.
  const words = playerText(text);
  const summary = finishReason === 'max_tokens' ? wholeSentences(words) : words.trim();
  if (!summary) {
    throw new AgentError(
      'generation_failed',
      finishReason === 'max_tokens'
        ? `The summary was cut off at ${SUMMARY_MAX_TOKENS} tokens before a sentence ended; the history was left as it was (ask for fewer words).`
        : 'The summary came back empty; the history was left as it was.',
    );
  }
  return summary;
}
