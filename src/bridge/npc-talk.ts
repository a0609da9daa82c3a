/**
 * `npc/talk` and `npc/bark`, in the NPC's queue: a talk's `npc/event` stream (line deltas and
 * resets that add up exactly to `result.line`) and its client tools over `tool/call`.
 */
import { parseToolChoice } from '../core/agent';
import type { DialogueTurn, NPCEvent } from '../game/npc';
import { clientToolHandler, type RequestInfo } from './context';
import { readingParams } from './errors';
import type { NpcMethodContext } from './npc-registry';
import { ParamReader } from './params';
import { callOnWire, toolRecordOnWire, usageOnWire } from './wire-shapes';

/** The NPC events a streamed talk sends. */
const STREAMED_EVENTS = ['emotion', 'line', 'toolCall', 'externalToolCall', 'toolResult'] as const;

function eventOnWire(event: NPCEvent): Record<string, unknown> | undefined {
  switch (event.type) {
    case 'emotion':
      return { type: 'emotion', emotion: event.emotion };
    case 'line':
      return event.isReset ? { type: 'lineReset', line: event.line } : { type: 'lineDelta', delta: event.delta };
    case 'toolCall':
      return { type: 'toolCallStarted', call: callOnWire(event.call), execution: 'local' };
    case 'externalToolCall':
      return { type: 'toolCallStarted', call: callOnWire(event.call), execution: 'client' };
    case 'toolResult':
      return { type: 'toolCallCompleted', record: toolRecordOnWire(event.record) };
    default:
      return undefined;
  }
}

function turnOnWire(id: string, turn: DialogueTurn): Record<string, unknown> {
  return {
    npc: id,
    line: turn.line,
    emotion: turn.emotion,
    playerOptions: turn.playerOptions,
    endsConversation: turn.endsConversation,
    toolCalls: turn.toolCalls.map(toolRecordOnWire),
    relationship: turn.relationship,
    isFallback: turn.isFallback,
    usage: usageOnWire(turn.usage),
  };
}

export function talkToNpc(context: NpcMethodContext, raw: unknown, request: RequestInfo) {
  const { bridge } = context;
  const params = new ParamReader(raw);
  const entry = context.registry.find(params);
  const line = params.requiredString('line');
  const contextRaw = params.any('context');
  const situation =
    contextRaw === undefined ? undefined : typeof contextRaw === 'string' ? contextRaw : JSON.stringify(contextRaw);
  const stream = params.boolean('stream') ?? false;
  const choiceRaw = params.any('toolChoice');
  const toolChoice = choiceRaw === undefined ? undefined : readingParams(() => parseToolChoice(choiceRaw));
  const warnings = params.unknownWarnings();
  return entry.queue.add(async (signal) => {
    const turn = entry.npc.talkStream(line, {
      situation,
      toolChoice,
      signal,
      externalTools: clientToolHandler(bridge, {
        owner: { npc: entry.id },
        requestId: request.id,
        tools: entry.tools,
        timeoutSeconds: entry.toolTimeoutSeconds,
      }),
    });
    if (stream) {
      for (const type of STREAMED_EVENTS) {
        turn.on(type, (event: NPCEvent) => {
          const wire = eventOnWire(event);
          if (wire) bridge.notify('npc/event', { npc: entry.id, requestId: request.id, event: wire });
        });
      }
    }
    const result = turnOnWire(entry.id, await turn.turn());
    return warnings.length > 0 ? { ...result, warnings } : result;
  });
}

export function barkFromNpc(context: NpcMethodContext, raw: unknown) {
  const params = new ParamReader(raw);
  const entry = context.registry.find(params);
  const situation = params.string('situation');
  // In the NPC's queue like every request on it, so npc/cancel, npc/delete and shutdown stop it.
  return entry.queue.add((signal) =>
    entry.npc
      .bark(situation && situation.trim() ? situation : 'Nothing in particular is happening.', { signal })
      .then((line) => ({ npc: entry.id, line })),
  );
}
