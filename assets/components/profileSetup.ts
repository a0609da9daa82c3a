/**
 * An NPCComponent given an NPC profile asset (`.npc-profile`): the profile is the NPC's set-up
 * (persona, tools, world paths, options, starting memory), the same file the preview page,
 * `npm run demo -- --profile` and the persona tests play. The Inspector's NPC fields are not
 * read then; the Persona property supplies the persona when the profile names it by path, and
 * the WorldStateStore is the world its tools and paths use (the profile's initial values fill
 * only the keys the store does not hold yet).
 */
import type { JsonAsset } from 'cc';
import { AgentError, loadNPCProfile } from '../runtime/oam-core.js';
import type { NPCProfileParts, ProfileToolHandler, WorldState } from '../runtime/oam-core.js';

export interface ProfileSetupInput {
  profile: JsonAsset;
  persona: JsonAsset | null;
  world: WorldState | undefined;
  handlers: Record<string, ProfileToolHandler>;
}

export function profileSetup(input: ProfileSetupInput): NPCProfileParts {
  const { profile, persona } = input;
  try {
    return loadNPCProfile(profile.json, {
      handlers: input.handlers,
      world: input.world,
      readPersona: (path) => {
        if (!persona)
          throw new AgentError(
            'invalid_request',
            `it names the persona file "${path}": set the Persona property to that asset, or put the persona inline`,
          );
        return persona.json;
      },
    });
  } catch (error) {
    const cause = AgentError.from(error, 'invalid_request');
    throw new AgentError(cause.code, `the NPC profile "${profile.name}": ${cause.message}`, { cause });
  }
}
