/**
 * Records an NPC session as a replay bundle. The steps (every prompt and raw output) come from a
 * tap on the model the NPC holds; the turn's result (line, tool calls and their outputs, usage)
 * from the finished DialogueTurn, which a game gets from `talk()` or a component's `npc-turn`
 * event. A turn opens at its first model step (or when `beginTurn` says so) and closes with
 * `finishTurn` / `failTurn`. Nothing here changes what the NPC does.
 */
import { AgentError } from '../../contract/errors';
import type { LanguageModel } from '../../contract/language-model';
import type { AgentTool } from '../../core/tools';
import { readRenderedTurn } from '../../core/prompt/render-conversation';
import type { WorldState } from '../world';
import type { NPCMemoryState } from '../memory';
import type { NPCOptions } from '../npc/npc-options';
import type { DialogueTurn } from '../npc/dialogue';
import type { NPC, TalkOptions } from '../npc/npc';
import { tapModel, type TappedGeneration } from './model-tap';
import {
  REPLAY_BUNDLE_FORMAT,
  REPLAY_BUNDLE_VERSION,
  type RecordedStep,
  type RecordedTool,
  type RecordedTurn,
  type ReplayBundle,
} from './replay-bundle';

/** The steps of a conversation turn; barks and summaries are not part of one. */
const TURN_STEPS = ['decide', 'toolArguments', 'respond', 'structured'];

export interface RecorderSetup {
  /** The persona as its file holds it. */
  persona: unknown;
  options?: NPCOptions;
  /** The game's tools (AgentTools, or definitions already recorded). */
  tools?: ReadonlyArray<AgentTool | RecordedTool>;
  world?: WorldState;
  /** The memory when recording starts (default empty). */
  memory?: NPCMemoryState;
  /** The conversation before recording starts (NPC.saveState().transcript). */
  transcript?: unknown;
  profile?: unknown;
  source?: ReplayBundle['source'];
  /** Who answers now, read when each turn starts (a component's `answeredBy`). */
  answeredBy?: () => string;
  /** Only generations with this label: a shared model serves other NPCs too (default: the persona's name). */
  label?: string;
}

interface OpenTurn {
  said?: string;
  situation?: string;
  world?: Record<string, unknown>;
  snapshots?: Record<string, unknown>;
  answeredBy: string;
  steps: RecordedStep[];
  started: number;
}

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function toolOf(tool: AgentTool | RecordedTool): RecordedTool {
  const parameters = (tool.parameters as { json?: unknown }).json ?? tool.parameters;
  const out: RecordedTool = { name: tool.name, description: tool.description, parameters: copy(parameters) as never };
  if (tool.sideEffect) out.sideEffect = true;
  if (tool.snapshot) out.snapshot = true;
  return out;
}

function stepOf(generation: TappedGeneration): RecordedStep {
  const { request } = generation;
  const step: RecordedStep = { kind: request.kind, prompt: request.prompt };
  if (request.label !== undefined) step.label = request.label;
  if (request.systemInstruction !== undefined) step.systemInstruction = request.systemInstruction;
  if (request.promptPrefix !== undefined) step.promptPrefix = request.promptPrefix;
  if (generation.error) step.error = { code: generation.error.code, message: generation.error.message };
  else step.output = generation.output;
  if (generation.usage) step.usage = { ...generation.usage };
  if (generation.firstChunkMs !== undefined) step.firstChunkMs = Math.round(generation.firstChunkMs);
  step.ms = Math.round(generation.ms);
  return step;
}

export class SessionRecorder {
  private readonly base: Omit<ReplayBundle, 'turns'>;
  private readonly recorded: RecordedTurn[] = [];
  private open: OpenTurn | undefined;
  private readonly untaps: Array<() => void> = [];
  private readonly label: string | undefined;

  constructor(private readonly setup: RecorderSetup) {
    const persona = setup.persona as { name?: unknown } | null;
    if (!persona || typeof persona !== 'object')
      throw new AgentError('invalid_request', 'SessionRecorder needs the persona the NPC plays.');
    this.label = setup.label ?? (typeof persona.name === 'string' ? persona.name : undefined);
    const options = copy(setup.options ?? {}) as Record<string, unknown>;
    this.base = {
      format: REPLAY_BUNDLE_FORMAT,
      version: REPLAY_BUNDLE_VERSION,
      recordedAt: new Date().toISOString(),
      ...(setup.source ? { source: copy(setup.source) } : {}),
      persona: copy(setup.persona) as Record<string, unknown>,
      ...(setup.profile ? { profile: copy(setup.profile) as Record<string, unknown> } : {}),
      options,
      memory: copy(setup.memory ?? { facts: [], relationship: 0, summary: '' }),
      ...(setup.transcript ? { transcript: copy(setup.transcript) as Record<string, unknown> } : {}),
      ...(setup.world ? { world: { initial: setup.world.snapshot(), paths: pathsOf(options) } } : {}),
      tools: (setup.tools ?? []).map(toolOf),
    };
  }

  /** Records every turn step `model` generates from now on; returns the function that stops. */
  tap(model: LanguageModel): () => void {
    const untap = tapModel(model, (generation) => this.onGeneration(generation));
    this.untaps.push(untap);
    return untap;
  }

  /** Records `npc`'s turns through `talk` on this recorder (its model tapped). */
  static forNPC(npc: NPC, setup: Omit<RecorderSetup, 'persona' | 'memory' | 'transcript'> = {}): SessionRecorder {
    const saved = npc.saveState();
    const recorder = new SessionRecorder({
      ...setup,
      persona: saved.persona,
      memory: saved.memory,
      transcript: npc.turnCount > 0 ? saved.transcript : undefined,
    });
    recorder.tap(npc.model);
    return recorder;
  }

  /** Opens a turn with the player's words (otherwise a turn opens at its first step). */
  beginTurn(said: string, situation?: string): void {
    this.open = this.opened();
    this.open.said = said;
    if (situation !== undefined) this.open.situation = situation;
  }

  /** Closes the open turn with what the NPC gave back; `said` when the turn was not begun here. */
  finishTurn(turn: DialogueTurn, said?: string): RecordedTurn {
    const open = this.take();
    const recorded: RecordedTurn = {
      ...this.head(open, said),
      toolCalls: turn.toolCalls.map((record) => ({
        name: record.call.name,
        args: copy(record.call.args),
        output: copy(record.output),
        ms: Math.round(record.durationMs),
        ...(record.rejected ? { rejected: true } : {}),
        ...(record.refused !== undefined ? { refused: record.refused } : {}),
      })),
      line: turn.line,
      emotion: turn.emotion,
      isFallback: turn.isFallback,
      endsConversation: turn.endsConversation,
      relationship: turn.relationship,
      usage: { ...turn.usage },
      modelCalls: turn.modelCalls,
      ms: Math.round(now() - open.started),
    };
    this.recorded.push(recorded);
    return recorded;
  }

  /** Closes the open turn as failed (cancelled, refused): kept so a QA view shows it; a replay skips it. */
  failTurn(error: unknown, said?: string): RecordedTurn {
    const open = this.take();
    const failure = AgentError.from(error);
    const recorded: RecordedTurn = {
      ...this.head(open, said),
      toolCalls: [],
      line: '',
      emotion: '',
      isFallback: false,
      error: { code: failure.code, message: failure.message },
      ms: Math.round(now() - open.started),
    };
    this.recorded.push(recorded);
    return recorded;
  }

  /** One turn through `npc`, recorded whole (its steps, its result or its failure). */
  async talk(npc: NPC, said: string, options: TalkOptions = {}): Promise<DialogueTurn> {
    this.beginTurn(said, options.situation);
    try {
      const turn = await npc.talk(said, options);
      this.finishTurn(turn);
      return turn;
    } catch (error) {
      this.failTurn(error);
      throw error;
    }
  }

  /** A turn has begun (or had a step) and has not been finished or failed yet. */
  get hasOpenTurn(): boolean {
    return this.open !== undefined;
  }

  /** The turns so far (copies). */
  get turns(): RecordedTurn[] {
    return copy(this.recorded);
  }

  /** The session as a bundle (a copy: recording goes on). */
  bundle(): ReplayBundle {
    return copy({ ...this.base, turns: this.recorded });
  }

  toJSON(): ReplayBundle {
    return this.bundle();
  }

  /** Stops hearing the models tapped. */
  close(): void {
    for (const untap of this.untaps.splice(0)) untap();
  }

  private onGeneration(generation: TappedGeneration): void {
    const { request } = generation;
    if (TURN_STEPS.indexOf(request.kind) < 0) return;
    if (this.label !== undefined && request.label !== undefined && request.label !== this.label) return;
    const step = stepOf(generation);
    // A turn that ended without a result (cancelled while its component was off, say) is closed
    // when the next turn's first step shows other words: its steps are not the next turn's.
    const open = this.open;
    if (open && open.said === undefined && open.steps.length > 0 && saidIn(open.steps[0]) !== saidIn(step))
      this.failTurn(new AgentError('cancelled', 'The turn ended without a line (cancelled before it finished).'));
    if (!this.open) this.open = this.opened();
    this.open.steps.push(step);
  }

  private opened(): OpenTurn {
    return {
      answeredBy: this.setup.answeredBy ? this.setup.answeredBy() : 'custom',
      world: this.setup.world ? this.setup.world.snapshot() : undefined,
      snapshots: this.snapshots(),
      steps: [],
      started: now(),
    };
  }

  /** What the tools that can say it in advance say now (a line-first prompt carries it). */
  private snapshots(): Record<string, unknown> | undefined {
    const out: Record<string, unknown> = {};
    let any = false;
    for (const tool of this.setup.tools ?? []) {
      if (typeof tool.snapshot !== 'function') continue;
      try {
        const value = tool.snapshot();
        if (value !== undefined) {
          out[tool.name] = copy(value);
          any = true;
        }
      } catch {
        // A snapshot that throws says nothing in advance (the agent treats it the same way).
      }
    }
    return any ? out : undefined;
  }

  private take(): OpenTurn {
    const open = this.open ?? this.opened();
    this.open = undefined;
    return open;
  }

  private head(open: OpenTurn, said: string | undefined) {
    const words = said ?? open.said ?? (open.steps.length > 0 ? saidIn(open.steps[0]) : '');
    return {
      said: words,
      ...(open.situation !== undefined ? { situation: open.situation } : {}),
      ...(open.world ? { world: open.world } : {}),
      ...(open.snapshots ? { snapshots: open.snapshots } : {}),
      answeredBy: open.answeredBy,
      steps: open.steps,
    };
  }
}

/** The player's words as a step's prompt shows them (one line). */
function saidIn(step: RecordedStep): string {
  return readRenderedTurn(step.prompt).prompt;
}

function pathsOf(options: Record<string, unknown>): { readable?: string[]; writable?: string[]; context?: string[] } {
  const list = (value: unknown) => (Array.isArray(value) ? (value as string[]).slice() : undefined);
  const paths: { readable?: string[]; writable?: string[]; context?: string[] } = {};
  const readable = list(options.worldReadable);
  const writable = list(options.worldWritable);
  const context = list(options.worldContextPaths);
  if (readable) paths.readable = readable;
  if (writable) paths.writable = writable;
  if (context) paths.context = context;
  return paths;
}
