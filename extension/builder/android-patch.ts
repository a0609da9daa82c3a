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
 */
import * as fs from 'fs';
import * as path from 'path';
import {
  LineEdit,
  applyEdits,
  bodyOf,
  commentStyleFor,
  containsBlock,
  indentOf,
  joinLines,
  lineEndingSuffix,
  renderBlock,
  splitLines,
  stripBlocks,
  CommentStyle,
} from './marked-blocks';
import { ModuleCopyPlan, executeModuleCopy, isOurModuleCopy, planModuleCopy } from './module-copy';
import { PatchConfig, readPatchConfig } from './patch-config';
import { FileReport, PatchReport, newFileReport } from './patch-report';
import { isOlder, parseVersion } from './versions';

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

/** One text file of the Android project, as planned. */
interface PlannedFile {
  report: FileReport;
  style: CommentStyle;
  /** Text on disk, or null when the file does not exist. */
  original: string | null;
  /** The file's lines with every oam-cocos block taken out. */
  lines: string[];
  /** For files Creator rewrites: live line index → the line our earlier block had replaced. */
  saved: Map<number, string>;
  edits: LineEdit[];
}

const ROOT_FILES = ['build.gradle', 'settings.gradle', 'gradle.properties', 'gradle/wrapper/gradle-wrapper.properties'];
/** `build.gradle` is the project's native/engine/android/build.gradle, applied by proj/build.gradle. */
const NATIVE_FILES = ['app/build.gradle', 'app/AndroidManifest.xml', 'build.gradle'];
/** Files Creator rewrites before every build: their live values win over what a block saved. */
const REWRITTEN_BY_CREATOR = new Set(['proj/gradle.properties']);

function loadFile(absolute: string, label: string): PlannedFile {
  const report = newFileReport(absolute, label);
  const style = commentStyleFor(absolute);
  if (!fs.existsSync(absolute)) return { report, style, original: null, lines: [], edits: [], saved: new Map() };
  const original = fs.readFileSync(absolute, 'utf8');
  const stripped = stripBlocks(splitLines(original), { keepLiveReplacements: REWRITTEN_BY_CREATOR.has(label) });
  if (stripped.error) {
    report.notDone.push({
      what: 'read the oam-cocos blocks',
      reason: `${stripped.error}; fix the markers by hand`,
      blocking: true,
    });
    return { report, style, original, lines: [], edits: [], saved: new Map() };
  }
  return { report, style, original, lines: stripped.lines, edits: [], saved: stripped.saved };
}

function usable(file: PlannedFile): boolean {
  return file.original !== null && !file.report.notDone.some((item) => item.blocking);
}

function requireFile(file: PlannedFile, why: string): boolean {
  if (file.original === null) {
    file.report.notDone.push({ what: why, reason: 'the file does not exist', blocking: true });
    return false;
  }
  return usable(file);
}

function findLine(lines: readonly string[], pattern: RegExp): { index: number; match: RegExpExecArray } | null {
  for (let index = 0; index < lines.length; index++) {
    const match = pattern.exec(bodyOf(lines[index]));
    if (match) return { index, match };
  }
  return null;
}

function missingAnchor(file: PlannedFile, what: string, anchor: string): void {
  file.report.notDone.push({ what, reason: `no line matching ${anchor} was found`, blocking: true });
}

function replaceLine(file: PlannedFile, edit: { at: number; newBody: string; description: string }): void {
  const { at, newBody, description } = edit;
  const indent = indentOf(bodyOf(file.lines[at]));
  file.edits.push({ at, kind: 'replace', content: [newBody], indent, description });
}

// --- root build.gradle: Android Gradle Plugin and Kotlin classpath -------------------------

const AGP_LINE = /^(\s*)classpath\s*\(?\s*(['"])com\.android\.tools\.build:gradle:([^'"]*)\2\s*\)?\s*$/;
const KOTLIN_PLUGIN = /org\.jetbrains\.kotlin:kotlin-gradle-plugin(?::([^'"\s)]*))?/;

function planRootBuild(file: PlannedFile, config: PatchConfig): void {
  if (!requireFile(file, 'raise the Android Gradle Plugin and add the Kotlin plugin')) return;
  const agp = findLine(file.lines, AGP_LINE);
  if (!agp) {
    missingAnchor(
      file,
      'raise the Android Gradle Plugin and add the Kotlin plugin',
      "`classpath 'com.android.tools.build:gradle:<version>'`",
    );
    return;
  }
  const quote = agp.match[2];
  const current = agp.match[3];
  const older = isOlder(current, config.androidGradlePlugin);
  const parsed = parseVersion(current);
  if (older === null || !parsed) {
    file.report.notDone.push({
      what: `raise the Android Gradle Plugin to ${config.androidGradlePlugin}`,
      reason: `its version "${current}" is not a plain version; make sure it is at least ${config.androidGradlePlugin}`,
      blocking: false,
    });
  } else if (parsed.parts[0] < 8) {
    file.report.notDone.push({
      what: `raise the Android Gradle Plugin to ${config.androidGradlePlugin}`,
      reason: `AGP ${current} is older than 8.0 (a Creator 3.8 project has 8.0.2); moving to 8.x needs a manual migration`,
      blocking: true,
    });
  } else if (older) {
    const body = bodyOf(file.lines[agp.index]);
    const newBody = body
      .slice(indentOf(body).length)
      .replace(`:gradle:${current}`, `:gradle:${config.androidGradlePlugin}`);
    replaceLine(file, {
      at: agp.index,
      newBody,
      description: `Android Gradle Plugin ${current} → ${config.androidGradlePlugin} (its R8 reads the Kotlin 2.3 metadata of ML Kit; compileSdk ${config.compileSdk})`,
    });
  } else {
    file.report.alreadyThere.push(`Android Gradle Plugin ${current} (at least ${config.androidGradlePlugin})`);
  }

  const kotlin = findLine(file.lines, KOTLIN_PLUGIN);
  if (!kotlin) {
    file.edits.push({
      at: agp.index,
      kind: 'insertAfter',
      content: [`classpath ${quote}org.jetbrains.kotlin:kotlin-gradle-plugin:${config.kotlin}${quote}`],
      indent: indentOf(bodyOf(file.lines[agp.index])),
      description: `Kotlin Gradle plugin ${config.kotlin} on the buildscript classpath`,
    });
    return;
  }
  const kotlinVersion = kotlin.match[1] ?? '';
  const kotlinOlder = isOlder(kotlinVersion, config.kotlin);
  if (kotlinOlder === null) {
    file.report.notDone.push({
      what: `use Kotlin Gradle plugin ${config.kotlin}`,
      reason: `its version "${kotlinVersion}" is not a plain version; make sure it is at least ${config.kotlin}`,
      blocking: false,
    });
  } else if (kotlinOlder) {
    const body = bodyOf(file.lines[kotlin.index]);
    const newBody = body
      .slice(indentOf(body).length)
      .replace(`kotlin-gradle-plugin:${kotlinVersion}`, `kotlin-gradle-plugin:${config.kotlin}`);
    replaceLine(file, {
      at: kotlin.index,
      newBody,
      description: `Kotlin Gradle plugin ${kotlinVersion} → ${config.kotlin}`,
    });
  } else {
    file.report.alreadyThere.push(`Kotlin Gradle plugin ${kotlinVersion} (at least ${config.kotlin})`);
  }
}

/**
 * native/engine/android/build.gradle (applied from proj/build.gradle) has a buildscript block
 * of its own with the template's AGP: raised to the same version, so one AGP is resolved.
 * A project without that file or that line needs nothing here.
 */
function planAppliedBuild(file: PlannedFile, config: PatchConfig): void {
  if (!usable(file)) return;
  const agp = findLine(file.lines, AGP_LINE);
  if (!agp) return;
  const current = agp.match[3];
  const older = isOlder(current, config.androidGradlePlugin);
  if (older === null) {
    file.report.notDone.push({
      what: `raise its Android Gradle Plugin to ${config.androidGradlePlugin}`,
      reason: `its version "${current}" is not a plain version; make it the same as proj/build.gradle's`,
      blocking: false,
    });
  } else if (older) {
    const body = bodyOf(file.lines[agp.index]);
    const newBody = body
      .slice(indentOf(body).length)
      .replace(`:gradle:${current}`, `:gradle:${config.androidGradlePlugin}`);
    replaceLine(file, {
      at: agp.index,
      newBody,
      description: `Android Gradle Plugin ${current} → ${config.androidGradlePlugin} (the same as proj/build.gradle)`,
    });
  } else {
    file.report.alreadyThere.push(`Android Gradle Plugin ${current} (at least ${config.androidGradlePlugin})`);
  }
}

/** The template's instant app module gets no Gemini Nano (docs/android.md); said in the report. */
function noteInstantApp(nativeDir: string, report: FileReport, config: PatchConfig): void {
  if (!fs.existsSync(path.join(nativeDir, 'instantapp', 'build.gradle'))) return;
  report.notDone.push({
    what: `add :${config.moduleName} to the instant app (instantapp/)`,
    reason: 'by design: the instant app has no Gemini Nano; on it the bridge reports the module missing',
    blocking: false,
  });
}

// --- settings.gradle: include the module ---------------------------------------------------

function planSettings(file: PlannedFile, config: PatchConfig): void {
  const what = `include ':${config.moduleName}'`;
  if (!requireFile(file, what)) return;
  const already = new RegExp(`^\\s*include\\b.*['"]:${config.moduleName}['"]`);
  if (findLine(file.lines, already)) {
    file.report.alreadyThere.push(`${what} (written by hand)`);
    return;
  }
  if (!findLine(file.lines, /^\s*include\b/)) {
    missingAnchor(file, what, '`include ...` (is this a settings.gradle?)');
    return;
  }
  let last = file.lines.length - 1;
  while (last > 0 && bodyOf(file.lines[last]).trim() === '') last--;
  file.edits.push({
    at: last,
    kind: 'insertAfter',
    content: [what],
    indent: '',
    description: `${what} (the copied module)`,
  });
}

// --- app/build.gradle and gradle.properties: dependency, minSdk, compileSdk ----------------

function planAppDependency(file: PlannedFile, config: PatchConfig): void {
  const dependency = `implementation project(':${config.moduleName}')`;
  const already = new RegExp(`^\\s*implementation\\s*\\(?\\s*project\\s*\\(\\s*['"]:${config.moduleName}['"]`);
  if (findLine(file.lines, already)) {
    file.report.alreadyThere.push(`${dependency} (written by hand)`);
    return;
  }
  const anchor = findLine(file.lines, /^dependencies\s*\{\s*$/);
  if (!anchor) {
    missingAnchor(file, `add ${dependency}`, 'a top-level `dependencies {`');
    return;
  }
  const next = file.lines[anchor.index + 1];
  const nextIndent = next !== undefined ? indentOf(bodyOf(next)) : '';
  file.edits.push({
    at: anchor.index,
    kind: 'insertAfter',
    content: [dependency],
    indent: nextIndent.length > 0 ? nextIndent : '    ',
    description: dependency,
  });
}

/**
 * Raises an SDK level where the app really takes it from: a literal in app/build.gradle, or
 * the `PROP_…` key of gradle.properties that Cocos's template reads.
 */
function planSdkLevel(
  app: PlannedFile,
  properties: PlannedFile,
  level: { keyword: 'minSdk' | 'compileSdk'; propertyKey: string; wanted: number },
): void {
  const { keyword, propertyKey, wanted } = level;
  const what = `raise ${keyword} to ${wanted}`;
  const appLine = findLine(app.lines, new RegExp(`^(\\s*)(${keyword}Version|${keyword})(\\s*=\\s*|\\s+)(.+?)\\s*$`));
  if (!appLine) {
    missingAnchor(app, what, `\`${keyword}Version ...\``);
    return;
  }
  const [, , name, separator, value] = appLine.match;
  if (/^\d+$/.test(value)) {
    if (Number(value) < wanted) {
      replaceLine(app, {
        at: appLine.index,
        newBody: `${name}${separator}${wanted}`,
        description: `${keyword} ${value} → ${wanted}`,
      });
    } else {
      app.report.alreadyThere.push(`${keyword} ${value} (at least ${wanted})`);
    }
    return;
  }
  if (!value.includes(propertyKey)) {
    app.report.notDone.push({
      what,
      reason: `${keyword} is set by "${value}", which the hook cannot evaluate; make sure it is at least ${wanted}`,
      blocking: false,
    });
    return;
  }
  if (!requireFile(properties, what)) return;
  const propertyLine = findLine(properties.lines, new RegExp(`^\\s*${propertyKey}(\\s*=\\s*)(.*?)\\s*$`));
  if (!propertyLine) {
    missingAnchor(properties, what, `\`${propertyKey}=...\` (app/build.gradle reads it)`);
    return;
  }
  let [, propertySeparator, propertyValue] = propertyLine.match;
  // Still the value our own block set (nobody rewrote it): keep the block as it was, with the
  // value it saved, so applying again changes nothing. A different live value is Creator's or
  // the user's and stands as it is.
  const earlier = properties.saved.get(propertyLine.index);
  const earlierMatch =
    earlier === undefined ? null : new RegExp(`^\\s*${propertyKey}(\\s*=\\s*)(\\d+)\\s*$`).exec(bodyOf(earlier));
  if (earlier !== undefined && earlierMatch && propertyValue === String(wanted) && Number(earlierMatch[2]) < wanted) {
    properties.lines[propertyLine.index] = earlier;
    [, propertySeparator, propertyValue] = earlierMatch;
  }
  if (!/^\d+$/.test(propertyValue)) {
    properties.report.notDone.push({
      what,
      reason: `${propertyKey} is "${propertyValue}", not a number; make sure it is at least ${wanted}`,
      blocking: false,
    });
  } else if (Number(propertyValue) < wanted) {
    replaceLine(properties, {
      at: propertyLine.index,
      newBody: `${propertyKey}${propertySeparator}${wanted}`,
      description: `${propertyKey} ${propertyValue} → ${wanted}`,
    });
  } else {
    properties.report.alreadyThere.push(`${propertyKey}=${propertyValue} (at least ${wanted})`);
  }
}

// --- gradle-wrapper.properties -------------------------------------------------------------

const GRADLE_DISTRIBUTION = /gradle-(\d+(?:\.\d+)+)((?:-[a-z]+-\d+)?)-(bin|all)\.zip/;

function planWrapper(file: PlannedFile, config: PatchConfig): void {
  const what = `raise the Gradle wrapper to ${config.gradle}`;
  if (!requireFile(file, what)) return;
  const line = findLine(file.lines, /^\s*distributionUrl\s*=/);
  if (!line) {
    missingAnchor(file, what, '`distributionUrl=...`');
    return;
  }
  const body = bodyOf(file.lines[line.index]);
  const distribution = GRADLE_DISTRIBUTION.exec(body);
  if (!distribution) {
    file.report.notDone.push({
      what,
      reason: `the distributionUrl names no gradle-<version>-bin|all.zip; make sure it is at least ${config.gradle}`,
      blocking: false,
    });
    return;
  }
  const current = distribution[1] + distribution[2];
  if (isOlder(current, config.gradle)) {
    const newBody = body
      .slice(indentOf(body).length)
      .replace(distribution[0], `gradle-${config.gradle}-${distribution[3]}.zip`);
    replaceLine(file, {
      at: line.index,
      newBody,
      description: `Gradle ${current} → ${config.gradle} (Android Gradle Plugin ${config.androidGradlePlugin} needs it)`,
    });
  } else {
    file.report.alreadyThere.push(`Gradle ${current} (at least ${config.gradle})`);
  }
}

// --- app/AndroidManifest.xml: entries the native module asks for ---------------------------

function planManifest(file: PlannedFile, config: PatchConfig): void {
  const additions: Array<{ lines: string[]; closing: string }> = [
    { lines: config.manifest.application, closing: 'application' },
    { lines: config.manifest.manifest, closing: 'manifest' },
  ];
  for (const { lines, closing } of additions) {
    if (lines.length === 0) continue;
    const what = `add ${lines.length} line(s) inside <${closing}>`;
    if (!requireFile(file, what)) return;
    const close = findLine(file.lines, new RegExp(`^(\\s*)</${closing}>`));
    if (!close || close.index === 0) {
      missingAnchor(file, what, `\`</${closing}>\` on its own line`);
      continue;
    }
    file.edits.push({
      at: close.index - 1,
      kind: 'insertAfter',
      content: lines,
      indent: close.match[1] + '    ',
      description: `${lines.length} line(s) inside <${closing}> (from the module's oam-patch.json)`,
    });
  }
}

// --- the whole patch -----------------------------------------------------------------------

function renderFile(file: PlannedFile): string | null {
  if (file.original === null) return null;
  return joinLines(applyEdits(file.lines, file.edits, file.style));
}

/** Sorts each planned edit into "changed" or "already there" by looking at the file on disk. */
function describeEdits(file: PlannedFile): void {
  if (file.original === null) return;
  const current = splitLines(file.original);
  const cr = lineEndingSuffix(file.lines);
  for (const edit of file.edits) {
    const block = renderBlock(edit, { style: file.style, lines: file.lines, cr });
    if (containsBlock(current, block)) file.report.alreadyThere.push(edit.description);
    else file.report.changed.push(edit.description);
  }
  const stripped = stripBlocks(current);
  if (file.edits.length === 0 && stripped.blockCount > 0) {
    file.report.changed.push(`removed ${stripped.blockCount} oam-cocos block(s)`);
  }
}

export function applyNanoPatch(projectFiles: AndroidProjectFiles, options: NanoPatchOptions): PatchReport {
  const files = [
    ...ROOT_FILES.map((name) => loadFile(path.join(projectFiles.root, name), `proj/${name}`)),
    ...NATIVE_FILES.map((name) => loadFile(path.join(projectFiles.nativeDir, name), name)),
  ];
  const [rootBuild, settings, properties, wrapper, appBuild, manifest, appliedBuild] = files;
  const moduleReport = newFileReport(path.join(projectFiles.root, 'oam-nano') + path.sep, 'proj/oam-nano/');
  let modulePlan: ModuleCopyPlan | null = null;
  let moduleToDelete: string | null = null;

  if (options.enable) {
    const configResult = readPatchConfig(options.moduleSource);
    if ('error' in configResult) {
      moduleReport.notDone.push({ what: 'read the module settings', reason: configResult.error, blocking: true });
    } else {
      const config = configResult.config;
      const destination = path.join(projectFiles.root, config.moduleName);
      moduleReport.file = destination + path.sep;
      moduleReport.label = `proj/${config.moduleName}/`;
      const planned = planModuleCopy(options.moduleSource, destination, config);
      if ('error' in planned) {
        moduleReport.notDone.push({
          what: `copy native-android/ as the module :${config.moduleName}`,
          reason: planned.error,
          blocking: true,
        });
      } else {
        modulePlan = planned.plan;
        const description = `copy of native-android/ (module :${config.moduleName})`;
        if (planned.plan.writes.length === 0 && planned.plan.deletions.length === 0)
          moduleReport.alreadyThere.push(description);
        else
          moduleReport.changed.push(
            `${description}: ${planned.plan.writes.length} file(s) written, ${planned.plan.deletions.length} removed`,
          );
      }
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
      noteInstantApp(projectFiles.nativeDir, moduleReport, config);
    }
  } else {
    // Only folders carrying our marker are deleted; a user's own folder is left alone.
    const candidate = path.join(projectFiles.root, 'oam-nano');
    const configResult = fs.existsSync(options.moduleSource) ? readPatchConfig(options.moduleSource) : null;
    const folder =
      configResult && 'config' in configResult
        ? path.join(projectFiles.root, configResult.config.moduleName)
        : candidate;
    moduleReport.file = folder + path.sep;
    moduleReport.label = `proj/${path.basename(folder)}/`;
    if (fs.existsSync(folder)) {
      if (isOurModuleCopy(folder)) {
        moduleToDelete = folder;
        moduleReport.changed.push('removed the copied module folder');
      } else {
        moduleReport.notDone.push({
          what: 'remove the module folder',
          reason: 'it was not made by oam-cocos, so it is kept',
          blocking: false,
        });
      }
    }
  }

  for (const file of files) describeEdits(file);
  const reports = [...files.map((file) => file.report), moduleReport];
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
  if (modulePlan && (modulePlan.writes.length > 0 || modulePlan.deletions.length > 0)) {
    executeModuleCopy(modulePlan);
    moduleReport.written = true;
    report.written = true;
  }
  if (moduleToDelete) {
    fs.rmSync(moduleToDelete, { recursive: true, force: true });
    moduleReport.written = true;
    report.written = true;
  }
  return report;
}
