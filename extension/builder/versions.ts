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
export function compareVersions(a: ParsedVersion, b: ParsedVersion): number {
  const length = Math.max(a.parts.length, b.parts.length);
  for (let i = 0; i < length; i++) {
    const difference = (a.parts[i] ?? 0) - (b.parts[i] ?? 0);
    if (difference !== 0) return difference;
  }
  if (a.preRelease === b.preRelease) return 0;
  if (a.preRelease === '') return 1;
  if (b.preRelease === '') return -1;
  return a.preRelease < b.preRelease ? -1 : 1;
}

/** True when `current` parses and is older than `wanted`; null when `current` is not a version. */
export function isOlder(current: string, wanted: string): boolean | null {
  const parsedCurrent = parseVersion(current);
  const parsedWanted = parseVersion(wanted);
  if (!parsedCurrent || !parsedWanted) return null;
  return compareVersions(parsedCurrent, parsedWanted) < 0;
}
