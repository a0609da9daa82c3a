/**
 * The NPC's reply shape. Structured: `{emotion, line, options?, end?}` with emotion and line
 * first, so the emotion is known before the line streams and nothing optional costs output
 * tokens unless asked for. Text: `[emotion] line`, the fastest and never malformed.
 */
import { AgentError } from '../../contract/errors';
import { JsonSchema } from '../../core/schema';
import { matchEmotion, type Emotion } from '../emotion';
import { cleanLine } from '../persona';
import type { ResolvedNPCOptions } from './npc-options';

export interface ParsedReply {
  line: string;
  emotion: Emotion;
  playerOptions: string[];
  endsConversation: boolean;
}

/** The reply key that is spoken aloud: written first, as plain words, in line-first mode. */
export const NPC_LINE_FIELD = 'line';

export function npcReplySchema(npcOptions: ResolvedNPCOptions, maxSentences: number): JsonSchema {
  const props: Record<string, JsonSchema> = {
    // A described string, not an enum: an off-list feeling ("grumpy") is matched leniently when
    // the reply is read, instead of costing a repair call (or a failed turn) over one word.
    emotion: JsonSchema.string({ description: `how you feel now, one of: ${npcOptions.emotions.join(', ')}` }),
    line: JsonSchema.string({
      description: `what you say aloud, at most ${maxSentences} short sentence${maxSentences === 1 ? '' : 's'}`,
    }),
  };
  const optional: string[] = [];
  if (npcOptions.playerOptionCount > 0) {
    props.options = JsonSchema.array(JsonSchema.string(), {
      description: `${npcOptions.playerOptionCount} short things the player could say next`,
    });
  }
  if (npcOptions.canEndConversation) {
    props.end = JsonSchema.boolean({ description: 'true only when you say goodbye or refuse to talk' });
    optional.push('end');
  }
  return JsonSchema.obj(props, { optional });
}

/** The format rule for text replies, part of the stable instructions. */
export function textFormatRule(emotions: readonly Emotion[]): string {
  return `- Start every reply with how you feel in brackets, then your words, e.g. "[happy] Welcome!". Feelings: ${emotions.join(', ')}.`;
}

/** Reads a structured reply defensively: labels and quotes stripped, options tidied and cut; no words → generation_failed. */
export function readStructuredReply({
  value,
  options: npcOptions,
  names,
  defaultEmotion,
}: {
  /** The reply as the model wrote it (an object, or anything else). */
  value: unknown;
  options: ResolvedNPCOptions;
  /** Names stripped when a line starts with one as a label. */
  names: string[];
  defaultEmotion: Emotion;
}): ParsedReply {
  const reply = (value ?? {}) as Record<string, unknown>;
  const line = typeof reply.line === 'string' ? cleanLine(reply.line, names) : '';
  // Nothing to say aloud is a failed reply (retried as text or a fallback line), never a silent turn.
  if (!line) throw new AgentError('generation_failed', 'The reply had no words.');
  const options: string[] = [];
  if (npcOptions.playerOptionCount > 0 && Array.isArray(reply.options)) {
    for (const item of reply.options) {
      if (typeof item !== 'string') continue;
      const option = item
        .replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '')
        .replace(/^(?:player|you)\s*:\s*/i, '')
        .trim();
      if (option && options.indexOf(option) < 0) options.push(option);
      if (options.length >= npcOptions.playerOptionCount) break;
    }
  }
  return {
    line,
    emotion: matchEmotion(reply.emotion, npcOptions.emotions, defaultEmotion),
    playerOptions: options,
    endsConversation: npcOptions.canEndConversation && reply.end === true,
  };
}
