/**
 * `session/*` (reference §3.2): agents by id with their own queue, streamed `session/event`s,
 * client tools over `tool/call`, and cancels that leave nothing of a cancelled turn behind.
 */
import type { SignalLike } from '../contract/abort';
import { Agent, parseToolChoice, type AgentEvent, type AgentResponse } from '../core/agent';
import { JsonSchema } from '../core/schema';
import { transcriptFromJSON, type TranscriptData } from '../core/transcript';
import { clientToolHandler, type BridgeContext, type MethodGroup, type RequestInfo } from './context';
import { closedWireSchema } from './closed-schemas';
import { atSchemaParam, BridgeError, invalidParams, readingParams } from './errors';
import { ObjectQueue } from './object-queue';
import { isRecord, ParamReader } from './params';
import { readNames, readSessionOptions } from './session-options';
import { SessionStore } from './session-store';
import { shown } from './shown';
import { readWireTools, toAgentTool, type WireTool } from './tool-definitions';
import { callOnWire, stepOnWire, toolRecordOnWire, usageOnWire, type TurnTools } from './wire-shapes';
import { resolveModel } from './models';

export interface BridgeSession {
  id: string;
  agent: Agent;
  model: string;
  tools: WireTool[];
  queue: ObjectQueue;
  toolTimeoutSeconds: number;
  createdAt: string;
}

export function sessionMethods(context: BridgeContext, maxSessions: number): MethodGroup {
  const store = new SessionStore<BridgeSession>(maxSessions);

  const find = (params: ParamReader): BridgeSession => {
    const id = store.checkId(params.requiredString('session'));
    const session = store.get(id);
    if (!session) throw new BridgeError('session_not_found', `No session "${id}".`, { session: id });
    return session;
  };

  const create = (raw: unknown) => {
    const params = new ParamReader(raw);
    const requested = params.string('session');
    if (requested !== undefined) store.checkRoom(store.checkId(requested));
    else store.checkFull();
    const options = readSessionOptions(params.any('options'), context.defaultToolTimeoutSeconds);
    const sent = params.any('history');
    // The whole session/transcript result ({session, transcript: {type, …}}) is accepted too, as the seed does.
    const history =
      isRecord(sent) && isRecord(sent.transcript) && typeof sent.transcript.type === 'string' ? sent.transcript : sent;
    const saved: TranscriptData | undefined =
      history === undefined ? undefined : readingParams(() => transcriptFromJSON(history));
    // With a history, its instructions and tools are reused unless a key is sent (even null).
    const instructions = params.has('instructions')
      ? (params.string('instructions') ?? '')
      : (saved?.instructions ?? '');
    const toolSource = params.has('tools') ? params.any('tools') : saved?.tools;
    const { tools, warnings: toolWarnings } = readWireTools(toolSource);
    // As the seed: a default toolChoice naming a tool the session does not have is −32602 at once.
    const choice = options.config.toolPolicy?.choice;
    if (typeof choice === 'object' && choice !== null && !tools.some((tool) => tool.name === choice.tool)) {
      throw invalidParams(
        `params.options.toolChoice names "${shown(choice.tool)}", which is not among the session's tools.`,
      );
    }
    const model = resolveModel(params.any('model'), context.models);
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
      createdAt: context.createdAt(),
    });
    return { session: id, warnings };
  };

  const respond = (raw: unknown, request: RequestInfo) => {
    const params = new ParamReader(raw);
    const session = find(params);
    const prompt = params.requiredString('prompt');
    const schemaRaw = params.any('schema');
    const schema =
      schemaRaw === undefined ? undefined : atSchemaParam('schema', () => JsonSchema.from(closedWireSchema(schemaRaw)));
    const stream = params.boolean('stream') ?? false;
    const choiceRaw = params.any('toolChoice');
    const toolChoice = choiceRaw === undefined ? undefined : readingParams(() => parseToolChoice(choiceRaw));
    const rounds = params.number('maxToolRounds', { integer: true, min: 0, max: 64 });
    const calls = params.number('maxToolCalls', { integer: true, min: 0, max: 256 });
    const enabledTools = readNames(params, 'enabledTools');
    const warnings = params.unknownWarnings();
    return session.queue.add(async (signal) => {
      // Checked when the turn starts: an earlier queued setTools may have added the tool.
      if (
        toolChoice !== undefined &&
        typeof toolChoice === 'object' &&
        !session.agent.tools.some((tool) => tool.name === toolChoice.tool)
      ) {
        throw invalidParams(`toolChoice names "${toolChoice.tool}", which session "${session.id}" does not have.`);
      }
      const policy = session.agent.config.toolPolicy;
      const perTurn = rounds !== undefined || calls !== undefined;
      if (perTurn)
        readingParams(() =>
          session.agent.configure({
            toolPolicy: { maxToolRounds: rounds ?? policy.maxToolRounds, maxToolCalls: calls ?? policy.maxToolCalls },
          }),
        );
      try {
        const run = session.agent.run(prompt, {
          schema,
          toolChoice,
          enabledTools,
          signal,
          externalTools: clientToolHandler(context, {
            owner: { session: session.id },
            requestId: request.id,
            tools: session.tools,
            timeoutSeconds: session.toolTimeoutSeconds,
          }),
        });
        if (stream) {
          for (const type of ['step', 'text', 'partial', 'toolStarted', 'toolRequested', 'toolCompleted'] as const) {
            run.on(type, (event: AgentEvent) => {
              const wire = sessionEvent(event);
              if (wire) context.notify('session/event', { session: session.id, requestId: request.id, event: wire });
            });
          }
        }
        // What the decide steps offered, for steps[]: the named tool, else the enabled tools.
        const choice = toolChoice ?? policy.choice;
        const names = session.agent.tools.map((tool) => tool.name);
        const allowed = enabledTools ?? policy.enabledTools;
        const turn: TurnTools = {
          enabledTools:
            typeof choice === 'object'
              ? [choice.tool]
              : choice === 'none'
                ? []
                : names.filter((name) => !allowed || allowed.indexOf(name) >= 0),
          forced: typeof choice === 'object' || choice === 'required',
        };
        return responseOnWire(session.id, await run.response(), { warnings, turn });
      } finally {
        if (perTurn)
          session.agent.configure({
            toolPolicy: { maxToolRounds: policy.maxToolRounds, maxToolCalls: policy.maxToolCalls },
          });
      }
    });
  };

  const cancel = (raw: unknown) => {
    const session = find(new ParamReader(raw));
    return { session: session.id, cancelled: session.queue.cancelAll("The session's requests were cancelled.") };
  };

  /** Queues a session operation; `signal` aborts when session/cancel or session/delete cancels it. */
  const queued = (
    raw: unknown,
    work: (session: BridgeSession, params: ParamReader) => (signal: SignalLike) => unknown,
  ) => {
    const params = new ParamReader(raw);
    const session = find(params);
    const run = work(session, params);
    return session.queue.add((signal) => run(signal));
  };

  const methods = {
    'session/create': create,
    'session/respond': respond,
    'session/cancel': cancel,
    'session/reset': (raw: unknown) =>
      queued(raw, (session) => async () => {
        await session.agent.reset();
        return { session: session.id };
      }),
    'session/delete': (raw: unknown) => {
      const session = find(new ParamReader(raw));
      session.queue.cancelAll('The session was deleted.');
      session.agent.close();
      store.delete(session.id);
      return { session: session.id, deleted: true };
    },
    'session/list': () => ({
      sessions: store.all().map((session) => {
        const listed: Record<string, unknown> = { session: session.id, model: session.model };
        if (session.agent.instructions) listed.instructions = session.agent.instructions;
        return {
          ...listed,
          tools: session.agent.tools.map((tool) => tool.name),
          busy: session.queue.busy,
          pendingOperations: session.queue.pendingOperations,
          entries: session.agent.history.length,
          createdAt: session.createdAt,
        };
      }),
    }),
    'session/transcript': (raw: unknown) => {
      const session = find(new ParamReader(raw));
      return { session: session.id, transcript: session.agent.saveTranscript() };
    },
    'session/setInstructions': (raw: unknown) =>
      queued(raw, (session, params) => {
        const instructions = params.string('instructions') ?? '';
        return () => {
          session.agent.instructions = instructions;
          return { session: session.id };
        };
      }),
    'session/setContextNote': (raw: unknown) =>
      queued(raw, (session, params) => {
        const note = params.string('note') ?? '';
        return () => {
          session.agent.contextNote = note;
          return { session: session.id };
        };
      }),
    'session/setTools': (raw: unknown) =>
      queued(raw, (session, params) => {
        const { tools, warnings } = readWireTools(params.any('tools'));
        const agentTools = tools.map((tool) => toAgentTool(tool));
        return () => {
          readingParams(() => session.agent.setTools(agentTools));
          session.tools = tools;
          return { session: session.id, warnings };
        };
      }),
    'session/compact': (raw: unknown) =>
      queued(raw, (session, params) => {
        const keep = params.number('keepRecentTurns', { integer: true, min: 0, max: 1000 });
        const instructions = params.string('summaryInstructions');
        return async (signal) => {
          // Cancelled with the session's other requests, leaving the history as it was (as the seed's).
          const summary = await session.agent.compactHistory({ keepRecentTurns: keep ?? 2, instructions, signal });
          return { session: session.id, summary };
        };
      }),
  };

  return {
    methods,
    async shutdown() {
      const sessions = store.all();
      for (const session of sessions) session.queue.cancelAll('The bridge is shutting down.');
      await Promise.all(sessions.map((session) => session.agent.waitUntilIdle().catch(() => undefined)));
      for (const session of sessions) session.agent.close();
    },
  };
}

function responseOnWire(
  session: string,
  response: AgentResponse,
  extra: { warnings: string[]; turn: TurnTools },
): Record<string, unknown> {
  const { warnings, turn } = extra;
  const wire: Record<string, unknown> = { session, text: response.text };
  if (response.structured !== undefined) wire.structured = response.structured;
  wire.toolCalls = response.toolCalls.map(toolRecordOnWire);
  wire.usage = usageOnWire(response.usage);
  wire.steps = response.steps.map((step) => stepOnWire(step, turn));
  if (warnings.length > 0) wire.warnings = warnings;
  return wire;
}

/** A core event as a `session/event` event (reference §3.4), or undefined for those not sent. */
export function sessionEvent(event: AgentEvent): Record<string, unknown> | undefined {
  switch (event.type) {
    case 'step':
      return { type: 'modelStep', step: event.step.index, kind: event.step.kind, isRepair: event.step.isRepair };
    case 'text':
      return { type: 'text', delta: event.delta, text: event.text, isReset: event.isReset };
    case 'partial':
      return { type: 'partial', value: event.value };
    case 'toolStarted':
      return { type: 'toolCallStarted', call: callOnWire(event.call), execution: 'local' };
    case 'toolRequested':
      return { type: 'toolCallStarted', call: callOnWire(event.call), execution: 'client' };
    case 'toolCompleted':
      return { type: 'toolCallCompleted', record: toolRecordOnWire(event.record) };
    default:
      return undefined;
  }
}
