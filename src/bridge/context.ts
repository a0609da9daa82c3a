/** What the method groups share with the engine: output, client tools, models, timers, limits. */
import type { ClientToolCalls, ToolCallContext } from './client-tools';
import type { RequestId } from './framing';
import type { ModelSources } from './models';
import type { BridgeTimers } from './timers';
import type { WireTool } from './tool-definitions';
import type { ToolCall, ToolOutput } from '../core/tools';
import type { SignalLike } from '../contract/abort';

/** `id` is undefined for a notification (it gets no response). */
export interface RequestInfo {
  id: RequestId | undefined;
}

export type MethodHandler = (params: unknown, request: RequestInfo) => unknown;

export interface MethodGroup {
  methods: Record<string, MethodHandler>;
  /** Cancels everything the group runs; resolves when it has settled. */
  shutdown(): Promise<void>;
}

export interface BridgeContext {
  notify(method: string, params: unknown): void;
  toolCalls: ClientToolCalls;
  timers: BridgeTimers;
  models: ModelSources;
  defaultToolTimeoutSeconds: number;
  /** `createdAt` of a new object, ISO 8601. */
  createdAt(): string;
}

/**
 * The handler that answers a client tool of one request: `tool/call` with the request's id,
 * waiting the tool's own timeout, else the object's.
 */
export function clientToolHandler(
  context: BridgeContext,
  call: {
    owner: Record<string, unknown>;
    requestId: RequestId | undefined;
    tools: readonly WireTool[];
    timeoutSeconds: number;
  },
): (toolCall: ToolCall, signal: SignalLike) => Promise<ToolOutput> {
  return (toolCall, signal) => {
    const tool = call.tools.find((tool) => tool.name === toolCall.name);
    const target: ToolCallContext = {
      owner: call.owner,
      requestId: call.requestId ?? null,
      timeoutSeconds: tool && tool.timeoutSeconds !== undefined ? tool.timeoutSeconds : call.timeoutSeconds,
    };
    return context.toolCalls.call(target, toolCall, signal);
  };
}
