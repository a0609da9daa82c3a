/**
 * Mira's evening in a real browser, on the real engine: the tavern sample built for the web
 * (scripts/web/build-site.mjs: the engine v3.8.5 built by its own ccbuild, the scripts packed by
 * Creator's pipeline, the engine's effects compiled from their sources) in headless Chromium,
 * played with real mouse and keyboard input. The scripted stand-in answers (Chromium here has no
 * built-in model). A second site, the same sample with one component broken on purpose, shows
 * that these checks fail when a component throws, a class is missing or a label never changes.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  bootState,
  click,
  colourShare,
  componentClasses,
  isShown,
  labelText,
  openTavern,
  tintOf,
  waitForLabel,
  type PlaySession,
} from './tavern-page';

const ARTIFACTS = join(__dirname, '..', 'artifacts', 'play');

function siteUrl(name: 'OAM_PLAY_URL' | 'OAM_PLAY_BROKEN_URL' | 'OAM_PLAY_SERVER_URL'): string {
  const url = process.env[name];
  if (!url) throw new Error(`${name} is not set: run this suite with \`node scripts/web/test-play.mjs\`.`);
  return url;
}

async function screenshot(session: PlaySession, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await session.page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

describe('the tavern plays', () => {
  let session: PlaySession;

  beforeAll(async () => {
    session = await openTavern(siteUrl('OAM_PLAY_URL'));
  });
  afterAll(async () => {
    await session?.close();
  });

  test('the scene boots with every component and nothing failing', async () => {
    const state = await bootState(session.page);
    expect(state.errors).toEqual([]);
    expect(state.sceneLaunched).toBe(true);
    // Every script component the sample puts on its nodes is there, the extension's and the game's.
    expect(await componentClasses(session.page, 'Game')).toEqual(['tavern.ScriptedEvening', 'tavern.TavernGame']);
    expect(await componentClasses(session.page, 'World')).toEqual(['oam.WorldStateStore']);
    expect(await componentClasses(session.page, 'Canvas/Mira')).toContain('oam.NPCComponent');
    expect(await componentClasses(session.page, 'Canvas/Dialogue')).toContain('tavern.DialogueUI');
    expect(await componentClasses(session.page, 'Canvas/Guard')).toEqual(
      expect.arrayContaining(['oam.DecisionComponent', 'tavern.GuardBrain']),
    );
    expect(await componentClasses(session.page, 'Canvas/ModelStatus')).toEqual(
      expect.arrayContaining(['oam.NanoStatus', 'tavern.DownloadBar']),
    );
    expect(await labelText(session.page, 'Canvas/Title')).toBe('The Crooked Lantern');
    expect(await labelText(session.page, 'Canvas/Hud')).toMatch(/^Gold: 20\b/);
    expect(await labelText(session.page, 'Canvas/Dialogue/Option1/Label')).toBe('Two ales, please.');
    await screenshot(session, '1-boot');
  });

  test('the engine draws it: the portraits and the title in the colours the scene gives them', async () => {
    // Read from the screenshot a player sees, so a shader that outputs nothing, a wrong blend or
    // a missing texture fails here even though every label string is right.
    const mira = await tintOf(session.page, { path: 'Canvas/Mira', component: 'Sprite' });
    const brann = await tintOf(session.page, { path: 'Canvas/Guard', component: 'Sprite' });
    const title = await tintOf(session.page, { path: 'Canvas/Title', component: 'Label' });
    expect(await colourShare(session, { path: 'Canvas/Mira', color: mira })).toBeGreaterThan(0.6);
    expect(await colourShare(session, { path: 'Canvas/Guard', color: brann })).toBeGreaterThan(0.6);
    expect(await colourShare(session, { path: 'Canvas/Title', color: title })).toBeGreaterThan(0.05);
    // The measure tells colours apart: Mira's orange is not in Brann's portrait.
    expect(await colourShare(session, { path: 'Canvas/Guard', color: mira })).toBeLessThan(0.05);
  });

  test('the download bar shows what this browser says about its built-in model', async () => {
    // NanoStatus asks Chrome's Prompt API; this Chromium cannot run the model, so the bar says so
    // (or hides) instead of staying on its first "Checking…" line.
    // Headless Chromium here cannot run the model, so the bar stays and says why.
    const text = await waitForLabel(session.page, {
      path: 'Canvas/ModelStatus/Message',
      shows: /^(?!Checking the on-device AI model)/,
    });
    expect(await isShown(session.page, 'Canvas/ModelStatus')).toBe(true);
    expect(text).toMatch(/Chrome|browser/);
    console.log(`download bar: ${JSON.stringify(text)}`);
  });

  test('clicking "Two ales, please." makes Mira serve them and takes 6 gold', async () => {
    await click(session.page, 'Canvas/Dialogue/Option1');
    await waitForLabel(session.page, {
      path: 'Canvas/Dialogue/Line',
      shows: /^Two ales, coming right up\. That's 6 gold, you've 14 left\.$/,
    });
    await waitForLabel(session.page, { path: 'Canvas/Hud', shows: /^Gold: 14 {4}Carrying: ale, ale$/ });
    await screenshot(session, '2-two-ales');
  });

  test('a line typed into the box and sent with "Say it" reaches Mira', async () => {
    await click(session.page, 'Canvas/Dialogue/Input');
    // The EditBox opens the engine's HTML input over the canvas; the keyboard types into it.
    await session.page.waitForSelector('input, textarea', { state: 'visible', timeout: 5000 });
    await session.page.keyboard.type("What's warm tonight?");
    await click(session.page, 'Canvas/Dialogue/Send');
    await waitForLabel(session.page, { path: 'Canvas/Dialogue/Player', shows: /^You: What's warm tonight\?$/ });
    // The tavern's rules (samples/tavern/assets/scripts/TavernRules.ts) answer the menu question.
    await waitForLabel(session.page, { path: 'Canvas/Dialogue/Line', shows: /^Lamb stew's bubbling, 5 gold a bowl\./ });
    await screenshot(session, '3-typed-line');
  });

  test('walking up with a drawn sword makes the guard raise the alarm', async () => {
    await click(session.page, 'Canvas/Approach1');
    // GuardBrain shows the choice (alarm: he rings the bell) and the model's reason.
    const status = await waitForLabel(session.page, { path: 'Canvas/GuardStatus', shows: /^Brann rings the bell/ });
    expect(status).toMatch(/\(A drawn blade at Mira's door means trouble\.\)$/);
    await screenshot(session, '4-guard');
    expect((await bootState(session.page)).errors).toEqual([]);
  });
});

describe('npm run play -- --url: an OpenAI-compatible server answers instead of the stand-in', () => {
  let session: PlaySession;

  beforeAll(async () => {
    session = await openTavern(siteUrl('OAM_PLAY_SERVER_URL'));
    expect((await bootState(session.page)).errors).toEqual([]);
  });
  afterAll(async () => {
    await session?.close();
  });

  test("Mira's line comes from the server (tests/play/openai-stand-in-server.mjs)", async () => {
    await click(session.page, 'Canvas/Dialogue/Option0');
    await waitForLabel(session.page, {
      path: 'Canvas/Dialogue/Line',
      shows: /^A server on this machine answered this line\.$/,
    });
    expect((await bootState(session.page)).errors).toEqual([]);
  });
});

describe('the same checks fail on a broken sample', () => {
  // scripts/web/test-play.mjs builds this site from the sample with TavernGame.ts deleted and
  // GuardBrain's button handler throwing "broken on purpose".
  let session: PlaySession;

  beforeAll(async () => {
    session = await openTavern(siteUrl('OAM_PLAY_BROKEN_URL'));
    await bootState(session.page);
  });
  afterAll(async () => {
    await session?.close();
  });

  test('a class the scene names but no script registers is an error, and its component is gone', async () => {
    expect((await bootState(session.page)).errors.join('\n')).toMatch(/Can not find class/);
    expect(await componentClasses(session.page, 'Game')).toEqual(['tavern.ScriptedEvening']);
  });

  test('a label that never changes fails the wait', async () => {
    // TavernGame is gone, so nobody answers Mira's take_order and the gold stays at 20.
    await click(session.page, 'Canvas/Dialogue/Option1');
    await expect(
      waitForLabel(session.page, { path: 'Canvas/Hud', shows: /^Gold: 14\b/, timeoutMs: 4000 }),
    ).rejects.toThrow(/never showed/);
  });

  test('a component that throws is an error of the run', async () => {
    await click(session.page, 'Canvas/Approach1');
    await session.page.waitForTimeout(500);
    expect((await bootState(session.page)).errors.join('\n')).toMatch(/broken on purpose/);
  });
});
