/** Temp copies of the Cocos 3.8 Android template fixture and a stand-in native module. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { AndroidProjectFiles } from '../../extension/builder/android-patch';

export const FIXTURE_DIR = path.join(__dirname, '..', 'fixtures', 'android-template');

export interface TempProject {
  base: string;
  files: AndroidProjectFiles;
  moduleSource: string;
  /** Absolute path of a project file named as in the report labels ("proj/build.gradle", "app/build.gradle"). */
  file(label: string): string;
  read(label: string): string;
  write(label: string, text: string): void;
  /** Every file under the temp folder, path → bytes. */
  snapshot(): Map<string, string>;
}

/** Copies a folder tree (the template's files as Creator lays them out). */
export function copyTree(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyTree(source, target);
    else fs.copyFileSync(source, target);
  }
}

function listTree(root: string, relative = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(`${child}/`, ...listTree(root, child));
    else out.push(child);
  }
  return out.sort();
}

/** A minimal library module like native-android/ (with build output that must not be copied). */
export function writeModuleSource(dir: string, patchConfig?: unknown): void {
  const files: Record<string, string> = {
    'build.gradle': "apply plugin: 'com.android.library'\napply plugin: 'kotlin-android'\n",
    'src/main/AndroidManifest.xml': '<manifest />\n',
    'src/main/kotlin/oam/nano/Bridge.kt': 'package oam.nano\n\nclass Bridge\n',
    'build/intermediates/junk.bin': 'not copied\n',
    '.gradle/cache': 'not copied\n',
    'settings.gradle': "rootProject.name = 'standalone'\n",
  };
  if (patchConfig !== undefined) files['oam-patch.json'] = JSON.stringify(patchConfig);
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    fs.writeFileSync(path.join(dir, relative), text);
  }
}

export function makeTempProject(options: { patchConfig?: unknown; withModule?: boolean } = {}): TempProject {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'oam-android-'));
  copyTree(FIXTURE_DIR, path.join(base, 'game'));
  const moduleSource = path.join(base, 'native-android');
  if (options.withModule !== false) writeModuleSource(moduleSource, options.patchConfig);
  const files = {
    root: path.join(base, 'game', 'proj'),
    nativeDir: path.join(base, 'game', 'native', 'engine', 'android'),
  };
  const file = (label: string): string =>
    label.startsWith('proj/') ? path.join(files.root, label.slice('proj/'.length)) : path.join(files.nativeDir, label);
  return {
    base,
    files,
    moduleSource,
    file,
    read: (label) => fs.readFileSync(file(label), 'utf8'),
    write: (label, text) => fs.writeFileSync(file(label), text),
    snapshot: () => {
      const out = new Map<string, string>();
      for (const relative of listTree(base)) {
        out.set(relative, relative.endsWith('/') ? '' : fs.readFileSync(path.join(base, relative)).toString('base64'));
      }
      return out;
    },
  };
}

export function removeTempProject(project: TempProject): void {
  fs.rmSync(project.base, { recursive: true, force: true });
}

export const PROJECT_LABELS = [
  'proj/build.gradle',
  'proj/settings.gradle',
  'proj/gradle.properties',
  'proj/gradle/wrapper/gradle-wrapper.properties',
  'app/build.gradle',
  'app/AndroidManifest.xml',
];
