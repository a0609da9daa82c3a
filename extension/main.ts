/**
 * The extension's main-process entry (package.json `main` → dist/main.js). Creator loads it
 * in the editor's Electron main process; panels, the asset handler and the build hook are
 * separate entries named in package.json `contributions`.
 */
/** The editor's global in the main process (only what is used here). */
declare const Editor: { Panel: { open(name: string, ...args: unknown[]): Promise<boolean> } };

export const methods: Record<string, (...args: unknown[]) => unknown> = {
  /** Menu Panel → oam-cocos → NPC preview (message `open-preview`). */
  openPreview(): Promise<boolean> {
    return Editor.Panel.open('oam-cocos.preview');
  },
};

export function load(): void {
  // Nothing to start: every feature is driven by a contribution.
}

export function unload(): void {
  // Nothing to stop.
}
