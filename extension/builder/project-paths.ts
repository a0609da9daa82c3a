/**
 * Where the Android files of a Creator build live. The Gradle project is `<dest>/proj`; the
 * app module lives in the project's native folder, whose path Cocos writes as NATIVE_DIR
 * into proj/gradle.properties on every build (so it is right for `google-play` too).
 */
import * as fs from 'fs';
import * as path from 'path';
import type { AndroidProjectFiles } from './android-patch';

/** Reads NATIVE_DIR from gradle.properties text, undoing .properties escapes. */
export function nativeDirFromProperties(text: string): string | null {
  const match = /^\s*NATIVE_DIR\s*=\s*(.*?)\s*$/m.exec(text);
  if (!match || match[1] === '') return null;
  return match[1].replace(/\\(.)/g, '$1');
}

export function resolveAndroidProject(
  dest: string,
  platform: string,
  projectPath: string | null,
): AndroidProjectFiles | null {
  const root = path.join(dest, 'proj');
  const propertiesFile = path.join(root, 'gradle.properties');
  if (fs.existsSync(propertiesFile)) {
    const nativeDir = nativeDirFromProperties(fs.readFileSync(propertiesFile, 'utf8'));
    if (nativeDir && fs.existsSync(path.join(nativeDir, 'app'))) return { root, nativeDir };
  }
  if (!projectPath) return null;
  for (const candidate of [platform, 'android']) {
    const nativeDir = path.join(projectPath, 'native', 'engine', candidate);
    if (fs.existsSync(path.join(nativeDir, 'app'))) return { root, nativeDir };
  }
  return null;
}
