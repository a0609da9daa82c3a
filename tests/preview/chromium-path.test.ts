/** tests/support/chromium.ts: which Chromium the browser tests launch, and the failure without one. */
import { CHROMIUM_ARGS, chromiumLaunchOptions, findChromium } from '../support/chromium';

const only =
  (...paths: string[]) =>
  (candidate: string) =>
    paths.includes(candidate);

describe('findChromium', () => {
  test('CHROMIUM_PATH wins, then /usr/bin/chromium, then /usr/bin/chromium-browser', () => {
    const all = only('/opt/c/chrome', '/usr/bin/chromium', '/usr/bin/chromium-browser');
    expect(findChromium({ CHROMIUM_PATH: '/opt/c/chrome' }, all)).toBe('/opt/c/chrome');
    expect(findChromium({}, all)).toBe('/usr/bin/chromium');
    expect(findChromium({ CHROMIUM_PATH: '  ' }, only('/usr/bin/chromium-browser'))).toBe('/usr/bin/chromium-browser');
  });

  test('no Chromium anywhere fails with the install command; a wrong CHROMIUM_PATH fails too', () => {
    expect(() => findChromium({}, only())).toThrow(/apt-get install -y chromium/);
    expect(() => findChromium({ CHROMIUM_PATH: '/nope' }, only('/usr/bin/chromium'))).toThrow(
      /CHROMIUM_PATH is \/nope.*apt-get install -y chromium/,
    );
  });

  test('launch options carry the path and the headless flags', () => {
    const options = chromiumLaunchOptions({}, only('/usr/bin/chromium'));
    expect(options).toEqual({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    expect(CHROMIUM_ARGS).toEqual([
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ]);
  });
});
