/**
 * Instantiates tavern.scene with the 'cc' test double, the way Creator's deserializer would:
 * a Node per cc.Node, each component created on its node from its `__type__` (custom ones by
 * their script's compressed uuid), fields copied from the JSON with `{__id__}` resolved to the
 * created objects and `{__uuid__}` to JsonAssets read from the sample's files. Engine components
 * the double does not model (UITransform, Sprite, Widget, Canvas, Camera) are left out; nothing
 * in the sample's scripts touches them.
 *
 * Call after the module mocks (see scripts.test.ts); classes are passed in by the test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonAsset, Node } from '../cocos/cc-double';
import { REPO, SAMPLE_ASSETS, EXTENSION_ASSETS, expandUuid, readMetas, readScene, type SceneObject } from './project-files';

type Ctor = new () => object;

export interface LoadedScene {
  /** Nodes by path ("Canvas/Dialogue/Option0"). */
  nodes: Map<string, Node>;
  /** The first component of a class on the node at `path`. */
  component<T>(path: string, ctor: new () => T): T;
}

/** Engine fields the doubles model, by type: JSON field → property. */
const ENGINE_FIELDS: Record<string, Record<string, string>> = {
  'cc.Label': { _string: 'string' },
  'cc.EditBox': { _string: 'string' },
  'cc.ProgressBar': { _progress: 'progress' },
  'cc.Button': { _interactable: 'interactable' },
};

const BASE_FIELDS = new Set(['__type__', '_name', '_objFlags', '__editorExtras__', 'node', '_enabled', '__prefab', '_id']);

/**
 * `engine`: double classes for cc.* types; `scripts`: classes by script file name
 * ("NPCComponent", "TavernGame"…); `values`: plain serializable classes by ccclass name.
 * `first`: node paths activated first (Creator runs onLoad by executionOrder; the double runs
 * it per node as the node activates).
 */
export function loadScene(engine: Record<string, Ctor>, scripts: Record<string, Ctor>, values: Record<string, Ctor>, first: string[] = []): LoadedScene {
  const objects = readScene();
  const metas = readMetas(SAMPLE_ASSETS).concat(readMetas(EXTENSION_ASSETS));
  const made = new Map<number, unknown>();
  const paths = new Map<number, string>();
  const nodes = new Map<string, Node>();

  const classOf = (type: string): Ctor | undefined => {
    if (engine[type]) return engine[type];
    if (values[type]) return values[type];
    if (/^[0-9a-f]{5}[A-Za-z0-9+/]{18}$/.test(type)) {
      const uuid = expandUuid(type);
      const meta = metas.find((m) => m.uuid === uuid);
      if (!meta) throw new Error(`scene: no script has uuid ${uuid} (${type})`);
      const name = meta.asset.replace(/^.*\//, '').replace(/\.ts$/, '');
      if (!scripts[name]) throw new Error(`scene: the test did not load ${name}`);
      return scripts[name];
    }
    return undefined;
  };

  // Nodes first (inactive while they are filled in), with their paths.
  objects.forEach((o, i) => {
    if (o.__type__ !== 'cc.Node') return;
    const parent = (o._parent as { __id__: number } | null);
    const path = parent && paths.has(parent.__id__) ? `${paths.get(parent.__id__)}/${o._name}` : String(o._name);
    paths.set(i, path);
    const node = new Node(String(o._name));
    node.active = false;
    made.set(i, node);
    nodes.set(path, node);
  });
  objects.forEach((o, i) => {
    const parent = o._parent as { __id__: number } | null | undefined;
    if (o.__type__ === 'cc.Node' && parent && made.has(parent.__id__)) (made.get(i) as Node).parent = made.get(parent.__id__) as Node;
  });

  // Components on their nodes; plain serializable objects.
  objects.forEach((o, i) => {
    if (o.__type__ === 'cc.Node') return;
    const ctor = classOf(o.__type__);
    if (!ctor) return;
    if ('node' in o && o.__type__ !== 'cc.ClickEvent') {
      const owner = made.get((o.node as { __id__: number }).__id__) as Node;
      made.set(i, owner.addComponent(ctor as new () => never));
    } else made.set(i, new ctor());
  });

  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') {
      const ref = value as Record<string, unknown>;
      if ('__id__' in ref) {
        const target = made.get(ref.__id__ as number);
        if (target === undefined) throw new Error(`scene: [${ref.__id__}] (${objects[ref.__id__ as number].__type__}) is not modelled by the test double`);
        return target;
      }
      if ('__uuid__' in ref) return assetFor(String(ref.__uuid__), metas);
    }
    return value;
  };

  objects.forEach((o: SceneObject, i) => {
    const target = made.get(i) as Record<string, unknown> | undefined;
    if (!target || o.__type__ === 'cc.Node') return;
    const mapped = ENGINE_FIELDS[o.__type__];
    for (const [key, value] of Object.entries(o)) {
      if (BASE_FIELDS.has(key)) continue;
      if (o.__type__.startsWith('cc.')) {
        if (mapped && mapped[key]) target[mapped[key]] = value;
        continue;
      }
      target[key] = resolve(value);
    }
  });

  // Activate: the given paths first, then the rest in file order.
  const order = first.map((p) => nodes.get(p)!).concat(Array.from(nodes.values()).filter((n) => first.every((p) => nodes.get(p) !== n)));
  for (const node of order) {
    const index = Array.from(made.entries()).find(([, v]) => v === node)![0];
    node.active = objects[index]._active as boolean;
  }

  return {
    nodes,
    component<T>(path: string, ctor: new () => T): T {
      const node = nodes.get(path);
      if (!node) throw new Error(`scene: no node ${path}`);
      const c = node.getComponent(ctor as never) as T | null;
      if (!c) throw new Error(`scene: no ${ctor.name} on ${path}`);
      return c;
    },
  };
}

function assetFor(uuid: string, metas: ReturnType<typeof readMetas>): unknown {
  const meta = metas.find((m) => m.uuid === uuid);
  if (!meta) return { internalAsset: uuid }; // built-in sprite frames: nothing reads them here
  if (meta.importer !== 'json' && meta.importer !== 'oam-persona') throw new Error(`scene: ${meta.asset} is not a JSON asset`);
  return JsonAsset.of(JSON.parse(readFileSync(join(REPO, meta.asset), 'utf8')), meta.asset.replace(/^.*\//, ''));
}
