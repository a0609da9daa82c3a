/**
 * Marked blocks: every line the build hook adds to a user's file sits between a start and an
 * end marker, so a person sees what was added and the hook can take it out again. When a
 * block replaces a line, the original is kept inside the block as a `was:` comment, which is
 * what makes a revert byte-exact.
 *
 * Files are handled as arrays of lines split on '\n' only: a trailing '\r' stays part of its
 * line, so CRLF files keep their line endings untouched.
 */

export type CommentStyle = 'slash' | 'hash' | 'xml';

export const BLOCK_START_TEXT = '>>> oam-cocos (added by the oam-cocos extension; do not edit inside)';
export const BLOCK_END_TEXT = '<<< oam-cocos';
const WAS_PREFIX = 'was: ';

const START_PATTERN = /^\s*(?:\/\/|#|<!--)\s*>>> oam-cocos\b/;
const END_PATTERN = /^\s*(?:\/\/|#|<!--)\s*<<< oam-cocos\b/;
const WAS_PATTERN = /^\s*(?:\/\/|#|<!--) was: (.*?)(?: -->)?$/;

export function commentStyleFor(fileName: string): CommentStyle {
  if (fileName.endsWith('.xml')) return 'xml';
  if (fileName.endsWith('.properties')) return 'hash';
  return 'slash';
}

export function commentLine(style: CommentStyle, text: string): string {
  switch (style) {
    case 'slash':
      return `// ${text}`;
    case 'hash':
      return `# ${text}`;
    case 'xml':
      return `<!-- ${text} -->`;
  }
}

/** The line's text without a trailing '\r'. */
export function bodyOf(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

export function indentOf(line: string): string {
  const match = /^[ \t]*/.exec(line);
  return match ? match[0] : '';
}

export function splitLines(text: string): string[] {
  return text.split('\n');
}

export function joinLines(lines: readonly string[]): string {
  return lines.join('\n');
}

/** '\r' when the file uses CRLF, so added lines match the file's own endings. */
export function lineEndingSuffix(lines: readonly string[]): string {
  return lines.some((line) => line.endsWith('\r')) ? '\r' : '';
}

export interface StripResult {
  /** The lines with every block removed and every replaced line restored. */
  lines: string[];
  blockCount: number;
  /**
   * With keepLiveReplacements: index (in `lines`) of each live line given back → the line the
   * block had saved (`was:`), so a caller can tell its own earlier value from a newer one.
   */
  saved: Map<number, string>;
  /** Set when the markers are unbalanced; the lines are then unusable. */
  error?: string;
}

export interface StripOptions {
  /**
   * For files a tool rewrites in place (Creator rewrites gradle.properties from the build panel
   * before every build): a replacement block gives back its LIVE line, as it is now, instead of
   * the `was:` line it saved, so a value set after the hook ran is never taken back.
   */
  keepLiveReplacements?: boolean;
}

export function stripBlocks(lines: readonly string[], options: StripOptions = {}): StripResult {
  const out: string[] = [];
  let blockCount = 0;
  let openedAt = -1;
  let blockIndent = '';
  let live: string[] = [];
  let was: string[] = [];
  const saved = new Map<number, string>();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const body = bodyOf(line);
    if (START_PATTERN.test(body)) {
      if (openedAt >= 0) {
        return {
          lines: [],
          blockCount,
          saved,
          error: `line ${index + 1}: a new oam-cocos block starts before the block opened on line ${openedAt + 1} ends`,
        };
      }
      openedAt = index;
      blockIndent = indentOf(body);
      live = [];
      was = [];
      continue;
    }
    if (END_PATTERN.test(body)) {
      if (openedAt < 0) {
        return {
          lines: [],
          blockCount,
          saved,
          error: `line ${index + 1}: an oam-cocos end marker without a start marker`,
        };
      }
      // An insertion block (no `was:`) always goes; a replacement gives back its saved or its live line.
      if (was.length > 0) {
        if (options.keepLiveReplacements && live.length === 1 && was.length === 1) {
          saved.set(out.length, was[0]);
          out.push(live[0]);
        } else {
          out.push(...(options.keepLiveReplacements && live.length > 0 ? live : was));
        }
      }
      openedAt = -1;
      blockCount++;
      continue;
    }
    if (openedAt >= 0) {
      const wasLine = WAS_PATTERN.exec(body);
      if (wasLine) was.push(blockIndent + wasLine[1] + (line.endsWith('\r') ? '\r' : ''));
      else if (!/^\s*(?:\/\/|#|<!--)/.test(body)) live.push(line);
      continue;
    }
    out.push(line);
  }
  if (openedAt >= 0) {
    return {
      lines: [],
      blockCount,
      saved,
      error: `line ${openedAt + 1}: an oam-cocos block is never closed (no "${BLOCK_END_TEXT}" marker)`,
    };
  }
  return { lines: out, blockCount, saved };
}

export type EditKind = 'replace' | 'insertAfter';

/** One change against the block-free lines of a file. */
export interface LineEdit {
  /** Index into the block-free lines. */
  at: number;
  kind: EditKind;
  /** Added lines, without indentation (the block's indent is prepended). */
  content: string[];
  indent: string;
  /** What the edit does, for the report. */
  description: string;
}

/** The file an edit's block goes into: its comment style, its lines and its line ending's `\r` (or ''). */
export interface BlockTarget {
  style: CommentStyle;
  lines: readonly string[];
  cr: string;
}

/** The lines of the block an edit produces, line endings included. */
export function renderBlock(edit: LineEdit, target: BlockTarget): string[] {
  const { style, lines, cr } = target;
  const out = [edit.indent + commentLine(style, BLOCK_START_TEXT) + cr];
  for (const added of edit.content) out.push(edit.indent + added + cr);
  if (edit.kind === 'replace') {
    const original = bodyOf(lines[edit.at]);
    out.push(edit.indent + commentLine(style, WAS_PREFIX + original.slice(edit.indent.length)) + cr);
  }
  out.push(edit.indent + commentLine(style, BLOCK_END_TEXT) + cr);
  return out;
}

/**
 * Applies edits to block-free lines. Edits at the same line keep their order; a replacement
 * is emitted before insertions after the same line.
 */
export function applyEdits(lines: readonly string[], edits: readonly LineEdit[], style: CommentStyle): string[] {
  const cr = lineEndingSuffix(lines);
  const out: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const here = edits.filter((edit) => edit.at === index);
    const replacement = here.find((edit) => edit.kind === 'replace');
    if (replacement) out.push(...renderBlock(replacement, { style, lines, cr }));
    else out.push(lines[index]);
    for (const edit of here) {
      if (edit.kind === 'insertAfter') out.push(...renderBlock(edit, { style, lines, cr }));
    }
  }
  return out;
}

/** True when `block` occurs as consecutive lines of `lines` (an edit that is already there). */
export function containsBlock(lines: readonly string[], block: readonly string[]): boolean {
  outer: for (let start = 0; start + block.length <= lines.length; start++) {
    for (let offset = 0; offset < block.length; offset++) {
      if (lines[start + offset] !== block[offset]) continue outer;
    }
    return true;
  }
  return false;
}
