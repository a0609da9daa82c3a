/**
 * Run-time state of a component, kept outside its fields. After onDestroy the engine's
 * `_destruct()` sets every object field of a component to null and every string field to '',
 * while a turn's promise callbacks and timers may still run; state kept here survives that, so
 * late callbacks find their lists and flags instead of throwing a TypeError.
 */
/**
 * Whether a component is gone: its onDestroy ran (`state.destroyed`), or the engine destroyed
 * it without one (a component whose node never became active gets no onDestroy, but its
 * fields are nulled all the same, and `isValid` turns false).
 */
export function isGone(component: { readonly isValid: boolean }, state: { destroyed: boolean }): boolean {
  return state.destroyed || !component.isValid;
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
