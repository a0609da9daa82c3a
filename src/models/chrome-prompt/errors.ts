/**
 * The Prompt API's DOMExceptions as the project's 12 codes, each with what to do. The names
 * come from the spec's error table, its create/availability algorithms (writing-assistance-apis)
 * and the explainer (QuotaExceededError, SyntaxError for an unmet constraint).
 */
import { AgentError } from '../../contract/errors';
import { inCrossOriginFrame } from './prompt-api';

/** Where the failure happened: the message says different things for each. */
export type PromptStage = 'create' | 'download' | 'prompt' | 'clone' | 'measure';

export const FRAME_HINT =
  'a game in a cross-origin iframe (a web game portal) needs the embedding page to add allow="language-model" to its <iframe>';
export const GESTURE_HINT =
  'Chrome starts the model download only after the player has interacted with the page: call download() from a click, tap or key handler (NanoStatus.download() from a button)';

export function nameOf(error: unknown): string | undefined {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : undefined;
}

function messageOf(error: unknown): string {
  const rawMessage = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof rawMessage === 'string' && rawMessage ? ` (Chrome: ${rawMessage})` : '';
}

export interface MapContext {
  stage: PromptStage;
  /** The request carried a responseConstraint. */
  constrained?: boolean;
}

/** Maps anything the Prompt API threw to an AgentError; an AgentError passes through. */
export function fromPromptApi(error: unknown, ctx: MapContext): AgentError {
  if (error instanceof AgentError) return error;
  const name = nameOf(error);
  const said = messageOf(error);
  const opts = { cause: error };
  switch (name) {
    case 'AbortError':
      return new AgentError('cancelled', `The ${ctx.stage} was cancelled${said}.`, opts);
    case 'NotAllowedError': {
      if (ctx.stage === 'create' || ctx.stage === 'download') {
        const frame = inCrossOriginFrame() ? `; or ${FRAME_HINT}` : '';
        return new AgentError(
          'model_unavailable',
          `Chrome did not allow creating a Prompt API session${said}. ${GESTURE_HINT}; if it still refuses, the player or an enterprise policy turned built-in AI off (chrome://settings/ai)${frame}.`,
          opts,
        );
      }
      return new AgentError(
        'model_unavailable',
        `Chrome does not allow prompting its built-in model here${said}: the player or a policy disabled it (chrome://settings/ai).`,
        opts,
      );
    }
    case 'NotSupportedError':
      if (ctx.stage === 'create' || ctx.stage === 'download') {
        return new AgentError(
          'model_unavailable',
          `Chrome's built-in model is unavailable on this machine or for these languages${said}. It needs Chrome 148+ on Windows 10/11, macOS 13+, Linux or a Chromebook Plus, 22 GB free disk, and a GPU with more than 4 GB VRAM or 16 GB RAM and 4 cores; use the stand-in or a server otherwise.`,
          opts,
        );
      }
      if (ctx.constrained) {
        return new AgentError(
          'invalid_schema',
          `Chrome does not support a feature of the response JSON Schema${said}; simplify the schema (plain types, enums, required properties).`,
          opts,
        );
      }
      return new AgentError(
        'unsupported_language',
        `Chrome's built-in model does not support the language of this prompt or answer${said}; use English, Spanish or Japanese.`,
        opts,
      );
    case 'QuotaExceededError': {
      const quotaError = error as { requested?: unknown; quota?: unknown };
      const numbers =
        typeof quotaError.requested === 'number' && typeof quotaError.quota === 'number'
          ? `: ${quotaError.requested} tokens requested, ${quotaError.quota} available`
          : '';
      const where =
        ctx.stage === 'create'
          ? "The stable prefix (system instruction, persona, tools) does not fit the browser's context window"
          : "The prompt does not fit the browser's context window";
      return new AgentError(
        'context_size_exceeded',
        `${where}${numbers}${said}. Shorten the instructions, tools or history (compactHistory()).`,
        opts,
      );
    }
    case 'InvalidStateError':
      return new AgentError(
        'model_unavailable',
        `The page is not active (in the back/forward cache, or its iframe was removed), so Chrome refuses the Prompt API${said}; try again once the page is shown.`,
        opts,
      );
    case 'NotReadableError':
      return new AgentError(
        'guardrail_violation',
        `Chrome filtered the model's answer${said}; rephrase or use a fallback line.`,
        opts,
      );
    case 'NetworkError':
      return new AgentError(
        'model_unavailable',
        `Chrome could not download its built-in model${said}; it needs an unmetered connection and 22 GB free disk. Try download() again later.`,
        opts,
      );
    case 'SyntaxError':
      if (ctx.constrained)
        return new AgentError(
          'generation_failed',
          `Chrome's model could not produce an answer matching the response constraint${said}; try again or simplify the schema.`,
          opts,
        );
      return new AgentError('invalid_request', `Chrome refused the prompt's messages${said}.`, opts);
    case 'TypeError':
      return new AgentError(
        ctx.constrained ? 'invalid_schema' : 'invalid_request',
        `Chrome refused the ${ctx.constrained ? 'response constraint (not a valid JSON Schema object)' : 'request'}${said}.`,
        opts,
      );
    case 'OperationError':
    case 'UnknownError':
      return new AgentError('generation_failed', `Chrome's built-in model failed${said}; try again.`, opts);
    default:
      return AgentError.from(error);
  }
}
