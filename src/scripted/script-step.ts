/**
 * The steps a scripted model plays and their builders (`Script.text`, `Script.call`, …): shared
 * by ScriptedLanguageModel and the protocol's native scripts, so neither imports the other.
 */
import type { AgentErrorCode } from '../contract/errors';
import type { GenerationRequest } from '../contract/language-model';

export type ScriptStep =
  | { type: 'text'; text: string; chunks?: number }
  | { type: 'template'; template: string; chunks?: number }
  | { type: 'fail'; code: AgentErrorCode; message?: string; retryAfterMs?: number; afterText?: string }
  | { type: 'delay'; ms: number; then: ScriptStep }
  | { type: 'hang' }
  | { type: 'dynamic'; compute: (request: GenerationRequest) => ScriptStep | string };

/** Builders for script steps, in the envelope forms the agent understands. */
export const Script = {
  text(text: string, chunks = 3): ScriptStep {
    return { type: 'text', text, chunks };
  },
  json(value: unknown, chunks = 3): ScriptStep {
    return { type: 'text', text: JSON.stringify(value), chunks };
  },
  /** A decide step that answers directly: `{"reply": …}` (text or a structured object). */
  reply(reply: unknown, chunks = 4): ScriptStep {
    return { type: 'text', text: JSON.stringify({ reply }), chunks };
  },
  /** A decide step that calls a tool: `{"tool": name, "args": {…}}`. */
  call(tool: string, args: Record<string, unknown> = {}, chunks = 3): ScriptStep {
    return { type: 'text', text: JSON.stringify({ tool, args }), chunks };
  },
  /** The seed library's envelope: `{"action": name, "arguments": {…}}`. */
  action(action: string, args: Record<string, unknown> = {}, chunks = 3): ScriptStep {
    return { type: 'text', text: JSON.stringify({ action, arguments: args }), chunks };
  },
  fail(
    code: AgentErrorCode,
    message?: string,
    options: { retryAfterMs?: number; afterText?: string } = {},
  ): ScriptStep {
    return { type: 'fail', code, message, ...options };
  },
  delay(ms: number, then: ScriptStep): ScriptStep {
    return { type: 'delay', ms, then };
  },
  /**
   * `{prompt}` the player's words, `{toolOutput}` the last tool result, `{toolOutputs}` all of
   * them, read from the prompt as the model sees them (the words on one line, outputs clipped).
   */
  template(template: string, chunks = 3): ScriptStep {
    return { type: 'template', template, chunks };
  },
  /** Never answers until cancelled (for timeout and cancel tests). */
  hang(): ScriptStep {
    return { type: 'hang' };
  },
  dynamic(compute: (request: GenerationRequest) => ScriptStep | string): ScriptStep {
    return { type: 'dynamic', compute };
  },
};
