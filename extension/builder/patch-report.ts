/** What the Android patch did to each file, for the build log and for tests. */

export interface NotDone {
  what: string;
  reason: string;
  /** A blocking problem stops the whole patch: no file is written. */
  blocking: boolean;
}

export interface FileReport {
  /** Absolute path of the file (or of the module folder, ending in '/'). */
  file: string;
  /** The path as a person knows it, e.g. "app/build.gradle" or "proj/settings.gradle". */
  label: string;
  changed: string[];
  alreadyThere: string[];
  notDone: NotDone[];
  /** Whether this run wrote to the file. */
  written: boolean;
}

export interface PatchReport {
  enable: boolean;
  /** False when a blocking problem was found; then nothing was written anywhere. */
  ok: boolean;
  /** Whether any file was written. */
  written: boolean;
  files: FileReport[];
}

export function newFileReport(file: string, label: string): FileReport {
  return { file, label, changed: [], alreadyThere: [], notDone: [], written: false };
}

export function blockingProblems(report: PatchReport): Array<{ label: string; item: NotDone }> {
  const out: Array<{ label: string; item: NotDone }> = [];
  for (const file of report.files) {
    for (const item of file.notDone) if (item.blocking) out.push({ label: file.label, item });
  }
  return out;
}

/** A readable multi-line summary for the build log. */
export function formatPatchReport(report: PatchReport): string {
  const lines: string[] = [];
  const action = report.enable ? 'apply Gemini Nano support' : 'remove Gemini Nano support';
  lines.push(
    report.ok
      ? `oam-cocos: ${action}: ${report.written ? 'done' : 'nothing to change'}`
      : `oam-cocos: could not ${action}; no file was changed`,
  );
  for (const file of report.files) {
    for (const item of file.changed) lines.push(`  ${file.label}: changed: ${item}`);
    for (const item of file.alreadyThere) lines.push(`  ${file.label}: already there: ${item}`);
    for (const item of file.notDone) {
      lines.push(`  ${file.label}: ${item.blocking ? 'ERROR' : 'not done'}: ${item.what}: ${item.reason}`);
    }
  }
  return lines.join('\n');
}
