/**
 * The `.persona` asset handler. It extends Creator's built-in `json` handler, so a persona
 * imports as a `cc.JsonAsset` that NPCComponent reads like any JSON asset; before the json
 * importer runs, the text is checked against the persona schema (checked-json-asset.ts).
 * A persona without a usable name is an error (imported, so the designer can fix it in the
 * inspector); other problems are warnings.
 */
import { readPersonaFile, personaTemplateText } from '../persona/persona-file';
import { checkJsonAsset, defaultAssetDeps } from './checked-json-asset';
import type { AssetCheckDeps, AssetKind, ImportedAsset } from './checked-json-asset';

export type { ImportedAsset } from './checked-json-asset';
export type PersonaHandlerDeps = AssetCheckDeps;

const PERSONA: AssetKind = {
  read: readPersonaFile,
  messages: { fatal: 'persona.import.notJson', error: 'persona.import.noName', warning: 'persona.import.problems' },
};

/** Checks the file, records the outcome in the meta and logs it; true lets the json importer go on. */
export function checkPersonaAsset(asset: ImportedAsset, deps: PersonaHandlerDeps): Promise<boolean> {
  return checkJsonAsset(asset, PERSONA, deps);
}

export function createPersonaHandler(overrides: Partial<PersonaHandlerDeps> = {}) {
  const deps = { ...defaultAssetDeps(), ...overrides };
  return {
    name: 'oam-persona',
    extends: 'json',
    displayName: 'i18n:oam-cocos.persona.asset.name',
    description: 'i18n:oam-cocos.persona.asset.description',
    assetType: 'cc.JsonAsset',
    createInfo: {
      generateMenuInfo() {
        return [
          {
            label: 'i18n:oam-cocos.persona.create.label',
            fullFileName: 'npc.persona',
            content: personaTemplateText(),
          },
        ];
      },
    },
    importer: {
      before: (asset: ImportedAsset) => checkPersonaAsset(asset, deps),
    },
  };
}
