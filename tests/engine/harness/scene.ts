/**
 * Scene helpers for the real-engine suite: a fresh active scene, components mounted the way a
 * prefab or a scene brings them (properties set before the node joins the scene), frames driven
 * with director.tick, and waits that let the core's timers and promises run.
 */
import { director, game, Scene, Node, Component, JsonAsset } from 'cc';

// The engine's 2D batcher is made by its renderer, which a headless run has none of; the
// engine's own UI tests install one the same way.
const { Batcher2D } = require('../../../cocos/2d/renderer/batcher-2d') as { Batcher2D: new (root: unknown) => unknown };

/**
 * Gives the headless engine what a page or a device gives it and UI components need: the 2D
 * batcher (Canvas, Label) and the game's DOM container (an EditBox adds its input element to it
 * and removes it when destroyed).
 */
export function useBatcher(): void {
  const root = director.root as unknown as { _batcher$: unknown } | null;
  if (root && !root._batcher$) root._batcher$ = new Batcher2D(director.root);
  const headless = game as unknown as { container: HTMLElement | null };
  if (!headless.container) headless.container = document.createElement('div');
}

/** Runs a new, empty scene (the previous one is destroyed, as in a scene change). */
export function freshScene(name = 'test'): Scene {
  useBatcher();
  const scene = new Scene(name);
  director.runSceneImmediate(scene);
  return scene;
}

/** One frame (or `count`): starts, updates and the end-of-frame deferred destroys run. */
export function frame(count = 1): void {
  for (let index = 0; index < count; index++) director.tick(1 / 60);
}

/**
 * Adds `ctor` to `node` (a new one by default) while the node is outside the scene, sets
 * `props` (so onLoad sees them, as for a component saved in a scene), then adds the node to the
 * current scene: onLoad and onEnable run now, start on the next frame.
 */
export function mount<T extends Component>(ctor: new () => T, props: Partial<T> = {}, node: Node = new Node('npc')): T {
  const component = node.addComponent(ctor) as T;
  Object.assign(component, props);
  if (!node.parent) (director.getScene() as unknown as Node).addChild(node);
  return component;
}

export function jsonAsset(json: unknown, name = 'asset.json'): JsonAsset {
  const asset = new JsonAsset();
  asset.json = json as Record<string, unknown>;
  asset.name = name;
  return asset;
}

/** Every payload of the given node events, in order. */
export function record(node: Node, types: string[]): Array<{ type: string; payload: unknown }> {
  const seen: Array<{ type: string; payload: unknown }> = [];
  for (const type of types) node.on(type, (payload: unknown) => seen.push({ type, payload }));
  return seen;
}

/** Lets timers and promise callbacks run (the core's streaming, the scheduler). */
export function settle(turns = 5): Promise<void> {
  let chain = Promise.resolve();
  for (let index = 0; index < turns; index++)
    chain = chain.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  return chain;
}

/** Waits until `check` holds, a macrotask at a time; fails naming `what`. */
export async function until(check: () => boolean, what: string, turns = 500): Promise<void> {
  for (let index = 0; index < turns; index++) {
    if (check()) return;
    await settle(1);
  }
  throw new Error(`timed out waiting for ${what}`);
}
