/**
 * A protocol session (an agent with its own model, tools and queue) and what every `session/*`
 * handler is given: the engine's context and the bounded store of sessions.
 */
import type { SignalLike } from '../contract/abort';
import type { Agent } from '../core/agent';
import type { BridgeContext } from './context';
import { BridgeError } from './errors';
import type { ObjectQueue } from './object-queue';
import { ParamReader } from './params';
import type { SessionStore } from './session-store';
import type { WireTool } from './tool-definitions';

export interface BridgeSession {
  id: string;
  agent: Agent;
  model: string;
  tools: WireTool[];
  queue: ObjectQueue;
  toolTimeoutSeconds: number;
  createdAt: string;
}

export interface SessionMethodContext {
  bridge: BridgeContext;
  store: SessionStore<BridgeSession>;
}

/** The session a request's `session` member names (−32602 for a bad id, −32020 for none). */
export function findSession(context: SessionMethodContext, params: ParamReader): BridgeSession {
  const id = context.store.checkId(params.requiredString('session'));
  const session = context.store.get(id);
  if (!session) throw new BridgeError('session_not_found', `No session "${id}".`, { session: id });
  return session;
}

/**
 * Queues a session operation: `work` reads its params now and returns what runs in the queue,
 * whose `signal` aborts when session/cancel or session/delete cancels it.
 */
export function queuedOnSession(
  context: SessionMethodContext,
  raw: unknown,
  work: (session: BridgeSession, params: ParamReader) => (signal: SignalLike) => unknown,
) {
  const params = new ParamReader(raw);
  const session = findSession(context, params);
  const run = work(session, params);
  return session.queue.add((signal) => run(signal));
}
