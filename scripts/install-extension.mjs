// Installs the built extension into a Cocos Creator project by copying what the editor loads
// into <project>/extensions/oam-cocos/ (a copy, not a link: with Creator's default
// preserveSymlinks off, scripts reached through a symlinked mount do not resolve;
// docs/getting-started.md). Run again after `npm run build` to refresh the copy.
// Usage: npm run install-into -- <project folder>
import { cpSync, existsSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What the editor reads from an installed extension: manifest, editor code, mounted assets, texts, the Android module. */
export const SHIPPED = ['package.json', 'README.md', 'dist', 'assets', 'i18n', 'schemas', 'native-android'];

/** Left out of the copy: build outputs and the JVM test sources of the Android module. */
function isShipped(from, source) {
  const rel = relative(from, source).split(sep).join('/');
  return !/^native-android\/(build|src\/test|\.gradle)(\/|$)/.test(rel);
}

/** The generated files the copy needs; an install without them would load nothing. */
const GENERATED = ['assets/runtime/oam-core.js', 'dist/main.js'];

/**
 * Copies the extension into `<projectDir>/extensions/oam-cocos` (replacing an earlier copy) and
 * returns the folder. Throws with what to do when the build is missing, the folder is not a
 * Creator project, or the target is a link.
 */
export function installExtension(projectDir, { from = REPO, name = 'oam-cocos' } = {}) {
  const project = resolve(projectDir);
  if (!existsSync(join(project, 'assets')) || !existsSync(join(project, 'package.json'))) {
    throw new Error(`${project} is not a Cocos Creator project (it needs assets/ and package.json).`);
  }
  const missing = GENERATED.filter((file) => !existsSync(join(from, file)));
  if (missing.length > 0) throw new Error(`${missing.join(', ')} missing: run \`npm run build\` first.`);
  const target = join(project, 'extensions', name);
  if (existsSync(target) && lstatSync(target).isSymbolicLink()) {
    throw new Error(
      `${target} is a link; remove it first (Creator cannot resolve scripts through a linked extension, see docs/getting-started.md).`,
    );
  }
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const entry of SHIPPED) {
    const source = join(from, entry);
    if (existsSync(source))
      cpSync(source, join(target, entry), { recursive: true, filter: (path) => isShipped(from, path) });
  }
  return target;
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  const project = process.argv[2];
  if (!project) {
    console.error('usage: npm run install-into -- <Cocos Creator project folder>');
    process.exit(2);
  }
  try {
    const target = installExtension(project);
    console.log(
      `oam-cocos copied to ${target}. Open the project in Creator and enable oam-cocos in Extension Manager.`,
    );
  } catch (error) {
    console.error(`install-into: ${error.message}`);
    process.exit(1);
  }
}
