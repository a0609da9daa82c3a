/**
 * Runs one tool call. Local handlers race their timeout and the turn's cancel; a throwing
 * handler becomes an error output. External calls are registered before they are announced,
 * so a host that answers at once is never lost, and wait for the host's answer or a timeout.
 */
import { AgentError } from '../../contract/errors';
import { Canceller, linkSignal, abortError, type SignalLike } from '../../contract/abort';
import { AgentTool, ToolOutput, type ToolCall } from '../tools';
import type { ToolRecord } from './events';
import type { TurnState } from './turn-state';
import { WALL_CLOCK, type ToolClock } from './tool-clock';
import { approveCall } from './approve-call';

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
    return Array.from(this.pending.values(), (pending) => pending.call);
  }

  /** Answers a waiting call; false when the id is unknown, already answered, timed out or cancelled. */
  submit(callId: string, output: unknown): boolean {
    const pending = this.pending.get(callId);
    if (!pending) return false;
    this.pending.delete(callId);
    pending.resolve(ToolOutput.of(output));
    return true;
  }

  wait({
    call,
    timeoutMs,
    signal,
    clock = WALL_CLOCK,
  }: {
    call: ToolCall;
    timeoutMs: number;
    signal: SignalLike;
    clock?: ToolClock;
  }): Promise<ToolOutput> {
    return new Promise<ToolOutput>((resolve, reject) => {
      let stopTimer: (() => void) | undefined;
      const done = () => {
        this.pending.delete(call.id);
        if (stopTimer) stopTimer();
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        done();
        reject(abortError(signal));
      };
      this.pending.set(call.id, {
        call,
        resolve: (output) => {
          done();
          resolve(output);
        },
      });
      if (timeoutMs > 0) {
        stopTimer = stopperOf(
          clock.after(timeoutMs, () => {
            done();
            resolve(ToolOutput.error(`${call.name} got no answer from the game within ${timeoutMs} ms.`));
          }),
        );
      }
      signal.addEventListener('abort', onAbort);
    });
  }

  /** Hands a waiting call to the handler; its answer (or its failure, as an error output) is submitted. */
  dispatch(call: ToolCall, signal: SignalLike): void {
    const handler = this.handler;
    if (!handler) return;
    Promise.resolve()
      .then(() => (signal.aborted ? undefined : handler(call, signal)))
      .then(
        (value) => this.submit(call.id, value),
        (err) => this.submit(call.id, ToolOutput.error(errorText(err))),
      );
  }

  clear(): void {
    this.pending.clear();
  }
}

export async function runTool({
  turn,
  tool,
  call: asked,
  external,
}: {
  turn: TurnState;
  tool: AgentTool;
  /** The call the model chose; the record holds the one made (an approval may change its arguments). */
  call: ToolCall;
  /** Where a call of an external tool waits for the game's answer. */
  external: ExternalCalls;
}): Promise<ToolRecord> {
  const started = Date.now();
  let output: ToolOutput;
  // Nothing of a cancelled turn starts after the cancel: not before the call is announced, and
  // not after a listener of the announcement cancelled the turn.
  turn.throwIfCancelled();
  const approval = await approveCall({
    tool,
    call: asked,
    agentApproval: turn.config.approveToolCall,
    signal: turn.signal,
  });
  const call = approval.call;
  if ('refused' in approval) {
    // Never run, never announced: the model reads the reason as the call's result.
    const record: ToolRecord = {
      call,
      output: ToolOutput.error(`Refused: ${approval.refused}`),
      durationMs: Date.now() - started,
      refused: approval.refused,
    };
    turn.emit({ type: 'toolCompleted', record });
    return record;
  }
  if (tool.execution === 'local') {
    turn.emit({ type: 'toolStarted', call });
    turn.throwIfCancelled();
    output = await runLocal({
      tool,
      call,
      timeoutMs: tool.timeoutMs ?? turn.config.toolTimeoutMs,
      turnSignal: turn.signal,
      clock: turn.config.toolClock ?? WALL_CLOCK,
    });
  } else {
    const timeout = tool.timeoutMs ?? turn.config.externalToolTimeoutMs;
    const waiting = external.wait({ call, timeoutMs: timeout, signal: turn.signal, clock: turn.config.toolClock });
    waiting.catch(() => undefined); // a cancel during the announcement rejects it; thrown below
    turn.emit({ type: 'toolRequested', call });
    turn.throwIfCancelled();
    external.dispatch(call, turn.signal);
    output = await waiting;
  }
  if (turn.signal.aborted) throw abortError(turn.signal);
  output = detached(output, tool.name);
  const record: ToolRecord = { call, output, durationMs: Date.now() - started };
  turn.emit({ type: 'toolCompleted', record });
  return record;
}

async function runLocal({
  tool,
  call,
  timeoutMs,
  turnSignal,
  clock,
}: {
  tool: AgentTool;
  call: ToolCall;
  timeoutMs: number;
  turnSignal: SignalLike;
  clock: ToolClock;
}): Promise<ToolOutput> {
  const canceller = new Canceller();
  const unlink = linkSignal(turnSignal, canceller);
  let stopTimer: (() => void) | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const handler = tool.handler as NonNullable<AgentTool['handler']>;
    // The handler starts a microtask later: a cancel in between means it never starts.
    const work = Promise.resolve().then(() => {
      if (turnSignal.aborted) throw abortError(turnSignal);
      return handler(call.args, { call, signal: canceller.signal });
    });
    const timeout = new Promise<ToolOutput>((resolve) => {
      stopTimer = stopperOf(
        clock.after(timeoutMs, () => {
          canceller.abort(new AgentError('tool_failed', `${tool.name} timed out`));
          resolve(ToolOutput.error(`${tool.name} did not finish within ${timeoutMs} ms.`));
        }),
      );
    });
    const cancelled = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortError(turnSignal));
      if (turnSignal.aborted) onAbort();
      else turnSignal.addEventListener('abort', onAbort);
    });
    cancelled.catch(() => undefined);
    // A handler left running after a timeout finishes on its own; its result is ignored.
    return await Promise.race([
      work.then(
        (value) => ToolOutput.of(value),
        (err) => ToolOutput.error(errorText(err)),
      ),
      timeout,
      cancelled,
    ]);
  } finally {
    if (stopTimer) stopTimer();
    if (onAbort) turnSignal.removeEventListener('abort', onAbort);
    unlink();
  }
}

/**
 * A JSON output is copied, so the history never holds the game's live objects (a later change to
 * the inventory must not rewrite a committed turn); a value that is not JSON (a cycle, a BigInt)
 * becomes an error output the model sees instead of failing the turn.
 */
function detached(output: ToolOutput, toolName: string): ToolOutput {
  if (output.kind !== 'json') return output;
  try {
    const text = JSON.stringify(output.value);
    return ToolOutput.json(text === undefined ? null : JSON.parse(text));
  } catch (error) {
    return ToolOutput.error(`${toolName} returned a value that is not JSON (${errorText(error)}).`);
  }
}

/** A custom clock that returns something other than a function (a timer id) just cannot be stopped early. */
function stopperOf(stop: unknown): (() => void) | undefined {
  return typeof stop === 'function' ? (stop as () => void) : undefined;
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
