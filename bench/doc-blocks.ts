/**
 * The figures `npm run docs:figures` keeps true in the docs live between two comments that
 * render as nothing on GitHub:
 *
 *     <!-- figures:comparison -->
 *     …written by bench/doc-figures.ts…
 *     <!-- /figures:comparison -->
 *
 * Everything outside the markers is the author's; everything inside is replaced. Markers indented
 * (inside a list item) indent what they hold the same.
 */
import { readdirSync } from 'node:fs';

/** A block: its indent (inside a list item), its name, what it holds. */
const BLOCK = /^([ \t]*)<!-- figures:([a-z0-9-]+) -->\n([\s\S]*?)^\1<!-- \/figures:\2 -->/gm;

/** The blocks in a document, by name, with what they hold now. */
export function figureBlocks(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of text.matchAll(BLOCK)) found.set(match[2], match[3]);
  return found;
}

/** The document with each named block's content replaced; blocks of other names are left alone. */
export function writeFigureBlocks(text: string, figures: Record<string, string>): string {
  return text.replace(BLOCK, (whole, indent: string, name: string) => {
    if (!(name in figures)) return whole;
    const body = figures[name]
      .trimEnd()
      .split('\n')
      .map((line) => (line ? indent + line : line))
      .join('\n');
    return `${indent}<!-- figures:${name} -->\n${body}\n${indent}<!-- /figures:${name} -->`;
  });
}

/** The documents that may hold figure blocks: README.md and docs/*.md, from the repository root. */
export function documentsWithFigures(): string[] {
  const docs = readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}
