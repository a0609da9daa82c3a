/**
 * The client request `tool/call` (reference §3.4): ids `t-1`, `t-2`, …; the reply read by the
 * table there; a timeout or a cancel sends `tool/cancel` and any late reply is ignored. Tool
 * errors never fail the turn: they reach the model as `Error: …`.
 */
import { abortError, type SignalLike } from '../contract/abort';
import { ToolOutput, type ToolCall } from '../core/tools';
import type { RequestId } from './framing';
import { isRecord } from './params';
import type { BridgeTimers } from './timers';

export interface ToolCallOutput {
  request(id: string, method: string, params: unknown): void;
  notify(method: string, params: unknown): void;
}

/** Who asked: `{session}`, `{npc}` or `{index}` of a decideMany request, plus the request id. */
export interface ToolCallContext {
  owner: Record<string, unknown>;
  /** Null when the work came from a notification (it has no id). */
  requestId: RequestId | null;
  /** 0 waits forever. */
  timeoutSeconds: number;
}

/** How a client's reply reads to the model. */
export function readToolReply(result: unknown, error: unknown): ToolOutput {
  if (error !== undefined && error !== null) {
    const message = isRecord(error) && typeof error.message === 'string' ? error.message : JSON.stringify(error);
    return ToolOutput.error(message);
  }
  if (isRecord(result) && 'output' in result) {
    const output = result.output;
    if (result.isError === true) return ToolOutput.error(typeof output === 'string' ? output : JSON.stringify(output));
    return typeof output === 'string' ? ToolOutput.text(output) : ToolOutput.json(output ?? null);
  }
  // Lenient: a result without `output` is the output.
  return typeof result === 'string' ? ToolOutput.text(result) : ToolOutput.json(result ?? null);
}

export class ClientToolCalls {
  private counter = 0;
  private readonly pending = new Map<string, (output: ToolOutput) => void>();

  constructor(
    private readonly out: ToolCallOutput,
    private readonly timers: BridgeTimers,
  ) {}

  get outstanding(): number {
    return this.pending.size;
  }

  /** Asks the client to run `call`; resolves with what the model will see. */
  call(context: ToolCallContext, call: ToolCall, signal: SignalLike): Promise<ToolOutput> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    const id = `t-${++this.counter}`;
    return new Promise<ToolOutput>((resolve, reject) => {
      let timer: unknown;
      const finish = () => {
        this.pending.delete(id);
        if (timer !== undefined) this.timers.clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const cancel = (reason: 'timeout' | 'cancelled') => {
        this.out.notify('tool/cancel', { ...context.owner, requestId: context.requestId, id, callId: call.id, reason });
      };
      const onAbort = () => {
        finish();
        cancel('cancelled');
        reject(abortError(signal));
      };
      // Registered before the request goes out, so a client that answers at once is not lost.
      this.pending.set(id, (output) => {
        finish();
        resolve(output);
      });
      signal.addEventListener('abort', onAbort);
      if (context.timeoutSeconds > 0) {
        timer = this.timers.setTimeout(() => {
          finish();
          cancel('timeout');
          resolve(
            ToolOutput.error(`${call.name} timed out: no answer from the client within ${context.timeoutSeconds} s.`),
          );
        }, context.timeoutSeconds * 1000);
      }
      const params = {
        ...context.owner,
        requestId: context.requestId,
        call: { id: call.id, name: call.name, arguments: call.args },
      };
      this.out.request(id, 'tool/call', params);
    });
  }

  /** Delivers a client's reply; false (ignored) when no call waits under that id. */
  reply(id: RequestId, result: unknown, error: unknown): boolean {
    const settle = typeof id === 'string' ? this.pending.get(id) : undefined;
    if (!settle) return false;
    settle(readToolReply(result, error));
    return true;
  }
}
