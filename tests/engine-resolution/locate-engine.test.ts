/**
 * Where the Cocos engine v3.8.5 tree comes from (scripts/engine/locate-engine.mjs, docs/engine.md):
 * OAM_COCOS_ENGINE, else OAM_COCOS_ENGINE_SOURCE's prepare.sh, else a sparse checkout of
 * GitHub's v3.8.5 held to scripts/engine/engine-3.8.5.files and engine-3.8.5.fixed-files. Every
 * tree here is a few files in a temp folder, every fetch is offline or from a local bare
 * repository, and every npm is offline. OAM_COCOS_ENGINE_SOURCE=none skips ../shared's prepare.sh
 * (which is there on this machine) to reach the fetch.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  bareCopy,
  callEngineModule,
  commitAndTag,
  copyEngineScripts,
  git,
  isolatedEnv,
  locate,
  PREPARED_TREE,
  REPO,
  removeTempDirs,
  tempDir,
  writeTree,
} from './engine-modules';

const FAKE_PREPARE_SH = `#!/usr/bin/env bash
# Stands in for ../shared/cocos-engine/prepare.sh: logs its argument, writes the markers there.
set -euo pipefail
echo "$1" >> "$(dirname "$0")/calls.log"
mkdir -p "$1/exports" "$1/tests" "$1/node_modules/jest/bin" "$1/node_modules/@cocos/ccbuild"
touch "$1/exports/base.ts" "$1/tests/init.ts" "$1/node_modules/jest/bin/jest.js" "$1/.prepared"
echo "$1"
`;

/**
 * An engine tree that is not prepared, small enough to prepare offline: its "jest" and
 * "ccbuild" are local packages npm links, and its lock has what the real one has that the lock
 * fix must take out (a `resolved` URL, the `fs` placeholder npm could not install offline).
 */
const UNPREPARED_TREE: Record<string, string> = {
  'package.json': `${JSON.stringify(
    {
      name: 'cocos-creator',
      version: '3.8.5',
      devDependencies: {
        '@cocos/ccbuild': 'file:scripts/fake-packages/ccbuild',
        fs: '^0.0.1-security',
        jest: 'file:scripts/fake-packages/jest',
      },
    },
    null,
    2,
  )}\n`,
  'package-lock.json': `${JSON.stringify(
    {
      name: 'cocos-creator',
      version: '3.8.5',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': {
          name: 'cocos-creator',
          version: '3.8.5',
          devDependencies: {
            '@cocos/ccbuild': 'file:scripts/fake-packages/ccbuild',
            fs: '^0.0.1-security',
            jest: 'file:scripts/fake-packages/jest',
          },
        },
        'node_modules/@cocos/ccbuild': { resolved: 'scripts/fake-packages/ccbuild', link: true },
        'node_modules/fs': {
          version: '0.0.1-security',
          resolved: 'https://registry.npmjs.org/fs/-/fs-0.0.1-security.tgz',
          dev: true,
        },
        'node_modules/jest': { resolved: 'scripts/fake-packages/jest', link: true },
        'scripts/fake-packages/ccbuild': { name: '@cocos/ccbuild', version: '1.0.0', dev: true },
        'scripts/fake-packages/jest': { version: '1.0.0', dev: true, bin: { jest: 'bin/jest.js' } },
      },
    },
    null,
    2,
  )}\n`,
  'tsconfig.json': '{}\n',
  'cocos/core/index.ts': "import wasm from 'external:emscripten/box2d/box2d.wasm.js';\nexport { wasm };\n",
  'exports/base.ts': "export * from '../cocos/core/index';\n",
  'tests/init.ts': 'export {};\n',
  'templates/android/build/gradlew': '#!/bin/sh\n',
  'scripts/build-debug-infos.js': "require('fs').writeFileSync('DebugInfos.json', '{}\\n');\n",
  'scripts/fake-packages/jest/package.json':
    '{ "name": "jest", "version": "1.0.0", "bin": { "jest": "bin/jest.js" } }\n',
  'scripts/fake-packages/jest/bin/jest.js': '',
  'scripts/fake-packages/ccbuild/package.json': '{ "name": "@cocos/ccbuild", "version": "1.0.0" }\n',
};

/** What the upstream repository also has, outside the folders a checkout takes. */
const NOT_FETCHED: Record<string, string> = {
  'native/cocos/renderer.cpp': '// 26 MB of C++ in the real one\n',
  'templates/ios/main.m': '',
  'docs/index.md': '# docs\n',
};

/** npm with nothing but what is on disk: a test that prepares can never reach a registry. */
const OFFLINE_NPM = { npm_config_offline: 'true', npm_config_update_notifier: 'false' };

afterAll(removeTempDirs);

/** Skips OAM_COCOS_ENGINE_SOURCE (../shared's prepare.sh is there on this machine): straight to the fetch. */
const NO_SOURCE = { OAM_COCOS_ENGINE_SOURCE: 'none' };

/** A fake upstream: a bare repository with v3.8.5, the two lists written from it, and its paths. */
function fakeUpstream(): { work: string; url: string; list: string; fixedList: string; root: string } {
  const root = tempDir('upstream');
  const work = writeTree(join(root, 'work'), { ...UNPREPARED_TREE, ...NOT_FETCHED });
  git(work, ['init', '-q']);
  commitAndTag(work, 'v3.8.5');
  const list = join(root, 'engine-3.8.5.files');
  const fixedList = join(root, 'engine-3.8.5.fixed-files');
  const written = spawnSync(
    process.execPath,
    [join(REPO, 'scripts', 'engine', 'write-file-list.mjs'), work, list, fixedList],
    { encoding: 'utf8' },
  );
  expect(written.status).toBe(0);
  return { work, url: bareCopy(work, join(root, 'good.git')), list, fixedList, root };
}

/** locateEngine's settings for the fetch from a fake upstream into `checkout`, npm offline. */
function fetchEnv(upstream: ReturnType<typeof fakeUpstream>, checkout: string, url = upstream.url) {
  return {
    ...NO_SOURCE,
    OAM_ENGINE_GIT_URL: url,
    OAM_ENGINE_FILE_LIST: upstream.list,
    OAM_ENGINE_FIXED_LIST: upstream.fixedList,
    OAM_ENGINE_GIT_CACHE: checkout,
    ...OFFLINE_NPM,
  };
}

/** fetchEngine alone (the clone and the list checks, no npm) from a fake upstream into `dir`. */
function fetchFrom(call: { upstream: ReturnType<typeof fakeUpstream>; dir: string; offline: boolean }) {
  return callEngineModule<string>({
    module: 'fetch-engine.mjs',
    exported: 'fetchEngine',
    env: isolatedEnv(call.upstream.root, {}),
    args: {
      dir: call.dir,
      url: call.upstream.url,
      listPath: call.upstream.list,
      fixedListPath: call.upstream.fixedList,
      offline: call.offline,
    },
  });
}

/** The commands an offline error prints, as a person would paste them: run by bash. */
function runPrinted(message: string): void {
  const commands = message.slice(message.indexOf('; to fetch it: ') + '; to fetch it: '.length);
  const run = spawnSync('bash', ['-c', commands], { encoding: 'utf8', env: isolatedEnv(tempDir('home'), {}) });
  expect(run.stderr).not.toMatch(/fatal|error/i);
  expect(run.status).toBe(0);
}

function expectOneLine(message: string | undefined): void {
  expect(message).toBeTruthy();
  expect(message).not.toContain('\n');
}

describe('OAM_COCOS_ENGINE', () => {
  test('a prepared tree is used in place, and nothing else is tried', () => {
    const home = tempDir('home');
    const engine = writeTree(tempDir('prepared'), PREPARED_TREE);
    const source = writeTree(tempDir('source'), { 'prepare.sh': FAKE_PREPARE_SH });
    const outcome = locate(isolatedEnv(home, { OAM_COCOS_ENGINE: engine, OAM_COCOS_ENGINE_SOURCE: source }));
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toEqual({ root: engine, via: 'OAM_COCOS_ENGINE' });
    expect(existsSync(join(source, 'calls.log'))).toBe(false);
    expect(existsSync(join(home, '.cache'))).toBe(false);
  });

  test.each([
    ['an empty folder', {}, 'it has no cocos, exports, package.json'],
    ['another engine version', { ...PREPARED_TREE, 'package.json': '{ "version": "3.8.4" }\n' }, 'version 3.8.4'],
  ])('%s is refused in one line, and nothing else is tried', (_kind, files, why) => {
    const engine = writeTree(tempDir('not-engine'), files);
    const source = writeTree(tempDir('source'), { 'prepare.sh': FAKE_PREPARE_SH });
    const outcome = locate(isolatedEnv(tempDir('home'), { OAM_COCOS_ENGINE: engine, OAM_COCOS_ENGINE_SOURCE: source }));
    expect(outcome.result).toBeUndefined();
    expect(outcome.error?.name).toBe('Error');
    expectOneLine(outcome.error?.message);
    expect(outcome.error?.message).toContain(`OAM_COCOS_ENGINE=${engine} is not a Cocos engine 3.8.5 tree`);
    expect(outcome.error?.message).toContain(why);
    expect(outcome.error?.message).toContain('resources/resources/3d/engine');
    expect(existsSync(join(source, 'calls.log'))).toBe(false);
  });

  test('an engine tree that is not prepared is copied into the cache and the copy prepared; the tree is not written', () => {
    const home = tempDir('home');
    const engine = writeTree(tempDir('creator-engine'), UNPREPARED_TREE);
    const before = readFileSync(join(engine, 'package-lock.json'), 'utf8');
    const outcome = locate(isolatedEnv(home, { OAM_COCOS_ENGINE: engine, ...OFFLINE_NPM }));
    expect(outcome.error).toBeUndefined();
    const copy = join(home, '.cache', 'oam-cocos', 'cocos-engine-3.8.5-copy');
    expect(outcome.result).toEqual({ root: copy, via: 'OAM_COCOS_ENGINE' });
    expect(existsSync(join(copy, 'node_modules', 'jest', 'bin', 'jest.js'))).toBe(true);
    expect(existsSync(join(copy, 'DebugInfos.json'))).toBe(true);
    expect(readFileSync(join(copy, 'native', 'external', 'emscripten', 'box2d', 'box2d.wasm.js'), 'utf8')).toContain(
      "throw new Error('not included in this engine copy: emscripten/box2d/box2d.wasm.js')",
    );
    const lock = readFileSync(join(copy, 'package-lock.json'), 'utf8');
    expect(lock).not.toContain('registry.npmjs.org');
    expect(lock).not.toContain('"fs"');
    expect(readFileSync(join(engine, 'package-lock.json'), 'utf8')).toBe(before);
    expect(existsSync(join(engine, 'node_modules'))).toBe(false);
    expect(existsSync(join(engine, 'native'))).toBe(false);
  });
});

describe('OAM_COCOS_ENGINE_SOURCE', () => {
  test('prepare.sh is run with the cache, by default ~/.cache/oam-cocos/cocos-engine-3.8.5, and run again when it is warm', () => {
    const home = tempDir('home');
    const source = writeTree(tempDir('source'), { 'prepare.sh': FAKE_PREPARE_SH });
    const env = isolatedEnv(home, { OAM_COCOS_ENGINE_SOURCE: source });
    const cache = join(home, '.cache', 'oam-cocos', 'cocos-engine-3.8.5');
    const cold = locate(env);
    expect(cold.error).toBeUndefined();
    expect(cold.result).toEqual({ root: cache, via: 'source' });
    expect(cold.said).toEqual([`preparing the engine in ${cache} (once, about a minute)`]);
    const warm = locate(env);
    expect(warm.result).toEqual({ root: cache, via: 'source' });
    expect(warm.said).toEqual([]);
    expect(readFileSync(join(source, 'calls.log'), 'utf8')).toBe(`${cache}\n${cache}\n`);
  });

  test('OAM_ENGINE_CACHE moves the cache; a failing prepare.sh is one line', () => {
    const cache = join(tempDir('cache'), 'engine');
    const source = writeTree(tempDir('source'), { 'prepare.sh': FAKE_PREPARE_SH });
    const env = isolatedEnv(tempDir('home'), { OAM_COCOS_ENGINE_SOURCE: source, OAM_ENGINE_CACHE: cache });
    expect(locate(env).result).toEqual({ root: cache, via: 'source' });
    writeFileSync(join(source, 'prepare.sh'), 'echo "npm ERR! something" >&2; exit 7\n');
    const failed = locate(env);
    expect(failed.error?.name).toBe('Error');
    expectOneLine(failed.error?.message);
    expect(failed.error?.message).toBe(`engine: bash ${join(source, 'prepare.sh')} ${cache} failed (exit 7)`);
  });

  test('set to a folder without prepare.sh: a one-line Error, and nothing is fetched', () => {
    const upstream = fakeUpstream();
    const source = tempDir('not-a-source');
    const checkout = join(upstream.root, 'checkout');
    const outcome = locate(
      isolatedEnv(tempDir('home'), { ...fetchEnv(upstream, checkout), OAM_COCOS_ENGINE_SOURCE: source }),
    );
    expect(outcome.result).toBeUndefined();
    expect(outcome.error?.name).toBe('Error');
    expectOneLine(outcome.error?.message);
    expect(outcome.error?.message).toBe(
      `engine: OAM_COCOS_ENGINE_SOURCE=${source} has no prepare.sh (${join(source, 'prepare.sh')}); set it to a folder with prepare.sh such as ../shared/cocos-engine, to none to fetch the engine instead, or unset it`,
    );
    expect(outcome.said).toEqual([]);
    expect(existsSync(checkout)).toBe(false);
  });

  test('scripts/test-engine.mjs then exits 1 (a wrong setting fails) and prints the line', () => {
    const source = tempDir('not-a-source');
    const run = spawnSync(process.execPath, [join(REPO, 'scripts', 'test-engine.mjs')], {
      env: isolatedEnv(tempDir('home'), { OAM_COCOS_ENGINE_SOURCE: source, OAM_ENGINE_OFFLINE: '1' }),
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout.trim()).toBe(
      `engine suite: engine: OAM_COCOS_ENGINE_SOURCE=${source} has no prepare.sh (${join(source, 'prepare.sh')}); set it to a folder with prepare.sh such as ../shared/cocos-engine, to none to fetch the engine instead, or unset it`,
    );
  });

  test('unset, and no ../shared/cocos-engine/prepare.sh beside the repository: on to the fetch', () => {
    const repo = join(tempDir('elsewhere'), 'oam-cocos');
    const scripts = copyEngineScripts(repo);
    const shared = join(repo, '..', 'shared', 'cocos-engine');
    const outcome = locate(isolatedEnv(tempDir('home'), { OAM_ENGINE_OFFLINE: '1' }), scripts);
    expect(outcome.error?.name).toBe('EngineNotFoundError');
    expect(outcome.error?.message).toMatch(
      new RegExp(
        `^engine: none found — .*OAM_COCOS_ENGINE_SOURCE to a folder with prepare\\.sh \\(${shared.replace(/[.\\]/g, '\\$&')} has none\\); fetching github\\.com/cocos/cocos-engine v3\\.8\\.5 failed: offline`,
      ),
    );
  });
});

describe('the fetch from GitHub', () => {
  test('offline, it clones nothing and names the exact commands it would run, once', () => {
    const home = tempDir('home');
    const outcome = locate(isolatedEnv(home, { ...NO_SOURCE, OAM_ENGINE_OFFLINE: '1' }));
    expect(outcome.result).toBeUndefined();
    expect(outcome.error?.name).toBe('EngineNotFoundError');
    const message = outcome.error?.message ?? '';
    expectOneLine(message);
    const checkout = join(home, '.cache', 'oam-cocos', 'cocos-engine-3.8.5-git');
    const clone = `git clone --config core.autocrlf=false --depth 1 --branch v3.8.5 --filter=blob:none --sparse https://github.com/cocos/cocos-engine.git ${checkout}`;
    const sparse = `git -C ${checkout} sparse-checkout set --cone @types cocos editor exports extensions external pal platforms scripts templates/android tests`;
    expect(message).toBe(
      `engine: none found — set OAM_COCOS_ENGINE to a Creator 3.8.5 engine folder, or OAM_COCOS_ENGINE_SOURCE to a folder with prepare.sh (OAM_COCOS_ENGINE_SOURCE=none); fetching github.com/cocos/cocos-engine v3.8.5 failed: offline (OAM_ENGINE_OFFLINE=1); to fetch it: ${clone} && ${sparse}`,
    );
    // The progress says why, the error gives the commands: printed once.
    expect(outcome.said).toEqual(['not fetching the engine: offline (OAM_ENGINE_OFFLINE=1)']);
    expect(existsSync(checkout)).toBe(false);
  });

  test('from a repository with v3.8.5 that matches the list: a sparse checkout of the listed folders, kept for offline use', () => {
    const upstream = fakeUpstream();
    const dir = join(upstream.root, 'checkout');
    const fetch = (offline: boolean) => fetchFrom({ upstream, dir, offline });
    const fetched = fetch(false);
    expect(fetched.error).toBeUndefined();
    expect(fetched.result).toBe(dir);
    expect(fetched.said).toEqual([expect.stringMatching(/^fetching the engine: git clone .* --branch v3\.8\.5 /)]);
    expect(readFileSync(join(dir, 'cocos', 'core', 'index.ts'), 'utf8')).toBe(UNPREPARED_TREE['cocos/core/index.ts']);
    expect(existsSync(join(dir, 'templates', 'android', 'build', 'gradlew'))).toBe(true);
    for (const path of Object.keys(NOT_FETCHED)) expect(existsSync(join(dir, path))).toBe(false);
    expect(git(dir, ['rev-parse', '--is-shallow-repository']).trim()).toBe('true');
    // The list holds the listed folders and top-level files, without package.json, package-lock.json, native/.
    const listed = readFileSync(upstream.list, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.slice(66));
    expect(listed).toEqual([...listed].sort());
    expect(listed).toEqual(expect.arrayContaining(['tsconfig.json', 'cocos/core/index.ts', 'tests/init.ts']));
    expect(listed.filter((path) => /^(package|native\/|docs\/|templates\/ios)/.test(path))).toEqual([]);
    expect(fetch(true)).toEqual({ result: dir, said: [] });
    // A cached checkout edited since: refused offline, fetched again online.
    writeFileSync(join(dir, 'exports', 'base.ts'), 'edited\n');
    const offline = fetch(true);
    expect(offline.error?.name).toBe('FetchError');
    expect(offline.error?.message).toBe(
      `${dir} does not match ${upstream.list}: 1 different (exports/base.ts); not fetching it again: offline (OAM_ENGINE_OFFLINE=1)`,
    );
    const refetched = fetch(false);
    expect(refetched.result).toBe(dir);
    expect(refetched.said[0]).toBe(
      `${dir} does not match ${upstream.list}: 1 different (exports/base.ts): fetching it again`,
    );
    expect(readFileSync(join(dir, 'exports', 'base.ts'), 'utf8')).toBe(UNPREPARED_TREE['exports/base.ts']);
  });

  test('a folder in the way that is not a git checkout is left alone', () => {
    const upstream = fakeUpstream();
    const dir = writeTree(join(upstream.root, 'mine'), { 'notes.txt': 'keep me\n' });
    const outcome = fetchFrom({ upstream, dir, offline: false });
    expect(outcome.error?.message).toBe(
      `${dir} is in the way: not empty and not a git checkout (delete it, or point OAM_ENGINE_GIT_CACHE elsewhere)`,
    );
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('keep me\n');
  });

  test('a git checkout in the way that this code did not make and that does not match is left alone', () => {
    const upstream = fakeUpstream();
    const dir = join(upstream.root, 'by-hand');
    // A whole clone, not the sparse one: the listed files match, but it also has what is not fetched.
    git(upstream.root, ['clone', '-q', upstream.url, dir]);
    writeFileSync(join(dir, 'exports', 'base.ts'), 'edited by hand\n');
    const outcome = fetchFrom({ upstream, dir, offline: false });
    expect(outcome.error?.name).toBe('FetchError');
    expectOneLine(outcome.error?.message);
    expect(outcome.error?.message).toBe(
      `${dir} is in the way: a checkout not made here, and ${dir} does not match ${upstream.list}: 1 different (exports/base.ts) (delete it, or point OAM_ENGINE_GIT_CACHE elsewhere)`,
    );
    expect(readFileSync(join(dir, 'exports', 'base.ts'), 'utf8')).toBe('edited by hand\n');
    expect(existsSync(join(dir, '.git', 'oam-cocos-fetch'))).toBe(false);
  });

  test('the commands an offline run prints, pasted by hand: the next run, offline too, takes the checkout and prepares it', () => {
    const upstream = fakeUpstream();
    const checkout = join(upstream.root, 'checkout');
    const env = isolatedEnv(tempDir('home'), { ...fetchEnv(upstream, checkout), OAM_ENGINE_OFFLINE: '1' });
    const first = locate(env);
    expect(first.error?.name).toBe('EngineNotFoundError');
    expect(first.error?.message).toContain(`; to fetch it: git clone `);
    expect(existsSync(checkout)).toBe(false);
    runPrinted(first.error?.message ?? '');
    expect(existsSync(join(checkout, 'cocos', 'core', 'index.ts'))).toBe(true);
    expect(existsSync(join(checkout, '.git', 'oam-cocos-fetch'))).toBe(false);
    const second = locate(env);
    expect(second.error).toBeUndefined();
    expect(second.result).toEqual({ root: checkout, via: 'fetch' });
    expect(second.said[0]).toBe(`using the checkout ${checkout}: not made here, but it matches the file lists`);
    expect(existsSync(join(checkout, '.git', 'oam-cocos-fetch'))).toBe(true);
    expect(existsSync(join(checkout, '.prepared'))).toBe(true);
    // From then on it is a checkout made here: taken without a word.
    expect(locate(env)).toEqual({ result: { root: checkout, via: 'fetch' }, said: [] });
  });

  test('through locateEngine: OAM_ENGINE_GIT_URL and OAM_ENGINE_FILE_LIST, then the checkout is prepared', () => {
    const upstream = fakeUpstream();
    const checkout = join(upstream.root, 'checkout');
    const outcome = locate(isolatedEnv(tempDir('home'), fetchEnv(upstream, checkout)));
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toEqual({ root: checkout, via: 'fetch' });
    expect(existsSync(join(checkout, 'node_modules', '@cocos', 'ccbuild', 'package.json'))).toBe(true);
    expect(existsSync(join(checkout, 'native', 'external', 'emscripten', 'box2d', 'box2d.wasm.js'))).toBe(true);
    expect(existsSync(join(checkout, '.prepared'))).toBe(true);
  });

  test('a v3.8.5 with a changed and a missing file is refused, naming them', () => {
    const upstream = fakeUpstream();
    writeFileSync(join(upstream.work, 'cocos', 'core', 'index.ts'), 'export const tampered = true;\n');
    unlinkSync(join(upstream.work, 'tests', 'init.ts'));
    commitAndTag(upstream.work, 'tampered');
    const url = bareCopy(upstream.work, join(upstream.root, 'tampered.git'));
    const checkout = join(upstream.root, 'checkout');
    const outcome = locate(isolatedEnv(tempDir('home'), fetchEnv(upstream, checkout, url)));
    expect(outcome.result).toBeUndefined();
    expect(outcome.error?.name).toBe('EngineNotFoundError');
    expectOneLine(outcome.error?.message);
    expect(outcome.error?.message).toContain(
      `fetching ${url} v3.8.5 failed: ${checkout} does not match ${upstream.list}: 1 missing (tests/init.ts), 1 different (cocos/core/index.ts); refusing it`,
    );
    expect(existsSync(join(checkout, 'node_modules'))).toBe(false);
  });

  test('a v3.8.5 whose package.json has another dependency version is refused before npm ci', () => {
    const upstream = fakeUpstream();
    const manifest = JSON.parse(UNPREPARED_TREE['package.json']);
    manifest.devDependencies['left-pad'] = '1.3.0';
    writeFileSync(join(upstream.work, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    commitAndTag(upstream.work, 'another dependency');
    const url = bareCopy(upstream.work, join(upstream.root, 'changed.git'));
    const checkout = join(upstream.root, 'checkout');
    const outcome = locate(isolatedEnv(tempDir('home'), fetchEnv(upstream, checkout, url)));
    expect(outcome.result).toBeUndefined();
    expect(outcome.error?.name).toBe('EngineNotFoundError');
    expectOneLine(outcome.error?.message);
    // Every listed file matches: only the fixed list sees it.
    expect(outcome.error?.message).toContain(
      `fetching ${url} v3.8.5 failed: ${checkout} does not match ${upstream.fixedList} after the lock fix: 1 different (package.json); refusing it`,
    );
    expect(existsSync(join(checkout, 'node_modules'))).toBe(false);
    expect(existsSync(join(checkout, '.prepared'))).toBe(false);
  });
});

describe('no engine at all', () => {
  test('a repository that does not answer: EngineNotFoundError saying what was tried and what to set', () => {
    const url = `file://${join(tempDir('nothing'), 'no-such.git')}`;
    const outcome = locate(isolatedEnv(tempDir('home'), { ...NO_SOURCE, OAM_ENGINE_GIT_URL: url }));
    expect(outcome.error?.name).toBe('EngineNotFoundError');
    expectOneLine(outcome.error?.message);
    expect(outcome.error?.message).toMatch(
      /^engine: none found — set OAM_COCOS_ENGINE to a Creator 3\.8\.5 engine folder, or OAM_COCOS_ENGINE_SOURCE to a folder with prepare\.sh/,
    );
    expect(outcome.error?.message).toContain(`fetching ${url} v3.8.5 failed: git ls-remote ${url} v3.8.5 failed (`);
    expect(outcome.error?.message).toContain('to fetch it: git clone ');
  });

  test('scripts/test-engine.mjs then exits 3 (not run) and prints the line', () => {
    const run = spawnSync(process.execPath, [join(REPO, 'scripts', 'test-engine.mjs')], {
      env: isolatedEnv(tempDir('home'), { ...NO_SOURCE, OAM_ENGINE_OFFLINE: '1' }),
      encoding: 'utf8',
    });
    expect(run.status).toBe(3);
    expect(run.stdout).toMatch(/^engine suite: NOT RUN\. engine: none found — .*git clone .*v3\.8\.5/m);
  });
});
