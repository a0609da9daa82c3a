/** An NPC turn in flight: its events, the external tool calls waiting for the game, cancel, the result. */
import { EventStream } from '../../core/agent/event-stream';
import type { AgentRun } from '../../core/agent';
import type { ToolCall } from '../../core/tools';
import type { DialogueTurn, NPCEvent } from './dialogue';

export class DialogueStream extends EventStream<NPCEvent, DialogueTurn> {
  private run: AgentRun | null = null;

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

  /** @internal the agent run now doing the work (the first try, then a text retry). */
  attach(run: AgentRun | null): void {
    this.run = run;
  }
}
