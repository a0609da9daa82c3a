/**
 * One model step as the tool loop asks for it: the step's prompt built on the stable prefix,
 * its sampling settings and output cap by kind, then run and read as it streams (model-step.ts).
 */
import { buildStepPrompt, type StablePrompt } from '../prompt/prompt-builder';
import type { StepKind } from '../../contract/language-model';
import type { ToolCallingMode } from './events';
import { runModelStep } from './model-step';
import type { EngineState } from './engine-state';

/** A line-first decide step's output cap when no reply cap is set: room for a few sentences and the trailer. */
const LINE_FIRST_MIN_TOKENS = 512;

/** One model step as the tool loop asks for it. */
export interface StepInput {
  kind: StepKind;
  task: string;
  isRepair: boolean;
  mode: ToolCallingMode;
  enabledTools: string[];
  /** Called with all text so far after each chunk; true stops reading. */
  onText: (text: string) => boolean;
  /** The prompt is the user's words alone (a first plain turn). */
  raw?: boolean;
  /** A JSON Schema the whole answer must match, for backends that constrain decoding. */
  responseSchema?: Record<string, unknown>;
  /** The prefix this step goes out with, when not the turn's own (a step that offers no tool). */
  stable?: StablePrompt;
}

export async function runStep(engine: EngineState, step: StepInput): Promise<string> {
  const { kind, task, isRepair, mode, enabledTools, onText, raw = false } = step;
  const { config, model } = engine.turn;
  const t0 = performance.now();
  const built = await buildStepPrompt({
    input: { kind, history: engine.setup.history, current: engine.current, contextNote: engine.contextNote, task, raw },
    stable: step.stable ?? engine.stable,
    settings: config,
    model,
    counter: engine.setup.counter,
    signal: engine.turn.signal,
  });
  const decision = kind === 'decide' || kind === 'toolArguments';
  const req = built.request;
  if (decision) {
    req.temperature = config.decisionTemperature;
    // A line-first decide step may carry the whole reply: it gets the reply's room too.
    const carriesReply = kind === 'decide' && engine.lineFirst && mode !== 'required';
    req.maxOutputTokens = carriesReply
      ? Math.max(config.decisionMaxTokens, config.maxResponseTokens ?? LINE_FIRST_MIN_TOKENS)
      : config.decisionMaxTokens;
  } else {
    if (config.temperature !== undefined) req.temperature = config.temperature;
    // Every step has an output cap: a reply step without one could stream for as long as the server likes.
    req.maxOutputTokens = config.maxResponseTokens ?? LINE_FIRST_MIN_TOKENS;
  }
  // A backend that constrains decoding (Chrome's responseConstraint) enforces it; others ignore it.
  if (step.responseSchema) req.responseSchema = step.responseSchema;
  if (config.topK !== undefined) req.topK = config.topK;
  if (config.seed !== undefined) req.seed = config.seed;
  const buildMs = performance.now() - t0;
  const result = await runModelStep({
    turn: engine.turn,
    built,
    info: { kind, isRepair, completedToolRounds: engine.rounds, toolCallingMode: mode, enabledTools },
    handlers: { onText },
    buildMs,
  });
  engine.lastFinishReason = result.finishReason;
  return result.text;
}
