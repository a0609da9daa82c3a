import * as fs from 'fs';
import * as path from 'path';
import { configs } from '../../extension/builder/index';
import { isNanoEnabled, runNanoHook, throwError } from '../../extension/builder/hooks';
import { nativeDirFromProperties, resolveAndroidProject } from '../../extension/builder/project-paths';
import { TempProject, makeTempProject, removeTempProject } from './fixture-project';

const english = require('../../i18n/en.js') as Record<string, unknown>;
const chinese = require('../../i18n/zh.js') as Record<string, unknown>;

function lookup(table: Record<string, unknown>, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>(
      (node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined),
      table,
    );
}

describe('the build-plugin entry', () => {
  test('configs has both Android platform keys, each with the hooks and the enableNano checkbox', () => {
    expect(Object.keys(configs).sort()).toEqual(['android', 'google-play']);
    for (const key of ['android', 'google-play'] as const) {
      expect(configs[key].hooks).toBe('./hooks');
      expect(configs[key].options.enableNano).toEqual({
        label: 'i18n:oam-cocos.builder.enableNano.label',
        description: 'i18n:oam-cocos.builder.enableNano.description',
        default: true,
        render: { ui: 'ui-checkbox' },
      });
    }
  });

  test('every i18n key the configs name exists in English and Chinese', () => {
    for (const option of Object.values(configs.android.options)) {
      for (const text of [option.label, option.description]) {
        const key = text.replace(/^i18n:oam-cocos\./, '');
        expect(typeof lookup(english, key)).toBe('string');
        expect(typeof lookup(chinese, key)).toBe('string');
      }
    }
  });

  test('the option defaults to on and reads the package options', () => {
    expect(isNanoEnabled({ platform: 'android' })).toBe(true);
    expect(isNanoEnabled({ platform: 'android', packages: { 'oam-cocos': {} } })).toBe(true);
    expect(isNanoEnabled({ platform: 'android', packages: { 'oam-cocos': { enableNano: false } } })).toBe(false);
    expect(isNanoEnabled({ platform: 'android', packages: { 'oam-cocos': { enableNano: 'yes' } } })).toBe(false);
    expect(throwError).toBe(true);
  });
});

describe('finding the Android project of a build', () => {
  let project: TempProject;
  beforeEach(() => {
    project = makeTempProject();
  });
  afterEach(() => removeTempProject(project));

  test('NATIVE_DIR from gradle.properties, with .properties escapes undone', () => {
    expect(nativeDirFromProperties('A=1\nNATIVE_DIR=C\\:/game/native/engine/android\n')).toBe(
      'C:/game/native/engine/android',
    );
    expect(nativeDirFromProperties('NATIVE_DIR=\n')).toBeNull();
    expect(nativeDirFromProperties('nothing')).toBeNull();
  });

  test('uses NATIVE_DIR when Cocos wrote it, else <project>/native/engine/<platform>', () => {
    const dest = path.dirname(project.files.root); // <base>/game, holding proj/
    const gameDir = path.join(project.base, 'game');
    expect(resolveAndroidProject(dest, 'android', gameDir)).toEqual(project.files);
    expect(resolveAndroidProject(dest, 'google-play', gameDir)).toEqual(project.files); // falls back to native/engine/android
    expect(resolveAndroidProject(dest, 'android', null)).toBeNull();

    const properties = project
      .read('proj/gradle.properties')
      .replace('NATIVE_DIR=\n', `NATIVE_DIR=${project.files.nativeDir}\n`);
    project.write('proj/gradle.properties', properties);
    expect(resolveAndroidProject(dest, 'android', null)).toEqual(project.files);
  });

  test('runNanoHook applies for android, reverts when the option is off, and ignores other platforms', async () => {
    const dest = path.join(project.base, 'game');
    const environment = { moduleSource: project.moduleSource, projectPath: dest };
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const before = project.snapshot();
      await runNanoHook({ platform: 'web-mobile' }, { dest }, environment);
      expect(project.snapshot()).toEqual(before);

      await runNanoHook({ platform: 'google-play' }, { dest }, environment);
      expect(project.read('app/build.gradle')).toContain("implementation project(':oam-nano')");
      expect(log.mock.calls[0][0]).toMatch(/^oam-cocos: apply Gemini Nano support: done/);

      await runNanoHook(
        { platform: 'android', packages: { 'oam-cocos': { enableNano: false } } },
        { dest },
        environment,
      );
      // Every file as before but gradle.properties, whose values are Creator's to set (tests/builder/real-template.test.ts).
      const after = project.snapshot();
      for (const [file, bytes] of before)
        if (!file.endsWith('proj/gradle.properties')) expect([file, after.get(file)]).toEqual([file, bytes]);
      expect([...after.keys()]).toEqual([...before.keys()]);
    } finally {
      log.mockRestore();
    }
  });

  test('runNanoHook fails the build with the report when the patch cannot be applied', async () => {
    const dest = path.join(project.base, 'game');
    project.write('app/build.gradle', 'android {}\n');
    const before = project.snapshot();
    await expect(
      runNanoHook({ platform: 'android' }, { dest }, { moduleSource: project.moduleSource, projectPath: dest }),
    ).rejects.toThrow(/could not apply Gemini Nano support; no file was changed[^]*app\/build.gradle: ERROR/);
    expect(project.snapshot()).toEqual(before);
  });

  test('runNanoHook without an Android project: an error when enabled, a warning when disabled', async () => {
    const empty = fs.mkdtempSync(path.join(project.base, 'empty-'));
    const environment = { moduleSource: project.moduleSource, projectPath: empty };
    await expect(runNanoHook({ platform: 'android' }, { dest: empty }, environment)).rejects.toThrow(
      /cannot find the Android project/,
    );
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await runNanoHook(
        { platform: 'android', packages: { 'oam-cocos': { enableNano: false } } },
        { dest: empty },
        environment,
      );
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });
});
