/**
 * `session/*` (reference §3.2): agents by id with their own queue, streamed `session/event`s,
 * client tools over `tool/call`, and cancels that leave nothing of a cancelled turn behind.
 * Creating is in session-create.ts, a turn in session-respond.ts, the queued changes in
 * session-settings.ts; here are the rest and the table.
 */
import type { BridgeContext, MethodGroup, RequestInfo } from './context';
import { ParamReader } from './params';
import { findSession, queuedOnSession, type BridgeSession, type SessionMethodContext } from './session-context';
import { createSession } from './session-create';
import { respondInSession } from './session-respond';
import { compactSession, setSessionContextNote, setSessionInstructions, setSessionTools } from './session-settings';
import { SessionStore } from './session-store';

function cancelSession(context: SessionMethodContext, raw: unknown) {
  const session = findSession(context, new ParamReader(raw));
  return { session: session.id, cancelled: session.queue.cancelAll("The session's requests were cancelled.") };
}

function resetSession(context: SessionMethodContext, raw: unknown) {
  return queuedOnSession(context, raw, (session) => async () => {
    await session.agent.reset();
    return { session: session.id };
  });
}

function deleteSession(context: SessionMethodContext, raw: unknown) {
  const session = findSession(context, new ParamReader(raw));
  session.queue.cancelAll('The session was deleted.');
  session.agent.close();
  context.store.delete(session.id);
  return { session: session.id, deleted: true };
}

function listSessions(context: SessionMethodContext) {
  return {
    sessions: context.store.all().map((session) => {
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
  };
}

function sessionTranscript(context: SessionMethodContext, raw: unknown) {
  const session = findSession(context, new ParamReader(raw));
  return { session: session.id, transcript: session.agent.saveTranscript() };
}

export function sessionMethods(bridge: BridgeContext, maxSessions: number): MethodGroup {
  const store = new SessionStore<BridgeSession>(maxSessions);
  const context: SessionMethodContext = { bridge, store };
  return {
    methods: {
      'session/create': (raw: unknown) => createSession(context, raw),
      'session/respond': (raw: unknown, request: RequestInfo) => respondInSession(context, raw, request),
      'session/cancel': (raw: unknown) => cancelSession(context, raw),
      'session/reset': (raw: unknown) => resetSession(context, raw),
      'session/delete': (raw: unknown) => deleteSession(context, raw),
      'session/list': () => listSessions(context),
      'session/transcript': (raw: unknown) => sessionTranscript(context, raw),
      'session/setInstructions': (raw: unknown) => setSessionInstructions(context, raw),
      'session/setContextNote': (raw: unknown) => setSessionContextNote(context, raw),
      'session/setTools': (raw: unknown) => setSessionTools(context, raw),
      'session/compact': (raw: unknown) => compactSession(context, raw),
    },
    async shutdown() {
      const sessions = store.all();
      for (const session of sessions) session.queue.cancelAll('The bridge is shutting down.');
      await Promise.all(sessions.map((session) => session.agent.waitUntilIdle().catch(() => undefined)));
      for (const session of sessions) session.agent.close();
    },
  };
}
