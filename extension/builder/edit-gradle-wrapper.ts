/** proj/gradle/wrapper/gradle-wrapper.properties: the Gradle the module's AGP needs, only ever raised. */
import { bodyOf } from './marked-blocks';
import { PlannedFile, bodyWith, findLine, missingAnchor, replaceLine, requireFile } from './planned-file';
import { PatchConfig } from './patch-config';
import { isOlder } from './versions';

const GRADLE_DISTRIBUTION = /gradle-(\d+(?:\.\d+)+)((?:-[a-z]+-\d+)?)-(bin|all)\.zip/;

export function planWrapper(file: PlannedFile, config: PatchConfig): void {
  const what = `raise the Gradle wrapper to ${config.gradle}`;
  if (!requireFile(file, what)) return;
  const line = findLine(file.lines, /^\s*distributionUrl\s*=/);
  if (!line) {
    missingAnchor(file, what, '`distributionUrl=...`');
    return;
  }
  const distribution = GRADLE_DISTRIBUTION.exec(bodyOf(file.lines[line.index]));
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
    replaceLine(file, {
      at: line.index,
      newBody: bodyWith(file, {
        at: line.index,
        from: distribution[0],
        to: `gradle-${config.gradle}-${distribution[3]}.zip`,
      }),
      description: `Gradle ${current} → ${config.gradle} (Android Gradle Plugin ${config.androidGradlePlugin} needs it)`,
    });
  } else {
    file.report.alreadyThere.push(`Gradle ${current} (at least ${config.gradle})`);
  }
}
