#!/usr/bin/env node
/**
 * Fails when the source folders depend on each other in a circle, or when a layer reaches a
 * layer it must not (docs/design.md draws the picture). Imports are read with TypeScript's own
 * pre-processor, so `import type` counts too: a type cycle is still a cycle for a reader.
 *
 *   node scripts/check-layers.mjs          prints the folder graph, exits 1 on a problem
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

/** Which top-level layers each layer may import. Anything not listed is refused. */
const ALLOWED = {
  contract: [],
  core: ['contract'],
  models: ['contract'],
  game: ['contract', 'core'],
  // Models that answer from a script or from rules: tests, previews, the stand-in.
  scripted: ['contract', 'core', 'game'],
  bridge: ['contract', 'core', 'game', 'models', 'scripted'],
  // The two entry files, index.ts (games) and testing.ts.
  runtime: ['contract', 'core', 'game', 'models', 'scripted', 'bridge'],
};

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [base + '.ts', join(base, 'index.ts'), base]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** The folder a file belongs to, as `core/agent`; entry files at the top of src are `runtime`. */
function folderOf(file, sourceRoot) {
  const dir = relative(sourceRoot, dirname(file)).split('\\').join('/');
  return dir === '' ? 'runtime' : dir;
}

const layerOf = (folder) => folder.split('/')[0];

/** The folder graph of `sourceRoot` (default: this project's src) and what is wrong with it. */
export function readFolderGraph(sourceRoot = src) {
  const edges = new Map();
  const problems = [];
  for (const file of sourceFiles(sourceRoot)) {
    const from = folderOf(file, sourceRoot);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveImport(file, fileName);
      if (!target || !target.startsWith(sourceRoot + '/')) continue;
      const to = folderOf(target, sourceRoot);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const byTarget = edges.get(from);
      if (!byTarget.has(to)) byTarget.set(to, relative(sourceRoot, file));
      const allowed = ALLOWED[layerOf(from)];
      if (layerOf(from) !== layerOf(to) && !(allowed ?? []).includes(layerOf(to))) {
        problems.push(
          `${relative(sourceRoot, file)} imports ${fileName}: ${layerOf(from)} may not depend on ${layerOf(to)}`,
        );
      }
    }
  }
  return { edges, problems: [...problems, ...findCycles(edges)] };
}

function findCycles(edges) {
  const cycles = [];
  const state = new Map(); // folder → 'open' | 'done'
  const path = [];
  const visit = (folder) => {
    state.set(folder, 'open');
    path.push(folder);
    for (const next of edges.get(folder)?.keys() ?? []) {
      if (state.get(next) === 'open') {
        const loop = [...path.slice(path.indexOf(next)), next];
        const where = loop
          .slice(0, -1)
          .map((at, index) => `${at} → ${loop[index + 1]} (${edges.get(at).get(loop[index + 1])})`);
        cycles.push(`import cycle between folders: ${where.join(', ')}`);
      } else if (!state.has(next)) {
        visit(next);
      }
    }
    path.pop();
    state.set(folder, 'done');
  };
  for (const folder of [...edges.keys()].sort()) if (!state.has(folder)) visit(folder);
  return cycles;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { edges, problems } = readFolderGraph();
  for (const [from, targets] of [...edges].sort()) console.log(`${from} → ${[...targets.keys()].sort().join(', ')}`);
  if (problems.length > 0) {
    console.error(`\n${problems.length} layer problem(s):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log('\nlayers: no cycles between folders, every import allowed');
}
