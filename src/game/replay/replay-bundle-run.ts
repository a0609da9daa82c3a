/**
 * Plays a replay bundle back: the NPC is rebuilt from the bundle (persona, options, memory,
 * conversation before, world, the game's tools answered with their recorded results), the
 * recorded model outputs are played in order, and each turn's line is compared with the
 * recorded one. Prompts that differ from the recorded ones are reported as divergences (or,
 * `strict`, fail the replay with generation_failed). A replay builds everything it uses, so
 * nothing outside it changes, whatever happens; the bundle given is not touched.
 */
import { AgentError } from '../../contract/errors';
import type { SignalLike } from '../../contract/abort';
import { AgentTool, type ToolCall, type ToolVerdict } from '../../core/tools';
import { WorldState } from '../world';
import { NPC } from '../npc/npc';
import { BUILT_IN_TOOLS } from '../npc/agent-parts';
import { parseReplayBundle } from './validate-bundle';
import { ReplayModel, type Divergence } from './replay-model';
import type { RecordedToolCall, ReplayBundle } from './replay-bundle';

export interface ReplayOptions {
  /** Fail with generation_failed at the first turn that diverges, instead of reporting it. */
  strict?: boolean;
  signal?: SignalLike;
}

export interface ReplayedTurn {
  said: string;
  line: string;
  recordedLine: string;
  emotion: string;
  recordedEmotion: string;
  tools: string[];
  recordedTools: string[];
  /** The line, emotion and tools are what was recorded. */
  same: boolean;
  /** A turn that failed when recorded is not played (it left nothing in the conversation). */
  skipped?: boolean;
}

/** Something of a turn other than a prompt that was not as recorded. */
export interface TurnMismatch {
  turn: number;
  what: string;
}

export interface ReplayReport {
  turns: ReplayedTurn[];
  /** Requests that differ from the recorded ones. */
  divergences: Divergence[];
  /** Steps or tool results the replay used differently from the recording. */
  mismatches: TurnMismatch[];
  /** Every played turn said what was recorded. */
  sameLines: boolean;
  /** Same lines, no divergence and no mismatch: the session replayed exactly. */
  exact: boolean;
}

/** The recorded calls of the turn being played, consumed in order as the replayed NPC makes them. */
class RecordedCalls {
  /** The game's tools: the NPC's own world and memory tools run for real in a replay. */
  constructor(private readonly names: readonly string[]) {}

  private pending: RecordedToolCall[] = [];
  readonly missing: string[] = [];
  /** What the tools said in advance when the recorded turn started. */
  snapshots: Record<string, unknown> | undefined;

  startTurn(calls: RecordedToolCall[], snapshots: Record<string, unknown> | undefined): void {
    this.snapshots = snapshots;
    this.pending = calls.filter((call) => !call.rejected && this.names.indexOf(call.name) >= 0);
    this.missing.length = 0;
  }

  approve(call: ToolCall): ToolVerdict {
    const index = this.pending.findIndex((recorded) => recorded.name === call.name);
    if (index < 0 || this.pending[index].refused === undefined) return undefined;
    const [refused] = this.pending.splice(index, 1);
    return { refuse: refused.refused as string };
  }

  answer(name: string): unknown {
    const index = this.pending.findIndex((recorded) => recorded.name === name && recorded.refused === undefined);
    if (index < 0) {
      this.missing.push(name);
      return { kind: 'error', message: `the replay bundle has no recorded result for this ${name} call` };
    }
    return this.pending.splice(index, 1)[0].output;
  }

  get unused(): string[] {
    return this.pending.map((call) => call.name);
  }
}

function buildNPC(bundle: ReplayBundle, model: ReplayModel, calls: RecordedCalls) {
  const snapshotOf = (name: string) => () => (calls.snapshots ? calls.snapshots[name] : undefined);
  const world = bundle.world ? new WorldState(bundle.world.initial) : undefined;
  const tools = bundle.tools
    .filter((tool) => BUILT_IN_TOOLS.indexOf(tool.name) < 0)
    .map((tool) =>
      AgentTool.local(
        {
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters,
          sideEffect: tool.sideEffect,
          ...(tool.snapshot ? { snapshot: snapshotOf(tool.name) } : {}),
        },
        () => calls.answer(tool.name),
      ),
    );
  try {
    const npc = new NPC({
      persona: bundle.persona,
      model,
      world,
      tools,
      // A summary written in the background would take a turn's recorded output.
      options: { ...bundle.options, compactAfterTurns: 0 },
      memory: bundle.memory,
      transcript: bundle.transcript,
      approveToolCall: (call) => calls.approve(call),
    });
    return { npc, world };
  } catch (error) {
    const cause = AgentError.from(error, 'invalid_request');
    throw new AgentError(cause.code, `The replay bundle's NPC cannot be built: ${cause.message}`, { cause });
  }
}

function describeDivergence(divergence: Divergence): string {
  return `turn ${divergence.turn}, step ${divergence.step}: the ${divergence.field} differs from the recorded one at character ${divergence.at} (recorded "${divergence.recorded}", now "${divergence.replayed}")`;
}

/** Replays `input` (a bundle object or its JSON text); invalid_request before anything runs when it is not valid. */
export async function replayBundle(input: unknown, options: ReplayOptions = {}): Promise<ReplayReport> {
  const bundle = parseReplayBundle(input);
  const model = new ReplayModel();
  const calls = new RecordedCalls(
    bundle.tools.map((tool) => tool.name).filter((name) => BUILT_IN_TOOLS.indexOf(name) < 0),
  );
  const { npc, world } = buildNPC(bundle, model, calls);
  const report: ReplayReport = {
    turns: [],
    divergences: model.divergences,
    mismatches: [],
    sameLines: true,
    exact: true,
  };
  try {
    for (const [index, recorded] of bundle.turns.entries()) {
      const recordedTools = recorded.toolCalls.filter((call) => !call.rejected).map((call) => call.name);
      const base = {
        said: recorded.said,
        recordedLine: recorded.line,
        recordedEmotion: recorded.emotion,
        recordedTools,
      };
      if (recorded.error) {
        report.turns.push({ ...base, line: '', emotion: '', tools: [], same: true, skipped: true });
        continue;
      }
      if (world && recorded.world) world.replace(recorded.world);
      model.startTurn(index, recorded);
      calls.startTurn(recorded.toolCalls, recorded.snapshots);
      const before = model.divergences.length;
      const turn = await npc.talk(recorded.said, { situation: recorded.situation, signal: options.signal });
      const tools = turn.toolCalls.filter((record) => !record.rejected).map((record) => record.call.name);
      const same =
        turn.line === recorded.line && turn.emotion === recorded.emotion && tools.join() === recordedTools.join();
      report.turns.push({ ...base, line: turn.line, emotion: turn.emotion, tools, same });
      if (model.unplayed > 0)
        report.mismatches.push({ turn: index, what: `${model.unplayed} recorded step(s) were not asked for` });
      for (const name of calls.missing)
        report.mismatches.push({ turn: index, what: `a ${name} call was not recorded` });
      for (const name of calls.unused)
        report.mismatches.push({ turn: index, what: `the recorded ${name} call was not made` });
      if (options.strict && model.divergences.length > before)
        throw new AgentError(
          'generation_failed',
          `The replay diverged: ${describeDivergence(model.divergences[before])}. Re-record the session, or replay without strict to see every difference.`,
        );
      if (options.strict && !same)
        throw new AgentError(
          'generation_failed',
          `The replay diverged: turn ${index} said "${turn.line}", the recording "${recorded.line}".`,
        );
    }
  } finally {
    npc.close();
  }
  report.sameLines = report.turns.every((turn) => turn.same);
  report.exact = report.sameLines && report.divergences.length === 0 && report.mismatches.length === 0;
  return report;
}
