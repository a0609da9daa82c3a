/**
 * `npm run docs:figures`: rewrites every figure block in README.md and docs/*.md from the bench
 * (doc-figures.ts), so the tables and counts the docs print are today's. The docs test fails
 * until this has run after a change that moves a figure.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { docFigures } from './doc-figures';
import { documentsWithFigures, figureBlocks, writeFigureBlocks } from './doc-blocks';

async function main(): Promise<void> {
  const figures = await docFigures();
  const used = new Set<string>();
  for (const path of documentsWithFigures()) {
    const before = readFileSync(path, 'utf8');
    for (const name of figureBlocks(before).keys()) used.add(name);
    const after = writeFigureBlocks(before, figures);
    if (after !== before) {
      writeFileSync(path, after);
      console.log(`wrote ${path}`);
    }
  }
  const unused = Object.keys(figures).filter((name) => !used.has(name));
  if (unused.length > 0) console.log(`blocks no doc holds yet: ${unused.join(', ')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
