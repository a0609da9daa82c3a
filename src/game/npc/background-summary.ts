/**
 * The NPC's summary of older turns, made in the background after a turn so the player's next
 * turn never waits for it: one at a time, and requeued at the NPC's own priority once it is
 * overdue by a whole interval (at background priority it would wait behind every conversation
 * turn of a busy game forever, and the history, and every prompt, would keep growing).
 */
import { AgentError } from '../../contract/errors';
import { Canceller, type SignalLike } from '../../contract/abort';
import { Priority } from '../../contract/language-model';
import type { ResolvedNPCOptions } from './npc-options';

/** Folds older turns into the memory summary (the NPC's `compact`). */
export type Summarize = (signal: SignalLike, priority: number) => Promise<unknown>;

export class BackgroundSummary {
  private background: Promise<unknown> = Promise.resolve();
  /** The summary queued or running; an overdue one replaces it at a higher priority. */
  private queued: { priority: number; canceller: Canceller } | undefined;

  constructor(private readonly summarize: Summarize) {}

  /** After a turn that was answered (not a fallback), with the history now `turns` long. */
  afterTurn(options: ResolvedNPCOptions, turns: number): void {
    if (options.compactAfterTurns === 0) return;
    const due = Math.max(options.compactAfterTurns, options.keepRecentTurns + 1);
    if (turns < due) return;
    const priority = turns >= due + options.compactAfterTurns ? options.priority : Priority.background;
    const queued = this.queued;
    if (queued && queued.priority >= priority) return; // one at a time
    if (queued)
      queued.canceller.abort(new AgentError('cancelled', 'The summary was queued again at a higher priority.'));
    const compaction = { priority, canceller: new Canceller() };
    this.queued = compaction;
    this.background = this.background
      .then(() => this.summarize(compaction.canceller.signal, priority))
      .catch(() => undefined)
      .then(() => {
        if (this.queued === compaction) this.queued = undefined;
      });
  }

  /** Resolves once the summaries queued so far have run (or failed). */
  async settled(): Promise<void> {
    await this.background.catch(() => undefined);
  }

  /** Cancels the summary waiting or running: it would otherwise still cost a call (and keep a timer). */
  cancel(reason: string): void {
    this.queued?.canceller.abort(new AgentError('cancelled', reason));
  }
}
