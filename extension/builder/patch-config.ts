/**
 * What the Android patch needs, with defaults that fit ML Kit GenAI Prompt, optionally
 * overridden by `native-android/oam-patch.json`. The native module owns that file, so it can
 * ask for manifest entries or other versions without a change to the hook.
 */
import * as fs from 'fs';
import * as path from 'path';

export const PATCH_CONFIG_FILE = 'oam-patch.json';

export interface ManifestAdditions {
  /** XML lines added inside `<application>`, before its closing tag. */
  application: string[];
  /** XML lines added inside `<manifest>`, before its closing tag. */
  manifest: string[];
}

export interface PatchConfig {
  /** Folder and Gradle project name of the copied library module. */
  moduleName: string;
  /** ML Kit GenAI Prompt needs API 26. */
  minSdk: number;
  /** The ML Kit artifacts are built against API 35. */
  compileSdk: number;
  /**
   * The genai-prompt classes carry Kotlin metadata 2.3, and Creator's release builds minify
   * with the R8 that AGP bundles: Google's table (developer.android.com/build/kotlin-support)
   * needs R8 8.13.19 for Kotlin 2.3, which AGP 8.13.2 bundles (AGP 8.13.2 release notes). AGP
   * 8.13 needs Gradle 8.13, JDK 17 (the same JDK AGP 8.0.2 of the template needs) and Build
   * Tools 35.0.0, and compiles up to API 36. (AGP 8.0.2 also fails on compileSdk 35.)
   */
  androidGradlePlugin: string;
  /** The Gradle wrapper AGP 8.13 requires at least. */
  gradle: string;
  /** Kotlin Gradle plugin 2.3 (reads Kotlin 2.3 metadata; supports AGP 8.2.2-8.13). */
  kotlin: string;
  /** Names (files or folders, at any depth) left out when the module is copied. */
  exclude: string[];
  /** A file of the module used as its build.gradle inside the game's Gradle project. */
  moduleBuildFile: string | null;
  manifest: ManifestAdditions;
}

export const DEFAULT_PATCH_CONFIG: PatchConfig = {
  moduleName: 'oam-nano',
  minSdk: 26,
  compileSdk: 35,
  androidGradlePlugin: '8.13.2',
  gradle: '8.13',
  kotlin: '2.3.0',
  exclude: [
    'build',
    '.gradle',
    '.idea',
    '.kotlin',
    'local.properties',
    'settings.gradle',
    'settings.gradle.kts',
    'gradlew',
    'gradlew.bat',
    'gradle',
    PATCH_CONFIG_FILE,
  ],
  moduleBuildFile: null,
  manifest: { application: [], manifest: [] },
};

export type ConfigResult = { config: PatchConfig } | { error: string };

/** Reads the optional oam-patch.json of the module source; a bad file is an error, never ignored. */
export function readPatchConfig(moduleSource: string): ConfigResult {
  const file = path.join(moduleSource, PATCH_CONFIG_FILE);
  if (!fs.existsSync(file)) return { config: DEFAULT_PATCH_CONFIG };
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    return { error: `${PATCH_CONFIG_FILE} is not valid JSON (${(error as Error).message})` };
  }
  return parsePatchConfig(raw);
}

export function parsePatchConfig(raw: unknown): ConfigResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { error: `${PATCH_CONFIG_FILE} must hold a JSON object` };
  }
  const input = raw as Record<string, unknown>;
  const config: PatchConfig = {
    ...DEFAULT_PATCH_CONFIG,
    exclude: [...DEFAULT_PATCH_CONFIG.exclude],
    manifest: { application: [], manifest: [] },
  };
  const problems: string[] = [];

  const text = (key: 'moduleName' | 'androidGradlePlugin' | 'gradle' | 'kotlin', pattern: RegExp): void => {
    const value = input[key];
    if (value === undefined) return;
    if (typeof value === 'string' && pattern.test(value)) config[key] = value;
    else problems.push(`"${key}" must be a string matching ${pattern}`);
  };
  const sdk = (key: 'minSdk' | 'compileSdk'): void => {
    const value = input[key];
    if (value === undefined) return;
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) config[key] = value;
    else problems.push(`"${key}" must be a positive integer`);
  };
  const lines = (value: unknown, where: string): string[] => {
    if (value === undefined) return [];
    if (Array.isArray(value) && value.every((item) => typeof item === 'string' && !item.includes('\n'))) {
      return value as string[];
    }
    problems.push(`"${where}" must be an array of single-line strings`);
    return [];
  };

  text('moduleName', /^[A-Za-z0-9_-]+$/);
  text('androidGradlePlugin', /^\d+(\.\d+)+$/);
  text('gradle', /^\d+(\.\d+)+$/);
  text('kotlin', /^\d+(\.\d+)+$/);
  sdk('minSdk');
  sdk('compileSdk');
  config.exclude.push(...lines(input.exclude, 'exclude'));
  if (input.moduleBuildFile !== undefined) {
    const value = input.moduleBuildFile;
    if (typeof value === 'string' && value.length > 0 && !value.includes('..')) config.moduleBuildFile = value;
    else problems.push('"moduleBuildFile" must be a relative file name inside the module');
  }
  if (input.manifest !== undefined) {
    const manifest = input.manifest;
    if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
      problems.push('"manifest" must be an object with "application" and/or "manifest" line arrays');
    } else {
      const entries = manifest as Record<string, unknown>;
      config.manifest.application = lines(entries.application, 'manifest.application');
      config.manifest.manifest = lines(entries.manifest, 'manifest.manifest');
      const unknown = Object.keys(entries).filter((key) => key !== 'application' && key !== 'manifest');
      if (unknown.length > 0) problems.push(`"manifest" has unknown keys: ${unknown.join(', ')}`);
    }
  }
  if (problems.length > 0) return { error: `${PATCH_CONFIG_FILE}: ${problems.join('; ')}` };
  return { config };
}
