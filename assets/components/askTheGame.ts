/**
 * The two ways an NPCComponent asks the game during a turn: an external tool's call
 * (`npc-external-tool`, answered with request.answer/fail) and a call's approval before it runs
 * (`npc-tool-approval`). Both refuse at once when nothing live listens, so a player never
 * waits for nobody, and a listener that throws fails the call instead of hanging the turn.
 */
import type { Node } from 'cc';
import { ToolOutput } from '../runtime/oam-core.js';
import type { DialogueStream, ToolCall, ToolVerdict } from '../runtime/oam-core.js';
import type { EmitResult } from './emitSafely';
import { hasLiveListener } from './hasLiveListener';
import { GAME_TIME_CLOCK } from './gameTimeClock';
import { NPC_EXTERNAL_TOOL, NPC_TOOL_APPROVAL, type ExternalToolRequest, type ToolApprovalRequest } from './npcEvents';

/** The asking component (Npc: its type, given in the payloads as `npc`). */
export interface GameAsker<Npc> {
  node: Node | null;
  npc: Npc;
  /** The node's name, for messages. */
  name: string;
  /** How long an approval may take, in game time (0: no limit). */
  timeoutMs: number;
  /** Emits on the node unless the NPC is destroyed or off. */
  emit(type: string, payload: unknown): EmitResult;
}

export function requestExternal<Npc>(asker: GameAsker<Npc>, stream: DialogueStream, call: ToolCall): void {
  const request: ExternalToolRequest<Npc> = {
    call,
    npc: asker.npc,
    answer: (output: unknown) => stream.submit(call.id, output),
    fail: (message: string) => stream.submit(call.id, ToolOutput.error(String(message))),
  };
  if (!hasLiveListener(asker.node, NPC_EXTERNAL_TOOL)) {
    const stale = !!asker.node && asker.node.hasEventListener(NPC_EXTERNAL_TOOL);
    console.warn(
      `[oam] tool_failed: NPC on "${asker.name}" called ${call.name}, but ${stale ? `every "${NPC_EXTERNAL_TOOL}" listener belongs to a destroyed target` : `nothing listens to "${NPC_EXTERNAL_TOOL}"`}; refusing the call.`,
    );
    request.fail(`The game cannot do ${call.name} right now.`);
    return;
  }
  const sent = asker.emit(NPC_EXTERNAL_TOOL, request);
  // The engine stops at a listener that throws: nobody else will answer, so fail it now.
  if (sent.threw) request.fail(`${call.name} failed: ${errorText(sent.error)}`);
}

/**
 * Asks the game through npc-tool-approval; with nobody listening, the call runs. An answer not
 * given within externalToolTimeoutMs (game time; 0: no limit) refuses the call, so a listener
 * that only knows some tools cannot hold every other turn.
 */
export function askApproval<Npc>(asker: GameAsker<Npc>, call: ToolCall): ToolVerdict | Promise<ToolVerdict> {
  if (!hasLiveListener(asker.node, NPC_TOOL_APPROVAL)) return true;
  return new Promise<ToolVerdict>((resolve, reject) => {
    let stop: unknown;
    const settle = (verdict: ToolVerdict) => {
      if (typeof stop === 'function') (stop as () => void)();
      resolve(verdict);
    };
    const request: ToolApprovalRequest<Npc> = {
      call,
      npc: asker.npc,
      allow: (args) => settle(args === undefined ? { allow: true } : { allow: true, args }),
      refuse: (reason) => settle({ refuse: String(reason) }),
    };
    if (asker.timeoutMs > 0)
      stop = GAME_TIME_CLOCK.after(asker.timeoutMs, () =>
        settle({ refuse: `The game did not answer about ${call.name} in time.` }),
      );
    const sent = asker.emit(NPC_TOOL_APPROVAL, request);
    // A listener that throws is a bug in the game: the turn fails naming it, nothing is kept.
    if (sent.threw) reject(sent.error);
    else if (!sent.emitted) resolve(true);
  });
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
