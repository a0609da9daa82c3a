/**
 * What the page shows of one NPC turn, built from the turn's events by a plain reducer so the
 * page's rendering stays dumb and the logic can be tested in Node.
 */
import { estimateTokens, ToolOutput, type AgentError, type NPCEvent } from '../../src';

export interface StepView {
  /** Position in the turn, 1-based, counting every model call (retries too). */
  number: number;
  kind: string;
  isRepair: boolean;
  attempt: number;
  /** What the model was given: system instruction, stable prefix, changing prompt. */
  systemInstruction: string;
  promptPrefix: string;
  prompt: string;
  /** estimateTokens of everything the model was given. */
  promptTokens: number;
  /** Known once the step finished. */
  output?: string;
  outputTokens?: number;
  cachedTokens?: number;
  /** The step ended without an answer (the model failed; a retry or a fallback followed). */
  failed?: boolean;
}

export type ToolStatus = 'running' | 'waiting' | 'done' | 'failed' | 'rejected';

export interface ToolView {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** Answered by the person at the panel rather than by game code. */
  external: boolean;
  status: ToolStatus;
  result?: string;
}

export interface TurnView {
  player: string;
  line: string;
  /** How many line events arrived (the line streams in over several). */
  lineEvents: number;
  emotion?: string;
  steps: StepView[];
  tools: ToolView[];
  /** Steps and tool calls in the order they happened: `step:<number>` and `tool:<call id>`. */
  timeline: string[];
  /** Why the NPC fell back to an authored line (the model's error message). */
  fallbackReason?: string;
  isFallback: boolean;
  /** The turn failed outright (no line at all). */
  error?: string;
  done: boolean;
  modelCalls?: number;
  /** When the turn started (ms, the page's clock): the waiting bubble shows the time since. */
  startedAt: number;
  /** The relationship the designer set (the state panel's slider) just before this turn. */
  relationshipSet?: number;
}

export function newTurnView(player: string): TurnView {
  return {
    player,
    line: '',
    lineEvents: 0,
    steps: [],
    tools: [],
    timeline: [],
    isFallback: false,
    done: false,
    startedAt: Date.now(),
  };
}

export function describeError(error: AgentError): string {
  // A recorded script that ran out says so in a designer's words, with what to do.
  const exhausted = /the script is exhausted after (\d+) steps/.exec(error.message);
  if (exhausted)
    return `${error.code}: the recorded script ran out: it had ${exhausted[1]} step${exhausted[1] === '1' ? '' : 's'} and the NPC asked for one more. Add steps in Set-up: one per model call, and a turn with a tool takes two (the call, then the reply).`;
  return `${error.code}: ${error.message}`;
}

/** Applies one NPC event to the view (mutates it: the page re-renders the turn after each). */
export function applyEvent(view: TurnView, event: NPCEvent): void {
  switch (event.type) {
    case 'emotion':
      view.emotion = event.emotion;
      break;
    case 'line':
      view.line = event.line;
      view.lineEvents++;
      break;
    case 'modelStep': {
      const request = event.request;
      const system = request.systemInstruction ?? '';
      const prefix = request.promptPrefix ?? '';
      closeOpenSteps(view);
      const number = view.steps.length + 1;
      view.timeline.push(`step:${number}`);
      view.steps.push({
        number,
        kind: event.step.kind,
        isRepair: event.step.isRepair,
        attempt: event.step.attempt,
        systemInstruction: system,
        promptPrefix: prefix,
        prompt: request.prompt,
        promptTokens: estimateTokens(system) + estimateTokens(prefix + request.prompt),
      });
      break;
    }
    case 'modelStepFinished': {
      // Steps run one at a time: the one finishing is the last one started.
      const step = view.steps[view.steps.length - 1];
      if (!step) break;
      step.output = event.output;
      step.outputTokens = event.usage.outputTokens;
      step.cachedTokens = event.usage.cachedInputTokens;
      break;
    }
    case 'toolCall':
      toolOf(view, event.call, false).status = 'running';
      break;
    case 'externalToolCall':
      toolOf(view, event.call, true).status = 'waiting';
      break;
    case 'toolResult': {
      const record = event.record;
      const tool = toolOf(view, record.call, false);
      tool.result = ToolOutput.render(record.output);
      tool.status = record.rejected ? 'rejected' : record.output.kind === 'error' ? 'failed' : 'done';
      break;
    }
    case 'fallback':
      closeOpenSteps(view);
      view.fallbackReason = describeError(event.reason);
      break;
    case 'completed':
      view.line = event.turn.line;
      view.emotion = event.turn.emotion;
      view.isFallback = event.turn.isFallback;
      view.modelCalls = event.turn.modelCalls;
      view.done = true;
      closeOpenSteps(view);
      for (const toolView of view.tools)
        if (toolView.status === 'waiting' || toolView.status === 'running') toolView.status = 'failed';
      break;
  }
}

/** Marks the turn as failed (the stream rejected). */
export function failTurn(view: TurnView, error: AgentError): void {
  view.error = describeError(error);
  view.done = true;
  closeOpenSteps(view);
  for (const toolView of view.tools)
    if (toolView.status === 'waiting' || toolView.status === 'running') toolView.status = 'failed';
}

function toolOf(
  view: TurnView,
  call: { id: string; name: string; args: Record<string, unknown> },
  external: boolean,
): ToolView {
  const { id, name, args } = call;
  let tool = view.tools.find((known) => known.id === id);
  if (!tool) {
    tool = { id, name, args, external, status: 'running' };
    view.tools.push(tool);
    view.timeline.push(`tool:${id}`);
  }
  if (external) tool.external = true;
  return tool;
}

/** A step that never finished before the next one (or the end of the turn) failed. */
function closeOpenSteps(view: TurnView): void {
  for (const stepView of view.steps) if (stepView.output === undefined) stepView.failed = true;
}
