// Creator's uuid forms, for writing scene files by hand.
//
// A component in a scene names its script by the script's meta uuid, compressed: the first
// 5 hex digits stay as they are, every following 3 hex digits (12 bits) become 2 base64
// characters, so 32 hex digits become 23 characters ("9d39443e-0295-…" → "9d394Q+ApVHSbiXgHSLyn7h").
// The short ids of nodes and components (`_id`) use the 22-character form that keeps 2 hex
// digits. Checked against real Creator 3.7/3.8 scenes (see tests/sample/).
import { createHash } from 'node:crypto';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** 36-char uuid → 23 chars (`keep` = 5) or 22 chars (`keep` = 2). */
export function compressUuid(uuid, keep = 5) {
  const lower = String(uuid).toLowerCase();
  if (!UUID.test(lower)) throw new Error(`not a uuid: ${uuid}`);
  const hex = lower.replace(/-/g, '');
  let out = hex.slice(0, keep);
  for (let i = keep; i < 32; i += 3) {
    const bits = parseInt(hex.slice(i, i + 3), 16);
    out += BASE64[bits >> 6] + BASE64[bits & 63];
  }
  return out;
}

/** The inverse of compressUuid (22- or 23-char form). */
export function decompressUuid(short) {
  const keep = short.length === 23 ? 5 : short.length === 22 ? 2 : -1;
  if (keep < 0) throw new Error(`not a compressed uuid: ${short}`);
  let hex = short.slice(0, keep);
  for (let i = keep; i < short.length; i += 2) {
    const hi = BASE64.indexOf(short[i]);
    const lo = BASE64.indexOf(short[i + 1]);
    if (hi < 0 || lo < 0) throw new Error(`not a compressed uuid: ${short}`);
    hex += ((hi << 6) | lo).toString(16).padStart(3, '0');
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A stable 22-char `_id` for a scene object, derived from a name (so rebuilding keeps ids). */
export function stableShortId(seed) {
  const hex = createHash('sha256').update(seed).digest('hex').slice(0, 32);
  // Shape it as a version-4 uuid so it looks like the ids the editor makes.
  const v4 = `${hex.slice(0, 12)}4${hex.slice(13, 16)}${'89ab'[parseInt(hex[16], 16) & 3]}${hex.slice(17)}`;
  const uuid = `${v4.slice(0, 8)}-${v4.slice(8, 12)}-${v4.slice(12, 16)}-${v4.slice(16, 20)}-${v4.slice(20)}`;
  return compressUuid(uuid, 2);
}
