/**
 * Runs one tool call. Local handlers race their timeout and the turn's cancel; a throwing
 * handler becomes an error output. External calls are registered before they are announced,
 * so a host that answers at once is never lost, and wait for the host's answer or a timeout.
 */
import { AgentError } from '../errors';
import { Canceller, linkSignal, abortError, type SignalLike } from '../abort';
import { AgentTool, ToolOutput, type ToolCall } from '../tools';
import type { ToolRecord } from './events';
import type { TurnState } from './turn-state';

export type ExternalToolHandler = (call: ToolCall, signal: SignalLike) => unknown | Promise<unknown>;

interface Pending {
  call: ToolCall;
  resolve: (output: ToolOutput) => void;
}

/** The host-facing side of external calls for one run. */
export class ExternalCalls {
  private pending = new Map<string, Pending>();
  handler?: ExternalToolHandler;

  get calls(): ToolCall[] {
    return Array.from(this.pending.values(), (p) => p.call);
  }

  /** Answers a waiting call; false when the id is unknown, already answered, timed out or cancelled. */
  submit(callId: string, output: unknown): boolean {
    const p = this.pending.get(callId);
    if (!p) return false;
    this.pending.delete(callId);
    p.resolve(ToolOutput.of(output));
    return true;
  }

  wait(call: ToolCall, timeoutMs: number, signal: SignalLike): Promise<ToolOutput> {
    return new Promise<ToolOutput>((resolve, reject) => {
      let timer: unknown;
      const done = () => {
        this.pending.delete(call.id);
        if (timer !== undefined) clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => { done(); reject(abortError(signal)); };
      this.pending.set(call.id, { call, resolve: (o) => { done(); resolve(o); } });
      if (timeoutMs > 0) {
        timer = setTimeout(() => {
          done();
          resolve(ToolOutput.error(`${call.name} got no answer from the game within ${timeoutMs} ms.`));
        }, timeoutMs);
      }
      signal.addEventListener('abort', onAbort);
    });
  }

  clear(): void {
    this.pending.clear();
  }
}

export async function runTool(turn: TurnState, tool: AgentTool, call: ToolCall, external: ExternalCalls): Promise<ToolRecord> {
  const started = Date.now();
  let output: ToolOutput;
  if (tool.execution === 'local') {
    turn.emit({ type: 'toolStarted', call });
    output = await runLocal(tool, call, tool.timeoutMs ?? turn.config.toolTimeoutMs, turn.signal);
  } else {
    const timeout = tool.timeoutMs ?? turn.config.externalToolTimeoutMs;
    const waiting = external.wait(call, timeout, turn.signal);
    turn.emit({ type: 'toolRequested', call });
    if (external.handler) {
      const handler = external.handler;
      Promise.resolve()
        .then(() => handler(call, turn.signal))
        .then((value) => external.submit(call.id, value), (err) => external.submit(call.id, ToolOutput.error(errorText(err))));
    }
    output = await waiting;
  }
  if (turn.signal.aborted) throw abortError(turn.signal);
  const record: ToolRecord = { call, output, durationMs: Date.now() - started };
  turn.emit({ type: 'toolCompleted', record });
  return record;
}

async function runLocal(tool: AgentTool, call: ToolCall, timeoutMs: number, turnSignal: SignalLike): Promise<ToolOutput> {
  const canceller = new Canceller();
  const unlink = linkSignal(turnSignal, canceller);
  let timer: unknown;
  let onAbort: (() => void) | undefined;
  try {
    const handler = tool.handler as NonNullable<AgentTool['handler']>;
    const work = Promise.resolve().then(() => handler(call.args, { call, signal: canceller.signal }));
    const timeout = new Promise<ToolOutput>((resolve) => {
      timer = setTimeout(() => {
        canceller.abort(new AgentError('tool_failed', `${tool.name} timed out`));
        resolve(ToolOutput.error(`${tool.name} did not finish within ${timeoutMs} ms.`));
      }, timeoutMs);
    });
    const cancelled = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortError(turnSignal));
      if (turnSignal.aborted) onAbort();
      else turnSignal.addEventListener('abort', onAbort);
    });
    cancelled.catch(() => undefined);
    // A handler left running after a timeout finishes on its own; its result is ignored.
    return await Promise.race([
      work.then((v) => ToolOutput.of(v), (err) => ToolOutput.error(errorText(err))),
      timeout,
      cancelled,
    ]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (onAbort) turnSignal.removeEventListener('abort', onAbort);
    unlink();
  }
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
