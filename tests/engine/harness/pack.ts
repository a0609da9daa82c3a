/**
 * Loads the scripts exactly as Creator's pipeline packed them (scripts/test-engine.mjs runs
 * ModLo + QuickPack on the tavern sample with the extension installed): SystemJS, the loader
 * Creator's previews and builds use, reads QuickPack's chunks through its import map; the
 * engine feature units those chunks import are this engine's own exports, and 'cc/env' is the
 * engine's build constants as this harness sets them. Loading the prerequisite-imports module
 * runs every script once, as the editor does, so every class registers by name and uuid.
 */
import * as cc from 'cc';
import type * as Core from '../../../assets/runtime/oam-core.js';

const { readFileSync } = require('fs') as typeof import('fs');

export interface PackedScript {
  url: string;
  uuid: string;
  mount: string;
  /** The class id the annotate pass registers: the uuid compressed as a scene names scripts. */
  classId: string;
  /** File name without extension ("NPCComponent", "TavernGame"). */
  name: string;
}

export interface PackManifest {
  /** QuickPack's workspace: chunks/ and import-map.json. */
  workspace: string;
  repo: string;
  scripts: PackedScript[];
  prerequisiteImports: string;
  engineIndex: string;
  featureUnitPrefix: string;
  featureUnits: string[];
}

export interface LoadedPack {
  manifest: PackManifest;
  /** The runtime bundle's exports, as the components see them (the same classes). */
  core: typeof Core;
  /** The module namespace of a packed script, by file name. */
  script<T = Record<string, unknown>>(name: string): T;
}

const ENV_URL = 'cce:/internal/x/cc-env';
const MACRO_URL = 'cce:/internal/x/cc-userland-macro';

export function readManifest(): PackManifest {
  const dir = process.env.OAM_PACK_DIR;
  if (!dir) throw new Error('OAM_PACK_DIR is not set: run this suite with `node scripts/test-engine.mjs`.');
  return JSON.parse(readFileSync(`${dir}/pack.json`, 'utf8')) as PackManifest;
}

interface SystemLike {
  import(id: string): Promise<Record<string, unknown>>;
  set(id: string, ns: object): void;
}

/**
 * Build constants the packed scripts read from 'cc/env' instead of the harness's (a shipped
 * native build: `{ DEV: false, DEBUG: true, NATIVE: true }`). The engine itself keeps its own:
 * it runs headless here whatever the scripts are told.
 */
export type EnvOverrides = Partial<Record<'DEV' | 'DEBUG' | 'NATIVE' | 'PREVIEW' | 'EDITOR', boolean>>;

/** Loads every packed script once per test file (jest gives each file its own registry and globals). */
export async function loadPack(env: EnvOverrides = {}): Promise<LoadedPack> {
  const manifest = readManifest();
  const systemjs = require(`${manifest.repo}/node_modules/systemjs/dist/system-node.cjs`) as {
    System: SystemLike;
    applyImportMap(loader: SystemLike, map: object, baseUrl: string): void;
  };
  const { System } = systemjs;
  const importMap = JSON.parse(readFileSync(`${manifest.workspace}/import-map.json`, 'utf8')) as {
    imports: Record<string, string>;
  };
  importMap.imports['cc/env'] = ENV_URL;
  importMap.imports['cc/userland/macro'] = MACRO_URL;
  systemjs.applyImportMap(System, importMap, `file://${manifest.workspace}/`);
  // 'cc' (harness/cc-module.ts) is the engine's base, 2d and ui exports in one namespace: the first
  // unit carries all of them, the others add nothing the packed 'cc' module would not have.
  manifest.featureUnits.forEach((unit, index) =>
    System.set(`${manifest.featureUnitPrefix}${unit}`, index === 0 ? cc : {}),
  );
  System.set(ENV_URL, { ...(require('internal:constants') as object), ...env });
  System.set(MACRO_URL, {});

  await System.import(manifest.prerequisiteImports);
  const modules = new Map<string, Record<string, unknown>>();
  for (const script of manifest.scripts) modules.set(script.name, await System.import(script.url));
  const core = modules.get('oam-core');
  if (!core) throw new Error('the pack has no runtime bundle (assets/runtime/oam-core.js)');
  return {
    manifest,
    core: core as unknown as typeof Core,
    script<T>(name: string): T {
      const found = modules.get(name);
      if (!found) throw new Error(`no packed script named ${name}`);
      return found as unknown as T;
    },
  };
}
