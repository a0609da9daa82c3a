/**
 * Copies `native-android/` into the game's Gradle project as a library module. The copy is
 * planned first (nothing written), only differing files are rewritten, and a marker file
 * tells a later revert that the folder is ours to delete.
 */
import * as fs from 'fs';
import * as path from 'path';

export const MODULE_MARKER_FILE = '.oam-cocos';
export const MODULE_MARKER_TEXT =
  'Copied from native-android/ by the oam-cocos build hook on every build. Do not edit: changes are overwritten.\n';

export interface ModuleCopyPlan {
  destination: string;
  /** Relative paths (with '/') written, each with its new bytes. */
  writes: Array<{ relative: string; bytes: Buffer }>;
  /** Relative paths of stale files removed. */
  deletions: string[];
}

export type ModulePlanResult = { plan: ModuleCopyPlan } | { error: string };

export interface ModuleCopyOptions {
  exclude: readonly string[];
  /** Source file that becomes build.gradle in the copy, replacing the source's own. */
  moduleBuildFile: string | null;
}

function listFiles(root: string, exclude: ReadonlySet<string>, relative = ''): string[] {
  const out: string[] = [];
  const entries = fs.readdirSync(path.join(root, relative), { withFileTypes: true });
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  for (const entry of entries) {
    if (exclude.has(entry.name)) continue;
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(root, exclude, child));
    else if (entry.isFile()) out.push(child);
  }
  return out;
}

export function planModuleCopy(source: string, destination: string, options: ModuleCopyOptions): ModulePlanResult {
  if (!fs.existsSync(source) || !fs.statSync(source).isDirectory()) {
    return { error: `the module source folder ${source} does not exist` };
  }
  const wanted = new Map<string, Buffer>();
  for (const relative of listFiles(source, new Set(options.exclude))) {
    if (options.moduleBuildFile && (relative === options.moduleBuildFile || relative === 'build.gradle')) continue;
    wanted.set(relative, fs.readFileSync(path.join(source, relative)));
  }
  if (options.moduleBuildFile) {
    const buildFile = path.join(source, options.moduleBuildFile);
    if (!fs.existsSync(buildFile))
      return { error: `moduleBuildFile ${options.moduleBuildFile} is missing from ${source}` };
    wanted.set('build.gradle', fs.readFileSync(buildFile));
  }
  if (!wanted.has('build.gradle') && !wanted.has('build.gradle.kts')) {
    return { error: `${source} has no build.gradle: it is not a Gradle module` };
  }
  wanted.set(MODULE_MARKER_FILE, Buffer.from(MODULE_MARKER_TEXT, 'utf8'));

  const existing = new Set<string>();
  if (fs.existsSync(destination)) {
    if (!fs.existsSync(path.join(destination, MODULE_MARKER_FILE))) {
      return {
        error: `${destination} already exists and was not made by oam-cocos (no ${MODULE_MARKER_FILE} file); move it away or rename the module`,
      };
    }
    // Excluded names are left alone in the copy too: build/ holds Gradle's outputs for the module.
    for (const relative of listFiles(destination, new Set(options.exclude))) existing.add(relative);
  }

  const writes: ModuleCopyPlan['writes'] = [];
  for (const [relative, bytes] of wanted) {
    const target = path.join(destination, relative);
    if (existing.has(relative) && fs.readFileSync(target).equals(bytes)) continue;
    writes.push({ relative, bytes });
  }
  const deletions = [...existing].filter((relative) => !wanted.has(relative));
  return { plan: { destination, writes, deletions } };
}

export function executeModuleCopy(plan: ModuleCopyPlan): void {
  for (const relative of plan.deletions) fs.rmSync(path.join(plan.destination, relative), { force: true });
  for (const { relative, bytes } of plan.writes) {
    const target = path.join(plan.destination, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, bytes);
  }
}

/** Whether `folder` is a module copy made by the hook (safe to delete on revert). */
export function isOurModuleCopy(folder: string): boolean {
  return fs.existsSync(path.join(folder, MODULE_MARKER_FILE));
}
