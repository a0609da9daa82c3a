/**
 * The decide step: the model answers with a tool call or, in the default mode, the reply itself,
 * shown to the player while it is written; an unusable answer gets one repair step quoting the
 * problem. The answer is read by decide-answer.ts.
 */
import type { AgentTool } from '../tools';
import { InlineReplyReader } from '../envelope';
import { CompletionScanner } from '../json';
import { decideTask, repairNote } from '../prompt/task-lines';
import { LineFirstReader } from '../envelope/line-first';
import { envelopeSchema } from '../envelope/envelope-schema';
import { stripReasoning } from '../calls/reasoning';
import type { DecideOutcome } from './decide-outcome';
import type { EngineState } from './engine-state';
import { readDecision, type Decision } from './decide-answer';
import { showInline, showLine } from './shown-text';
import { runStep } from './turn-step';

export async function decideStep(engine: EngineState, enabled: AgentTool[], required: boolean): Promise<DecideOutcome> {
  const { config } = engine.turn;
  let problem = '';
  let previous = '';
  let knownTool: AgentTool | undefined;
  let knownArgs: Record<string, unknown> = {};
  const attempts = config.repairsInvalidOutput ? 2 : 1;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const repair = attempt > 0 ? repairNote(problem, previous) : undefined;
    const text = await writeDecision(engine, { enabled, required, repair });
    const read = readDecision(engine, text, { enabled, required });
    if (read.kind !== 'problem') return read;
    problem = read.problem;
    if (read.known) {
      knownTool = read.known.tool;
      if (read.known.args) knownArgs = read.known.args;
    }
    previous = text;
  }
  return knownTool ? { kind: 'rejected', tool: knownTool, args: knownArgs, problem } : { kind: 'gaveUp' };
}

/** Runs one decide step (a repair when `repair` quotes the last problem) and returns all it wrote. */
async function writeDecision(engine: EngineState, ask: Decision & { repair?: string }): Promise<string> {
  const { enabled, required, repair } = ask;
  const { config } = engine.turn;
  const names = enabled.map((tool) => tool.name);
  engine.turn.resetText();
  const format = engine.lineFirst ? 'lineFirst' : config.inlineReplies ? 'inline' : 'seed';
  let task = decideTask({
    required,
    enabled,
    allTools: engine.setup.tools,
    format,
    assistant: config.labels.assistant,
  });
  if (repair !== undefined) task += `\n\n${repair}`;
  // Under 'required' a reply is refused, so it must not flash on screen while streaming.
  const reader = config.inlineReplies && !required ? new InlineReplyReader(names) : undefined;
  const lines = engine.lineFirst && !required ? new LineFirstReader(engine.trailerKinds()) : undefined;
  const scanner = new CompletionScanner();
  // In a JSON envelope mode the whole answer has a schema: a constraining backend honours it.
  const responseSchema =
    engine.lineFirst && !required
      ? undefined
      : envelopeSchema({
          tools: enabled,
          allowReply: !required,
          replySchema: engine.input.schema,
          seedForm: !config.inlineReplies,
        });
  const text = await runStep(engine, {
    kind: 'decide',
    task,
    isRepair: repair !== undefined,
    mode: required ? 'required' : 'allowed',
    enabledTools: names,
    responseSchema,
    onText: (full) => {
      // Reasoning first (a thinking model): nothing in it is shown, and a JSON object in it
      // does not end the stream.
      const answer = stripReasoning(full);
      const state = lines ? lines.push(answer) : undefined;
      // Words first: shown as they come; the JSON lines after them end the answer by themselves.
      if (state && state.kind === 'line') return showLine(engine, state.text);
      if (state && state.kind === 'unknown') return false;
      if (reader) showInline(engine, reader.push(answer));
      return scanner.push(answer);
    },
  });
  return text;
}
