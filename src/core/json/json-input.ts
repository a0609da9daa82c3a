/**
 * What a loader accepts: the JSON text a game saved, or the value already parsed. One rule for
 * every saved thing (a transcript, an NPC save, a persona test, a preview conversation), so
 * each says the same "… is not JSON: …" with the parser's reason.
 */
import { AgentError } from '../../contract/errors';

/** The parsed value; throws invalid_request `${what} is not JSON: …` for text that does not parse. */
export function readJsonInput(input: unknown, what: string): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch (error) {
    throw new AgentError('invalid_request', `${what} is not JSON: ${(error as Error).message}`);
  }
}
