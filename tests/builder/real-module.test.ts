/**
 * The build hook with the real native-android/ module (the other tests use a small stand-in):
 * what lands in the game's Gradle project is the library module without its JVM test sources,
 * and the Kotlin plugin it applies comes from the root buildscript the hook patches.
 */
import * as fs from 'fs';
import * as path from 'path';
import { applyNanoPatch } from '../../extension/builder/android-patch';
import { makeTempProject, removeTempProject, type TempProject } from './fixture-project';

const MODULE = path.join(__dirname, '..', '..', 'native-android');

function listFiles(dir: string, base = ''): string[] {
  return fs.readdirSync(path.join(dir, base), { withFileTypes: true }).flatMap((entry) => {
    const rel = base ? `${base}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(dir, rel) : [rel];
  });
}

describe('the hook with the real native-android module', () => {
  let project: TempProject;
  beforeEach(() => {
    project = makeTempProject();
  });
  afterEach(() => removeTempProject(project));

  test('copies the library sources and manifest, leaves out the JVM test sources and mirrors', () => {
    const report = applyNanoPatch(project.files, { enable: true, moduleSource: MODULE });
    expect(report.ok).toBe(true);
    const copied = path.join(project.files.root, 'oam-nano');
    const files = listFiles(copied);
    expect(files).toContain('build.gradle');
    expect(files).toContain('src/main/AndroidManifest.xml');
    expect(files.some((file) => file.startsWith('src/main/kotlin/com/oamcocos/nano/core/'))).toBe(true);
    expect(
      files.filter((file) => file.startsWith('src/test/') || file === 'test.sh' || file === 'oam-patch.json'),
    ).toEqual([]);
  });

  test('the module applies the Kotlin plugin without a version, and the root buildscript provides it', () => {
    applyNanoPatch(project.files, { enable: true, moduleSource: MODULE });
    const moduleGradle = project.read('proj/oam-nano/build.gradle');
    expect(moduleGradle).toMatch(/apply plugin: 'kotlin-android'/);
    expect(moduleGradle).not.toMatch(/^\s*buildscript\s*\{/m);
    expect(moduleGradle).toMatch(/minSdk 26/);
    expect(project.read('proj/build.gradle')).toMatch(
      /classpath 'org\.jetbrains\.kotlin:kotlin-gradle-plugin:2\.3\.\d+'/,
    );
  });
});
