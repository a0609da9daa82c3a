// What the engine tree must hold: the folders fetched from GitHub (the same set the test copy in
// ../shared/cocos-engine keeps, less native/) and a committed list of their files with sha256
// hashes, so a fetched tree is known to be the v3.8.5 the tests were written against; and a second
// list with the hashes package.json and package-lock.json have after the lock fix.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashFile } from './util.mjs';

export const ENGINE_VERSION = '3.8.5';

/**
 * The engine's folders the tests and a web build read, for the sparse checkout. Top-level files
 * come with any sparse checkout in cone mode. extensions/ and external/ are imported by cocos/.
 */
export const ENGINE_FOLDERS = Object.freeze([
  '@types',
  'cocos',
  'editor',
  'exports',
  'extensions',
  'external',
  'pal',
  'platforms',
  'scripts',
  'templates/android',
  'tests',
]);

/**
 * Left out of the list: preparing rewrites both (the lock fix in prepare-engine.mjs), and
 * ../shared's copy already did. They are held instead to the fixed list, which has their hashes
 * after the lock fix: they decide what `npm ci` installs.
 */
export const FIXED_FILES = Object.freeze(['package.json', 'package-lock.json']);
const UNLISTED = new Set(FIXED_FILES);

const HERE = dirname(fileURLToPath(import.meta.url));
export const DEFAULT_FILE_LIST = join(HERE, `engine-${ENGINE_VERSION}.files`);
export const DEFAULT_FIXED_LIST = join(HERE, `engine-${ENGINE_VERSION}.fixed-files`);

function isListed(path) {
  if (UNLISTED.has(path)) return false;
  if (!path.includes('/')) return true;
  return ENGINE_FOLDERS.some((folder) => path.startsWith(`${folder}/`));
}

function walk(root, relative, found) {
  for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
    const path = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (path === '.git' || path === 'node_modules') continue;
      if (path.includes('/') || ENGINE_FOLDERS.some((folder) => folder === path || folder.startsWith(`${path}/`)))
        walk(root, path, found);
    } else if (isListed(path)) {
      found.push(path);
    }
  }
}

/** The listed files under `root`, as `/`-separated relative paths in code-unit order. */
export function listEngineFiles(root) {
  const found = [];
  walk(root, '', found);
  return found.sort(byCodeUnit);
}

function byCodeUnit(left, right) {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}

function formatEntries(root, paths) {
  return paths.map((path) => `${hashFile(join(root, path))}  ${path}\n`).join('');
}

/** The list's text: `sha256  path` per line (the format `sha256sum -c` reads), sorted by path. */
export function formatFileList(root) {
  return formatEntries(root, listEngineFiles(root));
}

/** The fixed list's text, in the same format: `root`'s package.json and package-lock.json, as they are (fix them first). */
export function formatFixedFileList(root) {
  return formatEntries(root, FIXED_FILES);
}

/** Parses a list written by formatFileList; throws on a malformed line. */
export function readFileList(listPath) {
  const entries = [];
  const lines = readFileSync(listPath, 'utf8').split('\n');
  lines.forEach((line, index) => {
    if (line === '') return;
    const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!match) throw new Error(`${listPath}:${index + 1} is not "sha256  path"`);
    entries.push({ hash: match[1], path: match[2] });
  });
  return entries;
}

/** Compares `root` with the list; returns the listed paths that are missing and those that differ. */
export function compareWithFileList({ root, listPath }) {
  const missing = [];
  const different = [];
  for (const { hash, path } of readFileList(listPath)) {
    const file = join(root, path);
    if (!existsSync(file)) missing.push(path);
    else if (hashFile(file) !== hash) different.push(path);
  }
  return { missing, different };
}
