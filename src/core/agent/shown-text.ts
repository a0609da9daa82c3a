/**
 * What the player sees while a reply streams: the words of a text reply cleaned incrementally,
 * the line of a line-first reply, the growing inline reply of a JSON envelope.
 */
import type { InlineReplyReader } from '../envelope';
import { cleanReplyText, ReplyTextStream } from '../prompt/reply-text';
import { PlayerTextStream } from '../player-text/player-text-stream';
import type { EngineState } from './engine-state';

/** The words of a text reply as the player may see them (whole, or streamed so far, cleaned incrementally). */
export function visible(engine: EngineState, raw: string, final: boolean): string {
  const { toolNames } = engine;
  if (final) return cleanReplyText({ raw, labels: engine.labels, final, toolNames });
  engine.replyStream = engine.replyStream ?? new ReplyTextStream({ labels: engine.labels, toolNames });
  return engine.replyStream.push(raw);
}

/** Shows the words of a line-first reply as they stream; never ends the stream. */
export function showLine(engine: EngineState, words: string): false {
  if (engine.lineField) {
    engine.lineStream = engine.lineStream ?? new PlayerTextStream({ toolNames: engine.toolNames });
    engine.turn.emit({ type: 'partial', value: { [engine.lineField]: engine.lineStream.push(words) } });
  } else engine.turn.showText(visible(engine, words, false));
  return false;
}

/** Shows the reply of a JSON envelope while it is written: its words, or the object so far. */
export function showInline(engine: EngineState, state: ReturnType<InlineReplyReader['push']>): void {
  if (!engine.turn.config.inlineReplies) return;
  if (state.kind === 'reply-text') engine.turn.showText(visible(engine, state.text, false));
  else if (state.kind === 'reply-object') engine.turn.emit({ type: 'partial', value: state.value });
}
