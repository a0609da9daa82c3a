/**
 * An NPCComponent's run-time state, kept outside its fields (see liveState: the engine nulls a
 * destroyed component's fields while its turns' callbacks may still run).
 */
import type { Component } from 'cc';
import type { AgentError, AgentTool, Canceller, DialogueStream, NPC, ProfileToolHandler } from '../runtime/oam-core.js';
import { OamRuntime } from './OamRuntime';
import { liveState } from './liveState';
import type { Answerer } from './characterModel';

export interface NPCLiveState {
  npc: NPC | null;
  problem: AgentError | null;
  built: boolean;
  /** The persona asset the NPC was built from: a different one set later is picked up on next use. */
  builtPersona: unknown;
  /** The same for the profile asset. */
  builtProfile: unknown;
  destroyed: boolean;
  /** Turned off and confirmed so (see onDisable): no node events until onEnable. */
  off: boolean;
  localTools: AgentTool[];
  /** The tools of the set-up (the Inspector's declarations or the profile's), before registerTool()'s. */
  setupTools: AgentTool[];
  /** Game code a profile's tool names (`"answer": {"handler": …}`). */
  profileHandlers: Record<string, ProfileToolHandler>;
  streams: DialogueStream[];
  barkCancellers: Canceller[];
  /** Who answers this character now (characterModel). */
  answers: () => Answerer;
  /** The same for a set-up being built: it takes over only once its NPC exists. */
  nextAnswers: () => Answerer;
}

export const npcLive = liveState<Component, NPCLiveState>(() => ({
  npc: null,
  problem: null,
  built: false,
  builtPersona: null,
  builtProfile: null,
  destroyed: false,
  off: false,
  localTools: [],
  setupTools: [],
  profileHandlers: {},
  streams: [],
  barkCancellers: [],
  answers: () => OamRuntime.kind,
  nextAnswers: () => OamRuntime.kind,
}));

/** Keeps `item` in `list` until `settled` settles either way (what cancel() reaches). */
export function keepWhileRunning<T>(list: T[], item: T, settled: Promise<unknown>): void {
  list.push(item);
  const forget = () => {
    const index = list.indexOf(item);
    if (index >= 0) list.splice(index, 1);
  };
  settled.then(forget, forget);
}

/** The NPC's record as built from the current assets: a later swap is picked up on next use. */
export function markBuilt(state: NPCLiveState, assets: { persona: unknown; profile: unknown }): void {
  state.built = true;
  state.builtPersona = assets.persona;
  state.builtProfile = assets.profile;
}

/** Makes `next` the state's NPC (closing the one it replaces), answered as its set-up said. */
export function adoptNPC(state: NPCLiveState, next: NPC | null): void {
  if (state.npc && state.npc !== next) state.npc.close();
  state.npc = next;
  if (next) {
    state.answers = state.nextAnswers;
    state.problem = null;
  }
}
