/**
 * Reading the tavern sample's project files for the tests: metas, the scene, and Creator's
 * compressed uuids (written independently of samples/tavern/tools/uuid.mjs, so the test checks
 * the tool instead of repeating it).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const REPO = join(__dirname, '..', '..');
export const SAMPLE = join(REPO, 'samples', 'tavern');
export const SAMPLE_ASSETS = join(SAMPLE, 'assets');
export const EXTENSION_ASSETS = join(REPO, 'assets');
export const SCENE_PATH = join(SAMPLE_ASSETS, 'scenes', 'tavern.scene');

export interface Meta {
  /** Path relative to the repository. */
  path: string;
  /** The asset the meta describes, relative to the repository. */
  asset: string;
  ver: string;
  importer: string;
  uuid: string;
  raw: Record<string, unknown>;
}

/** Every file and folder under `dir` (relative to the repository), dot files left out. */
export function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    out.push(relative(REPO, path));
    if (statSync(path).isDirectory()) out.push(...walk(path));
  }
  return out;
}

export function readMetas(dir: string): Meta[] {
  return walk(dir)
    .filter((file) => file.endsWith('.meta'))
    .map((path) => {
      const raw = JSON.parse(readFileSync(join(REPO, path), 'utf8')) as Record<string, unknown>;
      return {
        path,
        asset: path.slice(0, -'.meta'.length),
        ver: String(raw.ver),
        importer: String(raw.importer),
        uuid: String(raw.uuid),
        raw,
      };
    });
}

export const UUID_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Creator's 23-char (5 hex kept) or 22-char (2 hex kept) form back to a 36-char uuid. */
export function expandUuid(short: string): string {
  const keep = short.length === 23 ? 5 : short.length === 22 ? 2 : -1;
  if (keep < 0 || !/^[0-9a-f]+$/.test(short.slice(0, keep))) throw new Error(`not a compressed uuid: ${short}`);
  const digits: string[] = short.slice(0, keep).split('');
  for (let index = keep; index < short.length; index += 2) {
    const value = BASE64.indexOf(short[index]) * 64 + BASE64.indexOf(short[index + 1]);
    if (BASE64.indexOf(short[index]) < 0 || BASE64.indexOf(short[index + 1]) < 0)
      throw new Error(`not a compressed uuid: ${short}`);
    digits.push(...value.toString(16).padStart(3, '0').split(''));
  }
  const hex = digits.join('');
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}

export type SceneObject = Record<string, unknown> & { __type__: string };

export function readScene(): SceneObject[] {
  return JSON.parse(readFileSync(SCENE_PATH, 'utf8')) as SceneObject[];
}

/** Every `{__id__}` / `{__uuid__}` reference inside a value, with where it was found. */
export function references(value: unknown, where = ''): Array<{ where: string; id?: number; uuid?: string }> {
  const out: Array<{ where: string; id?: number; uuid?: string }> = [];
  const visit = (node: unknown, at: string) => {
    if (Array.isArray(node)) node.forEach((item, index) => visit(item, `${at}[${index}]`));
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if ('__id__' in record) out.push({ where: at, id: record.__id__ as number });
      else if ('__uuid__' in record) out.push({ where: at, uuid: record.__uuid__ as string });
      else for (const [key, child] of Object.entries(record)) visit(child, at ? `${at}.${key}` : key);
    }
  };
  visit(value, where);
  return out;
}

/**
 * The `@property` field names a component script declares: the field after each decorator, the
 * decorator's arguments possibly spread over several lines (as the formatter writes long ones).
 */
export function declaredProperties(scriptPath: string): string[] {
  const lines = readFileSync(scriptPath, 'utf8').split('\n');
  const names: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (!/^\s*@property\b/.test(lines[index])) continue;
    // Past the decorator's closing parenthesis, and any further decorators.
    let depth = 0;
    let next = index;
    for (; next < lines.length; next++) {
      for (const char of lines[next]) depth += char === '(' ? 1 : char === ')' ? -1 : 0;
      if (depth <= 0 && !/^\s*@\w+\s*$/.test(lines[next + 1] ?? '') && !/^\s*@/.test(lines[next + 1] ?? '')) break;
    }
    const field = /^\s*(?:readonly\s+)?([A-Za-z_$][\w$]*)\s*[:=?!]/.exec(lines[next + 1] ?? '');
    if (field) names.push(field[1]);
    index = next;
  }
  return names;
}
