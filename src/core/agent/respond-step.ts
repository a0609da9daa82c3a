/**
 * The respond step: the plain-text reply, streamed to the player as it is written.
 */
import { AgentError } from '../../contract/errors';
import { respondTask } from '../prompt/task-lines';
import { PlainReplyReader } from '../envelope/plain-reply';
import { LineFirstReader, readLineFirst } from '../envelope/line-first';
import type { EngineState } from './engine-state';
import { visible } from './shown-text';
import { refuseCalls } from './after-reply-calls';
import { runStep } from './turn-step';

export async function respondStep(engine: EngineState): Promise<string> {
  const { config } = engine.turn;
  engine.turn.resetText();
  const usedTools = engine.records.length > 0;
  const raw = engine.setup.tools.length === 0 && engine.setup.history.length === 0 && !usedTools;
  // A first plain turn goes to the model as the user's words alone.
  const task = raw ? '' : respondTask(config.labels, usedTools);
  const reader = new PlainReplyReader();
  // Line first, a model may still write actions after its words here (tools are off now):
  // they are cut from the words and recorded as not made.
  const lines =
    engine.lineFirst && engine.setup.tools.length > 0 ? new LineFirstReader(engine.trailerKinds()) : undefined;
  const text = await runStep(engine, {
    kind: 'respond',
    task,
    isRepair: false,
    mode: 'disallowed',
    enabledTools: [],
    raw,
    onText: (full) => {
      const state = lines ? lines.push(full) : undefined;
      const shown =
        state && state.kind === 'line' ? state.text : state && state.kind === 'unknown' ? undefined : reader.push(full);
      if (shown !== undefined) engine.turn.showText(visible(engine, shown, false));
      return false;
    },
  });
  const written = lines ? readLineFirst(text, engine.trailerKinds()) : undefined;
  if (written) refuseCalls(engine, written, 'no tools can be used in this step');
  const reply = visible(engine, written ? written.line : PlainReplyReader.final(text), true);
  if (!reply) throw new AgentError('generation_failed', 'The model returned an empty reply; try again.');
  return reply;
}
