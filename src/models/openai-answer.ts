/**
 * Reading an OpenAI-compatible server's answer: one SSE event of a streamed completion applied to
 * the stream's progress, the first choice, its refusal and finish reason, token usage, and the
 * errors a broken connection or an unreadable answer become (each naming the server's URL).
 */
import { AgentError } from '../contract/errors';
import type { FinishReason, TokenUsage } from '../contract/language-model';
import { agentErrorFromServer, errorObjectOfValue } from './openai-errors';
import type { SseEvent } from './sse';

/** What a streamed answer has given so far. */
export interface StreamProgress {
  text: string;
  finishReason?: FinishReason;
  usage?: TokenUsage;
  sawDone: boolean;
}

/** Applies one SSE event to the progress; returns the new text it carried. */
export function applyEvent(url: string, event: SseEvent, progress: StreamProgress): string {
  const data = event.data.trim();
  if (data === '[DONE]') {
    progress.sawDone = true;
    return '';
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch (error) {
    throw new AgentError(
      'generation_failed',
      `The stream from ${url} carried an event that is not JSON: ${snippet(data)}`,
      { cause: error },
    );
  }
  const serverError =
    event.event === 'error' ? (errorObjectOfValue(parsed) ?? (parsed as object)) : errorObjectOfValue(parsed);
  if (serverError) throw agentErrorFromServer(`The stream from ${url}`, serverError);
  const usage = usageOf((parsed as { usage?: unknown }).usage);
  if (usage) progress.usage = usage;
  const choice = firstChoice(parsed);
  if (!choice) return ''; // the usage-only chunk has an empty choices array
  const delta = choice.delta as { content?: unknown; refusal?: unknown } | undefined;
  throwOnRefusal(url, delta?.refusal);
  const finish = finishReasonOf(url, choice.finish_reason);
  if (finish) progress.finishReason = finish;
  const content = typeof delta?.content === 'string' ? delta.content : '';
  progress.text += content;
  return content;
}

export function firstChoice(
  parsed: unknown,
): { message?: unknown; delta?: unknown; finish_reason?: unknown } | undefined {
  const choices = (parsed as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices) || choices.length === 0) return undefined;
  const choice: unknown = choices[0];
  return typeof choice === 'object' && choice !== null ? choice : undefined;
}

export function throwOnRefusal(url: string, refusal: unknown): void {
  if (typeof refusal === 'string' && refusal.trim() !== '') {
    throw new AgentError('refusal', `The model at ${url} refused: ${snippet(refusal)}`);
  }
}

/** stop → stop, length → max_tokens, content_filter → guardrail error, anything else → other. */
export function finishReasonOf(url: string, value: unknown): FinishReason | undefined {
  if (value === null || value === undefined) return undefined;
  if (value === 'stop') return 'stop';
  if (value === 'length') return 'max_tokens';
  if (value === 'content_filter') {
    throw new AgentError('guardrail_violation', `The server at ${url} stopped the answer with its content filter.`);
  }
  return 'other';
}

export function usageOf(value: unknown): TokenUsage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const usage = value as {
    prompt_tokens?: unknown;
    completion_tokens?: unknown;
    prompt_tokens_details?: { cached_tokens?: unknown } | null;
  };
  const count = (raw: unknown): number => (typeof raw === 'number' && isFinite(raw) && raw >= 0 ? raw : 0);
  return {
    inputTokens: count(usage.prompt_tokens),
    cachedInputTokens: count(usage.prompt_tokens_details?.cached_tokens),
    outputTokens: count(usage.completion_tokens),
  };
}

export function brokenConnection(url: string, error: unknown): AgentError {
  if (error instanceof AgentError) return error;
  return new AgentError(
    'generation_failed',
    `The connection to ${url} broke during the answer (${describeNetworkError(error)}).`,
    { cause: error },
  );
}

/** Node's fetch hides the useful part ("ECONNREFUSED") in `cause`. */
export function describeNetworkError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const causeText =
    typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
  return causeText && message.indexOf(causeText) < 0 ? `${message}: ${causeText}` : message;
}

/** At most 200 characters of a server's text, for a message. */
export function snippet(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
