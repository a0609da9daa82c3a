/**
 * Runs the engine-resolution modules (scripts/engine/, ES modules) in a child Node with an
 * environment made from scratch, so the developer's own OAM_* variables and ~/.cache never
 * reach a test, and builds the throwaway trees and git repositories the tests point them at.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const REPO = join(__dirname, '..', '..');
const ENGINE_SCRIPTS = join(REPO, 'scripts', 'engine');

export interface Outcome<Result> {
  result?: Result;
  error?: { name: string; message: string };
  said: string[];
}

export interface Located {
  root: string;
  via: string;
}

const made: string[] = [];

/** A fresh folder under the system's temp folder, removed by removeTempDirs. */
export function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `oam-engine-${label}-`));
  made.push(dir);
  return dir;
}

/** Removes every folder tempDir made (each test file's afterAll). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes path → text under root. */
export function writeTree(root: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The child's environment: PATH, a temp HOME (its ~/.cache is the default cache), and `vars`. */
export function isolatedEnv(home: string, vars: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', ...vars };
}

/**
 * Calls `exported({ ...args, say })` from scripts/engine/<module> in a child Node with `env`, or
 * `exported(...args)` when args is a list.
 */
export function callEngineModule<Result>(call: {
  module: string;
  exported: string;
  env: NodeJS.ProcessEnv;
  args?: Record<string, unknown> | unknown[];
  /** Where the modules are; scripts/engine/ unless a test runs a copy (see copyEngineScripts). */
  scripts?: string;
}): Outcome<Result> {
  const program = `
    const [url, exported, json] = process.argv.slice(1);
    const said = [];
    const say = (line) => said.push(line);
    try {
      const args = JSON.parse(json);
      const method = (await import(url))[exported];
      const result = Array.isArray(args) ? method(...args) : method({ ...args, say });
      console.log(JSON.stringify({ result, said }));
    } catch (error) {
      console.log(JSON.stringify({ error: { name: error.name, message: error.message }, said }));
    }`;
  const href = pathToFileURL(join(call.scripts ?? ENGINE_SCRIPTS, call.module)).href;
  const child = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', program, href, call.exported, JSON.stringify(call.args ?? {})],
    { env: call.env, encoding: 'utf8' },
  );
  if (child.status !== 0) throw new Error(`the child Node failed (exit ${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout);
}

/** locateEngine({ say }) with `env`, from scripts/engine/ or from the copy in `scripts`. */
export function locate(env: NodeJS.ProcessEnv, scripts?: string): Outcome<Located> {
  return callEngineModule<Located>({ module: 'locate-engine.mjs', exported: 'locateEngine', env, scripts });
}

/**
 * Copies scripts/engine/ to <repo>/scripts/engine/ and returns that folder: modules that take
 * their defaults from where they are (../shared/cocos-engine beside <repo>) see what a test puts there.
 */
export function copyEngineScripts(repo: string): string {
  const scripts = join(repo, 'scripts', 'engine');
  cpSync(ENGINE_SCRIPTS, scripts, { recursive: true });
  return scripts;
}

/** The markers of a prepared tree, plus what makes it an engine tree: no 280 MB, only the names. */
export const PREPARED_TREE: Record<string, string> = {
  'package.json': '{ "name": "cocos-creator", "version": "3.8.5" }\n',
  'cocos/core/index.ts': 'export {};\n',
  'exports/base.ts': 'export {};\n',
  'tests/init.ts': 'export {};\n',
  'node_modules/jest/bin/jest.js': '',
  'node_modules/@cocos/ccbuild/package.json': '{}\n',
};

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

export function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...GIT_IDENTITY, GIT_CONFIG_NOSYSTEM: '1' },
  });
}

/** Commits everything in `work` and (re)tags it v3.8.5. */
export function commitAndTag(work: string, message: string): void {
  git(work, ['add', '-A']);
  git(work, ['commit', '-q', '-m', message]);
  git(work, ['tag', '-f', 'v3.8.5']);
}

/** A bare copy of `work`, for a file:// URL (a plain path would make git skip --depth and --filter). */
export function bareCopy(work: string, bare: string): string {
  git(dirname(bare), ['clone', '-q', '--bare', work, bare]);
  return pathToFileURL(bare).href;
}
