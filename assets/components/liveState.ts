/**
 * Run-time state of a component, kept outside its fields. After onDestroy the engine's
 * `_destruct()` sets every object field of a component to null and every string field to '',
 * while a turn's promise callbacks and timers may still run; state kept here survives that, so
 * late callbacks find their lists and flags instead of throwing a TypeError.
 */
import { isValid, type Component } from 'cc';

/**
 * Whether a component is gone: its onDestroy ran (`state.destroyed`), the engine destroyed it
 * without one (a component whose node never became active gets no onDestroy, but its fields
 * are nulled all the same, and `isValid` turns false), or its node is marked for destruction.
 */
export function isGone(component: Component, state: { destroyed: boolean }): boolean {
  // A node.destroy() takes effect at the end of the frame; from the call on, it counts as gone.
  return state.destroyed || !isValid(component, true) || !isValid(component.node, true);
}

export function liveState<C extends object, S>(create: () => S): (component: C) => S {
  const states = new WeakMap<C, S>();
  return (component: C): S => {
    let state = states.get(component);
    if (!state) {
      state = create();
      states.set(component, state);
    }
    return state;
  };
}
