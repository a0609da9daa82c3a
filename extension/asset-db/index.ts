/**
 * The asset database script (package.json `contributions["asset-db"].script`). Its method
 * `registerPersonaHandler` returns the `.persona` asset handler.
 */
import { createPersonaHandler } from './persona-handler';

export const methods = {
  registerPersonaHandler() {
    return createPersonaHandler();
  },
};

export function load(): void {
  // Nothing to start.
}

export function unload(): void {
  // Nothing to stop.
}
