// One asset bundle of a web build, laid out as the engine's asset manager reads it:
// config.json (the bundle's uuids and scenes), index.js (the bundle's script entry, which the
// downloader loads with the config), import/<2>/<uuid>.json and native/<2>/<uuid><ext>.
// Uuids stay uncompressed (`debug: true`), as in a debug build.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes `assets/<name>/` under `siteDir`. `assets`: Map uuid → { json, native? } (library-form.mjs);
 * `scenes`: { 'db://assets/x.scene': uuid }; `deps`: bundles to load first; `redirects`:
 * [{ uuid, bundle }] for assets of a dep that this bundle's assets use (config.ts `redirect`).
 */
export function writeBundle({ siteDir, name, assets, scenes = {}, deps = [], redirects = [] }) {
  const dir = join(siteDir, 'assets', name);
  const own = [...assets.keys()].sort();
  const uuids = [...own, ...redirects.map((entry) => entry.uuid).sort()];
  for (const uuid of own) {
    const { json, native } = assets.get(uuid);
    const folder = uuid.slice(0, 2);
    mkdirSync(join(dir, 'import', folder), { recursive: true });
    writeFileSync(join(dir, 'import', folder, `${uuid}.json`), JSON.stringify(json));
    if (native) {
      mkdirSync(join(dir, 'native', folder), { recursive: true });
      copyFileSync(native.file, join(dir, 'native', folder, `${uuid}${native.ext}`));
    }
  }
  const config = {
    importBase: 'import',
    nativeBase: 'native',
    name,
    deps,
    uuids,
    paths: {},
    scenes,
    packs: {},
    versions: { import: [], native: [] },
    redirect: redirects.flatMap((entry) => {
      const index = deps.indexOf(entry.bundle);
      if (index < 0) throw new Error(`bundle ${name} redirects ${entry.uuid} to ${entry.bundle}, which is not a dep`);
      return [entry.uuid, index];
    }),
    debug: true,
    types: [],
    extensionMap: {},
  };
  writeFileSync(join(dir, 'config.json'), `${JSON.stringify(config, null, 1)}\n`);
  // The project's scripts are reached through `virtual:///prerequisite-imports/<name>` in the
  // import map, so the bundle's own script has nothing to do.
  writeFileSync(join(dir, 'index.js'), `// bundle ${name}: its scripts load through the import map\n`);
  return { dir, count: own.length };
}
