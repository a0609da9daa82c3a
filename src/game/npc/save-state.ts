/** The NPC's save: one versioned JSON object a game keeps in its own save file. */
import { AgentError } from '../../contract/errors';
import { readJsonInput } from '../../core/json';
import { transcriptFromJSON } from '../../core/transcript';
import { parsePersona, type Persona } from '../persona';
import { parseMemoryState, type NPCMemoryState } from '../memory';

export const NPC_SAVE_VERSION = 1;

export interface NPCSaveState {
  version: number;
  persona: Persona;
  memory: NPCMemoryState;
  transcript: unknown;
}

/**
 * Checks a save before anything is rebuilt from it; throws invalid_request naming the problem.
 * `nameOnly`: the caller brings the persona (a game's current asset), so of the saved persona
 * only the name is read: an old save stays readable after a patch changed the persona's fields.
 */
export function readSaveState(saved: unknown, { nameOnly = false }: { nameOnly?: boolean } = {}): NPCSaveState {
  const value = readJsonInput(saved, 'NPC save');
  const state = value as Partial<NPCSaveState> | null;
  if (!state || typeof state !== 'object') throw new AgentError('invalid_request', 'NPC save must be an object.');
  if (state.version !== NPC_SAVE_VERSION) {
    throw new AgentError(
      'invalid_request',
      `NPC save version ${JSON.stringify(state.version)} is not supported (expected ${NPC_SAVE_VERSION}).`,
    );
  }
  const persona = nameOnly ? savedName(state.persona) : parsePersona(state.persona);
  const memory = parseMemoryState(state.memory);
  transcriptFromJSON(state.transcript);
  return { version: NPC_SAVE_VERSION, persona, memory, transcript: state.transcript };
}

function savedName(persona: unknown): Persona {
  const name = (persona as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || !name.trim())
    throw new AgentError('invalid_request', 'NPC save: persona.name must be the name of the saved character.');
  return { name };
}
