/**
 * What `decision/*` and `content/generate` share: the engine's context, the NPCs an actor may
 * name, the cancellers shutdown aborts, and client tools run as local tools.
 */
import { Canceller } from '../contract/abort';
import type { ToolRecord } from '../core/agent';
import type { AgentTool } from '../core/tools';
import type { BridgeContext, RequestInfo } from './context';
import type { NpcRegistry } from './npc-registry';
import { toAgentTool, type WireTool } from './tool-definitions';

export interface DecisionContentContext {
  bridge: BridgeContext;
  npcs: NpcRegistry;
  /** Every request running now (these are in no object's queue). */
  running: Set<Canceller>;
}

/** A request's client tools: who `tool/call` names, how long it waits, and what was called. */
export interface ToolSetup {
  tools: WireTool[];
  owner: Record<string, unknown>;
  requestId: RequestInfo['id'];
  timeoutSeconds: number;
  records: ToolRecord[];
}

/** Client tools as local tools whose handler asks the client (these engines take no external handler). */
export function localClientTools(context: DecisionContentContext, setup: ToolSetup): AgentTool[] {
  const { toolCalls, timers } = context.bridge;
  return setup.tools.map((tool) =>
    toAgentTool(tool, async (_args, toolContext) => {
      const started = timers.now();
      const timeoutSeconds = tool.timeoutSeconds ?? setup.timeoutSeconds;
      const output = await toolCalls.call(
        { owner: setup.owner, requestId: setup.requestId ?? null, timeoutSeconds },
        toolContext.call,
        toolContext.signal,
      );
      setup.records.push({ call: toolContext.call, output, durationMs: timers.now() - started });
      return output;
    }),
  );
}

/** Runs a request with a canceller that shutdown aborts. */
export function withCancel<T>(
  context: DecisionContentContext,
  work: (signal: Canceller['signal']) => Promise<T>,
): Promise<T> {
  const canceller = new Canceller();
  context.running.add(canceller);
  return work(canceller.signal).finally(() => context.running.delete(canceller));
}
