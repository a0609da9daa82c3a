// Where the Cocos engine v3.8.5 tree comes from, first that works wins (docs/engine.md):
//   1. OAM_COCOS_ENGINE         an engine tree, e.g. a Creator 3.8.5 install's; used in place when
//                               prepared, else copied into OAM_ENGINE_COPY_CACHE and prepared there
//   2. OAM_COCOS_ENGINE_SOURCE  a folder with prepare.sh (default ../shared/cocos-engine beside the
//                               repository), prepared into OAM_ENGINE_CACHE (CI takes this one);
//                               set without prepare.sh it is an error, `none` skips this step
//   3. a sparse checkout of github.com/cocos/cocos-engine v3.8.5 into OAM_ENGINE_GIT_CACHE,
//      checked against scripts/engine/engine-3.8.5.files and, after the lock fix, its package.json
//      and package-lock.json against engine-3.8.5.fixed-files, then prepared
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINE_GIT_URL, ENGINE_REF, fetchEngine, FetchError } from './fetch-engine.mjs';
import { DEFAULT_FILE_LIST, DEFAULT_FIXED_LIST, ENGINE_VERSION } from './file-list.mjs';
import { missingMarkers, prepareEngine, prepareEngineCopy } from './prepare-engine.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** OAM_COCOS_ENGINE_SOURCE's value that skips prepare.sh altogether (straight to the fetch). */
const SKIP_SOURCE = 'none';

/** No engine tree from any of the three; `.message` is one line: what was tried, what to set. */
export class EngineNotFoundError extends Error {
  constructor(message) {
    super(message);
    this.name = 'EngineNotFoundError';
  }
}

function cacheDir(name) {
  return join(homedir(), '.cache', 'oam-cocos', name);
}

function isDirectory(path) {
  return existsSync(path) && statSync(path).isDirectory();
}

/** Why `dir` is not an engine v3.8.5 tree, or null when it is one. */
function notAnEngineTree(dir) {
  if (!isDirectory(dir)) return 'no such folder';
  const lacking = ['cocos', 'exports'].filter((folder) => !isDirectory(join(dir, folder)));
  if (!existsSync(join(dir, 'package.json'))) lacking.push('package.json');
  if (lacking.length > 0) return `it has no ${lacking.join(', ')}`;
  let version;
  try {
    version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  } catch (error) {
    return `its package.json does not parse (${error.message})`;
  }
  return version === ENGINE_VERSION ? null : `its package.json says version ${version}`;
}

function fromGiven({ given, say }) {
  const root = resolve(given);
  const problem = notAnEngineTree(root);
  if (problem)
    throw new Error(
      `engine: OAM_COCOS_ENGINE=${given} is not a Cocos engine ${ENGINE_VERSION} tree (${problem}); set it to a Creator ${ENGINE_VERSION} install's resources/resources/3d/engine (Windows) or CocosCreator.app/Contents/Resources/resources/3d/engine (macOS), or unset it`,
    );
  if (missingMarkers(root).length === 0) return { root, via: 'OAM_COCOS_ENGINE' };
  // Not prepared: never write into it (it may be a Creator install); prepare a copy.
  const dest = resolve(process.env.OAM_ENGINE_COPY_CACHE || cacheDir(`cocos-engine-${ENGINE_VERSION}-copy`));
  return { root: prepareEngineCopy({ source: root, dest, say }), via: 'OAM_COCOS_ENGINE' };
}

/** prepare.sh as before: it copies its tree to the cache once and reuses it while the lock is the same. */
function fromSource({ source, say }) {
  const cache = process.env.OAM_ENGINE_CACHE || cacheDir(`cocos-engine-${ENGINE_VERSION}`);
  if (missingMarkers(cache).length > 0 || !existsSync(join(cache, '.prepared')))
    say(`preparing the engine in ${cache} (once, about a minute)`);
  const script = join(source, 'prepare.sh');
  const run = spawnSync('bash', [script, cache], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (run.status !== 0)
    throw new Error(`engine: bash ${script} ${cache} failed (${run.error?.message ?? `exit ${run.status}`})`);
  const missing = missingMarkers(cache);
  if (missing.length > 0) throw new Error(`engine: ${script} prepared ${cache} but it lacks ${missing.join(', ')}`);
  return { root: cache, via: 'source' };
}

function fromGitHub({ tried, say }) {
  const dir = resolve(process.env.OAM_ENGINE_GIT_CACHE || cacheDir(`cocos-engine-${ENGINE_VERSION}-git`));
  const url = process.env.OAM_ENGINE_GIT_URL || ENGINE_GIT_URL;
  const listPath = resolve(process.env.OAM_ENGINE_FILE_LIST || DEFAULT_FILE_LIST);
  const fixedListPath = resolve(process.env.OAM_ENGINE_FIXED_LIST || DEFAULT_FIXED_LIST);
  const offline = ['1', 'true'].includes(process.env.OAM_ENGINE_OFFLINE ?? '');
  try {
    fetchEngine({ dir, url, listPath, fixedListPath, offline, say });
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    const from = url === ENGINE_GIT_URL ? 'github.com/cocos/cocos-engine' : url;
    throw new EngineNotFoundError(`${tried}; fetching ${from} ${ENGINE_REF} failed: ${error.message}`);
  }
  return { root: prepareEngine({ dir, say }), via: 'fetch' };
}

/**
 * @param {{ say: (line: string) => void }} options  say prints a line of progress
 * @returns {{ root: string, via: 'OAM_COCOS_ENGINE' | 'source' | 'fetch' }} a prepared engine tree
 *   (engine source + its node_modules from `npm ci --ignore-scripts`, DebugInfos.json, emscripten stubs)
 * @throws {EngineNotFoundError} when none of the three gives one; other errors (one line) when
 *   OAM_COCOS_ENGINE is not an engine tree, OAM_COCOS_ENGINE_SOURCE is set to a folder without
 *   prepare.sh, or preparing fails
 */
export function locateEngine({ say }) {
  const given = process.env.OAM_COCOS_ENGINE;
  if (given) return fromGiven({ given, say });
  const setSource = process.env.OAM_COCOS_ENGINE_SOURCE;
  const source = resolve(setSource || join(REPO, '..', 'shared', 'cocos-engine'));
  if (setSource !== SKIP_SOURCE) {
    if (existsSync(join(source, 'prepare.sh'))) return fromSource({ source, say });
    // Only the default may be missing: a folder given by name that is not one is a wrong setting.
    if (setSource)
      throw new Error(
        `engine: OAM_COCOS_ENGINE_SOURCE=${setSource} has no prepare.sh (${join(source, 'prepare.sh')}); set it to a folder with prepare.sh such as ../shared/cocos-engine, to ${SKIP_SOURCE} to fetch the engine instead, or unset it`,
      );
  }
  const skipped = setSource ? `OAM_COCOS_ENGINE_SOURCE=${SKIP_SOURCE}` : `${source} has none`;
  const tried = `engine: none found — set OAM_COCOS_ENGINE to a Creator ${ENGINE_VERSION} engine folder, or OAM_COCOS_ENGINE_SOURCE to a folder with prepare.sh (${skipped})`;
  return fromGitHub({ tried, say });
}
