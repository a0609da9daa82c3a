/**
 * The preview panel (package.json `panels.preview`). Thin: it hosts the preview page built into
 * dist/preview/ in an iframe, and sends it the OpenAI-compatible endpoint from the project
 * settings and either a persona asset or everything the selected NPC node runs with: persona,
 * declared tools, the NPCComponent's options and its WorldStateStore's initial state. The page
 * holds the logic.
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { pathToFileURL } from 'url';
import {
  parseInitialWorld,
  readNpcNode,
  readWorldStore,
  setupRefusal,
  type DeclaredTool,
  type NpcPreviewOptions,
} from './npc-dump';

/** The few editor APIs used here (declared locally; the panel process has them as a global). */
declare const Editor: {
  Panel: { define(options: Record<string, unknown>): unknown };
  Message: { request(pkg: string, message: string, ...args: unknown[]): Promise<unknown> };
  Selection: { getLastSelected(type: string): string };
  Profile: { getProject(name: string, key: string): Promise<unknown> };
  I18n: { t(key: string): string };
};

const PACKAGE = 'oam-cocos';
const EMBED_MESSAGE_TYPE = 'oam-preview:setup';
/** dist/panels/preview/index.js → dist/preview/index.html */
const PAGE = join(__dirname, '..', '..', 'preview', 'index.html');

interface PanelThis {
  $: {
    frame: HTMLIFrameElement;
    status: HTMLElement;
    useNode: HTMLButtonElement;
    useAsset: HTMLButtonElement;
    missing: HTMLElement;
  };
  settings?: { openaiUrl: string; openaiModel: string };
}

function translate(key: string): string {
  const text = Editor.I18n.t(`${PACKAGE}.preview.${key}`);
  return text || key;
}

async function projectSetting(key: string): Promise<string> {
  try {
    const value = await Editor.Profile.getProject(PACKAGE, key);
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}

function setStatus(panel: PanelThis, text: string, isProblem = false): void {
  panel.$.status.textContent = text;
  panel.$.status.classList.toggle('problem', isProblem);
}

interface NpcSetup {
  extraTools?: DeclaredTool[];
  npcOptions?: NpcPreviewOptions;
  initialWorld?: Record<string, unknown>;
}

function send(panel: PanelThis, persona: string, npc: NpcSetup = {}): void {
  const frame = panel.$.frame.contentWindow;
  if (!frame) return;
  frame.postMessage(
    {
      type: EMBED_MESSAGE_TYPE,
      persona,
      extraTools: npc.extraTools ?? [],
      npcOptions: npc.npcOptions,
      initialWorld: npc.initialWorld,
      ...panel.settings,
    },
    '*',
  );
}

/** The initial state of the WorldStateStore component `uuid`: its JSON asset, else its inline JSON; a string is a problem. */
async function readStoreWorld(uuid: string): Promise<Record<string, unknown> | undefined | string> {
  const store = readWorldStore(await Editor.Message.request('scene', 'query-component', uuid));
  if (!store) return undefined;
  let text = store.initialJson;
  if (store.initialStateUuid) {
    const file = await readAssetText(store.initialStateUuid);
    if (typeof file === 'string') return file;
    text = file.text;
  }
  if (text === undefined) return undefined;
  const parsed = parseInitialWorld(text);
  return parsed.ok ? parsed.world : `WorldStateStore: ${parsed.problem}`;
}

/** A JSON asset's file text (persona, world state), from its uuid; a string is a problem. */
async function readAssetText(uuid: string): Promise<{ text: string; url: string } | string> {
  const info = (await Editor.Message.request('asset-db', 'query-asset-info', uuid)) as {
    file?: string;
    url?: string;
  } | null;
  if (!info || !info.file) return translate('noPersonaFile');
  try {
    return { text: readFileSync(info.file, 'utf8'), url: info.url ?? info.file };
  } catch (error) {
    return `${translate('readFailed')} ${info.file}: ${(error as Error).message}`;
  }
}

async function useSelectedNode(panel: PanelThis): Promise<void> {
  const uuid = Editor.Selection.getLastSelected('node');
  if (!uuid) return setStatus(panel, translate('noNode'), true);
  const npc = readNpcNode(await Editor.Message.request('scene', 'query-node', uuid));
  if (!npc) return setStatus(panel, translate('noNpc'), true);
  if (!npc.personaUuid) return setStatus(panel, translate('noPersona'), true);
  // Refused here with the words the game would use at run time (the same mapping as NPCComponent).
  const refusal = setupRefusal(npc);
  if (refusal) return setStatus(panel, refusal, true);
  const persona = await readAssetText(npc.personaUuid);
  if (typeof persona === 'string') return setStatus(panel, persona, true);
  const world = npc.worldStoreUuid ? await readStoreWorld(npc.worldStoreUuid) : undefined;
  if (typeof world === 'string') return setStatus(panel, world, true);
  send(panel, persona.text, { extraTools: npc.tools, npcOptions: npc.options, initialWorld: world });
  setStatus(panel, `${translate('loaded')} ${persona.url}`);
}

async function useSelectedAsset(panel: PanelThis): Promise<void> {
  const uuid = Editor.Selection.getLastSelected('asset');
  if (!uuid) return setStatus(panel, translate('noAsset'), true);
  const persona = await readAssetText(uuid);
  if (typeof persona === 'string') return setStatus(panel, persona, true);
  send(panel, persona.text);
  setStatus(panel, `${translate('loaded')} ${persona.url}`);
}

function guard(panel: PanelThis, work: (panel: PanelThis) => Promise<void>): () => void {
  return () => {
    work(panel).catch((error: Error) => setStatus(panel, error.message, true));
  };
}

module.exports = Editor.Panel.define({
  template: `
    <div class="bar">
      <button class="use-node"></button>
      <button class="use-asset"></button>
      <span class="status"></span>
    </div>
    <div class="missing" hidden></div>
    <iframe class="frame"></iframe>`,
  style: `
    :host { display: flex; flex-direction: column; height: 100%; }
    .bar { display: flex; gap: 6px; align-items: center; padding: 6px 8px; flex-wrap: wrap; }
    .bar button { padding: 3px 10px; cursor: pointer; }
    .status { font-size: 12px; opacity: .8; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; flex: 1; }
    .status.problem { color: #e57373; opacity: 1; }
    .missing { padding: 12px; color: #e57373; }
    .frame { flex: 1; border: 0; width: 100%; background: #f4f5f7; }`,
  $: { frame: '.frame', status: '.status', useNode: '.use-node', useAsset: '.use-asset', missing: '.missing' },
  async ready(this: PanelThis) {
    this.$.useNode.textContent = translate('useNode');
    this.$.useAsset.textContent = translate('useAsset');
    this.$.useNode.addEventListener('click', guard(this, useSelectedNode));
    this.$.useAsset.addEventListener('click', guard(this, useSelectedAsset));
    if (!existsSync(PAGE)) {
      this.$.missing.textContent = `${translate('notBuilt')} (${PAGE})`;
      this.$.missing.hidden = false;
      return;
    }
    this.settings = { openaiUrl: await projectSetting('openaiUrl'), openaiModel: await projectSetting('openaiModel') };
    const query = `?openaiUrl=${encodeURIComponent(this.settings.openaiUrl)}&openaiModel=${encodeURIComponent(this.settings.openaiModel)}`;
    this.$.frame.src = pathToFileURL(PAGE).href + query;
  },
  close() {
    // Nothing to release: the page lives in the iframe and goes with the panel.
  },
});
