/**
 * `session/setInstructions`, `session/setContextNote`, `session/setTools` and `session/compact`:
 * changes to a session, queued behind its turns so each applies between two of them.
 */
import { readingParams } from './errors';
import { queuedOnSession, type SessionMethodContext } from './session-context';
import { readWireTools, toAgentTool } from './tool-definitions';

export function setSessionInstructions(context: SessionMethodContext, raw: unknown) {
  return queuedOnSession(context, raw, (session, params) => {
    const instructions = params.string('instructions') ?? '';
    return () => {
      session.agent.instructions = instructions;
      return { session: session.id };
    };
  });
}

export function setSessionContextNote(context: SessionMethodContext, raw: unknown) {
  return queuedOnSession(context, raw, (session, params) => {
    const note = params.string('note') ?? '';
    return () => {
      session.agent.contextNote = note;
      return { session: session.id };
    };
  });
}

export function setSessionTools(context: SessionMethodContext, raw: unknown) {
  return queuedOnSession(context, raw, (session, params) => {
    const { tools, warnings } = readWireTools(params.any('tools'));
    const agentTools = tools.map((tool) => toAgentTool(tool));
    return () => {
      readingParams(() => session.agent.setTools(agentTools));
      session.tools = tools;
      return { session: session.id, warnings };
    };
  });
}

export function compactSession(context: SessionMethodContext, raw: unknown) {
  return queuedOnSession(context, raw, (session, params) => {
    const keep = params.number('keepRecentTurns', { integer: true, min: 0, max: 1000 });
    const instructions = params.string('summaryInstructions');
    return async (signal) => {
      // Cancelled with the session's other requests, leaving the history as it was (as the seed's).
      const summary = await session.agent.compactHistory({ keepRecentTurns: keep ?? 2, instructions, signal });
      return { session: session.id, summary };
    };
  });
}
