// Every asset an asset database folder holds, found by uuid from its .meta files, sub-assets
// (a texture's `@6c48a`, a sprite frame's `@f9941`) included. The web build uses it to find the
// engine's own assets (editor/assets, Creator's db://internal) that a scene names by uuid.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** @typedef {{ uuid: string, path: string, meta: object, importer: string, parent?: object }} MetaEntry */

/** Walks `root` and returns a Map uuid → entry; `path` is the asset file (the .meta minus its extension). */
export function indexMetas(root) {
  const found = new Map();
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.name.endsWith('.meta')) addMeta(found, full);
    }
  };
  visit(root);
  return found;
}

function addMeta(found, metaPath) {
  const meta = JSON.parse(readFileSync(metaPath, 'utf8'));
  if (!meta.uuid) return;
  const top = { uuid: meta.uuid, path: metaPath.slice(0, -'.meta'.length), meta, importer: meta.importer };
  found.set(meta.uuid, top);
  for (const sub of Object.values(meta.subMetas || {}))
    if (sub.uuid)
      found.set(sub.uuid, { uuid: sub.uuid, path: top.path, meta: sub, importer: sub.importer, parent: top });
}
