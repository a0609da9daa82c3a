/**
 * Reads what the preview and the token meter need from the scene's `query-node` dump of an NPC
 * node: the uuid of its persona asset, its NPCComponent's Inspector properties, and the
 * WorldStateStore it points at. The properties go through the same mapping NPCComponent uses
 * (`npcSetupFromInspector` in src/game/npc/inspector-setup.ts), so the preview and the meter see
 * the options and tools the game would. Plain data in, plain data out, testable without the editor.
 */
import {
  npcOptionsFromInspector,
  npcSetupFromInspector,
  readToolDeclarations,
  type DeclaredTool,
  type NPCInspectorProperties,
  type ToolDeclarationProperties,
} from '../../../src/game/npc/inspector-setup';
import type { NPCOptions } from '../../../src/game/npc/npc-options';

export type { DeclaredTool };
/** The NPC options an NPCComponent's Inspector sets (kept as a name the page already uses). */
export type NpcPreviewOptions = NPCOptions;

export interface NpcNodeInfo {
  componentType: string;
  personaUuid?: string;
  /** The component's properties as dumped, for `npcSetupFromInspector`. */
  properties: NPCInspectorProperties;
  /** Its declared tools as read (with the reason the NPC would refuse one). */
  tools: DeclaredTool[];
  options: NpcPreviewOptions;
  /** The uuid of the WorldStateStore component the NPC references, if any. */
  worldStoreUuid?: string;
}

/** Where a WorldStateStore's initial state comes from: its JSON asset wins over the inline text. */
export interface WorldStoreInfo {
  initialStateUuid?: string;
  initialJson?: string;
}

/** A dumped property: `{ value, type, … }`. */
interface DumpProperty {
  value?: unknown;
  type?: string;
}
interface DumpComponent {
  type?: string;
  value?: Record<string, DumpProperty>;
}

/** The NPC component of a node dump, or null when the node has none. */
export function readNpcNode(dump: unknown): NpcNodeInfo | null {
  const npc = findComponent(dump, 'NPCComponent');
  if (!npc) return null;
  const props = npc.value ?? {};
  const properties = readProperties(props);
  const info: NpcNodeInfo = {
    componentType: npc.type as string,
    personaUuid: uuidOf(props.persona),
    properties,
    tools: readToolDeclarations(properties.externalTools ?? []),
    options: npcOptionsFromInspector(properties),
  };
  const store = uuidOf(props.worldStore);
  if (store) info.worldStoreUuid = store;
  return info;
}

/** What NPCComponent would say when it refuses this NPC's set-up, or undefined when it would not. */
export function setupRefusal(npc: NpcNodeInfo): string | undefined {
  try {
    npcSetupFromInspector(npc.properties);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A WorldStateStore from a `query-component` dump, or null when it is not one. */
export function readWorldStore(dump: unknown): WorldStoreInfo | null {
  const component = dump as DumpComponent | null;
  if (
    !component ||
    typeof component !== 'object' ||
    typeof component.type !== 'string' ||
    !/(^|\.)WorldStateStore$/.test(component.type)
  )
    return null;
  const props = component.value ?? {};
  const info: WorldStoreInfo = {};
  const asset = uuidOf(props.initialState);
  if (asset) info.initialStateUuid = asset;
  const inline = plain(props.initialJson);
  if (typeof inline === 'string' && inline.trim()) info.initialJson = inline;
  return info;
}

/** The initial world from JSON text (the asset file or the inline JSON): an object, or a problem. */
export function parseInitialWorld(
  text: string,
): { ok: true; world: Record<string, unknown> } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `the world state is not JSON (${(error as Error).message})` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, problem: 'the world state is not a JSON object' };
  return { ok: true, world: value as Record<string, unknown> };
}

function findComponent(dump: unknown, name: string): DumpComponent | null {
  const comps = (dump as { __comps__?: unknown } | null)?.__comps__;
  if (!Array.isArray(comps)) return null;
  const pattern = new RegExp(`(^|\\.)${name}$`);
  return (
    (comps as DumpComponent[]).find(
      (component) => typeof component?.type === 'string' && pattern.test(component.type),
    ) ?? null
  );
}

function uuidOf(property: DumpProperty | undefined): string | undefined {
  const ref = property?.value as { uuid?: unknown } | null | undefined;
  return ref && typeof ref.uuid === 'string' && ref.uuid ? ref.uuid : undefined;
}

/** NPCComponent's Inspector properties from its dumped fields (each `{ value, type }`). */
function readProperties(props: Record<string, DumpProperty>): NPCInspectorProperties {
  const properties: NPCInspectorProperties = {};
  const strings = (key: string) => {
    const list = plain(props[key]);
    return Array.isArray(list)
      ? list.map(plain).filter((entry): entry is string => typeof entry === 'string')
      : undefined;
  };
  const flag = (key: string) => (typeof plain(props[key]) === 'boolean' ? (plain(props[key]) as boolean) : undefined);
  const number = (key: string) => (typeof plain(props[key]) === 'number' ? (plain(props[key]) as number) : undefined);
  const text = (key: string) => (typeof plain(props[key]) === 'string' ? (plain(props[key]) as string) : undefined);
  for (const key of ['worldReadable', 'worldWritable', 'worldContextPaths', 'emotions', 'fallbackLines'] as const) {
    const list = strings(key);
    if (list) properties[key] = list;
  }
  for (const key of ['groundingTool', 'extraInstructions'] as const) {
    const value = text(key);
    if (value !== undefined) properties[key] = value;
  }
  for (const key of ['rememberFacts', 'trackRelationship', 'secretsAlwaysGuarded', 'canEndConversation'] as const) {
    const value = flag(key);
    if (value !== undefined) properties[key] = value;
  }
  const numbers = [
    'replyFormat',
    'secretsUnlockAt',
    'playerOptionCount',
    'externalToolTimeoutMs',
    'toolTimeoutMs',
    'priority',
  ] as const;
  for (const key of numbers) {
    const value = number(key);
    if (value !== undefined) properties[key] = value;
  }
  const tools = readTools(props);
  if (tools) properties.externalTools = tools;
  return properties;
}

/** NPCComponent.externalTools: ToolDeclaration entries `{ name, description, parametersSchema, timeoutMs }`. */
function readTools(props: Record<string, DumpProperty>): Array<ToolDeclarationProperties | null> | undefined {
  const list = props.externalTools?.value;
  if (!Array.isArray(list)) return undefined;
  return (list as DumpProperty[]).map((item) => {
    // An entry the Inspector left empty dumps as null (or { value: null }): the NPC refuses it.
    const value = item && typeof item === 'object' && 'value' in item ? item.value : item;
    if (value === null || value === undefined) return null;
    const fields = value as Record<string, unknown>;
    const declaration: ToolDeclarationProperties = {
      name: String(plain(fields.name) ?? ''),
      description: String(plain(fields.description) ?? ''),
    };
    const schema = plain(fields.parametersSchema);
    if (typeof schema === 'string') declaration.parametersSchema = schema;
    const timeout = plain(fields.timeoutMs);
    if (typeof timeout === 'number') declaration.timeoutMs = timeout;
    return declaration;
  });
}

/** A nested dump wraps each field as `{ value }`. */
function plain(field: unknown): unknown {
  return field && typeof field === 'object' && 'value' in (field as object) ? (field as DumpProperty).value : field;
}
