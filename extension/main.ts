/**
 * The extension's main-process entry (package.json `main` → dist/main.js). Creator loads it
 * in the editor's Electron main process; panels, the asset handler and the build hook are
 * separate entries named in package.json `contributions`.
 */
export const methods: Record<string, (...args: unknown[]) => unknown> = {};

export function load(): void {
  // Nothing to start: every feature is driven by a contribution.
}

export function unload(): void {
  // Nothing to stop.
}
