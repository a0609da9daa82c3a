/**
 * A turn in flight: its events (as an async iterable, once, or through `on` listeners), the
 * external calls waiting for the host, cancellation, and the final response.
 */
import type { SignalLike } from '../../contract/abort';
import type { ToolCall } from '../tools';
import type { AgentEvent, AgentResponse } from './events';
import { EventStream, type StreamStatus } from './event-stream';
import { ExternalCalls, type ExternalToolHandler } from './tool-runner';

export type RunStatus = StreamStatus;

export class AgentRun extends EventStream<AgentEvent, AgentResponse> {
  readonly id: string;
  readonly external = new ExternalCalls();

  constructor(id: string, callerSignal?: SignalLike, externalTools?: ExternalToolHandler) {
    super(callerSignal);
    this.id = id;
    if (externalTools) this.external.handler = externalTools;
  }

  /** Waits for the final response; a handler answers external tool calls. */
  response(externalTools?: ExternalToolHandler): Promise<AgentResponse> {
    if (externalTools && externalTools !== this.external.handler) {
      // Calls already waiting and not yet handed to a handler get answered too.
      const waiting = this.external.handler ? [] : this.external.calls;
      this.external.handler = externalTools;
      for (const call of waiting) this.external.dispatch(call, this.signal);
    }
    return this.settled;
  }

  /** Answers an external tool call; false if the id is unknown, answered, timed out or cancelled. */
  submit(callId: string, output: unknown): boolean {
    return this.external.submit(callId, output);
  }

  get pendingToolCalls(): ToolCall[] {
    return this.external.calls;
  }

  /**
   * The reply's words as they stream, one piece per model chunk (genai-agent's `textTokens()`).
   * A retry that withdraws words already shown does not take them back here: a game that must
   * redraw then listens to `text` events (`isReset`), or waits for `textMessages()`.
   */
  textTokens(): AsyncIterable<string> {
    return this.follow((event) => (event.type === 'text' && event.delta !== '' ? event.delta : undefined));
  }

  /** The completed reply, once the turn has finished (genai-agent's `textMessages()`): never a partial text. */
  textMessages(): AsyncIterable<string> {
    return this.follow((event) => (event.type === 'completed' ? event.response.text : undefined));
  }

  /** @internal */ finish(response: AgentResponse): void {
    this.complete(response, { type: 'completed', response });
  }

  protected override cleanup(): void {
    super.cleanup();
    this.external.clear();
  }
}
