/**
 * The extension manifest (package.json) as Creator reads it: every entry file it names exists
 * after `npm run build` (the test command builds first), the Project Settings tab shows only
 * declared profile keys, and every i18n key it uses exists in both languages.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const contributions = pkg.contributions;

test('it is a Creator 3.8 extension manifest named oam-cocos', () => {
  expect(pkg.package_version).toBe(2);
  expect(pkg.name).toBe('oam-cocos');
  expect(pkg.editor).toMatch(/3\.8/);
});

test('every entry file the manifest names exists after the build', () => {
  const files = [
    pkg.main,
    contributions.builder,
    contributions['asset-db'].script,
    ...Object.values(contributions.inspector.section.asset),
    ...Object.values(pkg.panels).map((panel) => (panel as { main: string }).main),
  ];
  const missing = files
    .map((file) => (/\.js$/.test(file as string) ? file : `${file}.js`) as string)
    .filter((file) => !existsSync(join(root, file)));
  expect(missing).toEqual([]);
  expect(existsSync(join(root, contributions['asset-db'].mount.path))).toBe(true);
});

test('the Project Settings tab shows only keys declared under profile.project', () => {
  for (const tab of Object.values(contributions.project) as Array<{ content: Record<string, unknown> }>) {
    for (const key of Object.keys(tab.content)) expect(Object.keys(contributions.profile.project)).toContain(key);
  }
});

test('every i18n key the manifest uses exists in English and Chinese', () => {
  const keys = Array.from(JSON.stringify(pkg).matchAll(/i18n:oam-cocos\.([\w.]+)/g), (match) => match[1]);
  expect(keys.length).toBeGreaterThan(5);
  for (const lang of ['en', 'zh']) {
    const texts = require(join(root, 'i18n', `${lang}.js`));
    for (const key of keys) {
      const value = key
        .split('.')
        .reduce(
          (level: Record<string, unknown> | undefined, segment) =>
            level ? (level[segment] as Record<string, unknown>) : undefined,
          texts,
        );
      expect({ lang, key, found: typeof value === 'string' }).toEqual({ lang, key, found: true });
    }
  }
});
