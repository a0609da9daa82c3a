// The tavern as a web-mobile-shaped site: the engine v3.8.5 built for the web (build-engine.mjs),
// the sample's scripts packed by Creator's pipeline, the `internal` bundle (the engine's own
// effects, compiled here from their .effect sources, its built-in materials and the default UI
// images the scene uses) and the `main` bundle (the scene and the sample's assets). Only the
// engine build is cached; the rest takes a few seconds and is laid out anew each time.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { packSample } from '../creator/pack-sample.mjs';
import { locateEngine } from '../engine/locate-engine.mjs';
import { buildWebEngine } from './build-engine.mjs';
import { compileEngineEffects } from './effects/compile-effect.mjs';
import { ensureBuilt } from './ensure-built.mjs';
import { dependenciesOf, libraryForm } from './library-form.mjs';
import { indexMetas } from './meta-index.mjs';
import { projectDesignResolution, projectEngineFeatures } from './project-settings.mjs';
import { writeBundle } from './write-bundle.mjs';
import { writeSite } from './write-site.mjs';

const LAUNCH_SCENE = 'db://assets/scenes/tavern.scene';

/** The assets the engine needs for these features (cc.config.json `dependentAssets`), as a real build lists them. */
function builtinAssetsFor({ engineRoot, features }) {
  const config = JSON.parse(readFileSync(join(engineRoot, 'cc.config.json'), 'utf8'));
  const uuids = features.flatMap((feature) => (config.features[feature] || {}).dependentAssets || []);
  return [...new Set(uuids)];
}

/**
 * The built-in assets this site can carry: an effect the compiler here does not handle (effects/)
 * is left out with the materials drawn with it, and named, so nothing is left out silently.
 */
function carriedBuiltins({ uuids, engineIndex, effects }) {
  const carried = [];
  const leftOut = [];
  for (const uuid of uuids) {
    const entry = engineIndex.get(uuid);
    const effectUuid =
      entry && entry.importer === 'material'
        ? JSON.parse(readFileSync(entry.path, 'utf8'))._effectAsset?.__uuid__
        : entry && entry.importer === 'effect'
          ? uuid
          : null;
    if (effectUuid && !effects.has(effectUuid)) leftOut.push(entry ? entry.path.split('/').pop() : uuid);
    else carried.push(uuid);
  }
  return { carried, leftOut };
}

/**
 * Puts each asset reachable from `roots` into the bundle whose database holds it: `main` for the
 * project's (db://assets), `internal` for the engine's (db://internal). An unknown uuid is an error
 * naming who refers to it, as a real build would fail on a missing asset.
 */
function collectBundles({ roots, projectIndex, engineIndex, effects }) {
  const bundles = { main: new Map(), internal: new Map(), redirected: new Set() };
  const pending = roots.map((uuid) => ({ uuid, from: null }));
  while (pending.length > 0) {
    const { uuid, from } = pending.pop();
    const inProject = projectIndex.get(uuid);
    // The engine loads a dependency from its dependent's bundle unless that bundle redirects it.
    if (!inProject && from && from.inProject) bundles.redirected.add(uuid);
    if (bundles.main.has(uuid) || bundles.internal.has(uuid)) continue;
    const entry = inProject || engineIndex.get(uuid);
    if (!entry)
      throw new Error(
        `asset ${uuid} (named by ${from ? from.path : 'the build'}) is in neither the project nor the engine`,
      );
    const form = libraryForm(entry, { effects });
    (inProject ? bundles.main : bundles.internal).set(uuid, form);
    for (const next of dependenciesOf(form.json)) pending.push({ uuid: next, from: { path: entry.path, inProject } });
  }
  return bundles;
}

/**
 * Builds the site into `siteDir` and returns { siteDir, engineRoot, engineDir, timings }. `say` reports each
 * step; the engine tree comes from locateEngine (docs/engine.md). `change(project)` edits the
 * staged sample before it is packed; `workDir` defaults to build/web-play/work.
 */
export async function buildSite({ repo, siteDir, say, change, workDir = join(repo, 'build', 'web-play', 'work') }) {
  const timings = {};
  const timed = async (name, work) => {
    const started = Date.now();
    const result = await work();
    timings[name] = Date.now() - started;
    return result;
  };
  await timed('extension build', () => ensureBuilt({ repo, say }));
  const engine = await timed('locate engine', () => locateEngine({ say }));
  say('packing the sample with Creator’s pipeline (ModLo + QuickPack)…');
  const pack = await timed('pack', () => packSample({ repo, workDir, change }));
  say(`  ${pack.result.packed} scripts packed`);
  const features = projectEngineFeatures(pack.project);
  const webEngine = await timed('engine build', () => buildWebEngine({ engineRoot: engine.root, features, say }));

  say('compiling the engine’s effects and laying out the bundles…');
  const site = await timed('site', async () => {
    const compiled = compileEngineEffects({ engineRoot: engine.root });
    const effects = new Map(compiled.map(({ uuid, asset }) => [uuid, asset]));
    const engineIndex = indexMetas(join(engine.root, 'editor', 'assets'));
    const projectIndex = indexMetas(join(pack.project, 'assets'));
    const sceneEntry = [...projectIndex.values()].find((entry) => entry.path.endsWith(join('scenes', 'tavern.scene')));
    if (!sceneEntry) throw new Error(`${pack.project}: no assets/scenes/tavern.scene`);
    const builtins = carriedBuiltins({
      uuids: builtinAssetsFor({ engineRoot: engine.root, features }),
      engineIndex,
      effects,
    });
    if (builtins.leftOut.length > 0)
      say(`  left out (their effects are not compiled here): ${builtins.leftOut.join(', ')}`);
    const builtinAssets = builtins.carried;
    const bundles = collectBundles({ roots: [sceneEntry.uuid, ...builtinAssets], projectIndex, engineIndex, effects });
    if (existsSync(siteDir)) rmSync(siteDir, { recursive: true, force: true });
    writeBundle({ siteDir, name: 'internal', assets: bundles.internal });
    writeBundle({
      siteDir,
      name: 'main',
      assets: bundles.main,
      scenes: { [LAUNCH_SCENE]: sceneEntry.uuid },
      deps: ['internal'],
      redirects: [...bundles.redirected].map((uuid) => ({ uuid, bundle: 'internal' })),
    });
    writeSite({
      siteDir,
      pack,
      engine: webEngine,
      settings: {
        launchScene: LAUNCH_SCENE,
        builtinAssets,
        design: projectDesignResolution(pack.project),
        features,
      },
    });
    return { internal: bundles.internal.size, main: bundles.main.size, effects: compiled.length };
  });
  say(`  ${site.effects} effects compiled; internal bundle ${site.internal} assets, main ${site.main}`);
  return { siteDir, engineRoot: engine.root, engineDir: webEngine.dir, timings };
}
