/**
 * The README's runtime bundle size stays true: the figures it states are within 10% of the
 * bundle `npm run build` writes (npm test builds it before jest; without it the test says so).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = join(__dirname, '..', '..');
const bundle = join(root, 'assets', 'runtime', 'oam-core.js');

test('the README states the bundle size within 10%', () => {
  if (!existsSync(bundle)) throw new Error('assets/runtime/oam-core.js is missing: run `npm run build` first.');
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const stated = /oam-core\.js`, about (\d+) KiB minified,\s+(\d+) KiB gzipped/.exec(readme);
  expect(stated).not.toBeNull();
  const bytes = readFileSync(bundle);
  const actual = { minified: bytes.length / 1024, gzipped: gzipSync(bytes).length / 1024 };
  const [minified, gzipped] = [Number(stated?.[1]), Number(stated?.[2])];
  expect(Math.abs(minified - actual.minified) / actual.minified).toBeLessThan(0.1);
  expect(Math.abs(gzipped - actual.gzipped) / actual.gzipped).toBeLessThan(0.1);
});
