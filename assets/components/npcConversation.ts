/**
 * The turns and barks an NPCComponent has running: started on its NPC, kept in its live state
 * until they settle (so cancel() reaches them), and answered or cancelled from there.
 */
import { AgentError, Canceller } from '../runtime/oam-core.js';
import type { DialogueStream, DialogueTurn, NPC, ToolCall } from '../runtime/oam-core.js';
import { keepWhileRunning, type NPCLiveState } from './npcLiveState';
import { forwardStreamEvents, reportFailure, type EmitNodeEvent } from './npcStreamEvents';
import { NPC_BARK } from './npcEvents';
import type { NPCTalkOptions } from './npcCallOptions';

export interface RunningOn {
  state: NPCLiveState;
  npc: NPC;
  emit: EmitNodeEvent;
}

/** One turn on the NPC, its stream's events sent as node events; external calls go to `external`. */
export function startTalk(
  on: RunningOn,
  turn: { line: string; options: NPCTalkOptions; external: (stream: DialogueStream, call: ToolCall) => void },
): Promise<DialogueTurn> {
  const { options } = turn;
  const stream = on.npc.talkStream(turn.line, {
    situation: options.situation,
    toolChoice: options.toolChoice,
    image: options.image,
  });
  keepWhileRunning(on.state.streams, stream, stream.turn());
  forwardStreamEvents(stream, { emit: on.emit, external: (call) => turn.external(stream, call) });
  return stream.turn().catch(reportFailure(on.emit));
}

/** A one-line ambient remark, also sent as `npc-bark`. */
export function startBark(on: RunningOn, situation: string): Promise<string> {
  const canceller = new Canceller();
  const said = on.npc.bark(situation, { signal: canceller.signal });
  keepWhileRunning(on.state.barkCancellers, canceller, said);
  return said.then((line) => {
    on.emit(NPC_BARK, line);
    return line;
  }, reportFailure(on.emit));
}

/** Cancels the running turn, the queued ones and barks; nothing of them is kept. */
export function cancelRunning(state: NPCLiveState, reason?: string): void {
  for (const stream of state.streams.slice()) stream.cancel(reason);
  for (const canceller of state.barkCancellers.splice(0))
    canceller.abort(new AgentError('cancelled', reason || 'The bark was cancelled.'));
}

/** Answers a waiting external call by id; false for a call no running turn waits for. */
export function answerWaitingCall(state: NPCLiveState, callId: string, output: unknown): boolean {
  for (const stream of state.streams) {
    if (stream.pendingToolCalls.some((call) => call.id === callId)) return stream.submit(callId, output);
  }
  return false;
}

export function waitingCalls(state: NPCLiveState): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const stream of state.streams) calls.push(...stream.pendingToolCalls);
  return calls;
}
