/**
 * Creator's own script pipeline (ModLo + QuickPack, scripts/creator/pipeline.mjs) on small
 * projects: the failure that stopped every Creator project's script build (the runtime bundle
 * read as CommonJS), syntax the pipeline refuses itself, and the checks that stay in
 * scripts/creator/limits.mjs because the pipeline cannot tell them.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..');

/** Packs `files` (name → source) as one mount db://assets/ with Creator's pipeline; returns its errors. */
function pack(files: Record<string, string>, extra: (dir: string) => void = () => undefined): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'oam-pipeline-'));
  try {
    const assets = join(dir, 'assets');
    mkdirSync(assets);
    let count = 0;
    for (const [name, source] of Object.entries(files)) {
      writeFileSync(join(assets, name), source);
      const uuid = `0000000${count++}-0000-4000-8000-000000000000`;
      writeFileSync(
        join(assets, `${name}.meta`),
        JSON.stringify({
          ver: '4.0.24',
          importer: name.endsWith('.js') ? 'javascript' : 'typescript',
          uuid,
          userData: {},
        }),
      );
    }
    extra(assets);
    const script = `import('${join(REPO, 'scripts', 'creator', 'pipeline.mjs')}').then(async ({ packProject }) => {
      const r = await packProject({ projectRoot: ${JSON.stringify(dir)}, workspace: ${JSON.stringify(join(dir, 'pack'))}, mounts: [{ root: 'db://assets/', physical: ${JSON.stringify(assets)} }] });
      process.stdout.write(JSON.stringify(r.errors));
    });`;
    return JSON.parse(
      execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("Creator's pipeline", () => {
  const BUNDLE = 'export const answer = 42;\n';
  const USER = "import { answer } from './runtime/core.js';\nexport const doubled = answer * 2;\n";

  test('an ES-module .js without a "type": "module" package.json is refused as CommonJS (the bug that stopped every script)', () => {
    const errors = pack({ 'user.ts': USER }, (assets) => {
      mkdirSync(join(assets, 'runtime'));
      writeFileSync(join(assets, 'runtime', 'core.js'), BUNDLE);
      writeFileSync(
        join(assets, 'runtime', 'core.js.meta'),
        JSON.stringify({
          ver: '4.0.24',
          importer: 'javascript',
          uuid: '0000000a-0000-4000-8000-000000000000',
          userData: { isPlugin: false },
        }),
      );
      writeFileSync(join(assets, 'package.json'), '{"name": "an-extension"}');
    });
    expect(errors.join('\n')).toMatch(/Unexpected export statement in CJS module/);
  });

  test('the same bundle beside a "type": "module" package.json compiles, as assets/runtime/ ships it', () => {
    const errors = pack({ 'user.ts': USER }, (assets) => {
      mkdirSync(join(assets, 'runtime'));
      writeFileSync(join(assets, 'runtime', 'core.js'), BUNDLE);
      writeFileSync(
        join(assets, 'runtime', 'core.js.meta'),
        JSON.stringify({
          ver: '4.0.24',
          importer: 'javascript',
          uuid: '0000000a-0000-4000-8000-000000000000',
          userData: { isPlugin: false },
        }),
      );
      cpSync(join(REPO, 'assets', 'runtime', 'package.json'), join(assets, 'runtime', 'package.json'));
      writeFileSync(join(assets, 'package.json'), '{"name": "an-extension"}');
    });
    expect(errors).toEqual([]);
  });

  test('a script without a .meta is an error (Creator would give it a new uuid on every fresh checkout)', () => {
    const errors = pack({ 'a.ts': 'export const a = 1;\n' }, (assets) =>
      writeFileSync(join(assets, 'b.ts'), 'export const b = 2;\n'),
    );
    expect(errors.join('\n')).toMatch(/b\.ts has no \.meta/);
  });

  test('syntax it refuses itself is left to it: accessor fields, export =', () => {
    expect(pack({ 'a.ts': 'export class K { accessor v = 1; }\n' }).join('\n')).toMatch(/decoratorAutoAccessors/);
    expect(pack({ 'b.ts': 'class K {}\nexport = K;\n' }).join('\n')).toMatch(/export = <value>/);
  });
});

describe('scripts/creator/limits.mjs: what the real pipeline cannot tell', () => {
  const script = join(__dirname, '..', '..', 'scripts', 'creator', 'limits.mjs');
  const run = (dir: string) => {
    try {
      return { code: 0, out: execFileSync(process.execPath, [script, dir], { encoding: 'utf8', stdio: 'pipe' }) };
    } catch (error) {
      const err = error as { status: number; stderr: string };
      return { code: err.status, out: err.stderr };
    }
  };

  test('the mounted assets pass', () => {
    expect(run(join(__dirname, '..', '..', 'assets')).code).toBe(0);
  });

  test('each construct it checks is reported with file:line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oam-babel-'));
    try {
      writeFileSync(join(dir, 'lib.d.ts'), 'export interface Shape { a: number }\nexport declare class Box {}\n');
      writeFileSync(join(dir, 'lib.js'), 'export class Box {}\n');
      writeFileSync(
        join(dir, 'bad.ts'),
        [
          "export { Shape, Box } from './lib.js';",
          'export const enum Mode { A }',
          'const o = { a: 1 } satisfies object;',
          "window.alert('x');",
        ].join('\n'),
      );
      writeFileSync(
        join(dir, 'good.ts'),
        "export type { Shape } from './lib.js';\nexport { Box } from './lib.js';\nexport const g = globalThis;\n",
      );
      const { code, out } = run(dir);
      expect(code).toBe(1);
      expect(out).toMatch(/bad\.ts:1: "Shape" is a type/);
      expect(out).not.toMatch(/"Box"/);
      expect(out).toMatch(/bad\.ts:2: const enum/);
      expect(out).toMatch(/bad\.ts:3: `satisfies`/);
      expect(out).toMatch(/bad\.ts:4: `window\.`/);
      expect(out).not.toMatch(/good\.ts/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
