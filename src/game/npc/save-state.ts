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

/** Checks a save before anything is rebuilt from it; throws invalid_request naming the problem. */
export function readSaveState(saved: unknown): NPCSaveState {
  const value = readJsonInput(saved, 'NPC save');
  const state = value as Partial<NPCSaveState> | null;
  if (!state || typeof state !== 'object') throw new AgentError('invalid_request', 'NPC save must be an object.');
  if (state.version !== NPC_SAVE_VERSION) {
    throw new AgentError(
      'invalid_request',
      `NPC save version ${JSON.stringify(state.version)} is not supported (expected ${NPC_SAVE_VERSION}).`,
    );
  }
  const persona = parsePersona(state.persona);
  const memory = parseMemoryState(state.memory);
  transcriptFromJSON(state.transcript);
  return { version: NPC_SAVE_VERSION, persona, memory, transcript: state.transcript };
}
