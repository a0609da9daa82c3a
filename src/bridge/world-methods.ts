/**
 * `world/*` (reference §3.3): shared JSON blackboards by id, read and written by path, with
 * subscriptions that send `world/changed` for each changed leaf, synchronously, so changes an
 * NPC's tools make arrive before that NPC's `npc/talk` response.
 */
import { WorldState, WorldStateError, type WorldStateChange } from '../game/world';
import type { BridgeContext, MethodGroup } from './context';
import { BridgeError, invalidParams } from './errors';
import { worldId } from './ids';
import { ParamReader } from './params';
import { shown } from './shown';

export const MAX_WORLDS = 64;
export const MAX_SUBSCRIPTIONS = 256;

export interface BridgeWorld {
  id: string;
  state: WorldState;
  createdAt: string;
  subscriptions: Set<string>;
}

interface Subscription {
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

  nextId(): string {
    let id: string;
    do id = `w${++this.worldCounter}`;
    while (this.worlds.has(id));
    return id;
  }

  nextSubscriptionId(): string {
    return `sub${++this.subscriptionCounter}`;
  }
}

/** A bad path or value inside a world is −32054 with the world and the path. */
function inWorld<T>(world: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof WorldStateError)
      throw new BridgeError('world_error', error.message, { world, path: error.path });
    throw error;
  }
}

export function changeOnWire(world: string, subscription: string, change: WorldStateChange): Record<string, unknown> {
  const wire: Record<string, unknown> = { world, subscription, path: change.path };
  if (change.oldValue !== undefined) wire.oldValue = change.oldValue;
  if (change.newValue !== undefined) wire.newValue = change.newValue;
  return wire;
}

export function worldMethods(context: BridgeContext, registry: WorldRegistry): MethodGroup {
  const find = (params: ParamReader) => registry.get(params.requiredString('world'));

  const endSubscription = (id: string): Subscription | undefined => {
    const subscription = registry.subscriptions.get(id);
    if (!subscription) return undefined;
    subscription.stop();
    registry.subscriptions.delete(id);
    registry.worlds.get(subscription.world)?.subscriptions.delete(id);
    return subscription;
  };

  const methods = {
    'world/create': (raw: unknown) => {
      const params = new ParamReader(raw);
      const requested = params.string('world');
      const id = worldId(requested ?? registry.nextId());
      if (registry.worlds.has(id))
        throw new BridgeError('world_exists', `World "${id}" exists already.`, { world: id });
      if (registry.worlds.size >= MAX_WORLDS)
        throw new BridgeError('limit_reached', `At most ${MAX_WORLDS} worlds.`, { limit: MAX_WORLDS });
      const initial = params.object('state') ?? {};
      const state = inWorld(id, () => new WorldState(initial, { changeLogSize: 0 }));
      registry.worlds.set(id, { id, state, createdAt: context.createdAt(), subscriptions: new Set() });
      return { world: id, version: state.version };
    },
    'world/get': (raw: unknown) => {
      const params = new ParamReader(raw);
      const world = find(params);
      const path = params.string('path') ?? '';
      const value = inWorld(world.id, () => world.state.get(path));
      return {
        world: world.id,
        path,
        value: value === undefined ? null : value,
        exists: value !== undefined,
        version: world.state.version,
      };
    },
    'world/set': (raw: unknown) => {
      const params = new ParamReader(raw);
      const world = find(params);
      const path = params.string('path') ?? '';
      if (!params.has('value')) throw invalidParams('params.value is required.');
      const value = params.any('value') ?? null;
      inWorld(world.id, () => world.state.set(path, value));
      return { world: world.id, path, version: world.state.version };
    },
    'world/merge': (raw: unknown) => {
      const params = new ParamReader(raw);
      const world = find(params);
      const path = params.string('path') ?? '';
      if (!params.has('patch')) throw invalidParams('params.patch is required (an RFC 7386 merge patch).');
      const patch = params.any('patch') ?? null;
      inWorld(world.id, () => world.state.merge(patch, path));
      return { world: world.id, path, version: world.state.version };
    },
    'world/remove': (raw: unknown) => {
      const params = new ParamReader(raw);
      const world = find(params);
      const path = params.requiredString('path');
      const oldValue = inWorld(world.id, () => world.state.get(path));
      const removed = inWorld(world.id, () => world.state.remove(path));
      return {
        world: world.id,
        path,
        removed,
        oldValue: oldValue === undefined ? null : oldValue,
        version: world.state.version,
      };
    },
    'world/snapshot': (raw: unknown) => {
      const world = find(new ParamReader(raw));
      return { world: world.id, state: world.state.snapshot(), version: world.state.version };
    },
    'world/delete': (raw: unknown) => {
      const world = find(new ParamReader(raw));
      const ended = Array.from(world.subscriptions).filter((id) => endSubscription(id) !== undefined).length;
      registry.worlds.delete(world.id);
      return { world: world.id, deleted: true, endedSubscriptions: ended };
    },
    'world/list': () => ({
      worlds: Array.from(registry.worlds.values()).map((entry) => ({
        world: entry.id,
        version: entry.state.version,
        npcs: registry.npcsUsing(entry.id),
        // Lists of ids, as the seed's world/list has them.
        subscriptions: Array.from(entry.subscriptions),
        createdAt: entry.createdAt,
      })),
    }),
    'world/subscribe': (raw: unknown) => {
      const params = new ParamReader(raw);
      const world = find(params);
      const path = params.string('path') ?? '';
      if (registry.subscriptions.size >= MAX_SUBSCRIPTIONS) {
        throw new BridgeError('limit_reached', `At most ${MAX_SUBSCRIPTIONS} subscriptions.`, {
          limit: MAX_SUBSCRIPTIONS,
        });
      }
      const id = registry.nextSubscriptionId();
      const stop = inWorld(world.id, () =>
        world.state.observe(path, (change) => {
          context.notify('world/changed', changeOnWire(world.id, id, change));
        }),
      );
      registry.subscriptions.set(id, { id, world: world.id, path, stop });
      world.subscriptions.add(id);
      return { subscription: id, world: world.id, path };
    },
    'world/unsubscribe': (raw: unknown) => {
      const id = new ParamReader(raw).requiredString('subscription');
      const subscription = endSubscription(id);
      if (!subscription)
        throw new BridgeError('subscription_not_found', `No subscription "${shown(id)}".`, { subscription: shown(id) });
      return { subscription: id, world: subscription.world, path: subscription.path, unsubscribed: true };
    },
  };

  return {
    methods,
    async shutdown() {
      for (const id of Array.from(registry.subscriptions.keys())) endSubscription(id);
    },
  };
}
