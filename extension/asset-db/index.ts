/**
 * The asset database script (package.json `contributions["asset-db"].script`). Each method
 * returns one asset handler: `.persona`, `.npc-profile` and `.line-bank`, all JSON assets
 * checked on import.
 */
import { createBankHandler } from './bank-handler';
import { createPersonaHandler } from './persona-handler';
import { createProfileHandler } from './profile-handler';

export const methods = {
  registerPersonaHandler() {
    return createPersonaHandler();
  },
  registerProfileHandler() {
    return createProfileHandler();
  },
  registerBankHandler() {
    return createBankHandler();
  },
};

export function load(): void {
  // Nothing to start.
}

export function unload(): void {
  // Nothing to stop.
}
