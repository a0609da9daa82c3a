import * as fs from 'fs';
import * as path from 'path';
import { applyNanoPatch, formatPatchReport } from '../../extension/builder/android-patch';
import { TempProject, makeTempProject, removeTempProject } from './fixture-project';

const START = '>>> oam-cocos (added by the oam-cocos extension; do not edit inside)';

describe('applyNanoPatch on edited and unusual projects', () => {
  const projects: TempProject[] = [];
  afterEach(() => {
    for (const project of projects.splice(0)) removeTempProject(project);
  });
  const make = (options?: Parameters<typeof makeTempProject>[0]): TempProject => {
    const project = makeTempProject(options);
    projects.push(project);
    return project;
  };
  const apply = (project: TempProject, enable = true) =>
    applyNanoPatch(project.files, { enable, moduleSource: project.moduleSource });

  test('lines added by hand before and after the blocks survive apply and revert', () => {
    const project = make();
    apply(project);
    const gradle = project
      .read('app/build.gradle')
      .replace('dependencies {\n', "dependencies {\n    implementation 'com.example:before:1.0' // hand-added\n");
    const withAfter = gradle.replace(
      '    // <<< oam-cocos\n',
      "    // <<< oam-cocos\n    implementation 'com.example:after:1.0' // hand-added\n",
    );
    project.write('app/build.gradle', withAfter);
    const settings = project.read('proj/settings.gradle') + "include ':my-own'\n";
    project.write('proj/settings.gradle', settings);

    const reapplied = apply(project);
    expect(reapplied.ok).toBe(true);
    // The dependency block moves right under `dependencies {` again, the hand lines stay.
    const appLines = project.read('app/build.gradle').split('\n');
    const depsAt = appLines.indexOf('dependencies {');
    expect(appLines.slice(depsAt, depsAt + 6)).toEqual([
      'dependencies {',
      `    // ${START}`,
      "    implementation project(':oam-nano')",
      '    // <<< oam-cocos',
      "    implementation 'com.example:before:1.0' // hand-added",
      "    implementation 'com.example:after:1.0' // hand-added",
    ]);
    expect(project.read('proj/settings.gradle').split('\n').slice(-6)).toEqual([
      'rootProject.name = "CocosGame"',
      "include ':my-own'",
      `// ${START}`,
      "include ':oam-nano'",
      '// <<< oam-cocos',
      '',
    ]);
    // Applying again after that is byte-stable.
    const stable = project.snapshot();
    apply(project);
    expect(project.snapshot()).toEqual(stable);

    apply(project, false);
    const reverted = project.read('app/build.gradle');
    expect(reverted).toContain(
      "dependencies {\n    implementation 'com.example:before:1.0' // hand-added\n    implementation 'com.example:after:1.0' // hand-added\n    implementation fileTree",
    );
    expect(reverted).not.toContain('oam-cocos');
    expect(project.read('proj/settings.gradle')).toBe(settings.replace(/\/\/ >>> oam-cocos[^]*?<<< oam-cocos\n/, ''));
    expect(
      project.read('proj/settings.gradle').endsWith('rootProject.name = "CocosGame"\n' + "include ':my-own'\n"),
    ).toBe(true);
  });

  test('a Gradle file without the expected lines: the report names file and anchor, nothing is written', () => {
    const project = make();
    project.write('app/build.gradle', project.read('app/build.gradle').replace('dependencies {', 'deps {'));
    const before = project.snapshot();
    const report = apply(project);
    expect(report.ok).toBe(false);
    expect(report.written).toBe(false);
    expect(project.snapshot()).toEqual(before);
    const app = report.files.find((file) => file.label === 'app/build.gradle');
    expect(app?.file).toBe(project.file('app/build.gradle'));
    expect(app?.notDone).toEqual([
      {
        what: "add implementation project(':oam-nano')",
        reason: 'no line matching a top-level `dependencies {` was found',
        blocking: true,
      },
    ]);
    expect(report.files.every((file) => !file.written)).toBe(true);
    expect(formatPatchReport(report)).toContain('could not apply Gemini Nano support; no file was changed');
    expect(formatPatchReport(report)).toContain('app/build.gradle: ERROR');
  });

  test('a missing AGP classpath line or a missing file blocks every write', () => {
    const project = make();
    project.write('proj/build.gradle', '// nothing here\n');
    fs.rmSync(project.file('proj/gradle/wrapper/gradle-wrapper.properties'));
    const before = project.snapshot();
    const report = apply(project);
    expect(report.ok).toBe(false);
    expect(project.snapshot()).toEqual(before);
    const blocking = report.files.flatMap((file) =>
      file.notDone.filter((item) => item.blocking).map((item) => `${file.label}: ${item.reason}`),
    );
    expect(blocking).toEqual([
      "proj/build.gradle: no line matching `classpath 'com.android.tools.build:gradle:<version>'` was found",
      'proj/gradle/wrapper/gradle-wrapper.properties: the file does not exist',
    ]);
  });

  test('a missing PROP_MIN_SDK_VERSION key is reported against gradle.properties', () => {
    const project = make();
    project.write(
      'proj/gradle.properties',
      project.read('proj/gradle.properties').replace('PROP_MIN_SDK_VERSION=21\n', ''),
    );
    const before = project.snapshot();
    const report = apply(project);
    expect(report.ok).toBe(false);
    expect(project.snapshot()).toEqual(before);
    expect(report.files.find((file) => file.label === 'proj/gradle.properties')?.notDone[0].reason).toBe(
      'no line matching `PROP_MIN_SDK_VERSION=...` (app/build.gradle reads it) was found',
    );
  });

  test('a broken marker block is reported, and neither apply nor revert writes anything', () => {
    const project = make();
    apply(project);
    project.write(
      'proj/build.gradle',
      project
        .read('proj/build.gradle')
        .replace('        // <<< oam-cocos\n        // >>> oam-cocos', '        // >>> oam-cocos'),
    );
    const before = project.snapshot();
    for (const enable of [true, false]) {
      const report = apply(project, enable);
      expect(report.ok).toBe(false);
      expect(report.files.find((file) => file.label === 'proj/build.gradle')?.notDone[0].reason).toMatch(
        /block starts before the block opened on line 10 ends/,
      );
      expect(project.snapshot()).toEqual(before);
    }
  });

  test('an AGP already newer, a newer Gradle and a Kotlin plugin already present are left untouched', () => {
    const project = make();
    const rootBuild = project
      .read('proj/build.gradle')
      .replace(
        "gradle:8.0.2'",
        'gradle:8.13.3\'\n        classpath "org.jetbrains.kotlin:kotlin-gradle-plugin:2.3.10"',
      );
    project.write('proj/build.gradle', rootBuild);
    const wrapper = project
      .read('proj/gradle/wrapper/gradle-wrapper.properties')
      .replace('gradle-8.0.2-bin', 'gradle-8.14-all');
    project.write('proj/gradle/wrapper/gradle-wrapper.properties', wrapper);
    const report = apply(project);
    expect(report.ok).toBe(true);
    expect(project.read('proj/build.gradle')).toBe(rootBuild);
    expect(project.read('proj/gradle/wrapper/gradle-wrapper.properties')).toBe(wrapper);
    expect(report.files.find((file) => file.label === 'proj/build.gradle')?.alreadyThere).toEqual([
      'Android Gradle Plugin 8.13.3 (at least 8.13.2)',
      'Kotlin Gradle plugin 2.3.10 (at least 2.3.0)',
    ]);
    expect(
      report.files.find((file) => file.label === 'proj/gradle/wrapper/gradle-wrapper.properties')?.alreadyThere,
    ).toEqual(['Gradle 8.14 (at least 8.13)']);
  });

  test('an older Kotlin plugin is raised in place and restored on revert', () => {
    const project = make();
    const rootBuild = project
      .read('proj/build.gradle')
      .replace(
        "gradle:8.0.2'\n",
        "gradle:8.0.2'\n        classpath 'org.jetbrains.kotlin:kotlin-gradle-plugin:1.9.22'\n",
      );
    project.write('proj/build.gradle', rootBuild);
    apply(project);
    expect(project.read('proj/build.gradle')).toContain(
      [
        `        // ${START}`,
        "        classpath 'org.jetbrains.kotlin:kotlin-gradle-plugin:2.3.0'",
        "        // was: classpath 'org.jetbrains.kotlin:kotlin-gradle-plugin:1.9.22'",
        '        // <<< oam-cocos',
      ].join('\n'),
    );
    apply(project, false);
    expect(project.read('proj/build.gradle')).toBe(rootBuild);
  });

  test('an AGP older than 8.0 is refused instead of half-migrated', () => {
    const project = make();
    project.write('proj/build.gradle', project.read('proj/build.gradle').replace("gradle:8.0.2'", "gradle:4.1.0'"));
    const before = project.snapshot();
    const report = apply(project);
    expect(report.ok).toBe(false);
    expect(project.snapshot()).toEqual(before);
    expect(report.files[0].notDone[0].reason).toMatch(/AGP 4\.1\.0 is older than 8\.0/);
  });

  test('an AGP version given by a variable is reported, not guessed, and the rest is applied', () => {
    const project = make();
    project.write(
      'proj/build.gradle',
      project
        .read('proj/build.gradle')
        .replace("'com.android.tools.build:gradle:8.0.2'", '"com.android.tools.build:gradle:$agpVersion"'),
    );
    const report = apply(project);
    expect(report.ok).toBe(true);
    expect(report.files[0].notDone).toEqual([
      {
        what: 'raise the Android Gradle Plugin to 8.13.2',
        reason: 'its version "$agpVersion" is not a plain version; make sure it is at least 8.13.2',
        blocking: false,
      },
    ]);
    expect(project.read('proj/build.gradle')).toContain(
      '        classpath "com.android.tools.build:gradle:$agpVersion"\n',
    );
    expect(project.read('proj/build.gradle')).toContain(
      '        classpath "org.jetbrains.kotlin:kotlin-gradle-plugin:2.3.0"\n',
    );
  });

  test('minSdk already at least 26 (and compileSdk 35) in gradle.properties is untouched', () => {
    const project = make();
    const properties = project
      .read('proj/gradle.properties')
      .replace('PROP_MIN_SDK_VERSION=21', 'PROP_MIN_SDK_VERSION=28')
      .replace('PROP_COMPILE_SDK_VERSION=34', 'PROP_COMPILE_SDK_VERSION=35');
    project.write('proj/gradle.properties', properties);
    const report = apply(project);
    expect(report.ok).toBe(true);
    expect(project.read('proj/gradle.properties')).toBe(properties);
    expect(report.files.find((file) => file.label === 'proj/gradle.properties')?.alreadyThere).toEqual([
      'PROP_MIN_SDK_VERSION=28 (at least 26)',
      'PROP_COMPILE_SDK_VERSION=35 (at least 35)',
    ]);
  });

  test('a literal minSdkVersion in app/build.gradle is patched there, not in gradle.properties', () => {
    const project = make();
    project.write(
      'app/build.gradle',
      project.read('app/build.gradle').replace('minSdkVersion PROP_MIN_SDK_VERSION', 'minSdkVersion 24'),
    );
    const properties = project.read('proj/gradle.properties');
    apply(project);
    expect(project.read('app/build.gradle')).toContain(
      [
        `        // ${START}`,
        '        minSdkVersion 26',
        '        // was: minSdkVersion 24',
        '        // <<< oam-cocos',
        '        targetSdkVersion PROP_TARGET_SDK_VERSION',
      ].join('\n'),
    );
    expect(project.read('proj/gradle.properties')).toContain('PROP_MIN_SDK_VERSION=21\n');
    expect(project.read('proj/gradle.properties')).not.toBe(properties); // compileSdk still raised there
  });

  test('a literal minSdk of 30 in app/build.gradle is untouched', () => {
    const project = make();
    const app = project.read('app/build.gradle').replace('minSdkVersion PROP_MIN_SDK_VERSION', 'minSdk = 30');
    project.write('app/build.gradle', app);
    const report = apply(project);
    expect(report.files.find((file) => file.label === 'app/build.gradle')?.alreadyThere).toContain(
      'minSdk 30 (at least 26)',
    );
    expect(
      project
        .read('app/build.gradle')
        .split('\n')
        .filter((line) => line.includes('minSdk')),
    ).toEqual(['        minSdk = 30']);
  });

  test('a dependency or include written by hand is recognised and not duplicated', () => {
    const project = make();
    project.write(
      'app/build.gradle',
      project
        .read('app/build.gradle')
        .replace(
          "implementation project(':libcocos')",
          "implementation project(':libcocos')\n    implementation project(':oam-nano')",
        ),
    );
    const settings = project.read('proj/settings.gradle') + "include ':oam-nano'\n";
    project.write('proj/settings.gradle', settings);
    const report = apply(project);
    expect(report.ok).toBe(true);
    expect(project.read('proj/settings.gradle')).toBe(settings);
    expect(project.read('app/build.gradle')).not.toContain('>>> oam-cocos');
    expect(report.files.find((file) => file.label === 'app/build.gradle')?.alreadyThere).toContain(
      "implementation project(':oam-nano') (written by hand)",
    );
  });

  test('CRLF files keep their line endings through apply and revert', () => {
    const project = make();
    const crlf = project.read('proj/settings.gradle').replace(/\n/g, '\r\n');
    project.write('proj/settings.gradle', crlf);
    apply(project);
    const patched = project.read('proj/settings.gradle');
    expect(patched).toContain(`\r\n// ${START}\r\ninclude ':oam-nano'\r\n// <<< oam-cocos\r\n`);
    expect(patched.replace(/\r\n/g, '')).not.toContain('\n');
    apply(project, false);
    expect(project.read('proj/settings.gradle')).toBe(crlf);
  });

  test('manifest entries asked for by oam-patch.json go inside <application> and <manifest>, and come out again', () => {
    const project = make({
      patchConfig: {
        manifest: {
          application: ['<service android:name="oam.nano.NanoService" android:exported="false" />'],
          manifest: ['<uses-permission android:name="android.permission.FOREGROUND_SERVICE" />'],
        },
      },
    });
    const original = project.read('app/AndroidManifest.xml');
    const report = apply(project);
    expect(report.ok).toBe(true);
    const lines = project.read('app/AndroidManifest.xml').split('\n');
    const applicationEnd = lines.indexOf('    </application>');
    expect(lines.slice(applicationEnd - 3, applicationEnd + 1)).toEqual([
      `        <!-- ${START} -->`,
      '        <service android:name="oam.nano.NanoService" android:exported="false" />',
      '        <!-- <<< oam-cocos -->',
      '    </application>',
    ]);
    const manifestEnd = lines.indexOf('</manifest>');
    expect(lines.slice(manifestEnd - 3, manifestEnd + 1)).toEqual([
      `    <!-- ${START} -->`,
      '    <uses-permission android:name="android.permission.FOREGROUND_SERVICE" />',
      '    <!-- <<< oam-cocos -->',
      '</manifest>',
    ]);
    const stable = project.snapshot();
    apply(project);
    expect(project.snapshot()).toEqual(stable);
    apply(project, false);
    expect(project.read('app/AndroidManifest.xml')).toBe(original);
  });

  test('oam-patch.json can rename the module and change the versions', () => {
    const project = make({
      patchConfig: {
        moduleName: 'nano-bridge',
        minSdk: 27,
        androidGradlePlugin: '8.7.0',
        gradle: '8.9',
        kotlin: '2.2.0',
      },
    });
    apply(project);
    expect(fs.existsSync(path.join(project.files.root, 'nano-bridge', 'build.gradle'))).toBe(true);
    expect(project.read('proj/settings.gradle')).toContain("\ninclude ':nano-bridge'\n");
    expect(project.read('app/build.gradle')).toContain("    implementation project(':nano-bridge')\n");
    expect(project.read('proj/gradle.properties')).toContain('\nPROP_MIN_SDK_VERSION=27\n');
    expect(project.read('proj/build.gradle')).toContain("classpath 'com.android.tools.build:gradle:8.7.0'");
    expect(project.read('proj/gradle/wrapper/gradle-wrapper.properties')).toContain('gradle-8.9-bin.zip');
    apply(project, false);
    expect(fs.existsSync(path.join(project.files.root, 'nano-bridge'))).toBe(false);
  });

  test('an oam-patch.json that is not JSON, or has wrong fields, blocks the patch', () => {
    for (const [raw, message] of [
      ['{ not json', /oam-patch\.json is not valid JSON/],
      [
        JSON.stringify({ minSdk: 'high', moduleName: '../escape', manifest: { activity: [] } }),
        /"moduleName" must be a string.*"minSdk" must be a positive integer.*"manifest" has unknown keys: activity/,
      ],
      [JSON.stringify([1]), /must hold a JSON object/],
    ] as const) {
      const project = make();
      fs.writeFileSync(path.join(project.moduleSource, 'oam-patch.json'), raw);
      const before = project.snapshot();
      const report = apply(project);
      expect(report.ok).toBe(false);
      expect(project.snapshot()).toEqual(before);
      expect(report.files.find((file) => file.label === 'proj/oam-nano/')?.notDone[0].reason).toMatch(message);
    }
  });

  test('a missing module source, or one that is not a Gradle module, blocks the patch', () => {
    const missing = make({ withModule: false });
    const before = missing.snapshot();
    const report = apply(missing);
    expect(report.ok).toBe(false);
    expect(missing.snapshot()).toEqual(before);
    expect(report.files.find((file) => file.label === 'proj/oam-nano/')?.notDone[0].reason).toMatch(/does not exist/);

    const notGradle = make();
    fs.rmSync(path.join(notGradle.moduleSource, 'build.gradle'));
    expect(apply(notGradle).files.find((file) => file.label === 'proj/oam-nano/')?.notDone[0].reason).toMatch(
      /no build.gradle/,
    );
  });

  test("a folder of the module's name that the hook did not make is neither overwritten nor deleted", () => {
    const project = make();
    const foreign = path.join(project.files.root, 'oam-nano');
    fs.mkdirSync(foreign);
    fs.writeFileSync(path.join(foreign, 'mine.txt'), 'user data');
    const before = project.snapshot();
    const report = apply(project);
    expect(report.ok).toBe(false);
    expect(project.snapshot()).toEqual(before);
    const revert = apply(project, false);
    expect(revert.ok).toBe(true);
    expect(fs.readFileSync(path.join(foreign, 'mine.txt'), 'utf8')).toBe('user data');
    expect(revert.files.find((file) => file.label === 'proj/oam-nano/')?.notDone[0]).toEqual({
      what: 'remove the module folder',
      reason: 'it was not made by oam-cocos, so it is kept',
      blocking: false,
    });
  });

  test("Cocos's per-build rewrite of gradle.properties: the value Creator wrote is read again, raised only if lower, never put back", () => {
    const project = make();
    apply(project);
    const properties = project.read('proj/gradle.properties');
    expect(properties).toContain('PROP_MIN_SDK_VERSION=26\n# was: PROP_MIN_SDK_VERSION=21\n');
    // What Creator's native-pack-tool does on each build: a first-match replace per key (here the build panel says 24).
    project.write('proj/gradle.properties', properties.replace(/PROP_MIN_SDK_VERSION=.*/, 'PROP_MIN_SDK_VERSION=24'));
    apply(project);
    // Raised again, and the block now saves what Creator wrote (24), not the 21 it saw a build earlier.
    expect(project.read('proj/gradle.properties')).toBe(
      properties.replace('# was: PROP_MIN_SDK_VERSION=21', '# was: PROP_MIN_SDK_VERSION=24'),
    );
  });
});
