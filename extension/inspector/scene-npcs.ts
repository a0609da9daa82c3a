/**
 * The open scene's NPC nodes for the token meter: which nodes carry an NPCComponent (from
 * `query-node-tree`), which of them use the persona being edited (from each node's
 * `query-node` dump), and the chosen one's set-up with its WorldStateStore's initial state.
 * The editor's message function and a file reader are passed in, so this runs in Node tests and
 * in the browser harness as well as in Creator.
 */
import { parseInitialWorld, readNpcNode, readWorldStore } from '../panels/preview/npc-dump';
import { sceneNpcSetup } from '../token-meter/npc-setup';
import type { SceneNpcSetupResult } from '../token-meter/npc-setup';

/** `Editor.Message.request`'s shape. */
export type EditorRequest = (pkg: string, message: string, ...args: unknown[]) => Promise<unknown>;
/** Reads a file of the project (a world state JSON asset). */
export type ReadTextFile = (path: string) => string | Promise<string>;

export interface SceneNpc {
  nodeUuid: string;
  name: string;
  /** Node names from the scene's top level down, joined with "/". */
  path: string;
  personaUuid?: string;
  /** Its persona asset is the one being edited. */
  usesThisPersona: boolean;
}

export interface SceneNpcSource {
  /** The scene's NPC nodes, those using the edited persona first; rejects when no scene is open. */
  list(): Promise<SceneNpc[]>;
  /** The meter set-up of one NPC node. */
  load(nodeUuid: string): Promise<SceneNpcSetupResult>;
}

/** Nodes whose dump is asked for at most, so a huge scene cannot stall the inspector. */
export const MAX_NODES_QUERIED = 300;

interface TreeNode {
  uuid: string;
  name: string;
  path: string;
  mayBeNpc: boolean;
}

const NPC_TYPE = /(^|\.)NPCComponent$/;

/**
 * The nodes of a `query-node-tree` result that may carry an NPCComponent, in tree order: those
 * whose component list names it, and those the tree lists no components for (their dump decides).
 */
export function npcCandidatesOfTree(tree: unknown): TreeNode[] {
  const out: TreeNode[] = [];
  const visit = (node: unknown, parentPath: string, isRoot: boolean): void => {
    if (!node || typeof node !== 'object') return;
    const fields = node as Record<string, unknown>;
    const name = textOf(fields.name);
    const uuid = textOf(fields.uuid);
    // The scene itself is not a path segment and carries no components.
    const path = isRoot ? '' : parentPath ? `${parentPath}/${name}` : name;
    if (!isRoot && uuid) {
      const comps = Array.isArray(fields.components)
        ? fields.components
        : Array.isArray(fields.__comps__)
          ? fields.__comps__
          : null;
      const listsNpc = comps !== null && comps.some(isNpcComponentEntry);
      if (comps === null || listsNpc) out.push({ uuid, name, path, mayBeNpc: listsNpc });
    }
    if (Array.isArray(fields.children)) for (const child of fields.children) visit(child, path, false);
  };
  if (Array.isArray(tree)) for (const root of tree) visit(root, '', true);
  else visit(tree, '', true);
  return out;
}

/** Those using the edited persona first, the rest in scene order. */
export function orderSceneNpcs(list: SceneNpc[]): SceneNpc[] {
  return list.filter((npc) => npc.usesThisPersona).concat(list.filter((npc) => !npc.usesThisPersona));
}

export function sceneNpcSource(
  request: EditorRequest,
  readFile: ReadTextFile,
  personaUuid: () => string | undefined,
): SceneNpcSource {
  return {
    async list() {
      const tree = await request('scene', 'query-node-tree');
      if (!tree || typeof tree !== 'object') throw new Error('no scene is open');
      const current = personaUuid();
      const found: SceneNpc[] = [];
      for (const node of npcCandidatesOfTree(tree).slice(0, MAX_NODES_QUERIED)) {
        const info = readNpcNode(await request('scene', 'query-node', node.uuid));
        if (!info) continue;
        found.push({
          nodeUuid: node.uuid,
          name: node.name,
          path: node.path,
          personaUuid: info.personaUuid,
          usesThisPersona: !!current && info.personaUuid === current,
        });
      }
      return orderSceneNpcs(found);
    },

    async load(nodeUuid) {
      const info = readNpcNode(await request('scene', 'query-node', nodeUuid));
      if (!info) return { ok: false, message: 'the node has no NPCComponent any more' };
      const notes: string[] = [];
      let world: Record<string, unknown> | undefined;
      if (info.worldStoreUuid) {
        const read = await readStoreWorld(request, readFile, info.worldStoreUuid);
        if (typeof read === 'string') notes.push(`${read}; measured with an empty world, as the store starts then`);
        else world = read;
      }
      const result = sceneNpcSetup(info, world);
      return result.ok ? { ok: true, setup: result.setup, notes: notes.concat(result.notes) } : result;
    },
  };
}

/** The WorldStateStore's initial state as the store reads it: its JSON asset, else its inline JSON; a string is a problem. */
async function readStoreWorld(
  request: EditorRequest,
  readFile: ReadTextFile,
  componentUuid: string,
): Promise<Record<string, unknown> | undefined | string> {
  const store = readWorldStore(await request('scene', 'query-component', componentUuid));
  if (!store) return 'the WorldStateStore was not found';
  let text = store.initialJson;
  if (store.initialStateUuid) {
    const asset = (await request('asset-db', 'query-asset-info', store.initialStateUuid)) as { file?: unknown } | null;
    if (!asset || typeof asset.file !== 'string') return "the WorldStateStore's initial state asset was not found";
    try {
      text = await readFile(asset.file);
    } catch (error) {
      return `the WorldStateStore's initial state could not be read (${error instanceof Error ? error.message : String(error)})`;
    }
  }
  if (text === undefined || !text.trim()) return undefined;
  const parsed = parseInitialWorld(text);
  return parsed.ok ? parsed.world : `WorldStateStore: ${parsed.problem}`;
}

function isNpcComponentEntry(entry: unknown): boolean {
  if (!entry || typeof entry !== 'object') return false;
  const fields = entry as { type?: unknown; extends?: unknown };
  if (typeof fields.type === 'string' && NPC_TYPE.test(fields.type)) return true;
  return (
    Array.isArray(fields.extends) && fields.extends.some((base) => typeof base === 'string' && NPC_TYPE.test(base))
  );
}

/** Tree fields come as plain strings or as dumped `{ value }`. */
function textOf(field: unknown): string {
  const value =
    field && typeof field === 'object' && 'value' in (field as object) ? (field as { value: unknown }).value : field;
  return typeof value === 'string' ? value : '';
}
