/**
 * A plain reply step (toolChoice 'none', the seed-compatible reply step, an NPC's text retry)
 * is sent after the same stable prefix that asks for one JSON object per answer, so a model
 * may still answer `{"reply": "Ale is 3."}` there. The player must see `Ale is 3.`: an answer
 * that opens like JSON is read as an envelope (streamed through the inline reader, unwrapped at
 * the end); anything else is the reply as written.
 */
import { isPlainObject } from '../json/extract';
import { inlineReplyOf } from './inline-reply';
import { parseEnvelope } from './parse';
import { InlineReplyReader } from './reply-stream';

export class PlainReplyReader {
  private enveloped: boolean | undefined;
  private readonly reader = new InlineReplyReader([]);

  /** The reply text to show so far, or undefined while nothing can be shown yet. */
  push(fullTextSoFar: string): string | undefined {
    if (this.enveloped === undefined) {
      const head = fullTextSoFar.trimStart();
      if (head.length === 0) return undefined;
      this.enveloped = head[0] === '{' || head.startsWith('```');
    }
    if (!this.enveloped) return fullTextSoFar;
    const state = this.reader.push(fullTextSoFar);
    return state.kind === 'reply-text' ? state.text : undefined;
  }

  /** The reply in the final text: the envelope's words when it is one, else the text as written. */
  static final(text: string): string {
    const head = text.trimStart();
    if (!(head.startsWith('{') || head.startsWith('```'))) return text;
    const env = parseEnvelope(text, { toolNames: [], allowRespond: true });
    if (env.kind !== 'respond') return text;
    if (typeof env.reply === 'string') return env.reply;
    // An object reply ({"emotion", "line"}): its words, where a reply key holds them.
    const words = isPlainObject(env.reply) ? inlineReplyOf(env.reply as Record<string, unknown>) : undefined;
    return typeof words === 'string' ? words : text;
  }
}
