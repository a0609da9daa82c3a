// Writes scripts/engine/engine-3.8.5.files, the hashes a fetched engine tree is checked against,
// from a v3.8.5 tree known to be good (by default the copy in ../shared/cocos-engine).
// Usage: node scripts/engine/write-file-list.mjs [engine tree] [output file]
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_FILE_LIST, ENGINE_VERSION, formatFileList } from './file-list.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tree = resolve(process.argv[2] || join(REPO, '..', 'shared', 'cocos-engine', `cocos-engine-${ENGINE_VERSION}`));
const output = resolve(process.argv[3] || DEFAULT_FILE_LIST);

if (!existsSync(join(tree, 'cocos'))) {
  console.error(`write-file-list: ${tree} is not an engine tree (no cocos/)`);
  process.exit(1);
}
const text = formatFileList(tree);
writeFileSync(output, text);
console.log(`write-file-list: ${text.split('\n').length - 1} files of ${tree} -> ${output}`);
