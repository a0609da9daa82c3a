#!/usr/bin/env node
/**
 * Fails when the source folders or files depend on each other in a circle, when a layer reaches
 * a layer it must not (docs/design.md draws the picture), or when a file or function grows past
 * what one reads at once. Imports are read with TypeScript's own pre-processor, so `import type`
 * counts too: a type cycle is still a cycle for a reader. Function sizes are measured on
 * TypeScript's syntax tree.
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

/** Every source file's imports of other files under `sourceRoot`, as paths relative to it. */
function readFileEdges(sourceRoot) {
  const edges = new Map();
  for (const file of sourceFiles(sourceRoot)) {
    const from = relative(sourceRoot, file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Map();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveImport(file, fileName);
      if (!target || !target.startsWith(sourceRoot + '/')) continue;
      const to = relative(sourceRoot, target);
      if (to !== from && !targets.has(to)) targets.set(to, from);
    }
    edges.set(from, targets);
  }
  return edges;
}

/** Import cycles between single files of `sourceRoot`, each as the files in import order, the first again at the end. */
function fileCycles(sourceRoot) {
  const edges = readFileEdges(sourceRoot);
  const cycles = [];
  const state = new Map(); // file → 'open' | 'done'
  const path = [];
  const visit = (file) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of [...(edges.get(file)?.keys() ?? [])].sort()) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...edges.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

/** Import cycles between single files of `sourceRoot` (default: this project's src), one problem per cycle. */
export function readFileCycles(sourceRoot = src) {
  return fileCycles(sourceRoot).map((cycle) => `import cycle between files: ${cycle.join(' → ')}`);
}

/**
 * Today's cycles between files that are not ours to untangle in the change that added this
 * check, each as its files (sorted, space-separated). The check fails on any other cycle, and
 * on an entry whose cycle is gone (then remove it). Do not add entries.
 */
export const KNOWN_FILE_CYCLES = [];

/** File cycles in every measured folder (src, assets, extension, preview) against KNOWN_FILE_CYCLES. */
export function checkFileCycles(base = root, roots = CYCLE_ROOTS, known = KNOWN_FILE_CYCLES) {
  const problems = [];
  const seen = new Set();
  for (const folder of roots) {
    let cycles;
    try {
      cycles = fileCycles(join(base, folder));
    } catch {
      continue; // no such folder here
    }
    for (const cycle of cycles) {
      const files = cycle.map((file) => `${folder}/${file}`.split('\\').join('/'));
      const key = [...new Set(files)].sort().join(' ');
      seen.add(key);
      if (!known.includes(key)) problems.push(`import cycle between files: ${files.join(' → ')}`);
    }
  }
  for (const key of known) {
    if (!seen.has(key)) problems.push(`import cycle is gone: remove "${key}" from KNOWN_FILE_CYCLES`);
  }
  return problems;
}

// ---- the project's own folders ----------------------------------------------------------

/** The project's top-level code folders: none may import another in a circle (the bench builds on the demo, never back). */
const PROJECT_FOLDERS = ['src', 'assets', 'extension', 'preview', 'bench', 'demo', 'eval', 'scripts', 'tests'];

function projectFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name === 'artifacts' || name === 'runtime') return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return projectFiles(path);
    return /\.(ts|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Cycles between the project's top-level folders (src, bench, demo…), each with a file that makes each step. */
export function checkProjectFolders(base = root, folders = PROJECT_FOLDERS) {
  const edges = new Map();
  const topOf = (file) => relative(base, file).split(/[\\/]/)[0];
  for (const folder of folders) {
    let files;
    try {
      files = projectFiles(join(base, folder));
    } catch {
      continue; // no such folder here
    }
    for (const file of files) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      for (const { fileName } of importedFiles) {
        if (!fileName.startsWith('.')) continue;
        const target = resolveImport(file, fileName);
        if (!target || !target.startsWith(base + '/')) continue;
        const to = topOf(target);
        if (to === folder || !folders.includes(to)) continue;
        if (!edges.has(folder)) edges.set(folder, new Map());
        if (!edges.get(folder).has(to)) edges.get(folder).set(to, relative(base, file));
      }
    }
  }
  return findCycles(edges).map((problem) => problem.replace('between folders', 'between project folders'));
}

// ---- sizes ----------------------------------------------------------------------------------

/** The most lines a file, and a function, may have (docs/design.md, Conventions). */
export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 80;

/** The folders whose code is measured: everything that ships or that a designer opens. */
const SIZE_ROOTS = ['src', 'assets', 'extension', 'preview'];

/** The folders whose files may not import each other in a circle: the measured ones and the tools. */
const CYCLE_ROOTS = [...SIZE_ROOTS, 'bench', 'demo', 'eval'];

/** Generated or vendored code, not measured. */
const NOT_MEASURED = ['assets/runtime/', 'node_modules/', 'dist/', 'build/'];

/**
 * Today's files over MAX_FILE_LINES, each with its size when listed, until they are split
 * (issue 30). The list only shrinks: the check fails when a listed file grows past its listed
 * size, and when it is at or under the limit (then remove its entry). Do not add entries.
 */
export const OVERSIZE_FILES = {};

/**
 * Today's functions over MAX_FUNCTION_LINES, as `file name` (name: the enclosing class and
 * functions, dotted), with their size when listed. Shrinks like OVERSIZE_FILES.
 */
export const OVERSIZE_FUNCTIONS = {};

function measuredFiles(dir, base) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const rel = relative(base, path).split('\\').join('/');
    if (NOT_MEASURED.some((skip) => (rel + '/').startsWith(skip) || rel.includes('/' + skip))) return [];
    if (statSync(path).isDirectory()) return measuredFiles(path, base);
    return /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(name) && !/\.d\.[mc]?ts$/.test(name) ? [path] : [];
  });
}

const lineCount = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** The name a function is known by: its own, or what it is assigned to; `<anonymous>` otherwise. */
function ownName(node) {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name && (ts.isStringLiteral(node.name) || ts.isPrivateIdentifier(node.name))) return node.name.text;
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    parent.name &&
    (ts.isIdentifier(parent.name) || ts.isStringLiteral(parent.name))
  )
    return parent.name.text;
  if (parent && ts.isBinaryExpression(parent) && parent.right === node) return parent.left.getText();
  return '<anonymous>';
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

/** Every function of one file with its length in lines (from its first token to its last). */
export function measureFunctions(path, text) {
  const kind = /\.(js|mjs|cjs)$/.test(path)
    ? ts.ScriptKind.JS
    : path.endsWith('x')
      ? ts.ScriptKind.TSX
      : ts.ScriptKind.TS;
  const sourceFile = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const line = (position) => sourceFile.getLineAndCharacterOfPosition(position).line;
  const found = [];
  const walk = (node, scope) => {
    let inner = scope;
    if (isFunction(node) && node.body) {
      inner = [...scope, ownName(node)];
      found.push({ name: inner.join('.'), lines: line(node.getEnd()) - line(node.getStart(sourceFile)) + 1 });
    } else if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && node.name) {
      inner = [...scope, node.name.text];
    }
    ts.forEachChild(node, (child) => walk(child, inner));
  };
  walk(sourceFile, []);
  return found;
}

/** Sizes under `base` (default: the project) of the measured folders: files and functions over the limits. */
export function readSizes(base = root, roots = SIZE_ROOTS) {
  const files = {};
  const functions = {};
  for (const folder of roots) {
    let paths;
    try {
      paths = measuredFiles(join(base, folder), base);
    } catch {
      continue; // no such folder here
    }
    for (const path of paths) {
      const rel = relative(base, path).split('\\').join('/');
      const text = readFileSync(path, 'utf8');
      const lines = lineCount(text);
      if (lines > MAX_FILE_LINES) files[rel] = lines;
      for (const { name, lines: length } of measureFunctions(path, text)) {
        const key = `${rel} ${name}`;
        if (length > MAX_FUNCTION_LINES && length > (functions[key] ?? 0)) functions[key] = length;
      }
    }
  }
  return { files, functions };
}

/** What is wrong with the sizes against the allow-lists: new oversize code, growth, stale entries. */
export function checkSizes(sizes, allowed = { files: OVERSIZE_FILES, functions: OVERSIZE_FUNCTIONS }) {
  const problems = [];
  const compare = ({ what, limit, measured, listed }) => {
    for (const [key, size] of Object.entries(measured).sort()) {
      if (!(key in listed)) problems.push(`${what} over ${limit} lines: ${key} (${size})`);
      else if (size > listed[key])
        problems.push(`${what} grew past its allow-list size: ${key} (${size}, listed ${listed[key]})`);
    }
    for (const key of Object.keys(listed).sort()) {
      if (!(key in measured))
        problems.push(`${what} is no longer over ${limit} lines (or is gone): remove ${key} from the allow-list`);
    }
  };
  compare({ what: 'file', limit: MAX_FILE_LINES, measured: sizes.files, listed: allowed.files });
  compare({ what: 'function', limit: MAX_FUNCTION_LINES, measured: sizes.functions, listed: allowed.functions });
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--sizes') {
    // Prints today's oversize files and functions in the allow-lists' form.
    console.log(JSON.stringify(readSizes(), null, 2));
    process.exit(0);
  }
  const { edges, problems } = readFolderGraph();
  problems.push(...checkProjectFolders(), ...checkFileCycles(), ...checkSizes(readSizes()));
  for (const [from, targets] of [...edges].sort()) console.log(`${from} → ${[...targets.keys()].sort().join(', ')}`);
  if (problems.length > 0) {
    console.error(`\n${problems.length} layer problem(s):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(
    `\nlayers: no cycles between folders or files, every import allowed, ` +
      `no file over ${MAX_FILE_LINES} lines or function over ${MAX_FUNCTION_LINES} but the allow-listed`,
  );
}
