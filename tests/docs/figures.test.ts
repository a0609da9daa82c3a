/**
 * The figures the docs print between `<!-- figures:NAME -->` markers are today's: each block of
 * README.md and docs/*.md is what bench/doc-figures.ts computes now (exact counts only: calls,
 * Gemma 3 tokens, the cost model's seconds, fake-clock counts). After a change that moves one,
 * `npm run docs:figures` rewrites them. The last tests feed the block reader made-up documents,
 * so a stale, unknown or missing block is seen to fail.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { docFigures } from '../../bench/doc-figures';
import { documentsWithFigures, figureBlocks, writeFigureBlocks } from '../../bench/doc-blocks';

jest.setTimeout(300000);

const ROOT = resolve(__dirname, '..', '..');

describe('the figures in the docs', () => {
  let figures: Record<string, string>;
  const held = new Map<string, string>();

  beforeAll(async () => {
    const cwd = process.cwd();
    process.chdir(ROOT);
    try {
      figures = await docFigures();
      for (const path of documentsWithFigures())
        for (const [name] of figureBlocks(readFileSync(path, 'utf8'))) held.set(name, path);
    } finally {
      process.chdir(cwd);
    }
  });

  it('every block the bench writes is in a doc, and every block in a doc is one the bench writes', () => {
    expect([...held.keys()].sort()).toEqual(Object.keys(figures).sort());
  });

  it("every doc's blocks are today's figures (else run npm run docs:figures)", () => {
    for (const path of new Set(held.values())) {
      const text = readFileSync(resolve(ROOT, path), 'utf8');
      expect({ path, text: writeFigureBlocks(text, figures) }).toEqual({ path, text });
    }
  });

  it('the comparison table has a row per scenario and the goals table a verdict per goal', () => {
    expect(figures.comparison.split('\n').filter((line) => line.startsWith('| ')).length).toBe(1 + 11 + 1);
    expect(figures.goals.match(/\| (met|\*\*not met\*\*) \|$/gm)?.length).toBe(5);
  });
});

describe('the block reader', () => {
  const doc = [
    '# A doc',
    '',
    '<!-- figures:calls -->',
    'It takes 3 calls.',
    '<!-- /figures:calls -->',
    '',
    '- a list item:',
    '',
    '  <!-- figures:wait -->',
    '  old',
    '  <!-- /figures:wait -->',
    'after',
  ].join('\n');

  it('rewrites a stale block and keeps the indent of one inside a list item', () => {
    const written = writeFigureBlocks(doc, { calls: 'It takes 1 call.', wait: 'line one\nline two' });
    expect(written).not.toBe(doc);
    expect(figureBlocks(written).get('calls')).toBe('It takes 1 call.\n');
    expect(figureBlocks(written).get('wait')).toBe('  line one\n  line two\n');
    expect(written.endsWith('  <!-- /figures:wait -->\nafter')).toBe(true);
    // Written twice, nothing moves.
    expect(writeFigureBlocks(written, { calls: 'It takes 1 call.', wait: 'line one\nline two' })).toBe(written);
  });

  it('leaves a block the bench does not know alone, and reports it by name', () => {
    expect(writeFigureBlocks(doc, { calls: 'It takes 3 calls.' })).toBe(doc);
    expect([...figureBlocks(doc).keys()]).toEqual(['calls', 'wait']);
  });

  it('does not read a block whose end marker names another block, or is missing', () => {
    expect(figureBlocks('<!-- figures:a -->\nx\n<!-- /figures:b -->').size).toBe(0);
    expect(figureBlocks('<!-- figures:a -->\nx\n').size).toBe(0);
  });
});
