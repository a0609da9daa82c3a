/**
 * `session/create`: a session from options, instructions, tools and a saved history, all checked
 * before its id is taken (so a refused create does not use up a generated one).
 */
import { Agent } from '../core/agent';
import { transcriptFromJSON, type TranscriptData } from '../core/transcript';
import { invalidParams, readingParams } from './errors';
import { resolveModel } from './models';
import { ObjectQueue } from './object-queue';
import { isRecord, ParamReader } from './params';
import type { SessionMethodContext } from './session-context';
import { readSessionOptions } from './session-options';
import { shown } from './shown';
import { readWireTools, toAgentTool } from './tool-definitions';

export function createSession(context: SessionMethodContext, raw: unknown) {
  const { bridge, store } = context;
  const params = new ParamReader(raw);
  const requested = params.string('session');
  if (requested !== undefined) store.checkRoom(store.checkId(requested));
  else store.checkFull();
  const options = readSessionOptions(params.any('options'), bridge.defaultToolTimeoutSeconds);
  const sent = params.any('history');
  // The whole session/transcript result ({session, transcript: {type, …}}) is accepted too, as the seed does.
  const history =
    isRecord(sent) && isRecord(sent.transcript) && typeof sent.transcript.type === 'string' ? sent.transcript : sent;
  const saved: TranscriptData | undefined =
    history === undefined ? undefined : readingParams(() => transcriptFromJSON(history));
  // With a history, its instructions and tools are reused unless a key is sent (even null).
  const instructions = params.has('instructions') ? (params.string('instructions') ?? '') : (saved?.instructions ?? '');
  const toolSource = params.has('tools') ? params.any('tools') : saved?.tools;
  const { tools, warnings: toolWarnings } = readWireTools(toolSource);
  // As the seed: a default toolChoice naming a tool the session does not have is −32602 at once.
  const choice = options.config.toolPolicy?.choice;
  if (typeof choice === 'object' && choice !== null && !tools.some((tool) => tool.name === choice.tool)) {
    throw invalidParams(
      `params.options.toolChoice names "${shown(choice.tool)}", which is not among the session's tools.`,
    );
  }
  const model = resolveModel(params.any('model'), bridge.models);
  const warnings = [...options.warnings, ...toolWarnings, ...model.warnings];
  const agent = readingParams(
    () =>
      new Agent(model.model, {
        instructions,
        tools: tools.map((tool) => toAgentTool(tool)),
        config: options.config,
        transcript: history,
      }),
  );
  warnings.push(...params.unknownWarnings());
  // The id is taken last, so a refused create does not use up a generated one.
  const id = requested ?? store.nextId();
  store.add(id, {
    id,
    agent,
    model: model.name,
    tools,
    queue: new ObjectQueue(),
    toolTimeoutSeconds: options.toolTimeoutSeconds,
    createdAt: bridge.createdAt(),
  });
  return { session: id, warnings };
}
