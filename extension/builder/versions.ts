/** Dotted version numbers as Gradle files write them ("8.0.2", "8.7", "2.3.0-Beta1"). */

export interface ParsedVersion {
  parts: number[];
  /** Text after the numbers ("-rc-1", "-alpha01"): such a build counts as older than the release. */
  preRelease: string;
}

export function parseVersion(text: string): ParsedVersion | null {
  const match = /^(\d+(?:\.\d+)*)([-+.][0-9A-Za-z.+-]*)?$/.exec(text.trim());
  if (!match) return null;
  return { parts: match[1].split('.').map((part) => Number(part)), preRelease: match[2] ?? '' };
}

/** Negative when a < b, zero when equal, positive when a > b. */
export function compareVersions(left: ParsedVersion, right: ParsedVersion): number {
  const length = Math.max(left.parts.length, right.parts.length);
  for (let index = 0; index < length; index++) {
    const difference = (left.parts[index] ?? 0) - (right.parts[index] ?? 0);
    if (difference !== 0) return difference;
  }
  if (left.preRelease === right.preRelease) return 0;
  if (left.preRelease === '') return 1;
  if (right.preRelease === '') return -1;
  return left.preRelease < right.preRelease ? -1 : 1;
}

/** True when `current` parses and is older than `wanted`; null when `current` is not a version. */
export function isOlder(current: string, wanted: string): boolean | null {
  const parsedCurrent = parseVersion(current);
  const parsedWanted = parseVersion(wanted);
  if (!parsedCurrent || !parsedWanted) return null;
  return compareVersions(parsedCurrent, parsedWanted) < 0;
}
