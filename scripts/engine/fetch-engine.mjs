// The engine fetched from GitHub: a shallow, sparse checkout of cocos/cocos-engine at v3.8.5
// with only the folders the tests and a web build read (about 25 MB instead of the whole
// repository), then held to the committed file list, and its package.json and package-lock.json,
// after the lock fix, to the fixed list. Preparing it is prepare-engine.mjs's job.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareWithFileList, ENGINE_FOLDERS } from './file-list.mjs';
import { fixLock } from './prepare-engine.mjs';
import { lastLine } from './util.mjs';

export const ENGINE_GIT_URL = 'https://github.com/cocos/cocos-engine.git';
// `--branch` takes a tag or a branch: in the GitHub mirror seen here, v3.8.5 is a branch.
export const ENGINE_REF = 'v3.8.5';
const REACH_TIMEOUT_MS = 10_000;
// Written into .git/ after a clone, so a cached checkout is only ever deleted when it is ours.
const OURS = 'oam-cocos-fetch';
// How many paths a refusal names.
const NAMED = 3;

/** A fetch that did not give a checked tree; `.message` is one line saying why. */
export class FetchError extends Error {
  constructor(message) {
    super(message);
    this.name = 'FetchError';
  }
}

/** The commands that fetch the engine into `dir`, as argument vectors for git. */
export function cloneCommands({ url, dir }) {
  return [
    [
      'clone',
      // Byte for byte what the list hashes, on Windows too.
      '--config',
      'core.autocrlf=false',
      '--depth',
      '1',
      '--branch',
      ENGINE_REF,
      '--filter=blob:none',
      '--sparse',
      url,
      dir,
    ],
    ['-C', dir, 'sparse-checkout', 'set', '--cone', ...ENGINE_FOLDERS],
  ];
}

function quote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The commands as one line a person can paste into a shell. */
export function formatCloneCommands({ url, dir }) {
  return cloneCommands({ url, dir })
    .map((args) => ['git', ...args].map(quote).join(' '))
    .join(' && ');
}

function git(args, options = {}) {
  return spawnSync('git', args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    // Never wait on a password prompt.
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    ...options,
  });
}

/** Why `url` cannot give v3.8.5 right now, or null when it can. */
function unreachable(url) {
  const probe = git(['ls-remote', '--exit-code', url, ENGINE_REF], { timeout: REACH_TIMEOUT_MS });
  if (probe.error?.code === 'ENOENT') return 'git is not installed';
  if (probe.error || probe.signal)
    return `git ls-remote ${url} ${ENGINE_REF} gave no answer within ${REACH_TIMEOUT_MS / 1000} s`;
  if (probe.status === 2) return `${url} has no ${ENGINE_REF}`;
  if (probe.status !== 0)
    return `git ls-remote ${url} ${ENGINE_REF} failed (${lastLine(probe.stderr) || `exit ${probe.status}`})`;
  return null;
}

function mismatch({ root, listPath }) {
  const { missing, different } = compareWithFileList({ root, listPath });
  const name = (kind, paths) =>
    paths.length === 0
      ? []
      : [`${paths.length} ${kind} (${paths.slice(0, NAMED).join(', ')}${paths.length > NAMED ? ', …' : ''})`];
  return [...name('missing', missing), ...name('different', different)].join(', ');
}

/**
 * Why the checkout `dir` is not the v3.8.5 the lists hold, or null when it is. When every listed
 * file matches, it applies the lock fix (a second time changes nothing) and checks package.json
 * and package-lock.json against the fixed list: they decide what `npm ci` installs.
 */
function treeProblem({ dir, listPath, fixedListPath }) {
  const listed = mismatch({ root: dir, listPath });
  if (listed) return `${dir} does not match ${listPath}: ${listed}`;
  try {
    if (existsSync(join(dir, 'package.json'))) fixLock(dir);
  } catch (error) {
    return `the lock fix failed on ${dir} (${error.message.split('\n')[0]})`;
  }
  const fixed = mismatch({ root: dir, listPath: fixedListPath });
  return fixed ? `${dir} does not match ${fixedListPath} after the lock fix: ${fixed}` : null;
}

function isEmptyOrAbsent(dir) {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

function markOurs({ dir, url }) {
  writeFileSync(join(dir, '.git', OURS), `${url} ${ENGINE_REF}\n`);
}

/**
 * Makes `dir` a checkout of the engine at v3.8.5 that matches the list at `listPath` (and, after
 * the lock fix, the fixed list at `fixedListPath`), cloning from `url` when `dir` has none, and
 * returns `dir`. A checkout made by hand (the commands an offline run prints) is taken when it
 * matches, and is then treated as one made here. A cached checkout made here that no longer
 * matches is fetched again; any other folder in the way is left alone. Offline, or when `url`
 * does not answer within 10 s, nothing is cloned and the error names the commands it would have
 * run. Throws FetchError (one line).
 */
export function fetchEngine({ dir, url, listPath, fixedListPath, offline, say }) {
  const lists = { dir, listPath, fixedListPath };
  let stale = null;
  if (existsSync(join(dir, '.git', OURS))) {
    stale = treeProblem(lists);
    if (!stale) return dir;
  } else if (!isEmptyOrAbsent(dir)) {
    const inTheWay = (what) =>
      new FetchError(`${dir} is in the way: ${what} (delete it, or point OAM_ENGINE_GIT_CACHE elsewhere)`);
    if (!existsSync(join(dir, '.git', 'HEAD'))) throw inTheWay('not empty and not a git checkout');
    const problem = treeProblem(lists);
    if (problem) throw inTheWay(`a checkout not made here, and ${problem}`);
    markOurs({ dir, url });
    say(`using the checkout ${dir}: not made here, but it matches the file lists`);
    return dir;
  }
  const why = offline ? 'offline (OAM_ENGINE_OFFLINE=1)' : unreachable(url);
  if (why && stale) throw new FetchError(`${stale}; not fetching it again: ${why}`);
  if (why) {
    say(`not fetching the engine: ${why}`);
    throw new FetchError(`${why}; to fetch it: ${formatCloneCommands({ url, dir })}`);
  }
  if (stale) {
    say(`${stale}: fetching it again`);
    rmSync(dir, { recursive: true, force: true });
  }
  say(`fetching the engine: ${formatCloneCommands({ url, dir })}`);
  for (const args of cloneCommands({ url, dir })) {
    const step = git(args);
    if (step.status !== 0) {
      // dir was empty or absent before: what is left is a part of a checkout.
      rmSync(dir, { recursive: true, force: true });
      const failure = step.error ? step.error.message : lastLine(step.stderr) || `exit ${step.status}`;
      const name = args[0] === 'clone' ? 'git clone' : 'git sparse-checkout set';
      throw new FetchError(`${name} failed (${failure})`);
    }
  }
  markOurs({ dir, url });
  const problem = treeProblem(lists);
  if (problem) throw new FetchError(`${problem}; refusing it`);
  return dir;
}
