/**
 * Reads what the preview needs from the scene's `query-node` dump of an NPC node: the uuid of
 * its persona asset and the external tools declared on its NPCComponent. Plain data in, plain
 * data out, so it can be tested without the editor.
 */

export interface DeclaredTool {
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
}

export interface NpcNodeInfo {
  componentType: string;
  personaUuid?: string;
  tools: DeclaredTool[];
}

/** A dumped property: `{ value, type, … }`. */
interface DumpProperty { value?: unknown; type?: string }
interface DumpComponent { type?: string; value?: Record<string, DumpProperty> }

/** The NPC component of a node dump, or null when the node has none. */
export function readNpcNode(dump: unknown): NpcNodeInfo | null {
  const comps = (dump as { __comps__?: unknown } | null)?.__comps__;
  if (!Array.isArray(comps)) return null;
  const npc = (comps as DumpComponent[]).find((c) => typeof c?.type === 'string' && /(^|\.)NPCComponent$/.test(c.type));
  if (!npc) return null;
  const props = npc.value ?? {};
  const persona = props.persona?.value as { uuid?: unknown } | undefined;
  const personaUuid = persona && typeof persona.uuid === 'string' && persona.uuid ? persona.uuid : undefined;
  return { componentType: npc.type as string, personaUuid, tools: readTools(props) };
}

/** External tools: an array property of `{ name, description, parameters? }` entries (parameters may be JSON text). */
function readTools(props: Record<string, DumpProperty>): DeclaredTool[] {
  const list = props.externalTools?.value ?? props.tools?.value;
  if (!Array.isArray(list)) return [];
  const tools: DeclaredTool[] = [];
  for (const item of list as DumpProperty[]) {
    const fields = (item?.value ?? item) as Record<string, unknown>;
    const name = plain(fields.name);
    const description = plain(fields.description);
    if (typeof name !== 'string' || !name || typeof description !== 'string') continue;
    const tool: DeclaredTool = { name, description };
    const parameters = readParameters(plain(fields.parameters ?? fields.schema));
    if (parameters) tool.parameters = parameters;
    tools.push(tool);
  }
  return tools;
}

/** A nested dump wraps each field as `{ value }`. */
function plain(field: unknown): unknown {
  return field && typeof field === 'object' && 'value' in (field as object) ? (field as DumpProperty).value : field;
}

function readParameters(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'string' && value.trim()) {
    try {
      const parsed = JSON.parse(value);
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : undefined;
}
