/**
 * Adds (or removes) Gemini Nano support in a Cocos Creator 3.8 Android Gradle project.
 *
 * Two folders are involved: `root`, the generated Gradle project (`build/android/proj`,
 * copied once and then owned by the build), and `nativeDir`, the project-owned
 * `native/engine/android` that holds `app/`. Every edit is a marked block in a file
 * (see marked-blocks.ts), so applying is "remove our old blocks, then add the current ones":
 * re-applying changes nothing and turning the option off restores the files byte for byte.
 *
 * Everything is planned before anything is written: if one file lacks a line the patch
 * needs, the report says which file and which line, and no file is touched.
 *
 * Creator rewrites proj/gradle.properties from the build panel before EVERY build (SDK
 * levels, paths, application id). So there the hook reads the values as they are now, raises
 * only what is lower than the module needs, and never puts back a value it saw earlier: taking
 * its block out keeps the line as Creator (or the user) left it. Raising is the only change
 * it makes to a version or an SDK level anywhere.
 *
 * Each file's edits are planned in an `edit-*.ts` of their own, the module folder's in
 * module-folder.ts; this file only loads, sequences and writes.
 */
import * as fs from 'fs';
import * as path from 'path';
import { planAppDependency, planSdkLevel } from './edit-app-build';
import { planAppliedBuild, planRootBuild } from './edit-build-gradle';
import { planWrapper } from './edit-gradle-wrapper';
import { planManifest } from './edit-manifest';
import { planSettings } from './edit-settings-gradle';
import {
  ModuleWork,
  carryOutModuleWork,
  newModuleWork,
  noteInstantApp,
  planModuleAdd,
  planModuleRemoval,
} from './module-folder';
import { PatchConfig, readPatchConfig } from './patch-config';
import { PatchReport } from './patch-report';
import { PlannedFile, describeEdits, loadFile, renderFile, requireFile } from './planned-file';

export type { PatchReport, FileReport, NotDone } from './patch-report';
export { formatPatchReport } from './patch-report';

export interface AndroidProjectFiles {
  /** The Gradle project Creator builds (`<build>/android/proj`). */
  root: string;
  /** The project's native folder holding `app/` (`<project>/native/engine/android`). */
  nativeDir: string;
}

export interface NanoPatchOptions {
  enable: boolean;
  /** Path to the extension's `native-android/` library module. */
  moduleSource: string;
}

const ROOT_FILES = ['build.gradle', 'settings.gradle', 'gradle.properties', 'gradle/wrapper/gradle-wrapper.properties'];
/** `build.gradle` is the project's native/engine/android/build.gradle, applied by proj/build.gradle. */
const NATIVE_FILES = ['app/build.gradle', 'app/AndroidManifest.xml', 'build.gradle'];

/** The project's text files in ROOT_FILES then NATIVE_FILES order (the report's order too). */
function loadProjectFiles(projectFiles: AndroidProjectFiles): PlannedFile[] {
  return [
    ...ROOT_FILES.map((name) => loadFile(path.join(projectFiles.root, name), `proj/${name}`)),
    ...NATIVE_FILES.map((name) => loadFile(path.join(projectFiles.nativeDir, name), name)),
  ];
}

/** Every text file's edits for `config`, in the order their reports read best. */
function planFileEdits(files: readonly PlannedFile[], config: PatchConfig): void {
  const [rootBuild, settings, properties, wrapper, appBuild, manifest, appliedBuild] = files;
  planRootBuild(rootBuild, config);
  planSettings(settings, config);
  if (requireFile(appBuild, `add the module to the app`)) {
    planAppDependency(appBuild, config);
    planSdkLevel(appBuild, properties, {
      keyword: 'minSdk',
      propertyKey: 'PROP_MIN_SDK_VERSION',
      wanted: config.minSdk,
    });
    planSdkLevel(appBuild, properties, {
      keyword: 'compileSdk',
      propertyKey: 'PROP_COMPILE_SDK_VERSION',
      wanted: config.compileSdk,
    });
  }
  planWrapper(wrapper, config);
  planManifest(manifest, config);
  planAppliedBuild(appliedBuild, config);
}

/** Gemini Nano on: the module's settings, its copy, then every file's edits. */
function planEnable(
  projectFiles: AndroidProjectFiles,
  moduleSource: string,
  files: readonly PlannedFile[],
): ModuleWork {
  const work = newModuleWork(projectFiles.root);
  const configResult = readPatchConfig(moduleSource);
  if ('error' in configResult) {
    work.report.notDone.push({ what: 'read the module settings', reason: configResult.error, blocking: true });
    return work;
  }
  const config = configResult.config;
  planModuleAdd(work, { root: projectFiles.root, moduleSource, config });
  planFileEdits(files, config);
  noteInstantApp(projectFiles.nativeDir, work.report, config);
  return work;
}

export function applyNanoPatch(projectFiles: AndroidProjectFiles, options: NanoPatchOptions): PatchReport {
  const files = loadProjectFiles(projectFiles);
  // Off plans no edit: loading took our blocks out, so writing restores each file.
  const module = options.enable
    ? planEnable(projectFiles, options.moduleSource, files)
    : planModuleRemoval(projectFiles.root, options.moduleSource);

  for (const file of files) describeEdits(file);
  const reports = [...files.map((file) => file.report), module.report];
  const ok = !reports.some((report) => report.notDone.some((item) => item.blocking));
  const report: PatchReport = { enable: options.enable, ok, written: false, files: reports };
  if (!ok) return report;

  for (const file of files) {
    const next = renderFile(file);
    if (next === null || next === file.original) continue;
    fs.writeFileSync(file.report.file, next, 'utf8');
    file.report.written = true;
    report.written = true;
  }
  if (carryOutModuleWork(module)) report.written = true;
  return report;
}
