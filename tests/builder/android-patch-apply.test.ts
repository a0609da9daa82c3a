import * as fs from 'fs';
import * as path from 'path';
import { applyNanoPatch } from '../../extension/builder/android-patch';
import { FIXTURE_DIR, PROJECT_LABELS, TempProject, makeTempProject, removeTempProject } from './fixture-project';

const START = '>>> oam-cocos (added by the oam-cocos extension; do not edit inside)';

function fixture(label: string): string {
  const relative = label.startsWith('proj/') ? label : `native/engine/android/${label}`;
  return fs.readFileSync(path.join(FIXTURE_DIR, relative), 'utf8');
}

/** The lines of `text` between the line equal to `from` and the line equal to `to`, both included. */
function linesBetween(text: string, from: string, to: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(from);
  const end = lines.indexOf(to, start);
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return lines.slice(start, end + 1);
}

describe('applyNanoPatch on the Cocos 3.8 template', () => {
  let project: TempProject;
  beforeEach(() => {
    project = makeTempProject();
  });
  afterEach(() => removeTempProject(project));

  const apply = (enable: boolean) => applyNanoPatch(project.files, { enable, moduleSource: project.moduleSource });

  test('apply writes the expected lines in every file', () => {
    const report = apply(true);
    expect(report.ok).toBe(true);
    expect(report.written).toBe(true);

    expect(
      linesBetween(
        project.read('proj/build.gradle'),
        '    dependencies {',
        '        // NOTE: Do not place your application dependencies here; they belong',
      ),
    ).toEqual([
      '    dependencies {',
      `        // ${START}`,
      "        classpath 'com.android.tools.build:gradle:8.13.2'",
      "        // was: classpath 'com.android.tools.build:gradle:8.0.2'",
      '        // <<< oam-cocos',
      `        // ${START}`,
      "        classpath 'org.jetbrains.kotlin:kotlin-gradle-plugin:2.3.0'",
      '        // <<< oam-cocos',
      '',
      '        // NOTE: Do not place your application dependencies here; they belong',
    ]);

    expect(project.read('proj/settings.gradle').split('\n').slice(-5)).toEqual([
      'rootProject.name = "CocosGame"',
      `// ${START}`,
      "include ':oam-nano'",
      '// <<< oam-cocos',
      '',
    ]);

    const properties = project.read('proj/gradle.properties');
    expect(
      linesBetween(properties, '# Android SDK version that will be used as the compile project', '# <<< oam-cocos'),
    ).toEqual([
      '# Android SDK version that will be used as the compile project',
      `# ${START}`,
      'PROP_COMPILE_SDK_VERSION=35',
      '# was: PROP_COMPILE_SDK_VERSION=34',
      '# <<< oam-cocos',
    ]);
    expect(
      linesBetween(
        properties,
        '# Android SDK version that will be used as the earliest version of android this application can run on',
        '# was: PROP_MIN_SDK_VERSION=21',
      ),
    ).toEqual([
      '# Android SDK version that will be used as the earliest version of android this application can run on',
      `# ${START}`,
      'PROP_MIN_SDK_VERSION=26',
      '# was: PROP_MIN_SDK_VERSION=21',
    ]);
    // The only live value of each key is ours: Cocos's per-build rewrite hits the first match.
    expect(properties.split('\n').filter((line) => line.startsWith('PROP_MIN_SDK_VERSION='))).toEqual([
      'PROP_MIN_SDK_VERSION=26',
    ]);

    expect(project.read('proj/gradle/wrapper/gradle-wrapper.properties').split('\n')).toEqual([
      'distributionBase=GRADLE_USER_HOME',
      'distributionPath=wrapper/dists',
      `# ${START}`,
      'distributionUrl=https\\://services.gradle.org/distributions/gradle-8.13-bin.zip',
      '# was: distributionUrl=https\\://services.gradle.org/distributions/gradle-8.0.2-bin.zip',
      '# <<< oam-cocos',
      'zipStoreBase=GRADLE_USER_HOME',
      'zipStorePath=wrapper/dists',
      '',
    ]);

    expect(
      linesBetween(
        project.read('app/build.gradle'),
        'dependencies {',
        "    implementation fileTree(dir: '../libs', include: ['*.jar','*.aar'])",
      ),
    ).toEqual([
      'dependencies {',
      `    // ${START}`,
      "    implementation project(':oam-nano')",
      '    // <<< oam-cocos',
      "    implementation fileTree(dir: '../libs', include: ['*.jar','*.aar'])",
    ]);
    // app/build.gradle keeps reading the SDK levels from gradle.properties.
    expect(project.read('app/build.gradle')).toContain('        minSdkVersion PROP_MIN_SDK_VERSION\n');
    // Without manifest entries from oam-patch.json the manifest is not touched.
    expect(project.read('app/AndroidManifest.xml')).toBe(fixture('app/AndroidManifest.xml'));
  });

  test('apply copies the module without build output and marks the copy', () => {
    apply(true);
    const moduleDir = path.join(project.files.root, 'oam-nano');
    expect(fs.readFileSync(path.join(moduleDir, 'build.gradle'), 'utf8')).toBe(
      fs.readFileSync(path.join(project.moduleSource, 'build.gradle'), 'utf8'),
    );
    expect(fs.existsSync(path.join(moduleDir, 'src/main/kotlin/oam/nano/Bridge.kt'))).toBe(true);
    expect(fs.existsSync(path.join(moduleDir, '.oam-cocos'))).toBe(true);
    for (const left of ['build', '.gradle', 'settings.gradle'])
      expect(fs.existsSync(path.join(moduleDir, left))).toBe(false);
  });

  test('the report lists every change with the file it is in', () => {
    const report = apply(true);
    const changed = Object.fromEntries(report.files.map((file) => [file.label, file.changed]));
    expect(changed['proj/build.gradle']).toEqual([
      'Android Gradle Plugin 8.0.2 → 8.13.2 (its R8 reads the Kotlin 2.3 metadata of ML Kit; compileSdk 35)',
      'Kotlin Gradle plugin 2.3.0 on the buildscript classpath',
    ]);
    expect(changed['proj/gradle.properties']).toEqual([
      'PROP_MIN_SDK_VERSION 21 → 26',
      'PROP_COMPILE_SDK_VERSION 34 → 35',
    ]);
    expect(changed['app/build.gradle']).toEqual(["implementation project(':oam-nano')"]);
    expect(changed['proj/oam-nano/']).toHaveLength(1);
    expect(report.files.every((file) => file.notDone.length === 0)).toBe(true);
  });

  test('applying twice changes nothing, byte for byte, and reports everything as already there', () => {
    apply(true);
    const afterFirst = project.snapshot();
    const second = apply(true);
    expect(second.ok).toBe(true);
    expect(second.written).toBe(false);
    expect(project.snapshot()).toEqual(afterFirst);
    expect(second.files.every((file) => file.changed.length === 0 && !file.written)).toBe(true);
    expect(second.files.find((file) => file.label === 'proj/build.gradle')?.alreadyThere).toHaveLength(2);
  });

  // gradle.properties is Creator's: it rewrites it from the build panel before every build, so
  // the hook never puts a value back there (a build panel's API 36 must not become 34). Without
  // that rewrite (as here) the raised values stay, without markers; every other file is restored.
  const raisedProperties = (text: string) =>
    text
      .replace('PROP_COMPILE_SDK_VERSION=34', 'PROP_COMPILE_SDK_VERSION=35')
      .replace('PROP_MIN_SDK_VERSION=21', 'PROP_MIN_SDK_VERSION=26');

  test('reverting restores every file byte for byte but gradle.properties, whose current values stay, and removes the module', () => {
    const before = project.snapshot();
    apply(true);
    const report = apply(false);
    expect(report.ok).toBe(true);
    expect(report.written).toBe(true);
    const after = project.snapshot();
    for (const [file, bytes] of before)
      if (!file.endsWith('proj/gradle.properties')) expect([file, after.get(file)]).toEqual([file, bytes]);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const label of PROJECT_LABELS) {
      expect(project.read(label)).toBe(
        label === 'proj/gradle.properties' ? raisedProperties(fixture(label)) : fixture(label),
      );
    }
  });

  test('reverting twice, or on a project never patched, changes nothing', () => {
    const before = project.snapshot();
    const report = apply(false);
    expect(report.ok).toBe(true);
    expect(report.written).toBe(false);
    expect(project.snapshot()).toEqual(before);
    apply(true);
    apply(false);
    const reverted = project.snapshot();
    expect(apply(false).written).toBe(false);
    expect(project.snapshot()).toEqual(reverted);
  });

  test('the option off does not even need the module source', () => {
    const before = project.snapshot();
    fs.rmSync(project.moduleSource, { recursive: true });
    const snapshotWithoutModule = project.snapshot();
    const report = applyNanoPatch(project.files, { enable: false, moduleSource: project.moduleSource });
    expect(report.ok).toBe(true);
    expect(project.snapshot()).toEqual(snapshotWithoutModule);
    expect(before.size).toBeGreaterThan(snapshotWithoutModule.size);
  });

  test('apply, revert, apply gives the same files as the first apply (gradle.properties: the same values)', () => {
    apply(true);
    const applied = project.snapshot();
    const appliedProperties = project.read('proj/gradle.properties');
    apply(false);
    apply(true);
    const again = project.snapshot();
    for (const [file, bytes] of applied)
      if (!file.endsWith('proj/gradle.properties')) expect([file, again.get(file)]).toEqual([file, bytes]);
    const live = (text: string) => text.split('\n').filter((line) => /^PROP_(MIN|COMPILE)_SDK_VERSION=/.test(line));
    expect(live(project.read('proj/gradle.properties'))).toEqual(live(appliedProperties));
  });

  test('a changed module source is re-copied and stale files are removed', () => {
    apply(true);
    fs.rmSync(path.join(project.moduleSource, 'src/main/kotlin/oam/nano/Bridge.kt'));
    fs.writeFileSync(path.join(project.moduleSource, 'build.gradle'), "apply plugin: 'com.android.library'\n// v2\n");
    const report = apply(true);
    const moduleDir = path.join(project.files.root, 'oam-nano');
    expect(report.files.find((file) => file.label === 'proj/oam-nano/')?.changed).toEqual([
      'copy of native-android/ (module :oam-nano): 1 file(s) written, 1 removed',
    ]);
    expect(fs.readFileSync(path.join(moduleDir, 'build.gradle'), 'utf8')).toContain('// v2');
    expect(fs.existsSync(path.join(moduleDir, 'src/main/kotlin/oam/nano/Bridge.kt'))).toBe(false);
  });
});
