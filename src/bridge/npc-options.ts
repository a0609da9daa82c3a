/**
 * An NPC's options as the wire sends them: the seed's names read as ours, unknown ones warned
 * about, and the bridge's own `toolTimeoutSeconds` taken out before the game layer checks the rest.
 */
import { setOwnKey } from '../core/json';
import { parseToolChoice } from '../core/agent';
import { resolveNPCOptions, type NPCOptions } from '../game/npc';
import { CHANGE_RELATIONSHIP_TOOL, REMEMBER_FACT_TOOL } from '../game/memory';
import { readingParams } from './errors';
import { ParamReader, type JsonRecord } from './params';
import { shown } from './shown';
import type { WireTool } from './tool-definitions';

/** NPCOptions the wire takes as they are; `toolTimeoutSeconds` is the bridge's own. */
const NPC_OPTION_KEYS = [
  'toolChoice',
  'groundingTool',
  'maxToolRounds',
  'maxToolCalls',
  'worldReadable',
  'worldWritable',
  'worldContextPaths',
  'memoryTools',
  'maxFacts',
  'maxRelationshipChange',
  'secretsUnlockAtRelationship',
  'replyFormat',
  'emotions',
  'playerOptionCount',
  'canEndConversation',
  'extraInstructions',
  'compactAfterTurns',
  'keepRecentTurns',
  'fallbackOnFailure',
  'fallbackLines',
  'temperature',
  'maxResponseTokens',
  'barkMaxTokens',
  'inlineReplies',
  'toolTimeoutMs',
  'priority',
  'toolTimeoutSeconds',
];

/** The seed's wire names for options ours names otherwise (reference §1.2), read as ours. */
const SEED_OPTION_NAMES: Record<string, string> = {
  fallbackOnGuardrail: 'fallbackOnFailure',
  maximumResponseTokens: 'maxResponseTokens',
  barkMaximumTokens: 'barkMaxTokens',
};

/** An option object with the seed's names read as ours (ours wins when both are sent). */
function withOurOptionNames(raw: JsonRecord): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(raw)) {
    const ours = Object.prototype.hasOwnProperty.call(SEED_OPTION_NAMES, key) ? SEED_OPTION_NAMES[key] : undefined;
    // Own members only (a `__proto__` key stays a key the option check then warns about).
    if (ours === undefined) setOwnKey(out, key, value);
    else if (raw[ours] === undefined) setOwnKey(out, ours, value);
  }
  return out;
}

/** The options as the NPC takes them, checked (−32602), with the bridge's tool timeout apart. */
export function readNpcOptions(
  sent: JsonRecord,
  warnings: string[],
): { npcOptions: NPCOptions; toolTimeoutSeconds?: number } {
  const raw = withOurOptionNames(sent);
  for (const key of Object.keys(raw)) {
    if (NPC_OPTION_KEYS.indexOf(key) < 0)
      warnings.push(`params.options.${shown(key)} is not a known NPC option and was ignored.`);
  }
  const known: JsonRecord = {};
  for (const key of NPC_OPTION_KEYS) if (raw[key] !== undefined && raw[key] !== null) known[key] = raw[key];
  const timeout = new ParamReader(known, 'params.options').number('toolTimeoutSeconds', { min: 0, max: 86400 });
  delete known.toolTimeoutSeconds;
  if (known.toolChoice !== undefined) known.toolChoice = readingParams(() => parseToolChoice(known.toolChoice));
  // The bridge waits for client tools on its own timer (toolTimeoutSeconds), so the NPC waits forever.
  const npcOptions = { ...(known as NPCOptions), externalToolTimeoutMs: 0 };
  readingParams(() => resolveNPCOptions(npcOptions));
  return timeout === undefined ? { npcOptions } : { npcOptions, toolTimeoutSeconds: timeout };
}

/** Every tool the model sees: the client's, the world's, the memory tools. */
export function visibleTools(npcOptions: NPCOptions, tools: WireTool[], worldTools: string[]): string[] {
  const memory = resolveNPCOptions(npcOptions).memoryTools;
  const names = tools.map((tool) => tool.name).concat(worldTools);
  if (memory.facts) names.push(REMEMBER_FACT_TOOL);
  if (memory.relationship) names.push(CHANGE_RELATIONSHIP_TOOL);
  return names;
}
