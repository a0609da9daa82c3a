/**
 * Builds the preview page into a folder: page.js (the page with the core bundled in, for the
 * browser), index.html and style.css. The server and the editor panel both use this folder.
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const PAGE_FILES = ['index.html', 'page.js', 'style.css'] as const;

export interface BuildPageOptions {
  /** The repository root (holds preview/, src/ and demo/); default the current directory. */
  root?: string;
  /** Where to write the page; default `<root>/dist/preview` (the editor panel loads it there). */
  outDir?: string;
  minify?: boolean;
}

export async function buildPreviewPage(options: BuildPageOptions = {}): Promise<string> {
  const root = resolve(options.root ?? process.cwd());
  const outDir = resolve(options.outDir ?? join(root, 'dist', 'preview'));
  const pageDir = join(root, 'preview', 'page');
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [join(pageDir, 'main.ts')],
    outfile: join(outDir, 'page.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2019',
    minify: options.minify ?? false,
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  copyFileSync(join(pageDir, 'index.html'), join(outDir, 'index.html'));
  copyFileSync(join(pageDir, 'style.css'), join(outDir, 'style.css'));
  return outDir;
}
