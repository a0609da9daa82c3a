export {
  NPCMemory,
  emptyMemory,
  attitude,
  clampRelationship,
  addFact,
  knowsFact,
  factKey,
  tidyFact,
  parseMemoryState,
  RELATIONSHIP_MIN,
  RELATIONSHIP_MAX,
  DEFAULT_MAX_FACTS,
  MAX_FACT_LENGTH,
} from './npc-memory';
export type { NPCMemoryState, Attitude } from './npc-memory';
export { renderMemoryNote } from './memory-note';
export type { MemoryNoteOptions } from './memory-note';
export { MemoryStage } from './memory-stage';
export type { MemoryStageOptions, RelationshipChange } from './memory-stage';
export {
  memoryTools,
  parseMemoryToolSelection,
  MEMORY_TOOL_NAMES,
  REMEMBER_FACT_TOOL,
  CHANGE_RELATIONSHIP_TOOL,
  DEFAULT_MAX_RELATIONSHIP_CHANGE,
} from './memory-tools';
export type { MemoryToolOptions, MemoryToolSelection } from './memory-tools';
