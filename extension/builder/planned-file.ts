/**
 * One text file of the Android project while the patch is planned: its text on disk, its lines
 * with every oam-cocos block taken out, and the edits the patch will put back as blocks. The
 * `edit-*.ts` planners only look lines up and add edits here; nothing is written until the
 * whole patch is known to be doable.
 */
import * as fs from 'fs';
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
import { FileReport, newFileReport } from './patch-report';

export interface PlannedFile {
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

/** Files Creator rewrites before every build: their live values win over what a block saved. */
const REWRITTEN_BY_CREATOR = new Set(['proj/gradle.properties']);

export function loadFile(absolute: string, label: string): PlannedFile {
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

/** The file exists and its blocks could be read. */
export function usable(file: PlannedFile): boolean {
  return file.original !== null && !file.report.notDone.some((item) => item.blocking);
}

/** Like `usable`, but a missing file is a blocking problem for `why`. */
export function requireFile(file: PlannedFile, why: string): boolean {
  if (file.original === null) {
    file.report.notDone.push({ what: why, reason: 'the file does not exist', blocking: true });
    return false;
  }
  return usable(file);
}

export function findLine(lines: readonly string[], pattern: RegExp): { index: number; match: RegExpExecArray } | null {
  for (let index = 0; index < lines.length; index++) {
    const match = pattern.exec(bodyOf(lines[index]));
    if (match) return { index, match };
  }
  return null;
}

export function missingAnchor(file: PlannedFile, what: string, anchor: string): void {
  file.report.notDone.push({ what, reason: `no line matching ${anchor} was found`, blocking: true });
}

export function replaceLine(file: PlannedFile, edit: { at: number; newBody: string; description: string }): void {
  const { at, newBody, description } = edit;
  const indent = indentOf(bodyOf(file.lines[at]));
  file.edits.push({ at, kind: 'replace', content: [newBody], indent, description });
}

/** Line `at` without its indent, with `from` replaced by `to`: the new body of a version bump. */
export function bodyWith(file: PlannedFile, edit: { at: number; from: string; to: string }): string {
  const body = bodyOf(file.lines[edit.at]);
  return body.slice(indentOf(body).length).replace(edit.from, edit.to);
}

/** The file's new text, or null when it does not exist. */
export function renderFile(file: PlannedFile): string | null {
  if (file.original === null) return null;
  return joinLines(applyEdits(file.lines, file.edits, file.style));
}

/** Sorts each planned edit into "changed" or "already there" by looking at the file on disk. */
export function describeEdits(file: PlannedFile): void {
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
