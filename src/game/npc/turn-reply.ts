/**
 * How one NPC turn's reply is read, across the tries of its one agent run: the structured reply
 * (or emotion-tagged text when the NPC answers in text), then, for automatic replies, one text
 * try with tools off, then an authored fallback line. The reading runs in the run's `accept`,
 * so a reply without words is rejected before the agent commits it and a retry or a fallback
 * leaves the history as it was.
 */
import type { AgentErrorCode } from '../../contract/errors';
import type { AgentResponse, TurnAttempt, TurnFailure } from '../../core/agent';
import type { NormalizedPersona } from '../persona';
import type { DialogueTurn } from './dialogue';
import type { ResolvedNPCOptions } from './npc-options';
import { readStructuredReply, type ParsedReply } from './reply-format';
import { readTextReply, retriesAsText, textRetryNote } from './text-reply';

/** How one try of a turn is read: as the structured reply, or as emotion-tagged text. */
export type ReplyReading = 'structured' | 'text';

/** Programmer errors and cancels are thrown; everything else becomes a fallback line. */
const NEVER_FALLBACK = new Set<AgentErrorCode>([
  'cancelled',
  'invalid_request',
  'invalid_schema',
  'context_size_exceeded',
]);

export class TurnReply {
  /** How the first try is read. */
  readonly first: ReplyReading;
  /** The names a line may start with ("Mara:", "Assistant:"), taken off what the player sees. */
  readonly names: string[];
  private readonly readings: ReplyReading[];
  private reply: ParsedReply | undefined;
  /**
   * The model's own last answer: the agent unwraps a plain reply for the player, but an
   * `{"emotion", "line"}` object in it still tells the NPC how it feels.
   */
  private lastOutput = '';
  /** The first try's note, given again to the text try. */
  private note = '';

  /** `settings` and `persona` are the turn's own: a later setOptions() is for the turns after it. */
  constructor(
    readonly settings: ResolvedNPCOptions,
    readonly persona: NormalizedPersona,
  ) {
    this.names = [persona.name, 'Assistant'];
    this.first = settings.replyFormat === 'text' ? 'text' : 'structured';
    this.readings = [this.first];
  }

  /** How the try running now is read. */
  get reading(): ReplyReading {
    return this.readings[this.readings.length - 1];
  }

  /** The run's `accept` for a try read this way: it throws for a reply without words. */
  accept(reading: ReplyReading): (response: AgentResponse) => void {
    const { settings, names, persona } = this;
    return (response) => {
      this.reply =
        reading === 'structured'
          ? readStructuredReply({
              value: response.structured,
              options: settings,
              names,
              defaultEmotion: persona.defaultEmotion,
            })
          : readTextReply({
              text: response.text,
              modelOutput: this.lastOutput,
              options: settings,
              names,
              defaultEmotion: persona.defaultEmotion,
            });
    };
  }

  /** Keeps the note the first try is given (returned as it is) for a text try. */
  keepNote(note: string): string {
    this.note = note;
    return note;
  }

  /** What the model answered in the step that just finished. */
  noteOutput(output: string): void {
    this.lastOutput = output;
  }

  /**
   * The run's `retry`: after a failed first try of an automatic reply, one more try as
   * emotion-tagged text with tools off; tools that already ran are passed in as facts so their
   * side effects are not repeated.
   */
  retry(failure: TurnFailure): TurnAttempt | undefined {
    if (this.settings.replyFormat !== 'automatic' || failure.attempt > 0 || !retriesAsText(failure.error))
      return undefined;
    this.readings.push('text');
    return {
      toolChoice: 'none',
      context: [this.note, textRetryNote(failure.toolCalls, this.settings.emotions)].filter(Boolean).join('\n\n'),
      accept: this.accept('text'),
    };
  }

  /** Whether a failed turn ends in an authored line rather than the error. */
  mayFallBack(failure: TurnFailure): boolean {
    return this.settings.fallbackOnFailure && !NEVER_FALLBACK.has(failure.error.code) && !failure.error.unexpected;
  }

  /** The run's fallback answer: the authored line, said with the persona's default emotion. */
  fallBackTo(line: string): { text: string } {
    this.reply = { line, emotion: this.persona.defaultEmotion, playerOptions: [], endsConversation: false };
    return { text: line };
  }

  /** The reply the run finished with (accepted, or the fallback line). */
  get finished(): ParsedReply {
    return this.reply as ParsedReply;
  }

  /** The finished turn as the game gets it; `relationship` is the memory's after the commit. */
  turnOf(response: AgentResponse, relationship: number): DialogueTurn {
    const finished = this.finished;
    return {
      line: finished.line,
      emotion: finished.emotion,
      playerOptions: finished.playerOptions,
      endsConversation: finished.endsConversation,
      toolCalls: response.toolCalls,
      relationship,
      isFallback: response.isFallback === true,
      usage: response.usage,
      modelCalls: response.modelCalls,
    };
  }
}
