// The extension as `npm run play` installs it into the sample: its generated files (the runtime
// bundle from src/, the editor code from extension/) must exist and be newer than their sources,
// or a fresh clone fails and an edit to src/ would not show in the browser. Builds when needed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Each generated file and the source folders it is made from. */
const OUTPUTS = [
  { file: 'assets/runtime/oam-core.js', sources: ['src'] },
  { file: 'dist/main.js', sources: ['extension'] },
];

function newestIn(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestIn(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Why the build is needed ('' when it is not). */
export function staleOutputs(repo) {
  for (const { file, sources } of OUTPUTS) {
    const output = join(repo, file);
    if (!existsSync(output)) return `${file} is missing`;
    const built = statSync(output).mtimeMs;
    const changed = sources.find((source) => newestIn(join(repo, source)) > built);
    if (changed) return `${changed}/ changed since ${file} was built`;
  }
  return '';
}

/** Runs `npm run build` when a generated file is missing or older than its sources. */
export function ensureBuilt({ repo, say }) {
  const why = staleOutputs(repo);
  if (!why) return false;
  say(`building the extension first (${why}): npm run build…`);
  const run = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
  if (run.status !== 0) throw new Error(`npm run build failed (exit ${run.status})`);
  return true;
}
