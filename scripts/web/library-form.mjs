// The library ("dynamic" JSON) form of an asset, made from its source file and .meta the way
// Creator's importers write it into a project's library/ folder. The engine reads this form
// when FORCE_COMPILED is off; a real build writes a compiled form instead, whose serializer is
// part of the editor. Only the importers the tavern needs are here.
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';

/** Texture filter and wrap names of a .meta → the engine's numbers (cocos/gfx/base/define.ts Filter, Address). */
const FILTER = { none: 0, nearest: 1, point: 1, linear: 2 };
const ADDRESS = { repeat: 0, 'mirrored-repeat': 1, 'clamp-to-edge': 2, 'clamp-to-border': 3 };
/** ImageAsset.extnames (cocos/asset/assets/image-asset.ts): a format is stored as its index. */
const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.bmp', '.webp', '.pvr', '.pkm', '.astc'];

function lookup(table, name, what) {
  if (!(name in table)) throw new Error(`unknown ${what} "${name}"`);
  return table[name];
}

function nameOf(entry) {
  return entry.meta.displayName || basename(entry.path, extname(entry.path));
}

function pngSize(path) {
  const bytes = readFileSync(path);
  if (bytes.toString('latin1', 1, 4) !== 'PNG') throw new Error(`${path}: only PNG images are supported`);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function imageAsset(entry) {
  const ext = extname(entry.path).toLowerCase();
  const index = IMAGE_EXTENSIONS.indexOf(ext);
  if (index < 0) throw new Error(`${entry.path}: not an image the engine reads`);
  const size = pngSize(entry.path);
  return {
    json: {
      __type__: 'cc.ImageAsset',
      _name: nameOf(entry),
      _objFlags: 0,
      _native: ext,
      content: { fmt: String(index), w: size.width, h: size.height },
    },
    native: { ext, file: entry.path },
  };
}

function texture2d(entry) {
  const data = entry.meta.userData || {};
  const base = [
    lookup(FILTER, data.minfilter || 'linear', 'filter'),
    lookup(FILTER, data.magfilter || 'linear', 'filter'),
    lookup(ADDRESS, data.wrapModeS || 'repeat', 'wrap mode'),
    lookup(ADDRESS, data.wrapModeT || 'repeat', 'wrap mode'),
    lookup(FILTER, data.mipfilter || 'none', 'filter'),
    data.anisotropy || 0,
  ].join(',');
  return {
    json: {
      __type__: 'cc.Texture2D',
      _name: nameOf(entry),
      _objFlags: 0,
      _native: '',
      content: { base, mipmaps: [data.imageUuidOrDatabaseUri || entry.parent.uuid] },
    },
  };
}

function spriteFrame(entry) {
  const data = entry.meta.userData || {};
  const vertices = data.vertices;
  return {
    json: {
      __type__: 'cc.SpriteFrame',
      _name: nameOf(entry),
      _objFlags: 0,
      _native: '',
      content: {
        name: nameOf(entry),
        atlas: data.atlasUuid || '',
        rect: { x: data.trimX || 0, y: data.trimY || 0, width: data.width, height: data.height },
        offset: { x: data.offsetX || 0, y: data.offsetY || 0 },
        originalSize: { width: data.rawWidth, height: data.rawHeight },
        rotated: !!data.rotated,
        // INSET_LEFT, INSET_TOP, INSET_RIGHT, INSET_BOTTOM (cocos/2d/assets/sprite-frame.ts)
        capInsets: [data.borderLeft || 0, data.borderTop || 0, data.borderRight || 0, data.borderBottom || 0],
        vertices: vertices
          ? {
              rawPosition: vertices.rawPosition,
              indexes: vertices.indexes,
              uv: vertices.uv,
              nuv: vertices.nuv,
              minPos: { x: vertices.minPos[0], y: vertices.minPos[1], z: vertices.minPos[2] },
              maxPos: { x: vertices.maxPos[0], y: vertices.maxPos[1], z: vertices.maxPos[2] },
            }
          : undefined,
        texture: data.imageUuidOrDatabaseUri,
        packable: data.packable !== false,
        pixelsToUnit: data.pixelsToUnit || 100,
        pivot: { x: data.pivotX ?? 0.5, y: data.pivotY ?? 0.5 },
        meshType: data.meshType || 0,
      },
    },
  };
}

function jsonAsset(entry) {
  return {
    json: {
      __type__: 'cc.JsonAsset',
      _name: basename(entry.path, '.json'),
      _objFlags: 0,
      _native: '',
      json: JSON.parse(readFileSync(entry.path, 'utf8')),
    },
  };
}

/** Scenes: the source file is already in the library form. */
function asWritten(entry) {
  return { json: JSON.parse(readFileSync(entry.path, 'utf8')) };
}

/** Materials: as written, named after the file (the engine keeps built-in materials by name). */
function material(entry) {
  const json = JSON.parse(readFileSync(entry.path, 'utf8'));
  return { json: { ...json, _name: basename(entry.path, '.mtl') } };
}

const IMPORTERS = {
  image: imageAsset,
  texture: texture2d,
  'sprite-frame': spriteFrame,
  json: jsonAsset,
  'oam-persona': jsonAsset,
  scene: asWritten,
  material,
};

/**
 * `{ json, native? }` for one asset of a meta index (meta-index.mjs). Effects are compiled
 * elsewhere (effects/), so `effects` maps their uuids to the compiled asset.
 */
export function libraryForm(entry, { effects }) {
  if (entry.importer === 'effect') {
    const compiled = effects.get(entry.uuid);
    if (!compiled) throw new Error(`${entry.path}: this effect is not among the compiled ones`);
    return { json: compiled };
  }
  const importer = IMPORTERS[entry.importer];
  if (!importer) throw new Error(`${entry.path}: no library form for importer "${entry.importer}"`);
  try {
    return importer(entry);
  } catch (error) {
    throw new Error(`${entry.path} (${entry.uuid}): ${error.message}`, { cause: error });
  }
}

/** The uuids an asset's library form depends on: `__uuid__` references, a frame's texture, a texture's images. */
export function dependenciesOf(json) {
  const found = new Set();
  const visit = (value) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      if (typeof value.__uuid__ === 'string') found.add(value.__uuid__);
      for (const item of Object.values(value)) visit(item);
    }
  };
  visit(json);
  const content = !Array.isArray(json) && json.content;
  if (content && typeof content.texture === 'string') found.add(content.texture);
  if (content && Array.isArray(content.mipmaps)) content.mipmaps.filter(Boolean).forEach((uuid) => found.add(uuid));
  return [...found];
}
