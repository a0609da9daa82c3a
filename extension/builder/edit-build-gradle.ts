/**
 * The two build.gradle files with a buildscript classpath: proj/build.gradle gets the Android
 * Gradle Plugin the module needs and the Kotlin Gradle plugin; native/engine/android/build.gradle
 * (applied from proj/build.gradle) gets the same AGP, so one AGP is resolved. Versions are only
 * ever raised.
 */
import { bodyOf, indentOf } from './marked-blocks';
import { PlannedFile, bodyWith, findLine, missingAnchor, replaceLine, requireFile, usable } from './planned-file';
import { PatchConfig } from './patch-config';
import { isOlder, parseVersion } from './versions';

const AGP_LINE = /^(\s*)classpath\s*\(?\s*(['"])com\.android\.tools\.build:gradle:([^'"]*)\2\s*\)?\s*$/;
const KOTLIN_PLUGIN = /org\.jetbrains\.kotlin:kotlin-gradle-plugin(?::([^'"\s)]*))?/;

type FoundLine = NonNullable<ReturnType<typeof findLine>>;

/** proj/build.gradle: the AGP raised (never across 8.0, that is a migration), then the Kotlin plugin. */
export function planRootBuild(file: PlannedFile, config: PatchConfig): void {
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
  planRootAgp(file, agp, config);
  planKotlinPlugin(file, agp, config);
}

function planRootAgp(file: PlannedFile, agp: FoundLine, config: PatchConfig): void {
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
    replaceLine(file, {
      at: agp.index,
      newBody: agpRaised(file, agp, config),
      description: `Android Gradle Plugin ${current} → ${config.androidGradlePlugin} (its R8 reads the Kotlin 2.3 metadata of ML Kit; compileSdk ${config.compileSdk})`,
    });
  } else {
    file.report.alreadyThere.push(`Android Gradle Plugin ${current} (at least ${config.androidGradlePlugin})`);
  }
}

/** The Kotlin Gradle plugin: added under the AGP line when absent, raised when older. */
function planKotlinPlugin(file: PlannedFile, agp: FoundLine, config: PatchConfig): void {
  const kotlin = findLine(file.lines, KOTLIN_PLUGIN);
  if (!kotlin) {
    const quote = agp.match[2];
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
    replaceLine(file, {
      at: kotlin.index,
      newBody: bodyWith(file, {
        at: kotlin.index,
        from: `kotlin-gradle-plugin:${kotlinVersion}`,
        to: `kotlin-gradle-plugin:${config.kotlin}`,
      }),
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
export function planAppliedBuild(file: PlannedFile, config: PatchConfig): void {
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
    replaceLine(file, {
      at: agp.index,
      newBody: agpRaised(file, agp, config),
      description: `Android Gradle Plugin ${current} → ${config.androidGradlePlugin} (the same as proj/build.gradle)`,
    });
  } else {
    file.report.alreadyThere.push(`Android Gradle Plugin ${current} (at least ${config.androidGradlePlugin})`);
  }
}

function agpRaised(file: PlannedFile, agp: FoundLine, config: PatchConfig): string {
  const current = agp.match[3];
  return bodyWith(file, { at: agp.index, from: `:gradle:${current}`, to: `:gradle:${config.androidGradlePlugin}` });
}
