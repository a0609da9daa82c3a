// Makes an engine tree runnable: the JavaScript port of ../shared/cocos-engine/prepare.sh, for
// trees that did not come with one (a fetched checkout, a copy of a Creator install's engine).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { hashFile, lastLine } from './util.mjs';

/** What a prepared tree has: the engine's entry, its jest harness, jest itself, and ccbuild (the web build). */
export const PREPARED_MARKERS = Object.freeze([
  'exports/base.ts',
  'tests/init.ts',
  'node_modules/jest/bin/jest.js',
  'node_modules/@cocos/ccbuild',
]);

const STAMP = '.prepared';

/** The markers `dir` lacks; empty when it is prepared. */
export function missingMarkers(dir) {
  return PREPARED_MARKERS.filter((marker) => !existsSync(join(dir, marker)));
}

function hashOrNone(path) {
  return existsSync(path) ? hashFile(path) : 'none';
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** Writes only when the text changes, so a second fix leaves the files (and their times) alone. */
function writeJson(path, value) {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (readFileSync(path, 'utf8') !== text) writeFileSync(path, text);
}

function dropResolved(packages) {
  for (const entry of Object.values(packages ?? {})) {
    // A link's `resolved` is the folder it points at, not a download.
    if (!entry.link) delete entry.resolved;
    if (entry.dependencies && typeof Object.values(entry.dependencies)[0] === 'object')
      dropResolved(entry.dependencies);
  }
}

/**
 * The lock fix ../shared's copy has: no `resolved` URLs (npm resolves the same pinned versions by
 * name from whatever registry is configured) and no `fs` placeholder devDependency (not
 * installable). Rewrites package.json and package-lock.json; running it twice changes nothing.
 */
export function fixLock(dir) {
  const packagePath = join(dir, 'package.json');
  const manifest = readJson(packagePath);
  if (manifest.devDependencies && 'fs' in manifest.devDependencies) {
    delete manifest.devDependencies.fs;
    writeJson(packagePath, manifest);
  }
  const lockPath = join(dir, 'package-lock.json');
  if (!existsSync(lockPath)) return;
  const lock = readJson(lockPath);
  delete lock.packages?.['']?.devDependencies?.fs;
  delete lock.packages?.['node_modules/fs'];
  delete lock.dependencies?.fs;
  dropResolved(lock.packages);
  dropResolved(lock.dependencies);
  writeJson(lockPath, lock);
}

function typeScriptFiles(dir, found) {
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) typeScriptFiles(path, found);
    else if (entry.name.endsWith('.ts')) found.push(path);
  }
  return found;
}

/**
 * Throwing stubs for the `external:emscripten/...` modules (native/external is a separate
 * repository: WebAssembly physics, spine...; the scene graph, components and scheduler need none).
 * Returns how many it wrote.
 */
export function writeEmscriptenStubs(dir) {
  const wanted = new Set();
  for (const folder of ['cocos', 'pal', 'exports', 'tests'])
    for (const file of typeScriptFiles(join(dir, folder), []))
      for (const match of readFileSync(file, 'utf8').matchAll(/external:(emscripten\/[A-Za-z0-9_./-]*)/g))
        wanted.add(match[1]);
  for (const module of wanted) {
    const path = join(dir, 'native', 'external', module);
    mkdirSync(dirname(path), { recursive: true });
    const stub = /\.(wasm|mem)$/.test(module)
      ? ''
      : `export default function stub() { throw new Error('not included in this engine copy: ${module}'); }\n`;
    writeFileSync(path, stub);
  }
  return wanted.size;
}

/** Runs one step in `cwd`; throws one line naming the step and the last thing it printed. */
function run({ step, command, args, cwd }) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    // npm is npm.cmd on Windows, which only a shell runs.
    shell: process.platform === 'win32' && command === 'npm',
  });
  if (result.status === 0) return;
  const why = result.error
    ? result.error.message
    : `exit ${result.status ?? result.signal}: ${lastLine(result.stderr) || lastLine(result.stdout) || 'no output'}`;
  throw new Error(`engine: preparing ${cwd} failed at \`${step}\` (${why})`);
}

/**
 * Prepares `dir` in place, as prepare.sh prepares its copy: the lock fix, `npm ci
 * --ignore-scripts` (the engine's postinstall steps download from the internet),
 * DebugInfos.json (cocos/core/platform/debug.ts reads it) and the emscripten stubs. Skipped when
 * a previous run finished on the same lock. Throws one line when a step fails.
 */
export function prepareEngine({ dir, say }) {
  const stamp = join(dir, STAMP);
  const lock = join(dir, 'package-lock.json');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hashOrNone(lock) && missingMarkers(dir).length === 0)
    return dir;
  if (!existsSync(join(dir, 'package.json')))
    throw new Error(`engine: preparing ${dir} failed: it has no package.json`);
  say(`preparing the engine in ${dir} (npm ci: about a minute and 280 MB)`);
  rmSync(stamp, { force: true });
  fixLock(dir);
  const npm = ['--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];
  if (existsSync(lock)) run({ step: 'npm ci', command: 'npm', args: ['ci', ...npm], cwd: dir });
  else {
    // A Creator install may ship the engine without its lock: then the versions are package.json's ranges.
    say(`${dir} has no package-lock.json: npm install instead of npm ci`);
    run({ step: 'npm install', command: 'npm', args: ['install', ...npm], cwd: dir });
  }
  run({
    step: 'node scripts/build-debug-infos.js',
    command: process.execPath,
    args: ['scripts/build-debug-infos.js'],
    cwd: dir,
  });
  writeEmscriptenStubs(dir);
  const missing = missingMarkers(dir);
  if (missing.length > 0) throw new Error(`engine: preparing ${dir} finished but it still lacks ${missing.join(', ')}`);
  writeFileSync(stamp, `${hashOrNone(lock)}\n`);
  return dir;
}

/** chmod -R u+w, as prepare.sh does: the source may be read-only, and its copy is prepared and written into. */
function makeWritable(path) {
  const stats = statSync(path);
  chmodSync(path, stats.mode | 0o200);
  if (stats.isDirectory()) for (const name of readdirSync(path)) makeWritable(join(path, name));
}

/** What a copy leaves out: installed packages (npm ci installs them), the C++ engine, Creator's build cache, git. */
const NOT_COPIED = new Set(['node_modules', 'native', 'bin', '.git']);

/**
 * Copies the engine tree `source` (never written to: it may be a Creator install) into `dest`
 * and prepares the copy. The copy is made again when the source's package.json or lock changed.
 */
export function prepareEngineCopy({ source, dest, say }) {
  const origin = `${source}\n${hashOrNone(join(source, 'package.json'))}\n${hashOrNone(join(source, 'package-lock.json'))}\n`;
  const originStamp = join(dest, '.copied-from');
  if (!existsSync(originStamp) || readFileSync(originStamp, 'utf8') !== origin) {
    say(`copying the engine ${source} to ${dest}`);
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest, { recursive: true });
    cpSync(source, dest, {
      recursive: true,
      filter: (path) => !NOT_COPIED.has(relative(source, path).split(/[\\/]/)[0]),
    });
    makeWritable(dest);
    writeFileSync(originStamp, origin);
  }
  return prepareEngine({ dir: dest, say });
}
