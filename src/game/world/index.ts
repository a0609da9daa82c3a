/** The world state: a JSON blackboard shared by NPCs, decisions and game code, and its model tools. */
export { WorldState } from './world-state';
export type { WorldStateChange, WorldStateListener, WorldStateOptions } from './world-state';
export { WorldPath } from './world-path';
export type { PathSegment } from './world-path';
export { WorldStateError } from './world-state-error';
export type { JsonValue, JsonObject } from './json-value';
export {
  worldStateTools,
  READ_WORLD_STATE_TOOL,
  UPDATE_WORLD_STATE_TOOL,
  DEFAULT_MAX_OUTPUT_CHARS,
  MIN_MAX_OUTPUT_CHARS,
} from './world-state-tools';
export type { WorldStateToolOptions } from './world-state-tools';
