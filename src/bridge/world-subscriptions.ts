/**
 * `world/subscribe` and `world/unsubscribe`: each changed leaf under a subscribed path is sent as
 * `world/changed` synchronously, so changes an NPC's tools make arrive before that NPC's
 * `npc/talk` response.
 */
import type { WorldStateChange } from '../game/world';
import { BridgeError } from './errors';
import { ParamReader } from './params';
import { shown } from './shown';
import { inWorld, MAX_SUBSCRIPTIONS, type WorldMethodContext } from './world-registry';

export function changeOnWire(world: string, subscription: string, change: WorldStateChange): Record<string, unknown> {
  const wire: Record<string, unknown> = { world, subscription, path: change.path };
  if (change.oldValue !== undefined) wire.oldValue = change.oldValue;
  if (change.newValue !== undefined) wire.newValue = change.newValue;
  return wire;
}

export function subscribeToWorld(context: WorldMethodContext, raw: unknown) {
  const { registry } = context;
  const params = new ParamReader(raw);
  const world = registry.find(params);
  const path = params.string('path') ?? '';
  if (registry.subscriptions.size >= MAX_SUBSCRIPTIONS) {
    throw new BridgeError('limit_reached', `At most ${MAX_SUBSCRIPTIONS} subscriptions.`, {
      limit: MAX_SUBSCRIPTIONS,
    });
  }
  const id = registry.nextSubscriptionId();
  const stop = inWorld(world.id, () =>
    world.state.observe(path, (change) => {
      context.bridge.notify('world/changed', changeOnWire(world.id, id, change));
    }),
  );
  registry.subscriptions.set(id, { id, world: world.id, path, stop });
  world.subscriptions.add(id);
  return { subscription: id, world: world.id, path };
}

export function unsubscribeFromWorld(context: WorldMethodContext, raw: unknown) {
  const id = new ParamReader(raw).requiredString('subscription');
  const subscription = context.registry.endSubscription(id);
  if (!subscription)
    throw new BridgeError('subscription_not_found', `No subscription "${shown(id)}".`, { subscription: shown(id) });
  return { subscription: id, world: subscription.world, path: subscription.path, unsubscribed: true };
}
