// The Cocos engine v3.8.5 built for the web by its own build tool (@cocos/ccbuild, installed with
// the engine's lock): one SystemJS module cc.js with the features the tavern needs, and the
// values of `cc/env` for the project's scripts. Built once per engine tree and options, then
// read from a cache shared by every clone of the repository (CI's fresh clone reuses it).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { clearInterval, setInterval } from 'node:timers';

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

function cacheRoot() {
  return process.env.OAM_WEB_ENGINE_CACHE || join(homedir(), '.cache', 'oam-cocos', 'web-engine-3.8.5');
}

/** The cache key: the engine's version and lock, ccbuild's version, the options and features. */
function cacheKey({ engineRoot, ccbuildVersion, features }) {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(engineRoot, 'package.json')));
  hash.update(readFileSync(join(engineRoot, 'package-lock.json')));
  hash.update(ccbuildVersion);
  hash.update(JSON.stringify({ ...WEB_ENGINE_OPTIONS, features }));
  return hash.digest('hex').slice(0, 16);
}

/** Runs `work` with the console's chatter (ccbuild logs every module it redirects) sent to `logFile`. */
async function quietly(logFile, work) {
  const lines = [];
  const saved = { log: console.log, info: console.info, debug: console.debug, warn: console.warn };
  const keep = (...args) => lines.push(args.map(String).join(' '));
  Object.assign(console, { log: keep, info: keep, debug: keep, warn: keep });
  try {
    return await work();
  } finally {
    Object.assign(console, saved);
    writeFileSync(logFile, `${lines.join('\n')}\n`);
  }
}

/**
 * Returns `{ dir, engineJs, env }`: the folder with cc.js, its path, and the `cc/env` constants.
 * `features` are the project's engine modules (project-settings.mjs). Builds when the cache has
 * no copy for this engine, options and features; `say` reports progress.
 */
export async function buildWebEngine({ engineRoot, features, say }) {
  const requireEngine = createRequire(join(engineRoot, 'package.json'));
  const ccbuild = requireEngine('@cocos/ccbuild');
  // Its package.json is not among its exports: read it from the engine's node_modules.
  const ccbuildManifest = join(engineRoot, 'node_modules', '@cocos', 'ccbuild', 'package.json');
  const ccbuildVersion = JSON.parse(readFileSync(ccbuildManifest, 'utf8')).version;
  const dir = join(cacheRoot(), cacheKey({ engineRoot, ccbuildVersion, features }));
  const engineJs = join(dir, 'cc.js');
  const envFile = join(dir, 'cc-env.json');
  if (existsSync(engineJs) && existsSync(envFile)) {
    say(`engine for the web: cached (${dir})`);
    return { dir, engineJs, env: JSON.parse(readFileSync(envFile, 'utf8')) };
  }
  say(`engine for the web: building with @cocos/ccbuild ${ccbuildVersion} (once; 20–60 s)…`);
  const started = Date.now();
  const ticker = setInterval(() => say(`  still building… ${Math.round((Date.now() - started) / 1000)} s`), 10000);
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  try {
    const { platform, mode, flags } = WEB_ENGINE_OPTIONS;
    await quietly(join(building, 'ccbuild.log'), async () => {
      const result = await ccbuild.buildEngine({ engine: engineRoot, out: building, ...WEB_ENGINE_OPTIONS, features });
      if (result.exports.cc !== 'cc.js') throw new Error(`ccbuild wrote ${JSON.stringify(result.exports)}, not cc.js`);
    });
    const stats = await ccbuild.StatsQuery.create(engineRoot);
    const env = stats.constantManager.genCCEnvConstants({ mode, platform, flags });
    writeFileSync(join(building, 'cc-env.json'), `${JSON.stringify(env, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(`building the engine for the web failed: ${error && error.message ? error.message : error}`, {
      cause: error,
    });
  } finally {
    clearInterval(ticker);
  }
  say(`engine for the web: built in ${((Date.now() - started) / 1000).toFixed(1)} s (${dir})`);
  return { dir, engineJs, env: JSON.parse(readFileSync(envFile, 'utf8')) };
}
