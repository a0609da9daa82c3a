/**
 * The pieces of engine resolution that need no tree at all: the committed file lists
 * (scripts/engine/engine-3.8.5.files and engine-3.8.5.fixed-files), the lock fix preparing
 * applies (scripts/engine/prepare-engine.mjs), which must do what ../shared's copy had done, and
 * the helpers the modules share (scripts/engine/util.mjs).
 */
import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callEngineModule, isolatedEnv, REPO, removeTempDirs, tempDir, writeTree } from './engine-modules';

const ENGINE_SCRIPTS = join(REPO, 'scripts', 'engine');
const LIST = join(ENGINE_SCRIPTS, 'engine-3.8.5.files');
const FIXED_LIST = join(ENGINE_SCRIPTS, 'engine-3.8.5.fixed-files');
// The copy the lists were written from: OAM_COCOS_ENGINE_SOURCE (as CI sets it), else ../shared.
// Without it these two tests cannot run; every other test here still does.
const SOURCE =
  process.env.OAM_COCOS_ENGINE_SOURCE && process.env.OAM_COCOS_ENGINE_SOURCE !== 'none'
    ? process.env.OAM_COCOS_ENGINE_SOURCE
    : join(REPO, '..', 'shared', 'cocos-engine');
const SHARED = join(SOURCE, 'cocos-engine-3.8.5');
const onlyBesideShared = existsSync(SHARED) ? test : test.skip;

afterAll(removeTempDirs);

describe('the committed file list', () => {
  const lines = readFileSync(LIST, 'utf8').split('\n');

  test('is `sha256  path` lines sorted by path, without package.json, package-lock.json or native/', () => {
    expect(lines.pop()).toBe('');
    for (const line of lines) expect(line).toMatch(/^[0-9a-f]{64} {2}\S/);
    const paths = lines.map((line) => line.slice(66));
    expect(paths).toEqual([...paths].sort());
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.filter((path) => /^(package\.json|package-lock\.json|native\/)/.test(path))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['exports/base.ts', 'tests/init.ts', 'cocos/core/index.ts']));
  });

  // Only where the copy it was written from is beside the repository (CI, this machine).
  onlyBesideShared("matches ../shared's v3.8.5 copy it was written from", () => {
    const outcome = callEngineModule<{ missing: string[]; different: string[] }>({
      module: 'file-list.mjs',
      exported: 'compareWithFileList',
      env: isolatedEnv(tempDir('home'), {}),
      args: { root: SHARED, listPath: LIST },
    });
    expect(outcome.result).toEqual({ missing: [], different: [] });
  });
});

describe('the committed fixed list', () => {
  test('has package.json and package-lock.json, and nothing else, as `sha256  path` lines', () => {
    const lines = readFileSync(FIXED_LIST, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => line.slice(64))).toEqual(['  package.json', '  package-lock.json']);
    for (const line of lines) expect(line).toMatch(/^[0-9a-f]{64} {2}\S/);
  });

  // The hashes are of ../shared's two files, which the lock fix reproduces byte for byte.
  onlyBesideShared("is ../shared's package.json and package-lock.json, which the lock fix leaves as they are", () => {
    const dir = tempDir('fixed');
    for (const name of ['package.json', 'package-lock.json']) copyFileSync(join(SHARED, name), join(dir, name));
    const env = isolatedEnv(dir, {});
    expect(
      callEngineModule({ module: 'prepare-engine.mjs', exported: 'fixLock', env, args: [dir] }).error,
    ).toBeUndefined();
    for (const root of [SHARED, dir]) {
      const outcome = callEngineModule<{ missing: string[]; different: string[] }>({
        module: 'file-list.mjs',
        exported: 'compareWithFileList',
        env,
        args: { root, listPath: FIXED_LIST },
      });
      expect(outcome.result).toEqual({ missing: [], different: [] });
    }
  });
});

describe('the lock fix', () => {
  test('drops `resolved` URLs (not a link’s folder) and the fs placeholder, and a second run changes nothing', () => {
    const lock = {
      name: 'cocos-creator',
      version: '3.8.5',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'cocos-creator', devDependencies: { fs: '^0.0.1-security', jest: '^29.6.0' } },
        'node_modules/fs': { version: '0.0.1-security', resolved: 'https://registry.npmjs.org/fs/-/fs.tgz' },
        'node_modules/jest': { version: '29.6.0', resolved: 'https://registry.npmjs.org/jest/-/jest-29.6.0.tgz' },
        'node_modules/local': { resolved: 'scripts/local', link: true },
      },
    };
    const dir = writeTree(tempDir('lock'), {
      'package.json': JSON.stringify({ devDependencies: { fs: '^0.0.1-security', jest: '^29.6.0' } }),
      'package-lock.json': JSON.stringify(lock),
    });
    const fix = () =>
      callEngineModule({ module: 'prepare-engine.mjs', exported: 'fixLock', env: isolatedEnv(dir, {}), args: [dir] });
    expect(fix().error).toBeUndefined();
    const fixedLock = readFileSync(join(dir, 'package-lock.json'), 'utf8');
    const fixedPackage = readFileSync(join(dir, 'package.json'), 'utf8');
    expect(JSON.parse(fixedLock)).toEqual({
      ...lock,
      packages: {
        '': { name: 'cocos-creator', devDependencies: { jest: '^29.6.0' } },
        'node_modules/jest': { version: '29.6.0' },
        'node_modules/local': { resolved: 'scripts/local', link: true },
      },
    });
    expect(JSON.parse(fixedPackage)).toEqual({ devDependencies: { jest: '^29.6.0' } });
    expect(fixedLock.endsWith('}\n')).toBe(true);
    fix();
    expect(readFileSync(join(dir, 'package-lock.json'), 'utf8')).toBe(fixedLock);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(fixedPackage);
  });
});

describe('the shared helpers', () => {
  test('lastLine and the sha256 of a file are written once, in util.mjs, and imported elsewhere', () => {
    const modules = readdirSync(ENGINE_SCRIPTS).filter((name) => name.endsWith('.mjs'));
    const defining = (pattern: RegExp) =>
      modules.filter((name) => pattern.test(readFileSync(join(ENGINE_SCRIPTS, name), 'utf8')));
    expect(defining(/function lastLine\b/)).toEqual(['util.mjs']);
    expect(defining(/createHash\(/)).toEqual(['util.mjs']);
    expect(defining(/from '\.\/util\.mjs'/).sort()).toEqual([
      'fetch-engine.mjs',
      'file-list.mjs',
      'prepare-engine.mjs',
    ]);
  });

  test('lastLine quotes the last line worth quoting, from git or from npm', () => {
    const env = isolatedEnv(tempDir('home'), {});
    const lastLine = (text: string | undefined) =>
      callEngineModule<string>({ module: 'util.mjs', exported: 'lastLine', env, args: [text] }).result;
    expect(lastLine('Cloning into x...\nfatal: repository not found\n\n')).toBe('fatal: repository not found');
    expect(lastLine('npm ERR! code E404\nnpm ERR! 404 Not Found - left-pad\nnpm ERR! \n')).toBe(
      'npm ERR! 404 Not Found - left-pad',
    );
    expect(lastLine(undefined)).toBe('');
  });
});
