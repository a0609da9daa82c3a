/**
 * The one mapping from an NPCComponent's Inspector properties to what `new NPC(...)` takes: its
 * options and its declared (external) tools. NPCComponent calls it with its own fields, the
 * editor's preview panel and the persona inspector's token meter with the same fields read from
 * the scene's node dump, so a set-up the game refuses is refused, with the same words, everywhere.
 * Plain data in: it depends on nothing of Cocos.
 */
import { AgentError } from '../../contract/errors';
import { AgentTool, checkToolSet } from '../../core/tools';
import type { Emotion } from '../emotion';
import type { NPCOptions, NPCReplyFormat } from './npc-options';

/** One entry of the component's External Tools list (a ToolDeclaration). */
export interface ToolDeclarationProperties {
  name: string;
  description: string;
  /** JSON Schema text of the arguments; empty = no arguments. */
  parametersSchema?: string;
  /** 0 or absent = the NPC's external tool timeout. */
  timeoutMs?: number;
}

/** The Inspector properties of an NPCComponent that shape the NPC, as the component holds them. */
export interface NPCInspectorProperties {
  worldReadable?: string[];
  worldWritable?: string[];
  worldContextPaths?: string[];
  groundingTool?: string;
  /** The ReplyFormat enum's index: 0 automatic, 1 structured, 2 text. */
  replyFormat?: number;
  rememberFacts?: boolean;
  trackRelationship?: boolean;
  secretsUnlockAt?: number;
  secretsAlwaysGuarded?: boolean;
  emotions?: string[];
  playerOptionCount?: number;
  canEndConversation?: boolean;
  fallbackLines?: string[];
  externalTools?: Array<ToolDeclarationProperties | null | undefined>;
  extraInstructions?: string;
  externalToolTimeoutMs?: number;
  toolTimeoutMs?: number;
  priority?: number;
}

/** A declared tool as read, with the reason the NPC would refuse it, for lists that show it anyway. */
export interface DeclaredTool {
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
  timeoutMs?: number;
  /** Set when the parameters schema is not a JSON object: the NPC refuses such a tool. */
  parametersError?: string;
}

export interface InspectorSetup {
  options: NPCOptions;
  tools: AgentTool[];
}

/** The ReplyFormat enum of NPCComponent, in order. */
export const INSPECTOR_REPLY_FORMATS: readonly NPCReplyFormat[] = ['automatic', 'structured', 'text'];

/**
 * The NPC options and declared tools of a component's properties. Throws an AgentError that
 * names the property (`externalTools[1] (give_item): …`) when the NPC would refuse them.
 */
export function npcSetupFromInspector(properties: NPCInspectorProperties): InspectorSetup {
  const declarations = properties.externalTools ?? [];
  declarations.forEach((declaration, index) => {
    if (!declaration) throw new AgentError('invalid_request', `externalTools[${index}] is empty.`);
  });
  const tools = readToolDeclarations(declarations).map((declared, index) => {
    const where = `externalTools[${index}]${declared.name ? ` (${declared.name})` : ''}`;
    if (declared.parametersError) throw new AgentError('invalid_schema', `${where}: ${declared.parametersError}.`);
    try {
      return AgentTool.external({
        name: declared.name,
        description: declared.description,
        parameters: declared.parameters,
        timeoutMs: declared.timeoutMs,
      });
    } catch (error) {
      const refused = AgentError.from(error, 'invalid_request');
      throw new AgentError(refused.code, `${where}: ${refused.message}`);
    }
  });
  // Two rows with one name are refused here as the NPC's agent would refuse them.
  checkToolSet(tools);
  return { options: npcOptionsFromInspector(properties), tools };
}

/** The options alone: every property the Inspector shows, with blank list rows left out. */
export function npcOptionsFromInspector(properties: NPCInspectorProperties): NPCOptions {
  const options: NPCOptions = {};
  if (properties.worldReadable) options.worldReadable = properties.worldReadable.slice();
  if (properties.worldWritable) options.worldWritable = properties.worldWritable.slice();
  if (properties.worldContextPaths) options.worldContextPaths = properties.worldContextPaths.slice();
  const grounding = (properties.groundingTool ?? '').trim();
  if (grounding) options.groundingTool = grounding;
  if (properties.replyFormat !== undefined)
    options.replyFormat = INSPECTOR_REPLY_FORMATS[properties.replyFormat] ?? 'automatic';
  if (properties.rememberFacts !== undefined || properties.trackRelationship !== undefined) {
    options.memoryTools = { facts: !!properties.rememberFacts, relationship: !!properties.trackRelationship };
  }
  if (properties.secretsAlwaysGuarded) options.secretsUnlockAtRelationship = null;
  else if (properties.secretsUnlockAt !== undefined) options.secretsUnlockAtRelationship = properties.secretsUnlockAt;
  // A blank row is what the Inspector leaves when a designer adds an entry and types nothing.
  const emotions = nonBlank(properties.emotions).map((emotion) => emotion.trim());
  if (emotions.length > 0) options.emotions = emotions as Emotion[];
  if (properties.playerOptionCount !== undefined) options.playerOptionCount = properties.playerOptionCount;
  if (properties.canEndConversation !== undefined) options.canEndConversation = properties.canEndConversation;
  const fallbackLines = nonBlank(properties.fallbackLines);
  if (fallbackLines.length > 0) options.fallbackLines = fallbackLines;
  const extra = (properties.extraInstructions ?? '').trim();
  if (extra) options.extraInstructions = extra;
  if (properties.externalToolTimeoutMs !== undefined) options.externalToolTimeoutMs = properties.externalToolTimeoutMs;
  if (properties.toolTimeoutMs !== undefined) options.toolTimeoutMs = properties.toolTimeoutMs;
  if (properties.priority !== undefined) options.priority = properties.priority;
  return options;
}

/** The declared tools as read; an entry without a name is kept (the NPC names it in its refusal). */
export function readToolDeclarations(
  declarations: ReadonlyArray<ToolDeclarationProperties | null | undefined>,
): DeclaredTool[] {
  return declarations.map((declaration) => {
    if (!declaration) return { name: '', description: '', parametersError: 'the entry is empty' };
    const tool: DeclaredTool = { name: declaration.name ?? '', description: declaration.description ?? '' };
    const parameters = readParametersSchema(declaration.parametersSchema);
    if (parameters.value) tool.parameters = parameters.value;
    if (parameters.error) tool.parametersError = parameters.error;
    if (declaration.timeoutMs !== undefined && declaration.timeoutMs > 0) tool.timeoutMs = declaration.timeoutMs;
    return tool;
  });
}

/** Empty text means no parameters; anything else must be a JSON object. */
function readParametersSchema(text: string | undefined): { value?: Record<string, unknown>; error?: string } {
  if (typeof text !== 'string' || !text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { error: `the parameters schema is not JSON (${(error as Error).message})` };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    return { error: 'the parameters schema is not a JSON object' };
  return { value: parsed as Record<string, unknown> };
}

function nonBlank(list: readonly string[] | undefined): string[] {
  return (list ?? []).filter((entry) => typeof entry === 'string' && entry.trim() !== '');
}
