/**
 * NPC profiles on the command line (`npm run demo -- --profile`, `npm run persona-test`): a
 * profile file read from disk with its persona beside it, the tavern's game code and stand-in
 * registered by name, and the stand-in each profile answers with.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AgentError, findJsonSyntaxError, loadNPCProfile, type LanguageModel, type NPCProfileParts } from '../../src';
import { createProfileStandIn } from '../../src/testing';
import { TAVERN_HANDLERS } from '../tavern/tavern-world';
import { createMiraModel } from '../tavern/mira-model';

import miraProfile from './mira.npc-profile.json';
import miraPersona from '../tavern/mira.persona.json';

/** What the demo's host registers: the tavern's take_order, and Mira's scripted stand-in as "tavern". */
export const DEMO_HOST = {
  handlers: TAVERN_HANDLERS,
  standIns: { tavern: (options: { chunkDelayMs?: number }) => createMiraModel(options) },
};

function readText(path: string, what: string): string {
  try {
    const text = readFileSync(path, 'utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (error) {
    throw new AgentError('invalid_request', `cannot read the ${what} ${path}: ${(error as Error).message}`);
  }
}

/** Parsed JSON, or invalid_request with the syntax error's line and column. */
export function readJsonFile(path: string, what: string): unknown {
  const source = readText(path, what);
  try {
    return JSON.parse(source);
  } catch (error) {
    const found = findJsonSyntaxError(source);
    const where = found ? `${found.message} (line ${found.line}, column ${found.column})` : (error as Error).message;
    throw new AgentError('invalid_request', `the ${what} ${path} is not JSON: ${where}`);
  }
}

/** A profile file and the persona it names (relative to the profile), as NPC parts. */
export function readProfileFile(path: string): NPCProfileParts {
  const file = resolve(path);
  const profile = readJsonFile(file, 'NPC profile');
  return loadNPCProfile(profile, {
    handlers: DEMO_HOST.handlers,
    readPersona: (persona) => readText(resolve(dirname(file), persona), 'persona'),
  });
}

/** Mira's profile (the tavern set-up the demo plays by default and `persona-test --tavern` uses), bundled. */
export function miraProfileParts(): NPCProfileParts {
  return loadNPCProfile(miraProfile, { handlers: DEMO_HOST.handlers, readPersona: () => miraPersona });
}

/** The keyword stand-in of a profile: the one it names ("tavern"), else its own persona's. */
export function profileStandIn(parts: NPCProfileParts, chunkDelayMs?: number): LanguageModel {
  return createProfileStandIn(parts, { standIns: DEMO_HOST.standIns, chunkDelayMs });
}
