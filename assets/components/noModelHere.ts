/**
 * Whether this device has no model for decisions and generated content: a shipped build where
 * the on-device model is not available (or the runtime's model is the built-in stand-in, whose
 * answers are for developers). A DecisionComponent then picks by its options' weights and
 * conditions; a game's ContentGenerator takes it as `withoutModel` to draw from its pool:
 * `new ContentGenerator(OamRuntime.model, { withoutModel: noModelHere })`.
 */
import { DEV } from 'cc/env';
import { OamRuntime } from './OamRuntime';
import { decidesWithoutModel } from './characterModel';

export function noModelHere(): Promise<boolean> {
  return decidesWithoutModel({
    shipped: !DEV,
    kind: OamRuntime.kind,
    gameStandIn: OamRuntime.config.standIn !== undefined,
    model: OamRuntime.model,
  });
}
