/**
 * What one try of a turn works with and has done so far: its setup and input, the stable
 * prefix, the line-first reading settings, its tool records and counters. The steps of the tool
 * loop (decide-step.ts, respond-step.ts, …) are functions of this state; TurnEngine (turn.ts)
 * runs them.
 */
import { AgentTool, newCallId, ToolOutput, type ToolCall } from '../tools';
import type { ToolRecord } from './events';
import type { StablePrompt } from '../prompt/prompt-builder';
import { lineFieldOf, replyTrailerOf, tagValuesOf, writesLineFirst } from '../prompt/stable-prefix';
import type { ReplyTextStream } from '../prompt/reply-text';
import type { PlayerTextStream } from '../player-text/player-text-stream';
import type { TrailerKinds } from '../envelope/line-first';
import type { FinishReason } from '../../contract/language-model';
import type { TranscriptEntry } from '../transcript';
import { runTool, type ExternalCalls } from './tool-runner';
import type { TurnState } from './turn-state';
import { prefixInput, type TurnInput, type TurnSetup } from './turn-setup';

/** What one attempt of a turn works with. */
export interface TurnEngineParts {
  /** The turn's counters and events, shared by all its attempts. */
  turn: TurnState;
  setup: TurnSetup;
  input: TurnInput;
  external: ExternalCalls;
  /** This attempt's entries so far; the agent shows them in `transcript` and commits them on success. */
  entries: TranscriptEntry[];
}

export class EngineState {
  readonly stable: StablePrompt;
  contextNote: string;
  readonly records: ToolRecord[] = [];
  readonly succeeded = new Set<string>();
  rounds = 0;
  calls = 0;
  /** How the last step ended: a line cut by the token limit is written again whole. */
  lastFinishReason: FinishReason | undefined;
  /** Where this turn's entries of actions written after the words start and end. */
  afterReply: { from: number; to: number } | undefined;
  readonly labels: string[];
  /** Replies are written line first (plain words, then JSON lines). */
  readonly lineFirst: boolean;
  /** The structured reply's spoken-text key, when line first. */
  readonly lineField: string | undefined;
  /** The reply key written as a `[value]` tag after the words, when there is one. */
  readonly tagKey: string | undefined;
  /** The values that tag may hold; other bracketed words are stage directions. */
  readonly tagValues: string[] | undefined;
  /** Every tool's name: calls of these are cut from the words wherever they sit. */
  readonly toolNames: string[];
  /** Incremental clean-up of the reply text and of the line streamed so far (each starts over when its text does not grow). */
  replyStream?: ReplyTextStream;
  lineStream?: PlayerTextStream;

  readonly turn: TurnState;
  readonly setup: TurnSetup;
  readonly input: TurnInput;
  readonly external: ExternalCalls;
  readonly current: TranscriptEntry[];

  constructor(parts: TurnEngineParts) {
    const { turn, setup, input } = parts;
    this.turn = turn;
    this.setup = setup;
    this.input = input;
    this.external = parts.external;
    this.current = parts.entries;
    const config = turn.config;
    const prefix = prefixInput(setup, config, input.schema);
    this.stable = setup.prefixes.get(prefix, turn.model);
    this.lineFirst = writesLineFirst(prefix);
    this.lineField = input.schema && this.lineFirst ? lineFieldOf(input.schema, config.replyLineField) : undefined;
    this.tagKey = this.lineField ? replyTrailerOf(input.schema, this.lineField).tagKey : undefined;
    this.tagValues = tagValuesOf(input.schema, this.tagKey);
    this.toolNames = setup.tools.map((tool) => tool.name);
    this.contextNote = [setup.contextNote, input.context ?? '']
      .map((note) => note.trim())
      .filter(Boolean)
      .join('\n\n');
    this.labels = [config.labels.assistant, 'Assistant', 'AI'];
  }

  /** What a line-first reader looks for after the words: every tool's calls, and the reply's tag. */
  trailerKinds(): TrailerKinds {
    return {
      toolNames: this.toolNames,
      tagKey: this.tagKey,
      tagValues: this.tagValues,
      parameterOrder: this.parameterOrder,
    };
  }

  /** A tool's parameter names in schema order, for calls written by position. */
  readonly parameterOrder = (name: string): readonly string[] | undefined => {
    const tool = this.setup.tools.find((candidate) => candidate.name === name);
    return tool ? tool.parameters.propertyNames() : undefined;
  };

  /** Runs a tool call: its record lands in this try's records, the turn's tool calls and the transcript. */
  async execute(tool: AgentTool, args: Record<string, unknown>): Promise<ToolRecord> {
    const call: ToolCall = { id: newCallId(), name: tool.name, args };
    const record = await runTool({ turn: this.turn, tool, call, external: this.external });
    this.records.push(record);
    this.turn.toolCalls.push(record);
    this.current.push({ type: 'toolUse', call: record.call, output: record.output });
    this.rounds++;
    this.calls++;
    return record;
  }

  /** Records a call that is not made, with the reason as its output (the model sees it next step). */
  reject(tool: AgentTool, args: Record<string, unknown>, problem: string): void {
    const call: ToolCall = { id: newCallId(), name: tool.name, args };
    const output = ToolOutput.error(`The call was not made: ${problem}.`);
    const record: ToolRecord = { call, output, durationMs: 0, rejected: true };
    this.records.push(record);
    this.turn.toolCalls.push(record);
    this.current.push({ type: 'toolUse', call, output, rejected: true });
    this.turn.emit({ type: 'toolCompleted', record });
    this.rounds++;
    this.calls++;
  }
}
