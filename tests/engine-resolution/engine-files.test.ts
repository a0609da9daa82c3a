/**
 * The pieces of engine resolution that need no tree at all: the committed file list
 * (scripts/engine/engine-3.8.5.files) and the lock fix preparing applies
 * (scripts/engine/prepare-engine.mjs), which must do what ../shared's copy had done.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callEngineModule, isolatedEnv, REPO, removeTempDirs, tempDir, writeTree } from './engine-modules';

const LIST = join(REPO, 'scripts', 'engine', 'engine-3.8.5.files');
const SHARED = join(REPO, '..', 'shared', 'cocos-engine', 'cocos-engine-3.8.5');

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
  (existsSync(SHARED) ? test : test.skip)("matches ../shared's v3.8.5 copy it was written from", () => {
    const outcome = callEngineModule<{ missing: string[]; different: string[] }>({
      module: 'file-list.mjs',
      exported: 'compareWithFileList',
      env: isolatedEnv(tempDir('home'), {}),
      args: { root: SHARED, listPath: LIST },
    });
    expect(outcome.result).toEqual({ missing: [], different: [] });
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
