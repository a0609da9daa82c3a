/** The NPC's save: one versioned JSON object a game keeps in its own save file. */
import { AgentError } from '../../contract/errors';
import { readJsonInput } from '../../core/json/json-input';
import { transcriptFromJSON } from '../../core/agent';
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
  const s = value as Partial<NPCSaveState> | null;
  if (!s || typeof s !== 'object') throw new AgentError('invalid_request', 'NPC save must be an object.');
  if (s.version !== NPC_SAVE_VERSION) {
    throw new AgentError(
      'invalid_request',
      `NPC save version ${JSON.stringify(s.version)} is not supported (expected ${NPC_SAVE_VERSION}).`,
    );
  }
  const persona = parsePersona(s.persona);
  const memory = parseMemoryState(s.memory);
  transcriptFromJSON(s.transcript);
  return { version: NPC_SAVE_VERSION, persona, memory, transcript: s.transcript };
}
