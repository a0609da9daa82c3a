// What a Creator 3.8 project's settings say about its engine build: the modules it includes
// (Project Settings → Feature Cropping, settings/v2/packages/engine.json) and its design
// resolution (settings/v2/packages/project.json). The web build reads them, so the engine that
// plays the sample here is the one a real Creator build of the sample would include.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function readSettings(projectRoot, name) {
  return JSON.parse(readFileSync(join(projectRoot, 'settings', 'v2', 'packages', `${name}.json`), 'utf8'));
}

/**
 * The engine modules of the project's active configuration. Refuses the custom render pipeline:
 * it needs effect data that only the editor's effect compiler writes (docs/web-play.md).
 */
export function projectEngineFeatures(projectRoot) {
  const modules = readSettings(projectRoot, 'engine').modules;
  const config = modules && modules.configs && modules.configs[modules.globalConfigKey];
  const features = config && config.includeModules;
  if (!Array.isArray(features) || features.length === 0)
    throw new Error(`${projectRoot}: settings/v2/packages/engine.json lists no includeModules`);
  if (!features.includes('legacy-pipeline') || features.includes('custom-pipeline'))
    throw new Error(
      `${projectRoot}: the web build plays the legacy render pipeline only; select it in Project Settings → Feature Cropping → Render Pipeline`,
    );
  return [...features].sort();
}

/** The design resolution and fit of the project (Project Settings → Project Data). */
export function projectDesignResolution(projectRoot) {
  const general = readSettings(projectRoot, 'project').general || {};
  const size = general.designResolution || { width: 1280, height: 720 };
  return { width: size.width, height: size.height, fitHeight: size.fitHeight !== false, fitWidth: !!size.fitWidth };
}
