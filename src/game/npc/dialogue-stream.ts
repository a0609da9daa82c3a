/**
 * An NPC turn in flight, as the game sees it: a view of the agent run doing the work. The run is
 * the one queue slot, the one cancel and the one place that counts; this view turns its events
 * into dialogue events (emotion, line deltas, tool calls) and its response into a DialogueTurn.
 */
import { EventStream, type AgentRun, type StreamStatus } from '../../core/agent';
import type { AgentError } from '../../contract/errors';
import type { ToolCall } from '../../core/tools';
import type { DialogueTurn, NPCEvent } from './dialogue';

export class DialogueStream extends EventStream<NPCEvent, DialogueTurn> {
  private constructor(private readonly run: AgentRun | null) {
    super(run ? run.signal : undefined);
  }

  /** @internal the view of `run`; the NPC feeds it the translated events. */
  static over(run: AgentRun): DialogueStream {
    return new DialogueStream(run);
  }

  /** @internal a turn refused before it was queued: it fails a microtask later, so listeners attached now hear it. */
  static refused(error: AgentError): DialogueStream {
    const stream = new DialogueStream(null);
    Promise.resolve().then(() => stream.fail(error));
    return stream;
  }

  /** Waits for the finished turn (a fallback line counts as finished). */
  turn(): Promise<DialogueTurn> {
    return this.settled;
  }

  /** Answers an external tool call of this turn; false if unknown, answered, timed out or cancelled. */
  submit(callId: string, output: unknown): boolean {
    return this.run ? this.run.submit(callId, output) : false;
  }

  get pendingToolCalls(): ToolCall[] {
    return this.run ? this.run.pendingToolCalls : [];
  }

  /**
   * The spoken line as it streams, one piece at a time, without the reply's other keys. A retry
   * that withdraws words does not take them back here: listen to `line` events (`isReset`) to redraw.
   */
  textTokens(): AsyncIterable<string> {
    return this.follow((event) => (event.type === 'line' && event.delta !== '' ? event.delta : undefined));
  }

  /** The finished line, once the turn has finished (an authored fallback line included). */
  textMessages(): AsyncIterable<string> {
    return this.follow((event) => (event.type === 'completed' ? event.turn.line : undefined));
  }

  /** Cancels the turn (queued or running); nothing of it is kept. */
  override cancel(reason?: string): void {
    if (this.run) this.run.cancel(reason);
    else super.cancel(reason);
  }

  /** Queued or running as the run is, until the view itself has finished. */
  override get status(): StreamStatus {
    if (this.isFinished || !this.run) return this._status;
    return this.run.status === 'running' ? 'running' : this._status;
  }
}
