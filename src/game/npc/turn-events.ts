/**
 * An agent run's events as the player sees them: steps and tool calls passed on as they are,
 * the reply as it streams turned into an emotion and a growing line (the LineTracker keeps the
 * line's deltas adding up, and withdraws it when a try starts over).
 */
import type { AgentRun } from '../../core/agent';
import { parseEmotionTag, isEmotionTagPending, type Emotion } from '../emotion';
import type { DialogueStream } from './dialogue-stream';
import type { LineTracker } from './line-tracker';
import type { ReplyReading } from './turn-reply';

export interface TurnEventParts {
  run: AgentRun;
  stream: DialogueStream;
  tracker: LineTracker;
  /** How the try running now is read (a text retry reads text events, not partial JSON). */
  reading: () => ReplyReading;
  /** The emotions the NPC may show, and the one shown for an unknown tag. */
  emotions: readonly Emotion[];
  defaultEmotion: Emotion;
}

export function translateEvents(parts: TurnEventParts): void {
  forwardRunEvents(parts);
  showStructuredReply(parts);
  showTextReply(parts);
}

/** Steps, tool calls and the fallback, as they are; a new try or a fallback withdraws the line shown. */
function forwardRunEvents({ run, stream, tracker }: TurnEventParts): void {
  run.on('step', (event) => stream.emit({ type: 'modelStep', step: event.step, request: event.request }));
  run.on('stepFinished', (event) =>
    stream.emit({ type: 'modelStepFinished', step: event.step, output: event.output, usage: event.usage }),
  );
  run.on('toolStarted', (event) => stream.emit({ type: 'toolCall', call: event.call }));
  run.on('toolRequested', (event) => stream.emit({ type: 'externalToolCall', call: event.call }));
  run.on('toolCompleted', (event) => stream.emit({ type: 'toolResult', record: event.record }));
  run.on('attempt', () => tracker.reset());
  run.on('fallback', (event) => {
    stream.emit({ type: 'fallback', reason: event.reason });
    tracker.reset();
  });
}

/** The structured reply as it is parsed: `{emotion, line}` partial values. */
function showStructuredReply({ run, tracker, reading, emotions, defaultEmotion }: TurnEventParts): void {
  run.on('partial', (event) => {
    const value = event.value as { emotion?: unknown; line?: unknown } | null;
    if (reading() !== 'structured' || !value || typeof value !== 'object') return;
    // The emotion is complete once the model has moved on to the line.
    if (typeof value.line === 'string') {
      if (typeof value.emotion === 'string')
        tracker.setEmotion(parseEmotionTag(`[${value.emotion}]`, emotions, defaultEmotion).emotion as Emotion);
      tracker.setRawLine(value.line);
    }
  });
}

/** An `[emotion] line` text reply as it streams; the tag is shown once it is closed. */
function showTextReply({ run, tracker, reading, emotions, defaultEmotion }: TurnEventParts): void {
  run.on('text', (event) => {
    if (reading() !== 'text') return;
    if (event.isReset && event.text === '') return tracker.reset();
    if (isEmotionTagPending(event.text)) return;
    if (event.text.trim().charAt(0) === '{') return; // a JSON answer: shown once read, never as raw JSON
    const tag = parseEmotionTag(event.text, emotions, defaultEmotion);
    if (tag.emotion) tracker.setEmotion(tag.emotion);
    tracker.setRawLine(tag.emotion ? tag.rest : event.text);
  });
}
