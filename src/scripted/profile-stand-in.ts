/**
 * The keyword stand-in for an NPC profile in previews, the demo and persona tests: the one the
 * profile names from those the host registers (the demo's "tavern"), otherwise one built from
 * the profile's own persona and tools, so another character never answers in Mira's voice.
 */
import { AgentError } from '../contract/errors';
import type { LanguageModel } from '../contract/language-model';
import type { NPCProfileParts } from '../game/profile';
import { createPersonaStandIn } from './persona-stand-in';

export interface ProfileStandInOptions {
  /** Stand-ins a profile may name by `"standIn"`. */
  standIns?: Record<string, (options: { chunkDelayMs?: number }) => LanguageModel>;
  chunkDelayMs?: number;
}

/** Throws invalid_request for a `"standIn"` name the host does not register. */
export function createProfileStandIn(parts: NPCProfileParts, options: ProfileStandInOptions = {}): LanguageModel {
  const name = parts.profile.standIn;
  if (name !== undefined) {
    const standIns = options.standIns ?? {};
    const make = Object.prototype.hasOwnProperty.call(standIns, name) ? standIns[name] : undefined;
    if (!make) {
      const known = Object.keys(standIns);
      throw new AgentError(
        'invalid_request',
        `profile.standIn: ${JSON.stringify(name)} is not a stand-in this host has (${known.length > 0 ? known.join(', ') : 'none'}); leave it out to use the persona's own.`,
      );
    }
    return make({ chunkDelayMs: options.chunkDelayMs });
  }
  return createPersonaStandIn(parts.persona, {
    tools: parts.standInTools.map((tool) => ({ ...tool, parameterless: Object.keys(propertiesOf(tool)).length === 0 })),
    chunkDelayMs: options.chunkDelayMs,
  });
}

function propertiesOf(tool: { parameters: Record<string, unknown> }): Record<string, unknown> {
  const properties = tool.parameters.properties;
  return properties && typeof properties === 'object' ? (properties as Record<string, unknown>) : {};
}
