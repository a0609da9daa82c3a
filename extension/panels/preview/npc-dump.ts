/**
 * Reads what the preview needs from the scene's `query-node` dump of an NPC node: the uuid of
 * its persona asset, the external tools declared on its NPCComponent, the component's options
 * (in the NPCOptions form the core takes, mapped the way NPCComponent maps them) and the
 * WorldStateStore it points at. Plain data in, plain data out, so it can be tested without the
 * editor. The field names are NPCComponent's and ToolDeclaration's own.
 */

export interface DeclaredTool {
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
  /** Set when the declared parameters schema is not a JSON object: the runtime refuses such a tool. */
  parametersError?: string;
}

/** The NPCOptions fields an NPCComponent sets from its Inspector properties. */
export interface NpcPreviewOptions {
  worldReadable?: string[];
  worldWritable?: string[];
  worldContextPaths?: string[];
  groundingTool?: string;
  replyFormat?: 'automatic' | 'structured' | 'text';
  memoryTools?: { facts: boolean; relationship: boolean };
  secretsUnlockAtRelationship?: number | null;
  emotions?: string[];
  playerOptionCount?: number;
  canEndConversation?: boolean;
  fallbackLines?: string[];
  extraInstructions?: string;
}

export interface NpcNodeInfo {
  componentType: string;
  personaUuid?: string;
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
interface DumpProperty { value?: unknown; type?: string }
interface DumpComponent { type?: string; value?: Record<string, DumpProperty> }

/** NPCComponent's ReplyFormat enum, in order. */
const REPLY_FORMATS: Array<'automatic' | 'structured' | 'text'> = ['automatic', 'structured', 'text'];

/** The NPC component of a node dump, or null when the node has none. */
export function readNpcNode(dump: unknown): NpcNodeInfo | null {
  const npc = findComponent(dump, 'NPCComponent');
  if (!npc) return null;
  const props = npc.value ?? {};
  const info: NpcNodeInfo = { componentType: npc.type as string, personaUuid: uuidOf(props.persona), tools: readTools(props), options: readOptions(props) };
  const store = uuidOf(props.worldStore);
  if (store) info.worldStoreUuid = store;
  return info;
}

/** A WorldStateStore from a `query-component` dump, or null when it is not one. */
export function readWorldStore(dump: unknown): WorldStoreInfo | null {
  const d = dump as DumpComponent | null;
  if (!d || typeof d !== 'object' || typeof d.type !== 'string' || !/(^|\.)WorldStateStore$/.test(d.type)) return null;
  const props = d.value ?? {};
  const info: WorldStoreInfo = {};
  const asset = uuidOf(props.initialState);
  if (asset) info.initialStateUuid = asset;
  const inline = plain(props.initialJson);
  if (typeof inline === 'string' && inline.trim()) info.initialJson = inline;
  return info;
}

/** The initial world from JSON text (the asset file or the inline JSON): an object, or a problem. */
export function parseInitialWorld(text: string): { ok: true; world: Record<string, unknown> } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, problem: `the world state is not JSON (${(e as Error).message})` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, problem: 'the world state is not a JSON object' };
  return { ok: true, world: value as Record<string, unknown> };
}

function findComponent(dump: unknown, name: string): DumpComponent | null {
  const comps = (dump as { __comps__?: unknown } | null)?.__comps__;
  if (!Array.isArray(comps)) return null;
  const pattern = new RegExp(`(^|\\.)${name}$`);
  return (comps as DumpComponent[]).find((c) => typeof c?.type === 'string' && pattern.test(c.type)) ?? null;
}

function uuidOf(property: DumpProperty | undefined): string | undefined {
  const ref = property?.value as { uuid?: unknown } | null | undefined;
  return ref && typeof ref.uuid === 'string' && ref.uuid ? ref.uuid : undefined;
}

/** The options NPCComponent.coreSetup() builds, from the same properties. */
function readOptions(props: Record<string, DumpProperty>): NpcPreviewOptions {
  const options: NpcPreviewOptions = {};
  const strings = (key: string) => {
    const list = plain(props[key]);
    return Array.isArray(list) ? list.map(plain).filter((s): s is string => typeof s === 'string') : undefined;
  };
  const flag = (key: string) => (typeof plain(props[key]) === 'boolean' ? plain(props[key]) as boolean : undefined);
  const number = (key: string) => (typeof plain(props[key]) === 'number' ? plain(props[key]) as number : undefined);
  const text = (key: string) => (typeof plain(props[key]) === 'string' ? (plain(props[key]) as string).trim() : undefined);

  for (const key of ['worldReadable', 'worldWritable', 'worldContextPaths'] as const) {
    const list = strings(key);
    if (list) options[key] = list;
  }
  const grounding = text('groundingTool');
  if (grounding) options.groundingTool = grounding;
  const format = number('replyFormat');
  if (format !== undefined && REPLY_FORMATS[format]) options.replyFormat = REPLY_FORMATS[format];
  const facts = flag('rememberFacts');
  const relationship = flag('trackRelationship');
  if (facts !== undefined || relationship !== undefined) options.memoryTools = { facts: !!facts, relationship: !!relationship };
  const unlockAt = number('secretsUnlockAt');
  if (flag('secretsAlwaysGuarded')) options.secretsUnlockAtRelationship = null;
  else if (unlockAt !== undefined) options.secretsUnlockAtRelationship = unlockAt;
  const emotions = strings('emotions')?.map((e) => e.trim()).filter(Boolean);
  if (emotions && emotions.length > 0) options.emotions = emotions;
  const count = number('playerOptionCount');
  if (count !== undefined) options.playerOptionCount = count;
  const canEnd = flag('canEndConversation');
  if (canEnd !== undefined) options.canEndConversation = canEnd;
  const lines = strings('fallbackLines')?.filter((l) => l.trim());
  if (lines && lines.length > 0) options.fallbackLines = lines;
  const extra = text('extraInstructions');
  if (extra) options.extraInstructions = extra;
  return options;
}

/** NPCComponent.externalTools: ToolDeclaration entries `{ name, description, parametersSchema (JSON text) }`. */
function readTools(props: Record<string, DumpProperty>): DeclaredTool[] {
  const list = props.externalTools?.value;
  if (!Array.isArray(list)) return [];
  const tools: DeclaredTool[] = [];
  for (const item of list as DumpProperty[]) {
    const fields = (item?.value ?? item) as Record<string, unknown>;
    const name = plain(fields.name);
    const description = plain(fields.description);
    if (typeof name !== 'string' || !name || typeof description !== 'string') continue;
    const tool: DeclaredTool = { name, description };
    const parameters = readParameters(plain(fields.parametersSchema));
    if (parameters.value) tool.parameters = parameters.value;
    if (parameters.error) tool.parametersError = parameters.error;
    tools.push(tool);
  }
  return tools;
}

/** A nested dump wraps each field as `{ value }`. */
function plain(field: unknown): unknown {
  return field && typeof field === 'object' && 'value' in (field as object) ? (field as DumpProperty).value : field;
}

/** The schema text as NPCComponent reads it: empty means no parameters; anything else must be a JSON object. */
function readParameters(value: unknown): { value?: Record<string, unknown>; error?: string } {
  if (typeof value !== 'string' || !value.trim()) return {};
  try {
    const parsed = JSON.parse(value);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? { value: parsed } : { error: 'the parameters schema is not a JSON object' };
  } catch (e) {
    return { error: `the parameters schema is not JSON (${(e as Error).message})` };
  }
}
