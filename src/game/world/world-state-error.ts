/**
 * The error every WorldState operation throws for a bad path or value. It is an
 * `invalid_request` AgentError, so callers can treat it like any other bad argument.
 */
import { AgentError } from '../../contract/errors';

export class WorldStateError extends AgentError {
  /** The path (as written by the caller, or canonical when known) the error is about. */
  readonly path: string;

  constructor(path: string, message: string) {
    super('invalid_request', path === '' ? `World state root: ${message}` : `World state path "${path}": ${message}`);
    this.name = 'WorldStateError';
    this.path = path;
    Object.setPrototypeOf(this, WorldStateError.prototype);
  }
}
