/**
 * The Prompt API's DOMExceptions as the project's 12 codes, each with what to do. The names
 * come from the spec's error table, its create/availability algorithms (writing-assistance-apis)
 * and the explainer (QuotaExceededError, SyntaxError for an unmet constraint).
 */
import { AgentError, type AgentErrorCode } from '../../contract/errors';
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

/** What fromPromptApi knows when it words one DOMException. */
interface Occasion extends MapContext {
  /** What Chrome said, as ` (Chrome: …)`, or nothing. */
  said: string;
  error: unknown;
}

type Mapped = { code: AgentErrorCode; message: string };

const createsSession = (stage: PromptStage) => stage === 'create' || stage === 'download';

/** Each DOMException name the Prompt API throws, as the project's code and what to do about it. */
const PROMPT_API_ERRORS: Record<string, (occasion: Occasion) => Mapped> = {
  AbortError: ({ stage, said }) => ({ code: 'cancelled', message: `The ${stage} was cancelled${said}.` }),
  NotAllowedError: ({ stage, said }) => {
    if (createsSession(stage)) {
      const frame = inCrossOriginFrame() ? `; or ${FRAME_HINT}` : '';
      return {
        code: 'model_unavailable',
        message: `Chrome did not allow creating a Prompt API session${said}. ${GESTURE_HINT}; if it still refuses, the player or an enterprise policy turned built-in AI off (chrome://settings/ai)${frame}.`,
      };
    }
    return {
      code: 'model_unavailable',
      message: `Chrome does not allow prompting its built-in model here${said}: the player or a policy disabled it (chrome://settings/ai).`,
    };
  },
  NotSupportedError: ({ stage, constrained, said }) => {
    if (createsSession(stage)) {
      return {
        code: 'model_unavailable',
        message: `Chrome's built-in model is unavailable on this machine or for these languages${said}. It needs Chrome 148+ on Windows 10/11, macOS 13+, Linux or a Chromebook Plus, 22 GB free disk, and a GPU with more than 4 GB VRAM or 16 GB RAM and 4 cores; use the stand-in or a server otherwise.`,
      };
    }
    if (constrained) {
      return {
        code: 'invalid_schema',
        message: `Chrome does not support a feature of the response JSON Schema${said}; simplify the schema (plain types, enums, required properties).`,
      };
    }
    return {
      code: 'unsupported_language',
      message: `Chrome's built-in model does not support the language of this prompt or answer${said}; use English, Spanish or Japanese.`,
    };
  },
  QuotaExceededError: ({ stage, said, error }) => {
    const quotaError = error as { requested?: unknown; quota?: unknown };
    const numbers =
      typeof quotaError.requested === 'number' && typeof quotaError.quota === 'number'
        ? `: ${quotaError.requested} tokens requested, ${quotaError.quota} available`
        : '';
    const where =
      stage === 'create'
        ? "The stable prefix (system instruction, persona, tools) does not fit the browser's context window"
        : "The prompt does not fit the browser's context window";
    return {
      code: 'context_size_exceeded',
      message: `${where}${numbers}${said}. Shorten the instructions, tools or history (compactHistory()).`,
    };
  },
  InvalidStateError: ({ said }) => ({
    code: 'model_unavailable',
    message: `The page is not active (in the back/forward cache, or its iframe was removed), so Chrome refuses the Prompt API${said}; try again once the page is shown.`,
  }),
  NotReadableError: ({ said }) => ({
    code: 'guardrail_violation',
    message: `Chrome filtered the model's answer${said}; rephrase or use a fallback line.`,
  }),
  NetworkError: ({ said }) => ({
    code: 'model_unavailable',
    message: `Chrome could not download its built-in model${said}; it needs an unmetered connection and 22 GB free disk. Try download() again later.`,
  }),
  SyntaxError: ({ constrained, said }) =>
    constrained
      ? {
          code: 'generation_failed',
          message: `Chrome's model could not produce an answer matching the response constraint${said}; try again or simplify the schema.`,
        }
      : { code: 'invalid_request', message: `Chrome refused the prompt's messages${said}.` },
  TypeError: ({ constrained, said }) => ({
    code: constrained ? 'invalid_schema' : 'invalid_request',
    message: `Chrome refused the ${constrained ? 'response constraint (not a valid JSON Schema object)' : 'request'}${said}.`,
  }),
  OperationError: ({ said }) => ({
    code: 'generation_failed',
    message: `Chrome's built-in model failed${said}; try again.`,
  }),
  UnknownError: ({ said }) => ({
    code: 'generation_failed',
    message: `Chrome's built-in model failed${said}; try again.`,
  }),
};

/** Maps anything the Prompt API threw to an AgentError; an AgentError passes through. */
export function fromPromptApi(error: unknown, ctx: MapContext): AgentError {
  if (error instanceof AgentError) return error;
  const name = nameOf(error);
  const said = messageOf(error);
  // Own keys only: a name such as "constructor" is not in the table.
  const map =
    name !== undefined && Object.prototype.hasOwnProperty.call(PROMPT_API_ERRORS, name)
      ? PROMPT_API_ERRORS[name]
      : undefined;
  if (!map) return AgentError.from(error);
  const { code, message } = map({ ...ctx, said, error });
  return new AgentError(code, message, { cause: error });
}
