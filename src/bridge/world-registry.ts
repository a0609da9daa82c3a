/**
 * Worlds by id for the `world/*` methods, with their subscriptions and their limits; the NPC
 * methods read worlds from here too.
 */
import { WorldStateError, type WorldState } from '../game/world';
import type { BridgeContext } from './context';
import { BridgeError } from './errors';
import { worldId } from './ids';
import type { ParamReader } from './params';

export const MAX_WORLDS = 64;
export const MAX_SUBSCRIPTIONS = 256;

export interface BridgeWorld {
  id: string;
  state: WorldState;
  createdAt: string;
  subscriptions: Set<string>;
}

export interface Subscription {
  id: string;
  world: string;
  path: string;
  stop: () => void;
}

export class WorldRegistry {
  readonly worlds = new Map<string, BridgeWorld>();
  readonly subscriptions = new Map<string, Subscription>();
  private worldCounter = 0;
  private subscriptionCounter = 0;
  /** The ids of the NPCs that use a world (the NPC methods fill this in). */
  npcsUsing: (world: string) => string[] = () => [];

  get(id: string): BridgeWorld {
    const world = this.worlds.get(worldId(id));
    if (!world) throw new BridgeError('world_not_found', `No world "${id}".`, { world: id });
    return world;
  }

  /** The world a request's `world` member names. */
  find(params: ParamReader): BridgeWorld {
    return this.get(params.requiredString('world'));
  }

  nextId(): string {
    let id: string;
    do id = `w${++this.worldCounter}`;
    while (this.worlds.has(id));
    return id;
  }

  nextSubscriptionId(): string {
    return `sub${++this.subscriptionCounter}`;
  }

  /** Stops a subscription and forgets it everywhere; undefined when there is none by that id. */
  endSubscription(id: string): Subscription | undefined {
    const subscription = this.subscriptions.get(id);
    if (!subscription) return undefined;
    subscription.stop();
    this.subscriptions.delete(id);
    this.worlds.get(subscription.world)?.subscriptions.delete(id);
    return subscription;
  }
}

/** What every `world/*` handler is given. */
export interface WorldMethodContext {
  bridge: BridgeContext;
  registry: WorldRegistry;
}

/** A bad path or value inside a world is −32054 with the world and the path. */
export function inWorld<T>(world: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof WorldStateError)
      throw new BridgeError('world_error', error.message, { world, path: error.path });
    throw error;
  }
}
