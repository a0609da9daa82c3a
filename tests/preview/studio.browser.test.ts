/**
 * The studio a designer uses for their own NPC, not Mira's tavern, at the panel's minimum
 * (360×400), its default (520×720), a small window (800×600) and a laptop (1366×860), in
 * headless Chromium: Hilde's profile is loaded from the NPC box, "What do you sell?" calls her
 * own show_wares, the token meter's figure is the prompt the page's NPC sent, the relationship
 * slider takes her to the stage that holds her secret (and the next prompt carries it), her
 * persona-test file runs from the page with the counts the CLI gives, and the guard's
 * hand-answered tool is answered inside the chat. Narrow layouts do it all from the Chat tab
 * except the state panel, which lives on the Inspector tab.
 * `OAM_SCREENSHOTS=1` regenerates docs/images/studio-<w>x<h>.png.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { estimateTokens } from '../../src/contract/language-model';
import { ROOT, usePreview } from '../support/preview-browser';

jest.setTimeout(120000);

const HILDE_TEST = join(ROOT, 'demo/profiles/hilde.persona-test.json');
const SIZES: Array<[number, number]> = [
  [360, 400],
  [520, 720],
  [800, 600],
  [1366, 860],
];

const preview = usePreview();

describe.each(SIZES)('the studio at %i×%i', (width, height) => {
  let page: Page;
  const narrow = width < 760;
  const errors: string[] = [];

  /** The tab a narrow layout must show for what comes next; wide layouts show both columns. */
  async function tab(which: 'chat' | 'inspector'): Promise<void> {
    if (narrow) await page.click(`#tab-${which}`);
  }

  async function setUp(fill: () => Promise<void>): Promise<void> {
    await tab('chat');
    if (!(await page.locator('#setup').evaluate((details) => (details as HTMLDetailsElement).open)))
      await page.click('#setup > summary');
    await fill();
    await page.click('#apply-setup');
    await page.waitForSelector('#send:not([disabled])');
  }

  async function say(line: string): Promise<string> {
    await tab('chat');
    await page.fill('#player-line', line);
    await page.press('#player-line', 'Enter');
    await page.waitForSelector('#send:not([disabled])');
    return (await page.locator('.msg.npc .text').last().textContent()) ?? '';
  }

  /** The first step card of the last turn: its system instruction and stable prefix as the page shows them. */
  async function lastTurnPrefix(): Promise<{ system: string; prefix: string; prompt: string }> {
    const text = await page
      .locator('.turn-group')
      .first()
      .locator('.item.step details.prompt pre')
      .first()
      .textContent();
    const section = (name: string) => {
      const match = new RegExp(`── ${name} ──\\n([\\s\\S]*?)(?:\\n\\n── |$)`).exec(text ?? '');
      return match ? match[1] : '';
    };
    return {
      system: section('system instruction'),
      prefix: section('stable prefix \\(cacheable\\)'),
      prompt: section('prompt'),
    };
  }

  beforeAll(async () => {
    page = await preview.open(width, height);
    page.on('pageerror', (error) => errors.push(error.message));
  });

  afterAll(async () => {
    await page.close();
  });

  test("Hilde from the NPC box: her greeting, her own tool for her own line, never the tavern's", async () => {
    await setUp(async () => {
      await page.selectOption('#persona-source', 'profile:hilde');
    });
    await expect(page.locator('#now-talking').textContent()).resolves.toContain('Hilde');
    const reply = await say('What do you sell?');
    expect(reply).toContain('sword');
    await tab('inspector');
    await expect(page.locator('.turn-group').first().locator('.tool-name').allTextContents()).resolves.toEqual([
      'show_wares',
    ]);
    const world = (await page.locator('#world-view').textContent()) ?? '';
    expect(world).not.toMatch(/Crooked Lantern|menu/);
    const { system, prefix } = await lastTurnPrefix();
    expect(`${system}${prefix}`).not.toMatch(/check_menu|take_order/);
    // A stranger hears no secret: the slider test below shows the same prompt carrying it.
    expect(`${system}${prefix}`).not.toContain('royal seal');
  });

  test("the token meter's figure is the prompt the page's NPC just sent", async () => {
    const { system, prefix } = await lastTurnPrefix();
    expect(system.length).toBeGreaterThan(0);
    await tab('chat');
    if (!(await page.locator('#setup').evaluate((details) => (details as HTMLDetailsElement).open)))
      await page.click('#setup > summary');
    if (!(await page.locator('#persona-box').evaluate((details) => (details as HTMLDetailsElement).open)))
      await page.click('#persona-box > summary');
    const total = (await page.locator('#meter-total').textContent()) ?? '';
    expect(total).toBe(`${estimateTokens(`${system}${prefix}`)} tokens every turn`);
    await page.click('#persona-box > summary');
    await page.click('#setup > summary');
  });

  test('the slider takes her to the stage with her secret: the panel says so and the next prompt carries it', async () => {
    await tab('inspector');
    await expect(page.locator('#state-stage').textContent()).resolves.toContain('stranger');
    await page.locator('#state-relationship-slider').fill('60');
    await expect(page.locator('#state-stage').textContent()).resolves.toContain('confidant');
    await expect(page.locator('#npc-state').textContent()).resolves.toContain('secret unlocked (at 50)');
    await say('Heard any rumours?');
    await tab('inspector');
    const { system, prefix, prompt } = await lastTurnPrefix();
    expect(`${system}${prefix}${prompt}`).toContain('royal seal');
  });

  test('her persona-test file runs from the page with the CLI counts, the results on the Chat tab', async () => {
    await tab('chat');
    await page.setInputFiles('#persona-test-file', HILDE_TEST);
    await page.waitForSelector('#persona-test-summary');
    await expect(page.locator('#persona-test-summary').textContent()).resolves.toBe('25 passed, 0 failed');
    await expect(page.locator('#persona-test-setup').textContent()).resolves.toBe(
      "Ran with the test's profile (hilde.npc-profile.json).",
    );
    expect(await page.locator('#results-card').isVisible()).toBe(true);
    expect(await page.locator('#player-line').isVisible()).toBe(true);
    if (process.env.OAM_SCREENSHOTS === '1')
      await page.screenshot({ path: join(ROOT, `docs/images/studio-${width}x${height}.png`) });
    await page.click('#results-close');
    expect(await page.locator('#results-card').isVisible()).toBe(false);
  });

  test('"Save as persona test" writes this conversation as a test that passes when run back in the page', async () => {
    await tab('chat');
    if (!(await page.locator('#setup').evaluate((details) => (details as HTMLDetailsElement).open)))
      await page.click('#setup > summary');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-as-test')]);
    expect(download.suggestedFilename()).toBe('hilde.persona-test.json');
    const saved = join(mkdtempSync(join(tmpdir(), 'oam-saved-test-')), download.suggestedFilename());
    await download.saveAs(saved);
    const test = JSON.parse(readFileSync(saved, 'utf8')) as {
      profile: { persona: { name: string } };
      turns: Array<{ say: string; expect: { calls?: string[]; notCalls?: string[] } }>;
    };
    expect(test.profile.persona.name).toBe('Hilde');
    expect(test.turns.map((turn) => turn.say)).toEqual(['What do you sell?', 'Heard any rumours?']);
    expect(test.turns[0].expect).toMatchObject({ calls: ['show_wares'], notCalls: ['forge_item'] });
    await page.setInputFiles('#persona-test-file', saved);
    const failed = await page.locator('#results .fail, #results .check-line.fail').allTextContents();
    expect(failed).toEqual([]);
    await expect(page.locator('#persona-test-summary').textContent()).resolves.toMatch(/^\d+ passed, 0 failed$/);
    await expect(page.locator('#persona-test-setup').textContent()).resolves.toBe("Ran with the test's own profile.");
    await page.click('#results-close');
  });

  test("the guard's hand-answered tool is answered inside the chat", async () => {
    await setUp(async () => {
      await page.selectOption('#persona-source', 'profile:guard');
      await page.check('#by-hand-open_gate');
    });
    await tab('chat');
    await page.fill('#player-line', 'Let me in, please.');
    await page.press('#player-line', 'Enter');
    const form = page.locator('.msg.npc .chat-answer').last();
    await form.waitFor({ state: 'visible' });
    await expect(form.locator('code').textContent()).resolves.toBe('open_gate({})');
    await form.locator('.chat-answer-input').fill('The gate is open.');
    await form.locator('button').click();
    await page.waitForSelector('#send:not([disabled])');
    expect(await form.isHidden()).toBe(true);
    await expect(page.locator('.msg.npc .text').last().textContent()).resolves.not.toBe('');
    expect(errors).toEqual([]);
  });
});
