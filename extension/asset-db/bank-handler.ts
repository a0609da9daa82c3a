/**
 * The `.line-bank` asset handler: a line bank (the lines a character says on a device without
 * a model, baked by `npm run bake` and reviewed in the preview) imports as a `cc.JsonAsset`,
 * checked against the bank schema and its own rules first (every line's intent exists, every
 * intent has a line). Any problem is an error: the bank imports so it can be fixed, and an
 * NPCComponent given it refuses it at run time with the same message.
 */
import { lineBankProblems } from '../../src/game/bank/line-bank';
import { checkJsonAsset, defaultAssetDeps, parseJsonObject } from './checked-json-asset';
import type { AssetCheckDeps, AssetKind, AssetReport, ImportedAsset } from './checked-json-asset';
import { problemsOf } from './profile-handler';

/** Checks the text of a bank file. Never throws. */
export function readBankFile(text: string): AssetReport {
  const value = parseJsonObject(text);
  if (!value) return { status: 'error', fatal: true, problems: [], summary: 'not a JSON object' };
  const problems = lineBankProblems(value);
  if (problems.length === 0) return { status: 'ok', fatal: false, problems: [], summary: 'valid line bank' };
  return {
    status: 'error',
    fatal: false,
    problems: problemsOf(problems.join('\n'), 'bank'),
    summary: problems.join('; '),
  };
}

const BANK: AssetKind = {
  read: readBankFile,
  messages: { fatal: 'bank.import.notJson', error: 'bank.import.problems', warning: 'bank.import.problems' },
};

export function checkBankAsset(asset: ImportedAsset, deps: AssetCheckDeps): Promise<boolean> {
  return checkJsonAsset(asset, BANK, deps);
}

export function createBankHandler(overrides: Partial<AssetCheckDeps> = {}) {
  const deps = { ...defaultAssetDeps(), ...overrides };
  return {
    name: 'oam-line-bank',
    extends: 'json',
    displayName: 'i18n:oam-cocos.bank.asset.name',
    description: 'i18n:oam-cocos.bank.asset.description',
    assetType: 'cc.JsonAsset',
    importer: { before: (asset: ImportedAsset) => checkBankAsset(asset, deps) },
  };
}
