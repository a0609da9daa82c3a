// Compiles and packs a Cocos Creator project's scripts with Creator's own script pipeline
// (@cocos/creator-programming-mod-lo + -quick-pack, the versions Creator 3.8.x ships), set up
// the way the editor's PackerDriver sets them up: one asset-db mount per root (db://assets/, and
// db://<extension>/ for each installed extension) in the import map and the asset prefixes,
// every script's uuid from its .meta (its class id becomes the compressed uuid), the 'cc' module
// as a memory module over external feature units, externals cc/env and cc/userland/macro,
// checkObsolete, the circular-reference ("cr") reporter, and the project's script settings.
// Node only: used by scripts/creator/check.mjs and the real-engine test runner.
import { createRequire } from 'node:module';
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { pathToFileURL, URL } from 'node:url';
import { compressUuid } from '../../samples/tavern/tools/uuid.mjs';

const require = createRequire(import.meta.url);
const { ModLo } = require('@cocos/creator-programming-mod-lo');
const { QuickPack } = require('@cocos/creator-programming-quick-pack/lib/quick-pack');

/** Module ids the editor uses (cocos-editor lib-programming, PackerDriver). */
export const ENGINE_INDEX_URL = 'cce:/internal/x/cc';
export const PREREQUISITE_IMPORTS_URL = 'cce:/internal/x/prerequisite-imports';
export const FEATURE_UNIT_PREFIX = 'cce:/internal/x/cc-fu/';
export const CR_REPORTER = 'cce:/internal/code-quality/cr.mjs';

/** The engine feature units the tests load: 'cc' re-exports them, as the editor's index module does. */
export const FEATURE_UNITS = ['base', '2d', 'ui'];

/**
 * The project settings (Project Settings → Scripting) a user can switch. Unset in a project's
 * settings file means off; check.mjs compiles under each one switched on as well.
 */
export const DEFAULT_SETTINGS = Object.freeze({
  useDefineForClassFields: false,
  allowDeclareFields: false,
  loose: false,
  guessCommonJsExports: false,
  preserveSymlinks: false,
});

/**
 * The editor's two pack targets: `preview` (browser previews, "supports es6-module") and
 * `editor` (what the scene and Inspector run in the editor: its Electron, and a prerequisite
 * module that imports each script on its own so one failing script does not stop the others).
 */
export const TARGETS = {
  preview: { browsers: 'supports es6-module', tentative: false },
  editor: { browsers: 'Electron 5.0.8', tentative: true },
};

/**
 * The scripts of one asset-db mount: every .ts/.js file with a .meta whose importer is
 * typescript or javascript (plugin scripts are not modules and are skipped, as the editor does).
 * `physical` is the mount folder as the asset-db sees it (a symlinked folder stays as given).
 * A script without a .meta is listed in `missingMeta`: Creator would give it a new uuid, and a
 * scene that names its class by the committed one would lose the component.
 */
export function listScripts(physical, missingMeta = []) {
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|js)$/.test(name) && !name.endsWith('.d.ts') && !existsSync(`${path}.meta`))
        missingMeta.push(path);
      else if (/\.(ts|js)$/.test(name) && !name.endsWith('.d.ts')) {
        const meta = JSON.parse(readFileSync(`${path}.meta`, 'utf8'));
        if (meta.importer !== 'typescript' && meta.importer !== 'javascript') continue;
        if (meta.userData && meta.userData.isPlugin) continue;
        found.push({ path, url: pathToFileURL(path).href, uuid: meta.uuid });
      }
    }
  };
  walk(physical);
  return found;
}

/** What the editor's ModLo logger receives; errors and warnings are kept for the report. */
function collectingLogger() {
  const log = { errors: [], warnings: [] };
  return {
    log,
    logger: {
      debug() {},
      info() {},
      warn(message) {
        log.warnings.push(String(message));
      },
      error(message) {
        log.errors.push(String(message));
      },
    },
  };
}

/**
 * Babel's class-feature plugins print one "loose" notice per file to the console under
 * `loose: true` (Creator's console shows the same); they say nothing about our code.
 */
async function withoutBabelLooseNotices(run) {
  const original = console.warn;
  console.warn = (...args) => {
    if (typeof args[0] === 'string' && args[0].includes('"loose: true" option')) return;
    original(...args);
  };
  try {
    return await run();
  } finally {
    console.warn = original;
  }
}

/**
 * Compiles and packs every script of the given mounts into `workspace` (QuickPack's chunk
 * folder with its import-map.json). `mounts`: [{ root: 'db://assets/', physical: '/…/assets' }].
 * Returns the scripts, the chunk count, ModLo's errors and warnings, and the thrown error, if any.
 */
export async function packProject({ projectRoot, mounts, workspace, settings = {}, target = 'preview' }) {
  const options = { ...DEFAULT_SETTINGS, ...settings };
  const packTarget = TARGETS[target];
  const { log, logger } = collectingLogger();
  const modLo = new ModLo({
    targets: packTarget.browsers,
    loose: options.loose,
    useDefineForClassFields: options.useDefineForClassFields,
    allowDeclareFields: options.allowDeclareFields,
    guessCommonJsExports: options.guessCommonJsExports,
    cr: { moduleRequestFilter: [/^cc\.?.*$/g], reporter: { moduleName: CR_REPORTER, functionName: 'report' } },
    _compressUUID: (uuid) => compressUuid(uuid, 5),
    logger,
    checkObsolete: true,
    preserveSymlinks: options.preserveSymlinks,
  });
  const featureUnits = FEATURE_UNITS.map((unit) => `${FEATURE_UNIT_PREFIX}${unit}`);
  modLo.setExternals(['cc/env', 'cc/userland/macro', ...featureUnits]);
  // The editor loads its cr reporter from its install folder; ours records what it reports.
  modLo.addMemoryModule(
    CR_REPORTER,
    'export const reports = [];\nexport function report(...args) { reports.push(args); }\n',
  );
  modLo.addMemoryModule(
    ENGINE_INDEX_URL,
    featureUnits.map((unit) => `export * from ${JSON.stringify(unit)};`).join('\n'),
  );

  const imports = { cc: ENGINE_INDEX_URL };
  const assetPrefixes = [];
  const scripts = [];
  const missingMeta = [];
  for (const mount of mounts) {
    const dirUrl = pathToFileURL(join(mount.physical, sep)).href;
    imports[mount.root] = dirUrl;
    assetPrefixes.push(dirUrl);
    for (const script of listScripts(mount.physical, missingMeta)) {
      modLo.setUUID(script.url, script.uuid);
      scripts.push({ ...script, mount: mount.root });
    }
  }
  modLo.setImportMap({ imports }, new URL('foo:/bar'));
  modLo.setAssetPrefixes(assetPrefixes);
  const urls = scripts.map((script) => script.url).sort();
  const prerequisites = packTarget.tentative
    ? `await (async () => {\n  for (const load of [${urls.map((url) => `() => import(${JSON.stringify(url)})`).join(', ')}]) {\n    try { await load(); } catch (_error) { /* the executor reports it */ }\n  }\n})();\n`
    : `${urls.map((url) => `import ${JSON.stringify(url)};`).join('\n')}\nexport { };\n`;
  modLo.addMemoryModule(PREREQUISITE_IMPORTS_URL, prerequisites);

  const quickPack = new QuickPack({ modLo, origin: projectRoot, workspace, logger, verbose: false });
  let thrown = null;
  let depsGraph = {};
  await withoutBabelLooseNotices(async () => {
    try {
      await quickPack.loadCache();
      // The reporter is an entry too, so a test can load it and read what it recorded.
      ({ depsGraph } = await quickPack.build([ENGINE_INDEX_URL, PREREQUISITE_IMPORTS_URL, CR_REPORTER, ...urls], {
        retryResolutionOnUnchangedModule: true,
        cleanResolution: true,
      }));
    } catch (error) {
      thrown = error;
    }
  });
  const importMapPath = join(workspace, 'import-map.json');
  const packed = existsSync(importMapPath)
    ? Object.keys(JSON.parse(readFileSync(importMapPath, 'utf8')).imports || {})
    : [];
  const chunksOfScripts = scripts.filter(
    (script) => packed.includes(script.url) || packed.includes(pathToFileURL(safeRealpath(script.path)).href),
  );
  return {
    settings: options,
    target,
    scripts,
    packed: chunksOfScripts.length,
    depsGraph,
    importMapPath,
    errors: log.errors
      .concat(
        missingMeta.map(
          (path) =>
            `${path} has no .meta: commit one with a fixed uuid (Creator would make a new uuid on every fresh checkout).`,
        ),
      )
      .concat(thrown ? [String(thrown && thrown.stack ? thrown.stack : thrown)] : []),
    warnings: log.warnings,
  };
}

function safeRealpath(path) {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
