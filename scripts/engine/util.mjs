// Small helpers the engine modules share.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The sha256 of a file's bytes, in hex. */
export function hashFile(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** The last line of a command's output worth quoting: not blank, not a bare `npm ERR!` / `npm error`. */
export function lastLine(text) {
  const lines = (text ?? '').split('\n').filter((line) => line.trim() !== '' && !/^npm (ERR|error)! *$/.test(line));
  return lines.length > 0 ? lines[lines.length - 1].trim() : '';
}
