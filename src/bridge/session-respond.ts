/**
 * `session/respond`: one turn in the session's queue, with its own tool limits for that turn
 * only, its `session/event` stream and its client tools over `tool/call`.
 */
import type { SignalLike } from '../contract/abort';
import {
  parseToolChoice,
  type AgentEvent,
  type AgentResponse,
  type AgentRun,
  type ToolChoice,
  type ToolPolicy,
} from '../core/agent';
import { JsonSchema } from '../core/schema';
import { clientToolHandler, type RequestInfo } from './context';
import { closedWireSchema } from './closed-schemas';
import { atSchemaParam, invalidParams, readingParams } from './errors';
import { ParamReader } from './params';
import { findSession, type BridgeSession, type SessionMethodContext } from './session-context';
import { readNames } from './session-options';
import { callOnWire, stepOnWire, toolRecordOnWire, usageOnWire, type TurnTools } from './wire-shapes';

/** The core events a streamed turn sends. */
const STREAMED_EVENTS = ['step', 'text', 'partial', 'toolStarted', 'toolRequested', 'toolCompleted'] as const;

/** What a `session/respond` asks for, read (and checked) when it arrives. */
interface TurnRequest {
  prompt: string;
  schema?: JsonSchema;
  stream: boolean;
  toolChoice?: ToolChoice;
  maxToolRounds?: number;
  maxToolCalls?: number;
  enabledTools?: string[];
  warnings: string[];
}

function readTurnRequest(params: ParamReader): TurnRequest {
  const prompt = params.requiredString('prompt');
  const schemaRaw = params.any('schema');
  const schema =
    schemaRaw === undefined ? undefined : atSchemaParam('schema', () => JsonSchema.from(closedWireSchema(schemaRaw)));
  const stream = params.boolean('stream') ?? false;
  const choiceRaw = params.any('toolChoice');
  const toolChoice = choiceRaw === undefined ? undefined : readingParams(() => parseToolChoice(choiceRaw));
  const maxToolRounds = params.number('maxToolRounds', { integer: true, min: 0, max: 64 });
  const maxToolCalls = params.number('maxToolCalls', { integer: true, min: 0, max: 256 });
  const enabledTools = readNames(params, 'enabledTools');
  const warnings = params.unknownWarnings();
  return { prompt, schema, stream, toolChoice, maxToolRounds, maxToolCalls, enabledTools, warnings };
}

/** What the decide steps offered, for steps[]: the named tool, else the enabled tools. */
function offeredTools(session: BridgeSession, asked: TurnRequest, policy: ToolPolicy): TurnTools {
  const choice = asked.toolChoice ?? policy.choice;
  const names = session.agent.tools.map((tool) => tool.name);
  const allowed = asked.enabledTools ?? policy.enabledTools;
  return {
    enabledTools:
      typeof choice === 'object'
        ? [choice.tool]
        : choice === 'none'
          ? []
          : names.filter((name) => !allowed || allowed.indexOf(name) >= 0),
    forced: typeof choice === 'object' || choice === 'required',
  };
}

function streamEvents(
  context: SessionMethodContext,
  run: AgentRun,
  target: { session: string; requestId: RequestInfo['id'] },
) {
  for (const type of STREAMED_EVENTS) {
    run.on(type, (event: AgentEvent) => {
      const wire = sessionEvent(event);
      if (wire) context.bridge.notify('session/event', { ...target, event: wire });
    });
  }
}

/** Runs the turn once the queue reaches it; the session's own tool limits are back afterwards. */
async function runTurn(
  context: SessionMethodContext,
  turn: { session: BridgeSession; request: RequestInfo; asked: TurnRequest; signal: SignalLike },
) {
  const { session, request, asked, signal } = turn;
  const { toolChoice } = asked;
  // Checked when the turn starts: an earlier queued setTools may have added the tool.
  if (typeof toolChoice === 'object' && !session.agent.tools.some((tool) => tool.name === toolChoice.tool)) {
    throw invalidParams(`toolChoice names "${toolChoice.tool}", which session "${session.id}" does not have.`);
  }
  const policy = session.agent.config.toolPolicy;
  const { maxToolRounds: rounds, maxToolCalls: calls } = asked;
  const perTurn = rounds !== undefined || calls !== undefined;
  if (perTurn)
    readingParams(() =>
      session.agent.configure({
        toolPolicy: { maxToolRounds: rounds ?? policy.maxToolRounds, maxToolCalls: calls ?? policy.maxToolCalls },
      }),
    );
  try {
    const run = session.agent.run(asked.prompt, {
      schema: asked.schema,
      toolChoice,
      enabledTools: asked.enabledTools,
      signal,
      externalTools: clientToolHandler(context.bridge, {
        owner: { session: session.id },
        requestId: request.id,
        tools: session.tools,
        timeoutSeconds: session.toolTimeoutSeconds,
      }),
    });
    if (asked.stream) streamEvents(context, run, { session: session.id, requestId: request.id });
    const offered = offeredTools(session, asked, policy);
    return responseOnWire(session.id, await run.response(), { warnings: asked.warnings, turn: offered });
  } finally {
    if (perTurn)
      session.agent.configure({
        toolPolicy: { maxToolRounds: policy.maxToolRounds, maxToolCalls: policy.maxToolCalls },
      });
  }
}

export function respondInSession(context: SessionMethodContext, raw: unknown, request: RequestInfo) {
  const params = new ParamReader(raw);
  const session = findSession(context, params);
  const asked = readTurnRequest(params);
  return session.queue.add((signal) => runTurn(context, { session, request, asked, signal }));
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
