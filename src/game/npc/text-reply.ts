/**
 * An NPC reply read as plain text: when the structured reply could not be given (a refusal, an
 * unreadable answer), one more try asks for emotion-tagged words with tools off; this reads that
 * answer (a model still writing JSON is read as JSON), says which errors earn the try, and
 * writes its note (the facts already looked up). Also how an earlier structured reply shows in
 * the conversation: its spoken line alone.
 */
import { AgentError, isFromBackend, type AgentErrorCode } from '../../contract/errors';
import type { ToolRecord } from '../../core/agent';
import { ToolOutput } from '../../core/tools';
import { extractJson, isPlainObject } from '../../core/json';
import { parseEmotionTag, type Emotion } from '../emotion';
import { cleanLine } from '../persona';
import type { ResolvedNPCOptions } from './npc-options';
import { readStructuredReply, textFormatRule, type ParsedReply } from './reply-format';

/** Content problems worth one more try as plain text with tools off. */
const RETRY_AS_TEXT = new Set<AgentErrorCode>(['guardrail_violation', 'refusal', 'generation_failed']);

/** An earlier structured reply as the conversation shows it: the spoken line alone. */
export function spokenLineOf(value: unknown): string {
  const line = value && typeof value === 'object' ? (value as { line?: unknown }).line : undefined;
  return typeof line === 'string' ? line : JSON.stringify(value);
}

/**
 * The text retry is for answers the model could not give in JSON (a refusal, a blocked or
 * unreadable reply); a backend that kept failing after its retries is not asked again, and a
 * bug (an unexpected error) surfaces as itself.
 */
export function retriesAsText(error: AgentError): boolean {
  return (
    RETRY_AS_TEXT.has(error.code) && !error.unexpected && !(error.code === 'generation_failed' && isFromBackend(error))
  );
}

export function readTextReply(input: {
  text: string;
  modelOutput: string;
  options: ResolvedNPCOptions;
  names: string[];
  defaultEmotion: Emotion;
}): ParsedReply {
  const { text, modelOutput, options, names, defaultEmotion } = input;
  // A model primed by the JSON rules in the prefix may still answer the text retry with
  // {"emotion", "line"} (bare or as {"reply": {…}}): read it as such instead of speaking the
  // JSON aloud or losing the emotion.
  const head = modelOutput.trim();
  const json = head.charAt(0) === '{' || head.startsWith('```') ? extractJson(modelOutput) : undefined;
  const object =
    json && isPlainObject(json.value) ? (isPlainObject(json.value.reply) ? json.value.reply : json.value) : undefined;
  if (object && typeof object.line === 'string') {
    return readStructuredReply({
      value: object,
      options: { ...options, playerOptionCount: 0, canEndConversation: false },
      names,
      defaultEmotion,
    });
  }
  const tag = parseEmotionTag(text, options.emotions, defaultEmotion);
  const line = cleanLine(tag.rest, names);
  if (!line) throw new AgentError('generation_failed', 'The reply had no words.');
  return { line, emotion: tag.emotion ?? defaultEmotion, playerOptions: [], endsConversation: false };
}

export function textRetryNote(records: ToolRecord[], emotions: readonly Emotion[]): string {
  const lines = ['Answer in plain words this time.', textFormatRule(emotions).replace(/^- /, '')];
  const facts = records
    .filter((record) => !record.rejected)
    .slice(-6)
    .map((record) => `- ${record.call.name}: ${ToolOutput.render(record.output).slice(0, 400)}`);
  if (facts.length > 0) lines.push(`Facts you just looked up:\n${facts.join('\n')}`);
  return lines.join('\n');
}
