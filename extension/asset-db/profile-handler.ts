/**
 * The `.npc-profile` asset handler: an NPC profile (persona, tools, world, options: what an
 * NPCComponent in a scene has) imports as a `cc.JsonAsset`, checked against the profile
 * schema first. Any problem is an error: the profile imports so the designer can fix it, and
 * an NPCComponent given it refuses it at run time with the same message.
 */
import { readNPCProfile } from '../../src/game/profile';
import { checkJsonAsset, defaultAssetDeps, parseJsonObject } from './checked-json-asset';
import type { AssetCheckDeps, AssetKind, AssetReport, ImportedAsset } from './checked-json-asset';

/** `profile.tools[0].name: is required; profile.world: …` as one problem per field. */
export function problemsOf(message: string, fallbackField: string): AssetReport['problems'] {
  return message
    .split(/;\s+|\n/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const split = /^([\w.[\]$-]+): (.*)$/.exec(part);
      return split ? { field: split[1], message: split[2] } : { field: fallbackField, message: part };
    });
}

/** Checks the text of a profile file. Never throws. */
export function readProfileFile(text: string): AssetReport {
  const value = parseJsonObject(text);
  if (!value) return { status: 'error', fatal: true, problems: [], summary: 'not a JSON object' };
  try {
    readNPCProfile(value);
    return { status: 'ok', fatal: false, problems: [], summary: 'valid NPC profile' };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'error', fatal: false, problems: problemsOf(message, 'profile'), summary: message };
  }
}

const PROFILE: AssetKind = {
  read: readProfileFile,
  messages: { fatal: 'profile.import.notJson', error: 'profile.import.problems', warning: 'profile.import.problems' },
};

/** What "Create → NPC profile" writes: a persona inline and one tool answered by the game. */
export function profileTemplateText(): string {
  const template = {
    $schema: 'https://oam-cocos.github.io/schemas/npc-profile.schema.json',
    version: 1,
    persona: { name: 'New NPC', role: 'a villager', greeting: 'Hello there.', fallbackLines: ['Hm?'] },
    tools: [{ name: 'give_item', description: 'Gives the player an item.', answer: 'external' }],
    world: { readable: [], contextPaths: [] },
    options: {},
  };
  return `${JSON.stringify(template, null, 2)}\n`;
}

export function checkProfileAsset(asset: ImportedAsset, deps: AssetCheckDeps): Promise<boolean> {
  return checkJsonAsset(asset, PROFILE, deps);
}

export function createProfileHandler(overrides: Partial<AssetCheckDeps> = {}) {
  const deps = { ...defaultAssetDeps(), ...overrides };
  return {
    name: 'oam-npc-profile',
    extends: 'json',
    displayName: 'i18n:oam-cocos.profile.asset.name',
    description: 'i18n:oam-cocos.profile.asset.description',
    assetType: 'cc.JsonAsset',
    createInfo: {
      generateMenuInfo() {
        return [
          {
            label: 'i18n:oam-cocos.profile.create.label',
            fullFileName: 'npc.npc-profile',
            content: profileTemplateText(),
          },
        ];
      },
    },
    importer: { before: (asset: ImportedAsset) => checkProfileAsset(asset, deps) },
  };
}
