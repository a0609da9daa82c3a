/**
 * The scene's shared game state (gold, quests, prices…) that NPCs read and change through
 * their world tools. Put one on a node, point NPCComponents at it, and listen to
 * `world-changed` on its node to update the UI.
 */
import { _decorator, Component, JsonAsset } from 'cc';
import { WorldState, AgentError } from '../runtime/oam-core.js';
import type { JsonObject, JsonValue, WorldStateChange } from '../runtime/oam-core.js';
import { liveState } from './liveState';

const { ccclass, property, menu, disallowMultiple, executionOrder } = _decorator;

/** Node event: one effective change (`WorldStateChange`: path, oldValue, newValue, version). */
export const WORLD_CHANGED = 'world-changed';

const live = liveState<WorldStateStore, { world: WorldState | null; stopForwarding: (() => void) | null }>(() => ({
  world: null,
  stopForwarding: null,
}));

@ccclass('oam.WorldStateStore')
@menu('oam/WorldStateStore')
@disallowMultiple
@executionOrder(-50)
export class WorldStateStore extends Component {
  @property({ type: JsonAsset, tooltip: 'Initial state (a JSON object). Wins over the inline JSON.' })
  initialState: JsonAsset | null = null;

  @property({ multiline: true, tooltip: 'Initial state as inline JSON, used when no asset is set.' })
  initialJson = '';

  /** The live state. Created on first use, so an NPC that loads first still finds it. */
  get world(): WorldState {
    const state = live(this);
    if (!state.world) {
      state.world = new WorldState(this.readInitialState());
      state.stopForwarding = state.world.onChange((change) => this.forward(change));
    }
    return state.world;
  }

  onLoad(): void {
    void this.world;
  }

  onDestroy(): void {
    const state = live(this);
    if (state.stopForwarding) state.stopForwarding();
    state.stopForwarding = null;
  }

  get<T = JsonValue>(path = ''): T | undefined {
    return this.world.get<T>(path);
  }

  /** Stores a copy of `value`; returns whether anything changed. */
  set(path: string, value: unknown): boolean {
    return this.world.set(path, value);
  }

  /** Applies a JSON Merge Patch (null deletes) at `path`. */
  merge(patch: unknown, path = ''): boolean {
    return this.world.merge(patch, path);
  }

  /** A copy of the whole state for a save file. */
  save(): JsonObject {
    return this.world.snapshot();
  }

  /** Replaces the whole state (an object or its JSON text); NPCs keep their tools. */
  restore(saved: object | string): void {
    let value: unknown = saved;
    if (typeof saved === 'string') {
      try {
        value = JSON.parse(saved);
      } catch (error) {
        throw new AgentError(
          'invalid_request',
          `WorldStateStore.restore got text that is not JSON: ${(error as Error).message}`,
        );
      }
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      throw new AgentError('invalid_request', 'WorldStateStore.restore needs a JSON object.');
    }
    this.world.replace(value as object);
  }

  private forward(change: WorldStateChange): void {
    if (this.node && this.node.isValid) this.node.emit(WORLD_CHANGED, change);
  }

  private readInitialState(): object {
    if (this.initialState) {
      const json = this.initialState.json;
      if (json && typeof json === 'object' && !Array.isArray(json)) return json;
      console.error(
        `[oam] WorldStateStore on "${this.nodeName()}": the initial state asset is not a JSON object; starting empty.`,
      );
      return {};
    }
    const text = this.initialJson.trim();
    if (!text) return {};
    try {
      const value = JSON.parse(text);
      if (value && typeof value === 'object' && !Array.isArray(value)) return value;
      console.error(`[oam] WorldStateStore on "${this.nodeName()}": the inline JSON is not an object; starting empty.`);
    } catch (error) {
      console.error(
        `[oam] WorldStateStore on "${this.nodeName()}": the inline JSON does not parse (${(error as Error).message}); starting empty.`,
      );
    }
    return {};
  }

  private nodeName(): string {
    return this.node ? this.node.name : '?';
  }
}
