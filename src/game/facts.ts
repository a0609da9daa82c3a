/** The `Facts: {…}` line decisions and generated content show the model. */
import { AgentError } from '../contract/errors';

/** Compact JSON of the facts; throws invalid_request (before any model call) when they are not JSON. */
export function factsLine(facts: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(facts);
  } catch (error) {
    throw new AgentError(
      'invalid_request',
      `facts must be plain JSON data (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (text === undefined)
    throw new AgentError(
      'invalid_request',
      'facts must be plain JSON data (an object, list, string, number or boolean).',
    );
  return `Facts: ${text}`;
}
