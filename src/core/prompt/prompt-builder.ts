/**
 * Builds each step's request: the stable prefix (system instruction + catalog), then the
 * changing part (context note, conversation, this turn's tool results, a short task line),
 * trimmed to the model's input budget by dropping whole oldest turns (history-fit.ts).
 */
import type { SignalLike } from '../../contract/abort';
import type { GenerationRequest, LanguageModel, StepKind } from '../../contract/language-model';
import { estimateTokens } from '../../contract/language-model';
import type { PromptSettings } from './policy';
import type { TranscriptEntry } from '../transcript';
import { entryLines, renderStructuredPlain } from './render-conversation';
import { renderedHistoryTurns, type RenderedHistoryTurn } from './rendered-history';
import { fitHistory } from './history-fit';
import type { TokenCounter } from './token-counter';

export { TokenCounter } from './token-counter';

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
  const { input, stable, settings: config, model } = sources;
  const rendering = {
    labels: config.labels,
    maxOutputChars: config.context.maxToolOutputChars,
    renderStructured: config.structuredReplyRenderer ?? renderStructuredPlain,
  };
  const body: PromptBody = {
    input,
    turns: renderedHistoryTurns(input.history, rendering),
    currentLines: entryLines({ entries: input.current, ...rendering }).join('\n'),
    note: input.contextNote.trim(),
  };
  const stableText = (stable.systemInstruction ?? '') + (stable.promptPrefix ?? '');
  const budget = (config.context.maxInputTokens ?? model.capabilities.maxInputTokens) - config.context.reservedTokens;
  const { from, prompt, total } = await fitHistory({
    turns: body.turns,
    compose: (fromTurn) => composePrompt(body, fromTurn),
    stableText,
    budget,
    context: config.context,
    model,
    counter: sources.counter,
    signal: sources.signal,
  });
  const request: GenerationRequest = { kind: input.kind, prompt };
  if (stable.systemInstruction) request.systemInstruction = stable.systemInstruction;
  if (stable.promptPrefix) request.promptPrefix = stable.promptPrefix;
  return { request, trimmedTurns: from, promptTokens: total, cachedTokens: estimateTokens(stableText) };
}

/** What the changing part of a step's prompt is made of, rendered once per step. */
interface PromptBody {
  input: StepPromptInput;
  turns: readonly RenderedHistoryTurn[];
  /** This turn so far, as conversation lines. */
  currentLines: string;
  note: string;
}

/** The changing part: note, the conversation from the history's turn `fromTurn` on, the task line. */
function composePrompt({ input, turns, currentLines, note }: PromptBody, fromTurn: number): string {
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
}
