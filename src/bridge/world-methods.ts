/**
 * `world/*` (reference §3.3): shared JSON blackboards by id, read and written by path; the
 * subscriptions that report their changes are in world-subscriptions.ts.
 */
import { WorldState } from '../game/world';
import type { BridgeContext, MethodGroup } from './context';
import { BridgeError, invalidParams } from './errors';
import { worldId } from './ids';
import { ParamReader } from './params';
import { inWorld, MAX_WORLDS, type WorldMethodContext, type WorldRegistry } from './world-registry';
import { subscribeToWorld, unsubscribeFromWorld } from './world-subscriptions';

function createWorld({ bridge, registry }: WorldMethodContext, raw: unknown) {
  const params = new ParamReader(raw);
  const requested = params.string('world');
  const id = worldId(requested ?? registry.nextId());
  if (registry.worlds.has(id)) throw new BridgeError('world_exists', `World "${id}" exists already.`, { world: id });
  if (registry.worlds.size >= MAX_WORLDS)
    throw new BridgeError('limit_reached', `At most ${MAX_WORLDS} worlds.`, { limit: MAX_WORLDS });
  const initial = params.object('state') ?? {};
  const state = inWorld(id, () => new WorldState(initial, { changeLogSize: 0 }));
  registry.worlds.set(id, { id, state, createdAt: bridge.createdAt(), subscriptions: new Set() });
  return { world: id, version: state.version };
}

function getInWorld({ registry }: WorldMethodContext, raw: unknown) {
  const params = new ParamReader(raw);
  const world = registry.find(params);
  const path = params.string('path') ?? '';
  const value = inWorld(world.id, () => world.state.get(path));
  return {
    world: world.id,
    path,
    value: value === undefined ? null : value,
    exists: value !== undefined,
    version: world.state.version,
  };
}

function setInWorld({ registry }: WorldMethodContext, raw: unknown) {
  const params = new ParamReader(raw);
  const world = registry.find(params);
  const path = params.string('path') ?? '';
  if (!params.has('value')) throw invalidParams('params.value is required.');
  const value = params.any('value') ?? null;
  inWorld(world.id, () => world.state.set(path, value));
  return { world: world.id, path, version: world.state.version };
}

function mergeIntoWorld({ registry }: WorldMethodContext, raw: unknown) {
  const params = new ParamReader(raw);
  const world = registry.find(params);
  const path = params.string('path') ?? '';
  if (!params.has('patch')) throw invalidParams('params.patch is required (an RFC 7386 merge patch).');
  const patch = params.any('patch') ?? null;
  inWorld(world.id, () => world.state.merge(patch, path));
  return { world: world.id, path, version: world.state.version };
}

function removeFromWorld({ registry }: WorldMethodContext, raw: unknown) {
  const params = new ParamReader(raw);
  const world = registry.find(params);
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
}

function snapshotWorld({ registry }: WorldMethodContext, raw: unknown) {
  const world = registry.find(new ParamReader(raw));
  return { world: world.id, state: world.state.snapshot(), version: world.state.version };
}

function deleteWorld({ registry }: WorldMethodContext, raw: unknown) {
  const world = registry.find(new ParamReader(raw));
  const ended = Array.from(world.subscriptions).filter((id) => registry.endSubscription(id) !== undefined).length;
  registry.worlds.delete(world.id);
  return { world: world.id, deleted: true, endedSubscriptions: ended };
}

function listWorlds({ registry }: WorldMethodContext) {
  return {
    worlds: Array.from(registry.worlds.values()).map((entry) => ({
      world: entry.id,
      version: entry.state.version,
      npcs: registry.npcsUsing(entry.id),
      // Lists of ids, as the seed's world/list has them.
      subscriptions: Array.from(entry.subscriptions),
      createdAt: entry.createdAt,
    })),
  };
}

export function worldMethods(bridge: BridgeContext, registry: WorldRegistry): MethodGroup {
  const context: WorldMethodContext = { bridge, registry };
  return {
    methods: {
      'world/create': (raw: unknown) => createWorld(context, raw),
      'world/get': (raw: unknown) => getInWorld(context, raw),
      'world/set': (raw: unknown) => setInWorld(context, raw),
      'world/merge': (raw: unknown) => mergeIntoWorld(context, raw),
      'world/remove': (raw: unknown) => removeFromWorld(context, raw),
      'world/snapshot': (raw: unknown) => snapshotWorld(context, raw),
      'world/delete': (raw: unknown) => deleteWorld(context, raw),
      'world/list': () => listWorlds(context),
      'world/subscribe': (raw: unknown) => subscribeToWorld(context, raw),
      'world/unsubscribe': (raw: unknown) => unsubscribeFromWorld(context, raw),
    },
    async shutdown() {
      for (const id of Array.from(registry.subscriptions.keys())) registry.endSubscription(id);
    },
  };
}
