/**
 * The errors an NPCComponent refuses a call with, before anything runs: turned off, destroyed,
 * and its own name put in front of a set-up problem so a log says which node is wrong.
 */
import type { Node } from 'cc';
import { AgentError } from '../runtime/oam-core.js';

export function nodeNameOf(node: Node | null | undefined): string {
  return node ? node.name : '?';
}

/** talk()/bark() on an NPC that is off: its node not in a scene yet, or it is disabled. */
export function turnedOffError(node: Node | null | undefined, what: string): AgentError {
  const why = node && !node.scene ? 'its node is not in a scene yet' : 'its component is disabled or its node inactive';
  return new AgentError(
    'invalid_request',
    `The NPC on "${nodeNameOf(node)}" is turned off (${why}); enable it before ${what}().`,
  );
}

export function destroyedError(node: Node | null | undefined): AgentError {
  return new AgentError('cancelled', `The NPC on "${nodeNameOf(node)}" was destroyed.`);
}

export function namedError(node: Node | null | undefined, error: AgentError): AgentError {
  return new AgentError(error.code, `NPCComponent on "${nodeNameOf(node)}": ${error.message}`, { cause: error });
}

export function notSetUpError(node: Node | null | undefined): AgentError {
  return new AgentError('invalid_request', `The NPC on "${nodeNameOf(node)}" is not set up.`);
}
