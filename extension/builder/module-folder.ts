/**
 * The patch's work on the module folder in proj/: copying native-android/ in when Gemini Nano
 * is on, deleting our earlier copy when it is off. Planned with its report like the text files,
 * carried out after them, and only when the whole patch can be done.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ModuleCopyPlan, executeModuleCopy, isOurModuleCopy, planModuleCopy } from './module-copy';
import { PatchConfig, readPatchConfig } from './patch-config';
import { FileReport, newFileReport } from './patch-report';

export interface ModuleWork {
  report: FileReport;
  /** The copy to make (on), even when it changes nothing. */
  copy: ModuleCopyPlan | null;
  /** Our earlier copy, to delete (off). */
  remove: string | null;
}

/** Before the module settings are read, the folder goes by its default name. */
export function newModuleWork(root: string): ModuleWork {
  return { report: newFileReport(path.join(root, 'oam-nano') + path.sep, 'proj/oam-nano/'), copy: null, remove: null };
}

export function planModuleAdd(
  work: ModuleWork,
  copy: { root: string; moduleSource: string; config: PatchConfig },
): void {
  const { root, moduleSource, config } = copy;
  const { report } = work;
  const destination = path.join(root, config.moduleName);
  report.file = destination + path.sep;
  report.label = `proj/${config.moduleName}/`;
  const planned = planModuleCopy(moduleSource, destination, config);
  if ('error' in planned) {
    report.notDone.push({
      what: `copy native-android/ as the module :${config.moduleName}`,
      reason: planned.error,
      blocking: true,
    });
    return;
  }
  work.copy = planned.plan;
  const description = `copy of native-android/ (module :${config.moduleName})`;
  if (planned.plan.writes.length === 0 && planned.plan.deletions.length === 0) report.alreadyThere.push(description);
  else
    report.changed.push(
      `${description}: ${planned.plan.writes.length} file(s) written, ${planned.plan.deletions.length} removed`,
    );
}

export function planModuleRemoval(root: string, moduleSource: string): ModuleWork {
  const work = newModuleWork(root);
  const { report } = work;
  // Only folders carrying our marker are deleted; a user's own folder is left alone.
  const candidate = path.join(root, 'oam-nano');
  const configResult = fs.existsSync(moduleSource) ? readPatchConfig(moduleSource) : null;
  const folder = configResult && 'config' in configResult ? path.join(root, configResult.config.moduleName) : candidate;
  report.file = folder + path.sep;
  report.label = `proj/${path.basename(folder)}/`;
  if (!fs.existsSync(folder)) return work;
  if (isOurModuleCopy(folder)) {
    work.remove = folder;
    report.changed.push('removed the copied module folder');
  } else {
    report.notDone.push({
      what: 'remove the module folder',
      reason: 'it was not made by oam-cocos, so it is kept',
      blocking: false,
    });
  }
  return work;
}

/** The template's instant app module gets no Gemini Nano (docs/android.md); said in the report. */
export function noteInstantApp(nativeDir: string, report: FileReport, config: PatchConfig): void {
  if (!fs.existsSync(path.join(nativeDir, 'instantapp', 'build.gradle'))) return;
  report.notDone.push({
    what: `add :${config.moduleName} to the instant app (instantapp/)`,
    reason: 'by design: the instant app has no Gemini Nano; on it the bridge reports the module missing',
    blocking: false,
  });
}

/** Copies or deletes the folder as planned; says whether anything was written. */
export function carryOutModuleWork(work: ModuleWork): boolean {
  let written = false;
  const { copy } = work;
  if (copy && (copy.writes.length > 0 || copy.deletions.length > 0)) {
    executeModuleCopy(copy);
    written = true;
  }
  if (work.remove) {
    fs.rmSync(work.remove, { recursive: true, force: true });
    written = true;
  }
  if (written) work.report.written = true;
  return written;
}
