// The files of a web-mobile-shaped site around the bundles: the page (page/), the engine's
// cc.js, SystemJS, the chunks Creator's packer wrote and the import map over them, `cc/env`,
// and settings.json. Creator's system.bundle.js is replaced by upstream SystemJS 6 (the loader
// it is built from) with an import map, as in Creator's browser preview.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const PAGE = join(dirname(fileURLToPath(import.meta.url)), 'page');
const ENGINE_INDEX_URL = 'cce:/internal/x/cc';
const PREREQUISITE_IMPORTS_URL = 'cce:/internal/x/prerequisite-imports';
const COMPONENTS_ID = 'db://oam-cocos/index';

/** A SystemJS module whose exports are `values`. */
function registerModule(values) {
  return `System.register([], function (_export) {\n  return { execute: function () { _export(${JSON.stringify(values, null, 2)}); } };\n});\n`;
}

/**
 * The pack's import map with the site's own entries: `cc/env` and `cc/userland/macro` (externals
 * of Creator's packer), and each bundle's `virtual:///prerequisite-imports/<bundle>`, which the
 * engine imports when it loads a bundle (cocos/asset/asset-manager/factory.ts).
 */
function importMap(pack) {
  const map = JSON.parse(readFileSync(join(pack.workspace, 'import-map.json'), 'utf8'));
  const prerequisites = map.imports[PREREQUISITE_IMPORTS_URL];
  const components = map.imports[pack.componentsUrl];
  if (!prerequisites || !map.imports[ENGINE_INDEX_URL] || !components)
    throw new Error(
      `${pack.workspace}: the pack has no ${PREREQUISITE_IMPORTS_URL}, ${ENGINE_INDEX_URL} or db://oam-cocos/index`,
    );
  Object.assign(map.imports, {
    // The same chunk, so the same module instance, under the name a game's scripts use.
    [COMPONENTS_ID]: components,
    'cc/env': './cc-env.js',
    'cc/userland/macro': './cc-userland-macro.js',
    'virtual:///prerequisite-imports/main': prerequisites,
    'virtual:///prerequisite-imports/internal': './empty-module.js',
  });
  return map;
}

/** settings.json as a web-mobile build of Creator 3.8 writes it, for what this site holds. */
function settingsJson({ launchScene, builtinAssets, design, features }) {
  // Project Data's fit options → cc.ResolutionPolicy (cocos/ui/view.ts).
  const policy = design.fitWidth && design.fitHeight ? 2 : design.fitHeight ? 3 : design.fitWidth ? 4 : 1;
  return {
    CocosEngine: '3.8.5',
    engine: {
      debug: true,
      macros: {},
      customLayers: [],
      sortingLayers: [],
      platform: 'web-mobile',
      engineModules: features,
      builtinAssets,
    },
    rendering: { renderPipeline: '', customPipeline: false },
    assets: {
      server: '',
      remoteBundles: [],
      bundleVers: {},
      preloadBundles: [{ bundle: 'main' }],
      importBase: 'import',
      nativeBase: 'native',
      subpackages: [],
      preloadAssets: [],
      projectBundles: ['internal', 'main'],
    },
    plugins: { jsList: [] },
    scripting: {},
    launch: { launchScene },
    screen: {
      exactFitScreen: true,
      designResolution: { width: design.width, height: design.height, policy },
    },
    splashScreen: { totalTime: 0 },
    animation: { customJointTextureLayouts: [] },
    profiling: { showFPS: false },
  };
}

/**
 * Writes everything but the bundles into `siteDir`. `pack`: { workspace, componentsUrl }
 * (pack-sample.mjs); `engine`: { engineJs, env } (build-engine.mjs).
 */
export function writeSite({ siteDir, pack, engine, settings }) {
  const src = join(siteDir, 'src');
  mkdirSync(join(siteDir, 'cocos-js'), { recursive: true });
  mkdirSync(src, { recursive: true });
  cpSync(PAGE, siteDir, { recursive: true });
  cpSync(engine.engineJs, join(siteDir, 'cocos-js', 'cc.js'));
  cpSync(require.resolve('systemjs/dist/system.js'), join(src, 'system.js'));
  cpSync(join(pack.workspace, 'chunks'), join(src, 'chunks'), { recursive: true });
  writeFileSync(join(src, 'import-map.json'), `${JSON.stringify(importMap(pack), null, 1)}\n`);
  writeFileSync(join(src, 'cc-env.js'), registerModule(engine.env));
  writeFileSync(join(src, 'cc-userland-macro.js'), registerModule({}));
  writeFileSync(join(src, 'empty-module.js'), registerModule({}));
  writeFileSync(join(src, 'settings.json'), `${JSON.stringify(settingsJson(settings), null, 2)}\n`);
  writeFileSync(join(siteDir, 'play-options.json'), `${JSON.stringify({ componentsModule: COMPONENTS_ID })}\n`);
}
