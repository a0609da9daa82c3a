/**
 * Build hooks for the `android` and `google-play` platforms (named by index.ts). After Creator
 * has generated the Android project, add or remove Gemini Nano support according to the
 * build panel's checkbox. Runs in Creator's build worker.
 */
import * as path from 'path';
import { applyNanoPatch, formatPatchReport } from './android-patch';
import { resolveAndroidProject } from './project-paths';

export const PACKAGE_NAME = 'oam-cocos';
export const ENABLE_OPTION = 'enableNano';

/** A build that cannot add the bridge must not silently produce an APK without it. */
export const throwError = true;

/** The parts of Creator's build options and result the hook reads. */
export interface BuildOptionsLike {
  platform: string;
  packages?: Record<string, Record<string, unknown> | undefined>;
}
export interface BuildResultLike {
  dest: string;
}

export function isNanoEnabled(options: BuildOptionsLike): boolean {
  const value = options.packages?.[PACKAGE_NAME]?.[ENABLE_OPTION];
  return value === undefined ? true : value === true;
}

/** The extension's native-android/ folder: dist/builder/hooks.js → <extension>/native-android. */
export function defaultModuleSource(): string {
  return path.resolve(__dirname, '..', '..', 'native-android');
}

function editorProjectPath(): string | null {
  const editor = (globalThis as { Editor?: { Project?: { path?: unknown } } }).Editor;
  const projectPath = editor?.Project?.path;
  return typeof projectPath === 'string' ? projectPath : null;
}

export interface HookEnvironment {
  moduleSource: string;
  projectPath: string | null;
}

/** The hook's work, with its environment passed in so it can run outside Creator. */
export async function runNanoHook(
  options: BuildOptionsLike,
  result: BuildResultLike,
  environment: HookEnvironment,
): Promise<void> {
  if (options.platform !== 'android' && options.platform !== 'google-play') return;
  const enable = isNanoEnabled(options);
  const project = resolveAndroidProject(result.dest, options.platform, environment.projectPath);
  if (!project) {
    const message = `oam-cocos: cannot find the Android project under ${path.join(result.dest, 'proj')} and native/engine; Gemini Nano support was not ${enable ? 'added' : 'removed'}`;
    if (enable) throw new Error(message);
    console.warn(message);
    return;
  }
  const report = applyNanoPatch(project, { enable, moduleSource: environment.moduleSource });
  const summary = formatPatchReport(report);
  if (!report.ok) {
    if (enable) throw new Error(`${summary}\nTurn off the Gemini Nano option in the build panel to build without it.`);
    console.warn(summary);
    return;
  }
  console.log(summary);
}

export async function onAfterBuild(options: BuildOptionsLike, result: BuildResultLike): Promise<void> {
  await runNanoHook(options, result, { moduleSource: defaultModuleSource(), projectPath: editorProjectPath() });
}
