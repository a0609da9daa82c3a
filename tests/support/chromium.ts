/**
 * Where the browser tests find Chromium: `CHROMIUM_PATH`, then /usr/bin/chromium, then
 * /usr/bin/chromium-browser. No Chromium is a failure with the fix in the message, never a
 * skip, so a missing browser cannot pass a run silently.
 */
import { existsSync } from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** Flags for a quiet, deterministic headless run (no GPU, no background traffic). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The Chromium executable to use; throws when there is none. */
export function findChromium(
  env: Record<string, string | undefined> = process.env,
  exists: (path: string) => boolean = existsSync,
): string {
  const fromEnv = (env.CHROMIUM_PATH || '').trim();
  if (fromEnv) {
    if (exists(fromEnv)) return fromEnv;
    throw new Error(
      `CHROMIUM_PATH is ${fromEnv}, but there is no file there. Fix the path or unset it and install Chromium (apt-get install -y chromium); the browser tests do not skip.`,
    );
  }
  const found = CHROMIUM_CANDIDATES.find((candidate) => exists(candidate));
  if (found) return found;
  throw new Error(
    `Chromium is missing (looked at ${CHROMIUM_CANDIDATES.join(', ')}): install it with apt-get install -y chromium, or set CHROMIUM_PATH; the browser tests do not skip.`,
  );
}

/** Options for playwright-core's `chromium.launch`. */
export function chromiumLaunchOptions(
  env?: Record<string, string | undefined>,
  exists?: (path: string) => boolean,
): LaunchOptions {
  return { executablePath: findChromium(env, exists), args: CHROMIUM_ARGS.slice() };
}
