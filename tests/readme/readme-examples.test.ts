/**
 * Runs every docs example marked `<!-- runnable -->` (docs/api.md and docs/testing.md, where the
 * README's examples moved) against the real source, and checks that what each
 * `console.log(...); // expected` line prints contains the expected text, so the docs cannot
 * drift from the code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import { buildSync } from 'esbuild';

const root = join(__dirname, '..', '..');
const DOCS = ['docs/api.md', 'docs/testing.md'];
const examples = DOCS.flatMap((doc) => {
  const text = readFileSync(join(root, doc), 'utf8');
  return Array.from(text.matchAll(/<!-- runnable -->\s*```ts\n([\s\S]*?)```/g), (match) => ({
    name: `${doc}: ${headingBefore(text, match.index ?? 0)}`,
    code: match[1],
  }));
});

function headingBefore(text: string, at: number): string {
  const headings = Array.from(text.slice(0, at).matchAll(/^#+ (.+)$/gm));
  return headings.length ? headings[headings.length - 1][1] : 'example';
}

test('the docs have runnable examples', () => {
  expect(examples.length).toBeGreaterThanOrEqual(9);
});

describe.each(examples.map(({ name, code }) => [name, code] as const))('docs example: %s', (_name, code) => {
  test('runs and prints what its comments say', async () => {
    const source = `${code
      .replace(/from 'oam-cocos\/testing'/g, `from ${JSON.stringify(join(root, 'src', 'testing.ts'))}`)
      .replace(/from 'oam-cocos'/g, `from ${JSON.stringify(join(root, 'src', 'index.ts'))}`)}\nexport { main };\n`;
    const out = buildSync({
      stdin: { contents: source, loader: 'ts', resolveDir: root, sourcefile: 'readme-example.ts' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      logLevel: 'silent',
    });
    const printed: string[] = [];
    const fakeConsole = { ...console, log: (...args: unknown[]) => printed.push(format(...args)) };
    const fakeProcess = {
      stdout: {
        write: (text: string) => {
          printed.push(text);
          return true;
        },
      },
    };
    const mod = { exports: {} as { main?: () => Promise<void> } };
    new Function('module', 'exports', 'require', 'console', 'process', out.outputFiles[0].text)(
      mod,
      mod.exports,
      require,
      fakeConsole,
      fakeProcess,
    );
    await (mod.exports.main as () => Promise<void>)();
    const all = printed.join('\n');
    const expectations = Array.from(code.matchAll(/^\s*console\.log\(.*\); \/\/ (.+)$/gm), (match) =>
      match[1].replace(/ \(.*\)$/, '').trim(),
    );
    for (const expected of expectations) expect(all).toContain(expected);
  });
});
