/**
 * Run-time state of a component, kept outside its fields. After onDestroy the engine's
 * `_destruct()` sets every object field of a component to null and every string field to '',
 * while a turn's promise callbacks and timers may still run; state kept here survives that, so
 * late callbacks find their lists and flags instead of throwing a TypeError.
 */
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
