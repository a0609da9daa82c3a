/** proj/settings.gradle: `include ':<module>'` after the last line, unless written by hand. */
import { bodyOf } from './marked-blocks';
import { PlannedFile, findLine, missingAnchor, requireFile } from './planned-file';
import { PatchConfig } from './patch-config';

export function planSettings(file: PlannedFile, config: PatchConfig): void {
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
