// The Cocos engine v3.8.5 built for the web by its own build tool (@cocos/ccbuild, installed with
// the engine's lock): one SystemJS module cc.js with the project's features, and the values of
// `cc/env` for the project's scripts. Built once per engine source and options, then read from a
// cache shared by every clone of the repository (CI's fresh clone reuses it).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';

const WORKER = join(dirname(fileURLToPath(import.meta.url)), 'build-engine-worker.mjs');

/**
 * What the engine is built with, besides the project's features. `targets` must be set: without
 * it ccbuild lowers to ES5 and, with the babel of the engine's lock, emits loops that throw
 * (`_i is not defined`). The platform is HTML5 (WEB_MOBILE is "unknown" to the constants).
 */
export const WEB_ENGINE_OPTIONS = Object.freeze({
  platform: 'HTML5',
  mode: 'BUILD',
  moduleFormat: 'system',
  targets: 'chrome 80',
  flags: { DEBUG: true },
  sourceMap: false,
});

/** The engine's sources that go into cc.js (a patched engine must not get a stock cc.js from the cache). */
const SOURCE_FOLDERS = ['cocos', 'pal', 'exports', 'platforms', 'extensions', 'external'];

function cacheRoot() {
  return process.env.OAM_WEB_ENGINE_CACHE || join(homedir(), '.cache', 'oam-cocos', 'web-engine-3.8.5');
}

function hashFolder(hash, dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((left, right) =>
    left.name < right.name ? -1 : 1,
  )) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) hashFolder(hash, full);
    else {
      hash.update(`${full.slice(dir.length)}\0`);
      hash.update(readFileSync(full));
    }
  }
}

/** The cache key: the engine's sources, manifest and lock, ccbuild's version, the options and features. */
function cacheKey({ engineRoot, ccbuildVersion, features }) {
  const hash = createHash('sha256');
  for (const folder of SOURCE_FOLDERS) {
    hash.update(`${folder}/\0`);
    hashFolder(hash, join(engineRoot, folder));
  }
  hash.update(readFileSync(join(engineRoot, 'package.json')));
  hash.update(readFileSync(join(engineRoot, 'package-lock.json')));
  hash.update(ccbuildVersion);
  hash.update(JSON.stringify({ ...WEB_ENGINE_OPTIONS, features }));
  return hash.digest('hex').slice(0, 16);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Removes what builds that were stopped (Ctrl+C) left: `<key>.building-<pid>` of a process that is gone. */
function removeAbandonedBuilds(root) {
  if (!existsSync(root)) return;
  for (const name of readdirSync(root)) {
    const match = /\.building-(\d+)$/.exec(name);
    if (match && !isAlive(Number(match[1]))) rmSync(join(root, name), { recursive: true, force: true });
  }
}

function runWorker({ engineRoot, out, features }) {
  const log = openSync(join(out, 'ccbuild.log'), 'w');
  const input = JSON.stringify({ engineRoot, out, options: { ...WEB_ENGINE_OPTIONS, features } });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, input], { stdio: ['ignore', log, log] });
    child.on('error', reject);
    child.on('exit', (code) => {
      closeSync(log);
      if (code === 0) resolve();
      else reject(new Error(`ccbuild exited with ${code}; its log: ${join(out, 'ccbuild.log')}`));
    });
  });
}

/**
 * Returns `{ dir, engineJs, env }`: the folder with cc.js, its path, and the `cc/env` constants.
 * `features` are the project's engine modules (project-settings.mjs). Builds when the cache has
 * no copy for this engine, options and features; `say` reports progress.
 */
export async function buildWebEngine({ engineRoot, features, say }) {
  // Its package.json is not among its exports: read it from the engine's node_modules.
  const ccbuildManifest = join(engineRoot, 'node_modules', '@cocos', 'ccbuild', 'package.json');
  const ccbuildVersion = JSON.parse(readFileSync(ccbuildManifest, 'utf8')).version;
  const root = cacheRoot();
  const dir = join(root, cacheKey({ engineRoot, ccbuildVersion, features }));
  const engineJs = join(dir, 'cc.js');
  const envFile = join(dir, 'cc-env.json');
  if (existsSync(engineJs) && existsSync(envFile)) {
    say(`engine for the web: cached (${dir})`);
    return { dir, engineJs, env: JSON.parse(readFileSync(envFile, 'utf8')) };
  }
  removeAbandonedBuilds(root);
  say(`engine for the web: building with @cocos/ccbuild ${ccbuildVersion} (once; 20–60 s)…`);
  const started = Date.now();
  const ticker = setInterval(() => say(`  still building… ${Math.round((Date.now() - started) / 1000)} s`), 10000);
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  try {
    await runWorker({ engineRoot, out: building, features });
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
  } catch (error) {
    throw new Error(`building the engine for the web failed: ${error.message}`, { cause: error });
  } finally {
    clearInterval(ticker);
  }
  say(`engine for the web: built in ${((Date.now() - started) / 1000).toFixed(1)} s (${dir})`);
  return { dir, engineJs, env: JSON.parse(readFileSync(envFile, 'utf8')) };
}
