/**
 * app/build.gradle: the module as a dependency, and minSdk / compileSdk at least what the
 * module needs. An SDK level is raised where the app really takes it from: a literal in
 * app/build.gradle, or the `PROP_…` key of proj/gradle.properties that Cocos's template reads.
 */
import { bodyOf, indentOf } from './marked-blocks';
import { PlannedFile, findLine, missingAnchor, replaceLine, requireFile } from './planned-file';
import { PatchConfig } from './patch-config';

export interface SdkLevel {
  keyword: 'minSdk' | 'compileSdk';
  propertyKey: string;
  wanted: number;
}

export function planAppDependency(file: PlannedFile, config: PatchConfig): void {
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

/** Raises `level` in app/build.gradle when it is a literal, else in gradle.properties when the app reads it there. */
export function planSdkLevel(app: PlannedFile, properties: PlannedFile, level: SdkLevel): void {
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
  planSdkProperty(properties, level);
}

/** proj/gradle.properties: the `PROP_…` key app/build.gradle reads, raised when lower. */
function planSdkProperty(properties: PlannedFile, { propertyKey, wanted, keyword }: SdkLevel): void {
  const what = `raise ${keyword} to ${wanted}`;
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
