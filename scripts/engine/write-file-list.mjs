// Writes scripts/engine/engine-3.8.5.files, the hashes a fetched engine tree is checked against,
// and engine-3.8.5.fixed-files, the hashes its package.json and package-lock.json must have after
// the lock fix, from a v3.8.5 tree known to be good (by default the copy in ../shared/cocos-engine,
// whose two files are already fixed; the fix is applied to a copy of them either way).
// Usage: node scripts/engine/write-file-list.mjs [engine tree] [output file] [fixed output file]
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_FILE_LIST,
  DEFAULT_FIXED_LIST,
  ENGINE_VERSION,
  FIXED_FILES,
  formatFileList,
  formatFixedFileList,
} from './file-list.mjs';
import { fixLock } from './prepare-engine.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tree = resolve(process.argv[2] || join(REPO, '..', 'shared', 'cocos-engine', `cocos-engine-${ENGINE_VERSION}`));
const output = resolve(process.argv[3] || DEFAULT_FILE_LIST);
const fixedOutput = resolve(process.argv[4] || DEFAULT_FIXED_LIST);

const lacking = ['cocos', ...FIXED_FILES].filter((path) => !existsSync(join(tree, path)));
if (lacking.length > 0) {
  console.error(`write-file-list: ${tree} is not an engine tree (no ${lacking.join(', ')})`);
  process.exit(1);
}
const text = formatFileList(tree);
writeFileSync(output, text);
console.log(`write-file-list: ${text.split('\n').length - 1} files of ${tree} -> ${output}`);

const fixing = mkdtempSync(join(tmpdir(), 'oam-engine-fixed-'));
try {
  // Written anew, not copied: the tree may be read-only, and the fix writes into the copies.
  for (const path of FIXED_FILES) writeFileSync(join(fixing, path), readFileSync(join(tree, path)));
  fixLock(fixing);
  writeFileSync(fixedOutput, formatFixedFileList(fixing));
} finally {
  rmSync(fixing, { recursive: true, force: true });
}
console.log(`write-file-list: ${FIXED_FILES.join(', ')} of ${tree} after the lock fix -> ${fixedOutput}`);
