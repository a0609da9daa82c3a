/**
 * The NPC profiles the page offers: the three samples (Mira's tavern, Brann at the gate, Hilde
 * at her forge, who is not in a tavern), a profile file the designer loads, or a bare persona
 * (no tools, an empty world). Each comes with the stand-in that plays it: the tavern's scripted
 * evening for Mira's profile, else one built from the persona and the profile's own tools.
 * A browser reads no files: a loaded profile holds its persona inline, or names one of the
 * samples' persona files.
 */
import { AgentError, loadNPCProfile, type LanguageModel, type NPCProfileParts, type Persona } from '../../src';
import { createProfileStandIn } from '../../src/testing';
import { TAVERN_HANDLERS } from '../../demo/tavern/tavern-world';
import { createMiraModel } from '../../demo/tavern/mira-model';
import miraProfile from '../../demo/profiles/mira.npc-profile.json';
import guardProfile from '../../demo/profiles/guard.npc-profile.json';
import hildeProfile from '../../demo/profiles/hilde.npc-profile.json';
import miraPersona from '../../demo/tavern/mira.persona.json';
import guardPersona from '../../samples/tavern/assets/guard.persona.json';
import hildePersona from '../../demo/profiles/hilde.persona.json';

export interface SampleProfile {
  id: string;
  label: string;
  /** The file name a persona test names it by (`"profile": "hilde.npc-profile.json"`). */
  file: string;
  profile: unknown;
}

export const SAMPLE_PROFILES: SampleProfile[] = [
  { id: 'mira', label: 'Mira, the innkeeper (tavern profile)', file: 'mira.npc-profile.json', profile: miraProfile },
  { id: 'hilde', label: 'Hilde, the blacksmith (her forge)', file: 'hilde.npc-profile.json', profile: hildeProfile },
  { id: 'guard', label: 'Brann, the night guard', file: 'guard.npc-profile.json', profile: guardProfile },
];

/** The samples' persona files, by file name, for profiles that name one. */
const SAMPLE_PERSONAS: Record<string, unknown> = {
  'mira.persona.json': miraPersona,
  'guard.persona.json': guardPersona,
  'hilde.persona.json': hildePersona,
};

const STAND_INS = { tavern: (options: { chunkDelayMs?: number }) => createMiraModel(options) };

/** A profile (an object or JSON text) with its tools answered by the tavern's game code where named. */
export function loadPageProfile(input: unknown): NPCProfileParts {
  return loadNPCProfile(input, {
    handlers: TAVERN_HANDLERS,
    readPersona: (path) => {
      const file = path.split(/[\\/]/).pop() ?? path;
      if (Object.prototype.hasOwnProperty.call(SAMPLE_PERSONAS, file)) return SAMPLE_PERSONAS[file];
      throw new AgentError(
        'invalid_request',
        `the page cannot read the file ${JSON.stringify(path)}: put the persona inline in the profile ("persona": {"name": …})`,
      );
    },
  });
}

/** A sample profile by id or by the file name a persona test gives; undefined when it is not one. */
export function sampleProfile(key: string): SampleProfile | undefined {
  const file = key.split(/[\\/]/).pop() ?? key;
  return SAMPLE_PROFILES.find((sample) => sample.id === key || sample.file === file);
}

/** A persona on its own: no tools, an empty world, default options. */
export function bareProfile(persona: Persona): NPCProfileParts {
  return { persona, tools: [], options: {}, standInTools: [], profile: { persona } };
}

/**
 * The keyword stand-in of a profile played with `persona`: the host's named stand-in only for
 * the profile's own character (the tavern's speaks as Mira), else one from the persona's fields.
 */
export function pageStandIn(parts: NPCProfileParts, persona: Persona, chunkDelayMs: number): LanguageModel {
  const own = persona.name.trim().toLowerCase() === parts.persona.name.trim().toLowerCase();
  const played = own ? parts : { ...parts, persona, profile: { ...parts.profile, standIn: undefined } };
  return createProfileStandIn(played, { standIns: STAND_INS, chunkDelayMs });
}
