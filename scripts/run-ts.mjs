// Runs a Node-only TypeScript program (demo, bench, preview server): bundles it with esbuild
// into a temporary ESM file next to node_modules, then imports it with the remaining argv.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs <entry.ts> [args…]');
  process.exit(2);
}
const dir = mkdtempSync(join(resolve('node_modules'), '.oam-run-'));
const out = join(dir, 'entry.mjs');
await build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: out,
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);" },
});
process.argv = [process.argv[0], resolve(entry), ...rest];
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
await import(pathToFileURL(out).href);
