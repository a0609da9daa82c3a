/**
 * Creator's asset inspector for `oam-persona` assets (package.json
 * `contributions.inspector.section.asset["oam-persona"]`). Thin: it reads the selected file,
 * hands it to `renderPersonaInspector`, saves through the asset database and gives the token
 * meter the editor's scene messages (query-node-tree, query-node, query-component) to find the
 * open scene's NPCs.
 */
import { readFileSync, promises as fsp } from 'fs';
import { renderPersonaInspector, PERSONA_INSPECTOR_STYLE, sceneNpcSource } from './persona-view';
import type { PersonaInspector } from './persona-view';
import type { PersonaProblem } from '../../src/game/persona';
import { fillIn } from '../persona/i18n';

export { renderPersonaInspector, PERSONA_INSPECTOR_STYLE } from './persona-view';

/** The editor's global (no typings are shipped for the inspector process). */
declare const Editor: {
  Message: { request(pkg: string, message: string, ...args: unknown[]): Promise<unknown> };
  I18n: { t(key: string, vars?: Record<string, string | number>): string };
};

interface AssetInfo {
  uuid: string;
  file?: string;
  url?: string;
}
interface AssetMeta {
  userData?: { problems?: PersonaProblem[] };
}

interface InspectorThis {
  $: { root: HTMLElement };
  view?: PersonaInspector;
  uuid?: string;
}

export const template = '<div class="oam-persona-root"></div>';
export const style = PERSONA_INSPECTOR_STYLE;
// eslint-disable-next-line id-length -- Creator's inspector API reads the element selectors from an export named $
export const $ = { root: '.oam-persona-root' };

function translate(key: string, vars?: Record<string, string | number>): string {
  // Placeholders are filled here too, whatever the editor's own substitution does.
  return fillIn(Editor.I18n.t(`oam-cocos.${key}`), vars);
}

export function update(this: InspectorThis, assetList: AssetInfo[], metaList: AssetMeta[]): void {
  const asset = assetList[0];
  if (!asset) return;
  this.uuid = asset.uuid;
  // An unreadable file opens read-only with the reason, never as a blank form Save would write.
  let text: string | undefined;
  let readError: string | undefined;
  try {
    if (asset.file) text = readFileSync(asset.file, 'utf8');
    else readError = 'the asset has no file on disk';
  } catch (error) {
    readError = error instanceof Error ? error.message : String(error);
  }
  const problems = metaList[0]?.userData?.problems ?? [];
  if (!this.view) {
    this.view = renderPersonaInspector(this.$.root, {
      t: translate,
      text: text ?? '{}',
      importProblems: problems,
      sceneNpcs: sceneNpcSource(
        (pkg, message, ...args) => Editor.Message.request(pkg, message, ...args),
        (file) => fsp.readFile(file, 'utf8'),
        () => this.uuid,
      ),
      save: (jsonText) => {
        const uuid = this.uuid;
        if (!uuid) return Promise.reject(new Error('no asset selected'));
        return Editor.Message.request('asset-db', 'save-asset', uuid, jsonText).then((info) => {
          if (!info) throw new Error(translate('persona.saveRefused'));
          return info;
        });
      },
    });
  } else if (text !== undefined) {
    this.view.load(text, problems);
  }
  if (readError !== undefined) this.view.loadUnreadable(readError);
}

export function ready(this: InspectorThis): void {
  // Built in update(), which brings the asset.
}

export function close(this: InspectorThis): void {
  this.view?.dispose();
  this.view = undefined;
}

export const methods = {};
