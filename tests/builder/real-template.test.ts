/**
 * The build hook on the REAL Cocos v3.8.5 Android template (../shared/cocos-engine), laid out as
 * Creator 3.8 lays it out on the first Android build: templates/android/template/ becomes the
 * project's native/engine/android/ (app/, instantapp/, the build.gradle that proj/build.gradle
 * applies) and templates/android/build/ becomes build/android/proj/. Before every build
 * Creator rewrites proj/gradle.properties from the build panel (first match per key, as
 * native-pack-tool's updateAndroidGradleValues does); `creatorBuild` does that, then runs the
 * hook the way Creator's builder calls it.
 *
 * The engine tree is found as scripts/test-engine.mjs finds it: OAM_COCOS_ENGINE (a prepared
 * tree), else OAM_COCOS_ENGINE_SOURCE (default ../shared/cocos-engine beside the repository).
 * Without it this suite fails, unless OAM_SKIP_ENGINE=1 (then it is skipped and says so).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runNanoHook } from '../../extension/builder/hooks';
import { copyTree } from './fixture-project';

const REPO = path.join(__dirname, '..', '..');
const MODULE = path.join(REPO, 'native-android');

function templateDir(): string | null {
  const candidates = process.env.OAM_COCOS_ENGINE
    ? [path.join(process.env.OAM_COCOS_ENGINE, 'templates', 'android')]
    : [
        path.join(
          process.env.OAM_COCOS_ENGINE_SOURCE || path.join(REPO, '..', 'shared', 'cocos-engine'),
          'cocos-engine-3.8.5',
          'templates',
          'android',
        ),
      ];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'template', 'app', 'build.gradle'))) ?? null;
}

const TEMPLATE = templateDir();
const skip = !TEMPLATE && process.env.OAM_SKIP_ENGINE === '1';
if (skip)
  console.warn(
    'real-template.test.ts: SKIPPED (OAM_SKIP_ENGINE=1, no Cocos engine tree): this run says nothing about the real template',
  );

function listTree(root: string, relative = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listTree(root, child));
    else out.push(child);
  }
  return out.sort();
}

interface Panel {
  apiLevel: number;
  minSdk: number;
  enableNano: boolean;
}

(skip ? describe.skip : describe)('the hook on the real Cocos v3.8.5 Android template, build after build', () => {
  let base: string;
  let game: string;
  let proj: string;
  let nativeDir: string;
  let log: jest.SpyInstance;

  const read = (file: string) => fs.readFileSync(file, 'utf8');
  const property = (key: string) =>
    new RegExp(`^${key}=(.*)$`, 'm').exec(read(path.join(proj, 'gradle.properties')))?.[1];
  const templateFile = (relative: string) => read(path.join(TEMPLATE as string, relative));

  /** What Creator does for one Android build, then the hook. */
  async function creatorBuild(panel: Panel) {
    if (!fs.existsSync(proj)) copyTree(path.join(TEMPLATE as string, 'build'), proj); // the first build copies the template
    if (!fs.existsSync(nativeDir)) copyTree(path.join(TEMPLATE as string, 'template'), nativeDir);
    const file = path.join(proj, 'gradle.properties');
    let text = read(file);
    const values: Record<string, string> = {
      PROP_COMPILE_SDK_VERSION: String(panel.apiLevel),
      PROP_TARGET_SDK_VERSION: String(panel.apiLevel),
      PROP_MIN_SDK_VERSION: String(panel.minSdk),
      COCOS_ENGINE_PATH: '/opt/CocosCreator/resources/3d/engine/native',
      RES_PATH: path.join(game, 'build', 'android'),
      NATIVE_DIR: nativeDir,
      APPLICATION_ID: 'com.example.tavern',
      PROP_IS_DEBUG: 'false',
    };
    for (const [key, value] of Object.entries(values))
      text = text.replace(new RegExp(`^${key}=.*$`, 'm'), `${key}=${value}`);
    fs.writeFileSync(file, text);
    await runNanoHook(
      { platform: 'android', packages: { 'oam-cocos': { enableNano: panel.enableNano } } },
      { dest: path.join(game, 'build', 'android') },
      { moduleSource: MODULE, projectPath: game },
    );
    return String(log.mock.calls[log.mock.calls.length - 1]?.[0] ?? '');
  }

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'oam-real-template-'));
    game = path.join(base, 'tavern');
    proj = path.join(game, 'build', 'android', 'proj');
    nativeDir = path.join(game, 'native', 'engine', 'android');
    log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => {
    log.mockRestore();
    fs.rmSync(base, { recursive: true, force: true });
  });

  test('first build: every file the template has is patched where the app reads it; the instant app is left without Nano', async () => {
    const summary = await creatorBuild({ apiLevel: 34, minSdk: 21, enableNano: true });
    expect(summary).toMatch(/^oam-cocos: apply Gemini Nano support: done/);
    expect(read(path.join(proj, 'build.gradle'))).toContain("classpath 'com.android.tools.build:gradle:8.13.2'");
    expect(read(path.join(proj, 'build.gradle'))).toContain(
      "classpath 'org.jetbrains.kotlin:kotlin-gradle-plugin:2.3.0'",
    );
    // The applied native/engine/android/build.gradle has its own buildscript: the same AGP, so one AGP is resolved.
    const applied = read(path.join(nativeDir, 'build.gradle'));
    expect(applied).toContain("classpath 'com.android.tools.build:gradle:8.13.2'");
    expect(applied).toContain("// was: classpath 'com.android.tools.build:gradle:8.0.2'");
    expect(read(path.join(proj, 'gradle', 'wrapper', 'gradle-wrapper.properties'))).toContain('gradle-8.13-bin.zip');
    expect(read(path.join(proj, 'settings.gradle'))).toMatch(/^include ':oam-nano'$/m);
    expect(read(path.join(nativeDir, 'app', 'build.gradle'))).toMatch(/^ {4}implementation project\(':oam-nano'\)$/m);
    expect([
      property('PROP_COMPILE_SDK_VERSION'),
      property('PROP_MIN_SDK_VERSION'),
      property('PROP_TARGET_SDK_VERSION'),
    ]).toEqual(['35', '26', '34']);
    // The instant app (on in the template's gradle.properties) keeps its files byte for byte, and the report says why.
    expect(property('PROP_ENABLE_INSTANT_APP')).toBe('true');
    for (const file of listTree(path.join(TEMPLATE as string, 'template', 'instantapp'))) {
      expect([file, read(path.join(nativeDir, 'instantapp', file))]).toEqual([
        file,
        templateFile(`template/instantapp/${file}`),
      ]);
    }
    expect(summary).toContain(
      'proj/oam-nano/: not done: add :oam-nano to the instant app (instantapp/): by design: the instant app has no Gemini Nano',
    );
    // The module copy: library sources, no JVM tests.
    const copied = listTree(path.join(proj, 'oam-nano'));
    expect(copied).toContain('src/main/kotlin/com/oamcocos/nano/core/BridgeGate.kt');
    expect(copied.filter((file) => file.startsWith('src/test/') || file === 'test.sh')).toEqual([]);
  });

  test('a second build after Creator rewrote gradle.properties (API 36): nothing is lowered, and the module build outputs survive', async () => {
    await creatorBuild({ apiLevel: 34, minSdk: 21, enableNano: true });
    const outputs = [
      'build/intermediates/javac/classes.jar',
      'build/tmp/kotlin-classes/release/Foo.class',
      '.gradle/8.13/checksums.bin',
      '.kotlin/sessions/a',
    ];
    for (const file of outputs) {
      fs.mkdirSync(path.dirname(path.join(proj, 'oam-nano', file)), { recursive: true });
      fs.writeFileSync(path.join(proj, 'oam-nano', file), `output ${file}\n`);
    }
    const summary = await creatorBuild({ apiLevel: 36, minSdk: 21, enableNano: true });
    expect(summary).toMatch(/^oam-cocos: apply Gemini Nano support: done/);
    expect([
      property('PROP_COMPILE_SDK_VERSION'),
      property('PROP_TARGET_SDK_VERSION'),
      property('PROP_MIN_SDK_VERSION'),
    ]).toEqual(['36', '36', '26']);
    expect(read(path.join(proj, 'gradle.properties'))).not.toContain('# was: PROP_COMPILE_SDK_VERSION');
    expect(summary).toContain('proj/gradle.properties: already there: PROP_COMPILE_SDK_VERSION=36 (at least 35)');
    for (const file of outputs) expect(read(path.join(proj, 'oam-nano', file))).toBe(`output ${file}\n`);
    // A third build with the same panel ends with the same files (Creator wrote minSdk 21 again; the hook raised it again).
    const before = listTree(game).map((file) => [file, read(path.join(game, file))]);
    expect(await creatorBuild({ apiLevel: 36, minSdk: 21, enableNano: true })).toContain(
      'proj/gradle.properties: changed: PROP_MIN_SDK_VERSION 21 → 26',
    );
    expect(listTree(game).map((file) => [file, read(path.join(game, file))])).toEqual(before);
  });

  test('option off, then on again: off leaves the panel values and the template files; on applies again', async () => {
    await creatorBuild({ apiLevel: 34, minSdk: 21, enableNano: true });
    const off = await creatorBuild({ apiLevel: 36, minSdk: 21, enableNano: false });
    expect(off).toMatch(/^oam-cocos: remove Gemini Nano support: done/);
    expect([
      property('PROP_COMPILE_SDK_VERSION'),
      property('PROP_TARGET_SDK_VERSION'),
      property('PROP_MIN_SDK_VERSION'),
    ]).toEqual(['36', '36', '21']);
    expect(fs.existsSync(path.join(proj, 'oam-nano'))).toBe(false);
    for (const relative of ['build.gradle', 'app/build.gradle', 'app/AndroidManifest.xml', 'instantapp/build.gradle']) {
      expect([relative, read(path.join(nativeDir, relative))]).toEqual([
        relative,
        templateFile(`template/${relative}`),
      ]);
    }
    for (const relative of ['build.gradle', 'settings.gradle', 'gradle/wrapper/gradle-wrapper.properties']) {
      expect([relative, read(path.join(proj, relative))]).toEqual([relative, templateFile(`build/${relative}`)]);
    }
    for (const file of listTree(game))
      expect([file, read(path.join(game, file)).includes('oam-cocos')]).toEqual([file, false]);

    const on = await creatorBuild({ apiLevel: 36, minSdk: 21, enableNano: true });
    expect(on).toMatch(/^oam-cocos: apply Gemini Nano support: done/);
    expect([property('PROP_COMPILE_SDK_VERSION'), property('PROP_MIN_SDK_VERSION')]).toEqual(['36', '26']);
    expect(read(path.join(nativeDir, 'app', 'build.gradle'))).toContain("implementation project(':oam-nano')");
  });
});
