/**
 * docs/components.md stays true: every line of its contract names a test on the real engine
 * that exists (and passed, when this run's engine results are at hand: `npm test` runs the
 * engine suite before jest), and its Inspector table lists every NPCComponent property with
 * the default the component declares.
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';

const root = join(__dirname, '..', '..');
const doc = readFileSync(join(root, 'docs', 'components.md'), 'utf8');

/** `file.test.ts`: `title` pairs in the contract tables' last column. */
function namedTests(): Array<{ file: string; title: string }> {
  const contract = doc.slice(doc.indexOf('## The contract'));
  const named: Array<{ file: string; title: string }> = [];
  for (const row of contract.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Event'))) {
    const cells = row.split(' | ');
    const last = cells[cells.length - 1];
    for (const match of last.matchAll(/`([\w-]+\.test\.ts)`: `([^`]+)`/g))
      named.push({ file: match[1], title: match[2] });
  }
  return named;
}

interface EngineResults {
  testResults: Array<{ name: string; assertionResults: Array<{ title: string; status: string }> }>;
}

describe('docs/components.md', () => {
  const named = namedTests();

  test('the contract names a test on every line', () => {
    const contract = doc.slice(doc.indexOf('## The contract'));
    const rows = contract.split('\n').filter((line) => /^\| [^-E]/.test(line));
    expect(rows.length).toBeGreaterThan(30);
    for (const row of rows) expect(row).toMatch(/`[\w-]+\.test\.ts`: `[^`]+`/);
  });

  test.each(named.map((entry) => [entry.file, entry.title]))('%s has the test "%s"', (file, title) => {
    const source = readFileSync(join(root, 'tests', 'engine', file), 'utf8');
    expect(source.includes(`'${title}'`) || source.includes(`"${title}"`)).toBe(true);
  });

  test('every named test passed in the engine run at hand', () => {
    const path = join(root, 'tests', 'artifacts', 'engine-results.json');
    if (!existsSync(path)) return; // no engine run here (OAM_SKIP_ENGINE=1): the titles above still hold
    const results = JSON.parse(readFileSync(path, 'utf8')) as EngineResults;
    for (const { file, title } of named) {
      const ran = results.testResults.find((result) => result.name.endsWith(`/${file}`));
      if (!ran) continue; // a run of some files only (test-engine.mjs contract)
      const assertion = ran.assertionResults.find((result) => result.title === title);
      expect({ file, title, status: assertion?.status }).toEqual({ file, title, status: 'passed' });
    }
  });

  test('the Inspector table lists every NPCComponent property with its declared default', () => {
    const source = readFileSync(join(root, 'assets', 'components', 'NPCComponent.ts'), 'utf8');
    const body = source.slice(source.indexOf('export class NPCComponent'));
    const fields = Array.from(body.matchAll(/^ {2}(\w+)(?::[^=\n]+)? = (.+);$/gm), (match) => ({
      name: match[1],
      byDefault: match[2],
    }));
    expect(fields.length).toBeGreaterThan(15);
    const table = doc.slice(doc.indexOf('### Every Inspector property'), doc.indexOf('### Answering'));
    for (const { name, byDefault } of fields) expect(table).toContain(`| \`${name}\` | \`${byDefault}\` |`);
    const documented = Array.from(table.matchAll(/^\| `(\w+)` \|/gm), (match) => match[1]);
    expect(documented).toEqual(fields.map((field) => field.name));
  });
});
