/**
 * The respond step: the plain-text reply, streamed to the player as it is written.
 */
import { AgentError } from '../../contract/errors';
import { respondTask } from '../prompt/task-lines';
import { stablePrompt } from '../prompt/prompt-builder';
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
  // Line first, a turn that offers no tool (toolChoice 'none') and has sent no step yet goes out
  // without the catalog and its rules: they would be prefilled for nothing (115 Gemma tokens
  // of the bench's 140), and the step ends on the speaker's cue as a line-first step does.
  const toolFree = engine.lineFirst && engine.turn.modelCalls === 0 && !usedTools;
  const bare = toolFree || engine.setup.tools.length === 0;
  // A first plain turn goes to the model as the user's words alone.
  const raw = bare && engine.setup.history.length === 0 && !usedTools && !engine.contextNote;
  const task = raw ? '' : toolFree ? `${config.labels.assistant}:` : respondTask(config.labels, usedTools);
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
    stable: toolFree ? stablePrompt(engine.setup.instructions, '', engine.turn.model) : undefined,
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
