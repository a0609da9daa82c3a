/**
 * The README and docs/*.md stay true to the repository:
 *
 * 1. README.md is at most 250 lines: it says what oam-cocos is and points to the docs, which hold
 *    the rest, each for its reader.
 * 2. Every relative link in README.md and docs/*.md (markdown links and images, outside code)
 *    points to a file that exists, and a `#anchor` into a markdown file names one of its headings
 *    (GitHub's heading ids). http(s), mailto and other `scheme:` links are not followed: no
 *    network.
 * 3. Every ```ts / ```typescript block of README.md and docs/*.md whose first line is an `import`
 *    and that imports the package type-checks, as a module of its own, with the TypeScript
 *    compiler API: `oam-cocos` is src/index.ts, `oam-cocos/testing` src/testing.ts,
 *    `db://oam-cocos/index` assets/index.ts and `db://oam-cocos/runtime/oam-core.js` src/bundle.ts
 *    (what the bundle is built from, so no `npm run build` is needed; assets/index.ts's own import
 *    of the bundle is sent there too), `cc` the engine declarations of @cocos/creator-types and
 *    `cc/env` tests/cocos/cc-env.d.ts, as tsconfig.assets.json checks assets/. Blocks that are not
 *    modules a reader pastes as they are (class members such as components.md's `onLoad() {…}`,
 *    snippets that start with a comment or a call, JSON, shell, Java, Kotlin, JavaScript) are not
 *    checked.
 *
 * The last test feeds the same checks a made-up tree with a broken link, a missing anchor and a
 * block that does not compile, and requires each to be reported, so the checks can fail.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

jest.setTimeout(120000);

const ROOT = resolve(__dirname, '..', '..');
const MAX_README_LINES = 250;

/** The package's import paths, and the file each one means. */
const PACKAGE_PATHS: Record<string, string> = {
  'oam-cocos': 'src/index.ts',
  'oam-cocos/testing': 'src/testing.ts',
  'db://oam-cocos/index': 'assets/index.ts',
  'db://oam-cocos/runtime/oam-core.js': 'src/bundle.ts',
};

interface CodeBlock {
  file: string;
  line: number;
  lang: string;
  code: string;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** README.md and docs/*.md under a root, as paths relative to it. */
function markdownFiles(root: string): string[] {
  const docs = existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .sort()
        .map((name) => `docs/${name}`)
    : [];
  return ['README.md', ...docs];
}

function lineCount(text: string): number {
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** The fenced code blocks of a markdown text (indented fences in lists included, dedented), and the text outside them. */
function splitFences(file: string, text: string): { blocks: CodeBlock[]; prose: string[] } {
  const blocks: CodeBlock[] = [];
  const prose: string[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const open = /^( *)(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[index]);
    if (!open) {
      prose.push(lines[index]);
      continue;
    }
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !new RegExp(`^ *${fence[0]}{${fence.length},}\\s*$`).test(lines[end])) {
      body.push(lines[end].startsWith(indent) ? lines[end].slice(indent.length) : lines[end].trimStart());
      end++;
    }
    blocks.push({ file, line: index + 1, lang: lang.toLowerCase(), code: `${body.join('\n')}\n` });
    prose.push(...Array.from({ length: end - index + 1 }, () => '')); // keep line numbers
    index = end;
  }
  return { blocks, prose };
}

/** The relative links of a markdown text: `[text](target)` and `![alt](target)` outside code. */
function relativeLinks(file: string, text: string): Link[] {
  const links: Link[] = [];
  splitFences(file, text).prose.forEach((raw, index) => {
    const line = raw.replace(/`+[^`]*`+/g, 'code');
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http(s), mailto, db://…: not files here
      links.push({ file, line: index + 1, target });
    }
  });
  return links;
}

/** GitHub's heading ids of a markdown text: lower case, punctuation dropped, each space a hyphen, repeats numbered. */
function headingIds(file: string, text: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of splitFences(file, text).prose) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    ids.add(count === 0 ? base : `${base}-${count}`);
  }
  return ids;
}

/** Every link under a root that does not lead where it says, as "file:line: target (why)". */
function brokenLinks(root: string): string[] {
  const broken: string[] = [];
  for (const file of markdownFiles(root)) {
    for (const link of relativeLinks(file, readFileSync(join(root, file), 'utf8'))) {
      const [pathPart, anchor] = link.target.split('#', 2);
      const path = pathPart === '' ? join(root, file) : resolve(root, dirname(file), decodeURI(pathPart.split('?')[0]));
      const where = `${link.file}:${link.line}: ${link.target}`;
      if (!path.startsWith(root) || !existsSync(path)) broken.push(`${where} (no such file)`);
      else if (anchor && path.endsWith('.md') && !headingIds(path, readFileSync(path, 'utf8')).has(anchor))
        broken.push(`${where} (no heading #${anchor} in ${relative(root, path)})`);
    }
  }
  return broken;
}

/** The module paths a block imports, when its first line is an import; else none. */
function importsOf(block: CodeBlock): string[] {
  const first = block.code.split('\n').find((line) => line.trim() !== '');
  if (!first || !/^import\b/.test(first)) return [];
  return ts.preProcessFile(block.code, true, false).importedFiles.map((imported) => imported.fileName);
}

/** The blocks a reader pastes as modules: ts, first line an import, the package among the imports. */
function packageBlocks(root: string): CodeBlock[] {
  return markdownFiles(root).flatMap((file) =>
    splitFences(file, readFileSync(join(root, file), 'utf8')).blocks.filter(
      (block) =>
        (block.lang === 'ts' || block.lang === 'typescript') && importsOf(block).some((path) => path in PACKAGE_PATHS),
    ),
  );
}

/** Type-checks each block as a module of its own; the errors, as "file:line (block line n): message". */
function typeCheck(blocks: CodeBlock[]): string[] {
  const folder = mkdtempSync(join(tmpdir(), 'oam-doc-blocks-'));
  try {
    const named = blocks.map((block, index) => {
      const path = join(folder, `${index}-${basename(block.file, '.md')}-${block.line}.ts`);
      writeFileSync(path, block.code);
      return { block, path };
    });
    const bundle = join(ROOT, 'src', 'bundle.ts');
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2019,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules', '@types')],
      strict: true,
      experimentalDecorators: true,
      esModuleInterop: true,
      resolveJsonModule: true,
      isolatedModules: true,
      skipLibCheck: true,
      noEmit: true,
      baseUrl: ROOT,
      paths: Object.fromEntries(Object.entries(PACKAGE_PATHS).map(([name, file]) => [name, [join(ROOT, file)]])),
    };
    const host = ts.createCompilerHost(options);
    // assets/index.ts imports the built bundle (./runtime/oam-core.js); its source stands in for it.
    host.resolveModuleNameLiterals = (literals, containingFile, redirected) =>
      literals.map((literal) => {
        if (
          /assets\/(index|components\/|bridge\/)/.test(containingFile) &&
          /runtime\/oam-core(\.js)?$/.test(literal.text)
        )
          return { resolvedModule: { resolvedFileName: bundle, extension: ts.Extension.Ts } };
        return ts.resolveModuleName(literal.text, containingFile, options, host, undefined, redirected);
      });
    const program = ts.createProgram({
      rootNames: [
        ...named.map((entry) => entry.path),
        join(ROOT, 'node_modules', '@cocos', 'creator-types', 'engine.d.ts'),
        join(ROOT, 'tests', 'cocos', 'cc-env.d.ts'),
      ],
      options,
      host,
    });
    const errors = [...program.getOptionsDiagnostics()].map((diagnostic) =>
      ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
    );
    for (const { block, path } of named) {
      const source = program.getSourceFile(path);
      if (!source) {
        errors.push(`${block.file}:${block.line}: not compiled`);
        continue;
      }
      for (const diagnostic of [
        ...program.getSyntacticDiagnostics(source),
        ...program.getSemanticDiagnostics(source),
      ]) {
        const at = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line + 1;
        errors.push(
          `${block.file}:${block.line} (block line ${at}): ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
        );
      }
    }
    return errors;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('README.md and docs/', () => {
  test(`README.md is at most ${MAX_README_LINES} lines`, () => {
    expect(lineCount(readFileSync(join(ROOT, 'README.md'), 'utf8'))).toBeLessThanOrEqual(MAX_README_LINES);
  });

  test('every relative link points to a file that exists, and every anchor to a heading', () => {
    const links = markdownFiles(ROOT).flatMap((file) => relativeLinks(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(links.length).toBeGreaterThan(40);
    expect(brokenLinks(ROOT)).toEqual([]);
  });

  test('every code block that imports the package type-checks', () => {
    const blocks = packageBlocks(ROOT);
    expect(blocks.filter((block) => block.file === 'README.md').length).toBeGreaterThanOrEqual(1);
    expect(blocks.length).toBeGreaterThanOrEqual(14);
    expect(typeCheck(blocks)).toEqual([]);
  });

  test('the checks fail on a broken link, a missing anchor and a block that does not compile', () => {
    const root = mkdtempSync(join(tmpdir(), 'oam-doc-tree-'));
    try {
      mkdirSync(join(root, 'docs'));
      writeFileSync(
        join(root, 'README.md'),
        '# Made up\n\nSee [the API](docs/api.md#agents) and [gone](docs/gone.md).\n',
      );
      writeFileSync(
        join(root, 'docs', 'api.md'),
        [
          '# The API',
          '',
          '## Agents',
          '',
          'Back to [the README](../README.md), or [nowhere](#no-such-heading); `[not](a-link.md)` is code.',
          '',
          '```ts',
          "import { Agent } from 'oam-cocos';",
          "const count: number = new Agent('not a model');",
          '```',
          '',
          '```ts',
          "import { AgentError } from 'oam-cocos';",
          "console.log(new AgentError('busy', 'Try again shortly.').code);",
          '```',
          '',
          '```ts',
          "import { NPCComponent } from 'db://oam-cocos/index';",
          "const line: number = new NPCComponent().talk('Evening!');",
          '```',
          '',
        ].join('\n'),
      );
      expect(brokenLinks(root)).toEqual([
        'README.md:3: docs/gone.md (no such file)',
        'docs/api.md:5: #no-such-heading (no heading #no-such-heading in docs/api.md)',
      ]);
      const blocks = packageBlocks(root);
      expect(blocks.map((block) => `${block.file}:${block.line}`)).toEqual([
        'docs/api.md:7',
        'docs/api.md:12',
        'docs/api.md:17',
      ]);
      const errors = typeCheck(blocks);
      expect(errors.filter((error) => error.startsWith('docs/api.md:7 (block line 2): ')).length).toBeGreaterThan(0);
      expect(errors.filter((error) => error.startsWith('docs/api.md:17 (block line 2): '))).toEqual([
        "docs/api.md:17 (block line 2): Type 'Promise<DialogueTurn>' is not assignable to type 'number'.",
      ]);
      expect(errors.filter((error) => error.startsWith('docs/api.md:12'))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
