/**
 * Recorded scripts for the "recorded script" model: a JSON list of model steps, played back in
 * order by ScriptedLanguageModel. Each step is one of
 *   "raw model output"                       the exact text the model writes
 *   {"call": "take_order", "args": {...}}    a tool call envelope
 *   {"reply": "Hello!"} / {"reply": {...}}   an answer (text, or {emotion, line})
 *   {"fail": "model_unavailable", "message": "…"}  a failure with one of the 12 codes
 */
import { isAgentErrorCode } from '../../src';
import { Script, type ScriptStep } from '../../src/testing';

export type ScriptReading = { ok: true; steps: ScriptStep[] } | { ok: false; problems: string[] };

export const SAMPLE_SCRIPT = `[
  {"call": "take_order", "args": {"item": "cider", "quantity": 1}},
  {"reply": {"emotion": "happy", "line": "One cider, cold as the river. Enjoy, love."}}
]`;

export function readScript(text: string): ScriptReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`script: not JSON (${(error as Error).message}).`] };
  }
  if (!Array.isArray(value) || value.length === 0) {
    return { ok: false, problems: ['script: must be a non-empty JSON list of steps, e.g. [{"reply": "Hello!"}].'] };
  }
  const steps: ScriptStep[] = [];
  const problems: string[] = [];
  value.forEach((item, index) => {
    const step = readStep(item);
    if (typeof step === 'string') problems.push(`script[${index}]: ${step}`);
    else steps.push(step);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, steps };
}

/** One step, or what is wrong with it. */
function readStep(item: unknown): ScriptStep | string {
  if (typeof item === 'string') return Script.text(item, chunkCount(item));
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    return 'must be a string or an object with "call", "reply" or "fail".';
  }
  const record = item as Record<string, unknown>;
  if (typeof record.call === 'string') {
    if (
      record.args !== undefined &&
      (typeof record.args !== 'object' || record.args === null || Array.isArray(record.args))
    )
      return '"args" must be an object.';
    return Script.call(record.call, (record.args ?? {}) as Record<string, unknown>);
  }
  if ('call' in record) return '"call" must be a tool name (a string).';
  if ('reply' in record) {
    if (typeof record.reply !== 'string' && (typeof record.reply !== 'object' || record.reply === null))
      return '"reply" must be a string or an object like {"emotion": "happy", "line": "…"}.';
    return Script.reply(record.reply, chunkCount(JSON.stringify(record.reply)));
  }
  if ('fail' in record) {
    if (!isAgentErrorCode(record.fail))
      return `"fail" must be an error code such as "model_unavailable", got ${JSON.stringify(record.fail)}.`;
    return Script.fail(record.fail, typeof record.message === 'string' ? record.message : undefined);
  }
  return 'must be a string or an object with "call", "reply" or "fail".';
}

/** About one chunk per 12 characters, so a recorded reply streams visibly. */
function chunkCount(text: string): number {
  return Math.max(1, Math.ceil(text.length / 12));
}
