/**
 * The `.npc-profile` and `.line-bank` asset handlers: registered by the asset-db script and in
 * package.json, they check a file on import the way the persona handler does, store the
 * problems in the meta for the inspector, and log them once in the editor's language.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { methods } from '../../extension/asset-db/index';
import { ENGLISH_MESSAGES } from '../../extension/asset-db/checked-json-asset';
import type { AssetCheckDeps } from '../../extension/asset-db/checked-json-asset';
import { readProfileFile, profileTemplateText } from '../../extension/asset-db/profile-handler';
import { readBankFile } from '../../extension/asset-db/bank-handler';
import { translatorFor, lookup } from '../../extension/persona/i18n';
import { loadNPCProfile } from '../../src/game/profile';

const en = require('../../i18n/en.js');
const zh = require('../../i18n/zh.js');
const ROOT = path.resolve(__dirname, '../..');
const HILDE = fs.readFileSync(path.join(ROOT, 'demo/profiles/hilde.npc-profile.json'), 'utf8');
const MIRA_BANK = fs.readFileSync(path.join(ROOT, 'demo/tavern/mira.bank.json'), 'utf8');

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oam-assets-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function deps(): AssetCheckDeps & { warnings: string[]; errors: string[] } {
  const warnings: string[] = [];
  const errors: string[] = [];
  return {
    warnings,
    errors,
    readText: (file) => fs.promises.readFile(file, 'utf8'),
    log: { warn: (message) => warnings.push(message), error: (message) => errors.push(message) },
    t: translatorFor(en),
  };
}

function file(name: string, text: string): { source: string; userData: Record<string, unknown> } {
  const source = path.join(dir, name);
  fs.writeFileSync(source, text);
  return { source, userData: {} };
}

describe('the handlers are registered', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const declared = manifest.contributions['asset-db']['asset-handler'] as Array<Record<string, unknown>>;

  test.each([
    ['oam-npc-profile', '.npc-profile', 'registerProfileHandler'],
    ['oam-line-bank', '.line-bank', 'registerBankHandler'],
  ])('%s for %s files', (name, extname, method) => {
    expect(declared).toContainEqual({ name, extnames: [extname], handler: method });
    const handler = (methods as Record<string, () => { name: string; extends: string; assetType: string }>)[method]();
    expect(handler).toMatchObject({ name, extends: 'json', assetType: 'cc.JsonAsset' });
  });

  test('every console message exists in English and Chinese, and the fallback English is the same text', () => {
    for (const [key, text] of Object.entries(ENGLISH_MESSAGES)) {
      expect(lookup(en, key)).toBe(text);
      expect(typeof lookup(zh, key)).toBe('string');
    }
  });

  test('"Create → NPC profile" writes a profile that loads', () => {
    const [menu] = methods.registerProfileHandler().createInfo.generateMenuInfo();
    expect(menu.fullFileName).toMatch(/\.npc-profile$/);
    expect(menu.content).toBe(profileTemplateText());
    expect(readProfileFile(menu.content).status).toBe('ok');
    expect(loadNPCProfile(menu.content).persona.name).toBe('New NPC');
  });
});

describe('an NPC profile on import', () => {
  test('a valid profile imports quietly', async () => {
    const log = deps();
    const asset = file('hilde.npc-profile', HILDE);
    await expect(methods.registerProfileHandler().importer.before(asset)).resolves.toBe(true);
    expect(asset.userData).toEqual({ status: 'ok', problems: [] });
    expect([...log.warnings, ...log.errors]).toEqual([]);
  });

  test('a profile with bad fields imports as an error naming each field', async () => {
    const log = deps();
    const broken = { ...JSON.parse(HILDE), persona: undefined, colour: 'red' };
    const asset = file('broken.npc-profile', JSON.stringify(broken));
    const { checkProfileAsset } = await import('../../extension/asset-db/profile-handler');
    await expect(checkProfileAsset(asset, log)).resolves.toBe(true);
    expect(asset.userData.status).toBe('error');
    expect(asset.userData.problems).toEqual(
      expect.arrayContaining([
        { field: 'profile.persona', message: 'is required' },
        { field: 'profile.colour', message: 'is not a field here' },
      ]),
    );
    expect(log.errors).toHaveLength(1);
    expect(log.errors[0]).toMatch(/^oam-cocos: broken\.npc-profile cannot be used by an NPC yet: .*profile\.persona/);
  });

  test('text that is not a JSON object fails the import', async () => {
    const log = deps();
    const { checkProfileAsset } = await import('../../extension/asset-db/profile-handler');
    await expect(checkProfileAsset(file('x.npc-profile', '[1, 2]'), log)).resolves.toBe(false);
    expect(log.errors).toEqual(['oam-cocos: x.npc-profile is not an NPC profile: not a JSON object']);
  });
});

describe('a line bank on import', () => {
  test('the tavern bank imports quietly', async () => {
    const log = deps();
    const asset = file('mira.line-bank', MIRA_BANK);
    await expect(methods.registerBankHandler().importer.before(asset)).resolves.toBe(true);
    expect(asset.userData).toEqual({ status: 'ok', problems: [] });
    expect([...log.warnings, ...log.errors]).toEqual([]);
  });

  test('a line whose intent the bank does not define is named', async () => {
    const bank = JSON.parse(MIRA_BANK);
    bank.lines[0].intent = 'juggling';
    const report = readBankFile(JSON.stringify(bank));
    expect(report.status).toBe('error');
    expect(report.problems).toContainEqual({
      field: 'bank.lines[0].intent',
      message: '"juggling" is not one of the bank\'s intents',
    });
  });

  test('a missing file fails the import with the reason', async () => {
    const log = deps();
    const { checkBankAsset } = await import('../../extension/asset-db/bank-handler');
    const asset = { source: path.join(dir, 'missing.line-bank'), userData: {} as Record<string, unknown> };
    await expect(checkBankAsset(asset, log)).resolves.toBe(false);
    expect(log.errors[0]).toMatch(/missing\.line-bank is not a line bank: .*ENOENT/);
  });
});
