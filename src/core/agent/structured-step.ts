/**
 * The structured step: a reply that must match the turn's schema (line first: the spoken line,
 * then the other fields), its partial values streamed, repaired once.
 */
import { AgentError } from '../../contract/errors';
import type { JsonSchema } from '../schema';
import { inlineReplyOf } from '../envelope';
import { CompletionScanner, extractJson, isPlainObject } from '../json';
import { PartialJsonReader } from '../json/partial-reader';
import { lineFirstTask, repairNote, structuredTask } from '../prompt/task-lines';
import { LineFirstReader, readLineFirst } from '../envelope/line-first';
import { stripReasoning } from '../calls/reasoning';
import type { EngineState } from './engine-state';
import { checkReply } from './inline-reply';
import { lineFirstValue } from './line-first-reply';
import { showLine } from './shown-text';
import { refuseCalls } from './after-reply-calls';
import { runStep } from './turn-step';

export async function structuredStep(
  engine: EngineState,
  schema: JsonSchema,
  inlineProblem?: { problem: string; previous: string },
): Promise<unknown> {
  const { config } = engine.turn;
  const usedTools = engine.records.length > 0;
  let problem = inlineProblem?.problem ?? '';
  let previous = inlineProblem?.previous ?? '';
  const attempts = inlineProblem ? 1 : config.repairsInvalidOutput ? 2 : 1;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const isRepair = inlineProblem !== undefined || attempt > 0;
    const lineField = engine.lineField;
    let task = lineField
      ? lineFirstTask({ labels: config.labels, schema, lineField, usedTools })
      : structuredTask(config.labels, schema, usedTools);
    if (isRepair) task += `\n\n${repairNote(problem, previous)}`;
    const partials = new PartialJsonReader();
    const scanner = new CompletionScanner();
    const lines = lineField ? new LineFirstReader(engine.trailerKinds()) : undefined;
    const raw = engine.setup.tools.length === 0 && engine.setup.history.length === 0;
    // Written as JSON (no spoken line first), the answer can be constrained to the schema.
    const text = await runStep(engine, {
      kind: 'structured',
      task,
      isRepair,
      mode: 'disallowed',
      enabledTools: [],
      raw,
      responseSchema: lineField ? undefined : schema.json,
      onText: (full) => {
        // Reasoning first (a thinking model) is never shown or read as the answer.
        const visible = stripReasoning(full);
        const state = lines ? lines.push(visible) : undefined;
        if (state && state.kind === 'line') return showLine(engine, state.text);
        if (state && state.kind === 'unknown') return false;
        // Every chunk, so a line read token by token shows token by token; while a string is
        // open at the end, a push decodes only the new characters.
        const partial = partials.push(visible);
        if (partial !== undefined) engine.turn.emit({ type: 'partial', value: partial });
        return scanner.push(visible);
      },
    });
    const answer = stripReasoning(text);
    const written = lineField ? readLineFirst(answer, engine.trailerKinds()) : undefined;
    if (written) refuseCalls(engine, written, 'no tools can be used in this step');
    const found = written ? { value: lineFirstValue(engine, written) } : extractJson(answer);
    if (found) {
      const checked = checkReply(engine, schema, found.value);
      if (checked.ok) return checked.value;
      problem = checked.problem;
      // A model that keeps to the decide format wraps the answer: {"reply": {…}}.
      const inner = isPlainObject(found.value) ? inlineReplyOf(found.value) : undefined;
      const unwrapped = inner !== undefined && inner !== found.value ? checkReply(engine, schema, inner) : undefined;
      if (unwrapped && unwrapped.ok) return unwrapped.value;
    } else {
      problem = 'the answer was not JSON';
    }
    previous = text;
  }
  throw new AgentError('generation_failed', `The structured output stayed invalid after a repair attempt: ${problem}.`);
}
