/**
 * The preview page in headless Chromium (playwright-core), against the preview server started
 * here on a free loopback port. Fails, never skips, when Chromium is missing (tests/support/chromium.ts).
 */
import { mkdirSync, mkdtempSync, copyFileSync, rmSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startPreviewServer, type RunningPreview } from '../../preview/preview-server';
import { chromiumLaunchOptions } from '../support/chromium';

jest.setTimeout(120000);

const ROOT = resolve(__dirname, '../..');
const SCREENSHOT = join(ROOT, 'docs/images/preview.png');
const ARTIFACTS = join(ROOT, 'tests/artifacts');

let server: RunningPreview;
let browser: Browser;
let page: Page;
let outDir: string;
const pageErrors: string[] = [];

/** A loopback port with nothing listening: bound, then released. */
function closedPort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as { port: number }).port;
      probe.close(() => done(port));
    });
  });
}

async function say(line: string): Promise<void> {
  await page.fill('#player-line', line);
  await page.press('#player-line', 'Enter');
}

/** Waits for the NPC's reply to the last player line to finish and returns its text. */
async function lastReply(): Promise<string> {
  await page.waitForSelector('#send:not([disabled])');
  return (await page.locator('.msg.npc .text').last().textContent()) ?? '';
}

async function applySetup(fill: () => Promise<void>): Promise<void> {
  if (!(await page.locator('#setup').evaluate((details) => (details as HTMLDetailsElement).open)))
    await page.click('#setup > summary');
  await fill();
  await page.click('#apply-setup');
}

beforeAll(async () => {
  const launchOptions = chromiumLaunchOptions(); // throws (apt-get install -y chromium) when missing
  outDir = mkdtempSync(join(tmpdir(), 'oam-preview-'));
  server = await startPreviewServer({ port: 0, root: ROOT, outDir });
  browser = await chromium.launch(launchOptions);
  page = await browser.newPage({ viewport: { width: 1360, height: 900 }, deviceScaleFactor: 1 });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(server.url);
  await page.waitForSelector('.msg.npc');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

test('serves the page on loopback and only the page files', async () => {
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  const missing = await page.request.get(`${server.url}../etc/passwd`);
  expect(missing.status()).toBe(404);
  const js = await page.request.get(`${server.url}page.js`);
  expect(js.status()).toBe(200);
  expect(js.headers()['content-type']).toContain('javascript');
});

test('greets with the sample persona on the stand-in', async () => {
  await expect(page.locator('.msg.npc .text').first().textContent()).resolves.toBe(
    'Welcome to the Crooked Lantern, traveller!',
  );
  await expect(page.textContent('#now-talking')).resolves.toContain('keyword stand-in');
});

test('"Two ales, please.": the line streams in, take_order runs, the gold goes 20 → 14, steps show token counts', async () => {
  await page.click('.chip >> text="Evening! What\'s warm tonight?"');
  expect(await lastReply()).toContain('Lamb stew');

  // Every text the NPC bubble shows while streaming.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seenLines: string[] }).seenLines = seen;
    new MutationObserver(() => {
      const texts = document.querySelectorAll('.msg.npc .text');
      const text = texts[texts.length - 1]?.textContent ?? '';
      if (seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document.getElementById('chat-log') as HTMLElement, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  await say('Two ales, please.');
  const final = await lastReply();
  expect(final).toBe("Two ales, coming right up. That's 6 gold, you've 14 left.");
  const seen = await page.evaluate(() => (window as unknown as { seenLines: string[] }).seenLines);
  const partial = seen.filter(
    (text) => text !== '…' && text.length > 0 && text.length < final.length && final.startsWith(text),
  );
  expect(partial.length).toBeGreaterThan(0);

  await expect(page.locator('.msg.npc .emotion').last().textContent()).resolves.toBe('happy');

  const tool = page.locator('.turn-group').first().locator('.item.tool');
  await expect(tool.locator('.tool-name').textContent()).resolves.toBe('take_order');
  expect(JSON.parse((await tool.locator('.args').textContent()) ?? '')).toEqual({ item: 'ale', quantity: 2 });
  expect(JSON.parse((await tool.locator('.result').textContent()) ?? '')).toEqual({
    served: 2,
    item: 'ale',
    cost: 6,
    goldLeft: 14,
  });
  await expect(tool.locator('.status').textContent()).resolves.toBe('done');

  await expect(page.locator('#world-log').textContent()).resolves.toContain('player.gold: 20 → 14');
  await expect(page.locator('#world-view dt.changed + dd').first().textContent()).resolves.toBe('14');

  const steps = page.locator('.turn-group').first().locator('.item.step');
  await expect(steps.count()).resolves.toBe(2);
  for (const text of await steps.locator('.nums').allTextContents()) expect(text).toMatch(/^\d{3,} in · \d+ out$/);
  const summary = (await steps.first().locator('.prompt summary').textContent()) ?? '';
  expect(summary).toMatch(/^Prompt sent · \d+ tokens \(estimate\)$/);
  await expect(page.locator('.turn-group').first().locator('.totals').textContent()).resolves.toMatch(
    /^2 model calls · \d+ prompt tokens · \d+ output tokens$/,
  );

  // The picture for the README: the conversation with the prompt of the first step open.
  await steps.first().locator('.prompt summary').click();
  await page
    .locator('.turn-group')
    .first()
    .locator('.prompt pre')
    .first()
    .evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'preview.png') });
  // The committed README picture changes only when asked: UPDATE_SCREENSHOTS=1 npx jest tests/preview
  if (process.env.UPDATE_SCREENSHOTS === '1') {
    mkdirSync(join(ROOT, 'docs/images'), { recursive: true });
    copyFileSync(join(ARTIFACTS, 'preview.png'), SCREENSHOT);
  }
  await steps.first().locator('.prompt summary').click();
});

test('an unreachable OpenAI-compatible endpoint is reported when it is chosen, and the conversation so far stays', async () => {
  const port = await closedPort();
  await applySetup(async () => {
    await page.selectOption('#model-kind', 'openai');
    await page.fill('#openai-url', `http://127.0.0.1:${port}/v1`);
    await page.fill('#openai-model', 'gemma-3n');
  });
  await page.waitForSelector('#model-problems:has-text("not reachable")');
  await expect(page.locator('#model-problems').textContent()).resolves.toContain(
    `the server at http://127.0.0.1:${port}/v1 is not reachable`,
  );
  await expect(page.textContent('#now-talking')).resolves.toContain('keyword stand-in');
  await page.screenshot({ path: join(ARTIFACTS, 'preview-unreachable.png') });

  await applySetup(async () => {
    await page.selectOption('#model-kind', 'standin');
  });
  await say("How's business these days?");
  expect(await lastReply()).toBe("Busy as a beehive, and twice as loud. Can't complain!");
  await expect(page.locator('.msg.npc .notice').last().isHidden()).resolves.toBe(true);
});

test('a server that accepts the connection and never answers is reported within the 5 s check', async () => {
  const hanging = createHttpServer(() => undefined);
  await new Promise<void>((done) => hanging.listen(0, '127.0.0.1', () => done()));
  const port = (hanging.address() as { port: number }).port;
  try {
    await applySetup(async () => {
      await page.selectOption('#model-kind', 'openai');
      await page.fill('#openai-url', `http://127.0.0.1:${port}/v1`);
    });
    await expect(page.locator('#model-problems').textContent()).resolves.toContain('Checking the server');
    await page.waitForSelector('#model-problems:has-text("nothing came back within 5 s")', { timeout: 15000 });
  } finally {
    hanging.closeAllConnections();
    hanging.close();
    await applySetup(async () => {
      await page.selectOption('#model-kind', 'standin');
    });
  }
});

test('the NPC state panel: relationship on its band with the unlock point, facts, emotions; world values edited in place', async () => {
  await applySetup(async () => {
    await page.selectOption('#model-kind', 'standin');
  });
  await expect(page.locator('#state-relationship').textContent()).resolves.toBe('Relationship 0 · neutral');
  await expect(page.locator('#state-secret').textContent()).resolves.toBe('secret unlocks at 10 (10 to go)');
  await say('You pour a fine ale, Mira. Thank you.');
  await lastReply();
  await expect(page.locator('#state-relationship').textContent()).resolves.toMatch(/^Relationship 10 · /);
  await expect(page.locator('#state-secret').textContent()).resolves.toBe('secret unlocked (at 10)');
  await expect(page.locator('#state-emotions .emotion').allTextContents()).resolves.toEqual(['grateful']);
  // The purse edited in place: the value keeps its type and the next turn sees it.
  await page.click('#world-view dd[data-path="player.gold"]');
  await page.fill('#world-view dd[data-path="player.gold"] input', '4');
  await page.press('#world-view dd[data-path="player.gold"] input', 'Enter');
  await expect(page.locator('#world-view dd[data-path="player.gold"]').textContent()).resolves.toBe('4');
  await say('Two ales, please.');
  expect(await lastReply()).toBe("Your purse is a bit light for that, I'm afraid.");
});

test('an empty line says what to do; a failed turn keeps no "…" badge', async () => {
  await page.fill('#player-line', '   ');
  await page.press('#player-line', 'Enter');
  await expect(page.locator('#talk-hint').textContent()).resolves.toContain('Type what the player says first');
  const script = await page.inputValue('#script-text');
  await applySetup(async () => {
    await page.selectOption('#model-kind', 'script');
    await page.fill('#script-text', '[{"fail": "context_size_exceeded"}]');
  });
  await say('Hello?');
  await lastReply();
  await expect(page.locator('#talk-hint').isHidden()).resolves.toBe(true);
  await expect(page.locator('.msg.npc.failed').count()).resolves.toBeGreaterThan(0);
  await expect(page.locator('.msg.npc.failed .emotion').last().isHidden()).resolves.toBe(true);
  expect(await page.locator('.msg.npc .emotion:visible').allTextContents()).not.toContain('…');
  await applySetup(async () => {
    await page.fill('#script-text', script);
    await page.selectOption('#model-kind', 'standin');
  });
});

test('export a conversation, then replay it against an edited persona: earlier and new answers side by side', async () => {
  await applySetup(async () => {
    await page.selectOption('#model-kind', 'standin');
  });
  await say('Heard any rumours lately?');
  await lastReply();
  if (!(await page.locator('#setup').evaluate((details) => (details as HTMLDetailsElement).open)))
    await page.click('#setup > summary');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-session')]);
  const path = join(outDir, 'conversation.json');
  await download.saveAs(path);
  const saved = JSON.parse(readFileSync(path, 'utf8'));
  expect(saved.turns.map((turn: { say: string }) => turn.say)).toEqual(['Heard any rumours lately?']);
  // Edit the persona (a new greeting and fallback lines) and replay.
  await page.selectOption('#persona-source', 'custom');
  await page.fill(
    '#persona-text',
    JSON.stringify({ name: 'Mira', role: 'the innkeeper', greeting: 'Back again?', fallbackLines: ['Eh?'] }),
  );
  await page.setInputFiles('#replay-file', path);
  await page.waitForSelector('#replay-summary');
  await expect(page.locator('#replay-summary').textContent()).resolves.toBe(
    '1 turns replayed against Mira as it is now: 1 answer changed.',
  );
  await expect(page.locator('.replay-row .side > div').allTextContents()).resolves.toEqual([
    `then · neutral${saved.turns[0].line}`,
    'now · neutralNothing I would share with a stranger.',
  ]);
  await page.selectOption('#persona-source', 'sample');
  await page.click('#apply-setup');
});

test("a persona test runs in the preview: Mira's sample file passes on the stand-in, check by check", async () => {
  if (!(await page.locator('#setup').evaluate((details) => (details as HTMLDetailsElement).open)))
    await page.click('#setup > summary');
  await page.setInputFiles('#persona-test-file', join(ROOT, 'samples/tavern/mira.persona-test.json'));
  await page.waitForSelector('#persona-test-summary');
  await expect(page.locator('#persona-test-summary').textContent()).resolves.toBe('27 passed, 0 failed');
  await expect(page.locator('#results .check-line.fail').count()).resolves.toBe(0);
});

test('a tool answered by hand: the turn waits for the typed answer, and the game code does not run', async () => {
  await applySetup(async () => {
    await page.check('#by-hand-take_order');
  });
  await say('Two ales, please.');
  const tool = page.locator('.item.tool').first();
  await tool.locator('form.answer').waitFor({ state: 'visible' });
  await expect(tool.locator('.badge').textContent()).resolves.toBe('external tool');
  await expect(tool.locator('.status').textContent()).resolves.toBe('waiting');
  await tool.locator('.answer-input').fill('{"served": 2, "item": "ale", "cost": 4, "goldLeft": 16}');
  await tool.locator('form.answer button').click();
  expect(await lastReply()).toBe("Two ales, coming right up. That's 4 gold, you've 16 left.");
  await expect(tool.locator('.status').textContent()).resolves.toBe('done');
  await expect(tool.locator('form.answer').isHidden()).resolves.toBe(true);
  await expect(page.locator('#world-log').textContent()).resolves.toContain('No changes yet.');
});

test('a hand-played menu the stand-in did not expect is read as it is: never "undefined gold"', async () => {
  await applySetup(async () => {
    await page.uncheck('#by-hand-take_order');
    await page.check('#by-hand-check_menu');
  });
  await say("What's warm tonight?");
  const tool = page.locator('.item.tool').first();
  await tool.locator('form.answer').waitFor({ state: 'visible' });
  await tool.locator('.answer-input').fill('{"soup":2,"ale":3}');
  await tool.locator('form.answer button').click();
  const reply = await lastReply();
  expect(reply).not.toContain('undefined');
  expect(reply).toBe("Tonight there's soup 2 gold, ale 3 gold.");
});

test('a recorded script plays back its steps', async () => {
  await applySetup(async () => {
    await page.uncheck('#by-hand-check_menu');
    await page.uncheck('#by-hand-take_order');
    await page.selectOption('#model-kind', 'script');
  });
  await say('Something cold?');
  expect(await lastReply()).toBe('One cider, cold as the river. Enjoy, love.');
  await expect(page.locator('#world-log').textContent()).resolves.toContain('player.gold: 20 → 16');
});

test('a bad recorded script and bad personas are shown as problems; the conversation keeps going', async () => {
  await applySetup(async () => {
    await page.fill('#script-text', '[{"fail": "no_such_code"}]');
  });
  await expect(page.locator('#model-problems').textContent()).resolves.toContain(
    'script[0]: "fail" must be an error code',
  );

  // The previous (good) script conversation stays; its script is used up, and it says so.
  await say('Another cider?');
  expect(await lastReply()).toBe('');
  await expect(page.locator('.msg.npc .notice').last().textContent()).resolves.toContain(
    'the recorded script ran out: it had 2 steps',
  );

  await page.selectOption('#model-kind', 'standin');
  await page.click('#apply-setup');
  await expect(page.locator('#model-problems').isHidden()).resolves.toBe(true);

  await applySetup(async () => {
    await page.selectOption('#persona-source', 'custom');
    await page.fill('#persona-text', '{"role": "the blacksmith"}');
  });
  await expect(page.locator('#persona-problems').textContent()).resolves.toMatch(/name/);

  await page.fill('#persona-text', 'name: Gorm');
  await page.click('#apply-setup');
  await expect(page.locator('#persona-problems').textContent()).resolves.toMatch(/JSON/i);

  // The last good conversation is still there and answers.
  await say('Goodnight, Mira!');
  expect(await lastReply()).toBe('Goodnight, traveller. Mind the step on your way out!');

  await page.fill('#persona-text', '{"name": "Gorm", "role": "the blacksmith", "greeting": "Mind the sparks."}');
  await page.click('#apply-setup');
  await expect(page.locator('#persona-problems').isHidden()).resolves.toBe(true);
  await expect(page.locator('.msg.npc .text').first().textContent()).resolves.toBe('Mind the sparks.');
  // The stand-in answers as Gorm from Gorm's own fields, never with Mira's tavern lines, and says what it is.
  await expect(page.locator('#standin-notice').textContent()).resolves.toContain('it is not a language model');
  await expect(page.locator('#suggestions .chip').allTextContents()).resolves.toEqual([
    'Hello, Gorm!',
    'Who are you?',
    'Heard any rumours?',
    'Goodbye!',
  ]);
  await say('Heard any rumours lately?');
  expect(await lastReply()).toBe('Nothing I would share with a stranger.');
  await page.locator('#suggestions .chip', { hasText: 'Who are you?' }).click();
  expect(await lastReply()).toBe("I'm Gorm, the blacksmith.");
  await say('Two ales, please.');
  expect(await lastReply()).not.toMatch(/ale|stew|gold/i);
  await expect(page.locator('.msg.npc .who').last().textContent()).resolves.toContain('Gorm');
});

test('the page reported no script errors', () => {
  expect(pageErrors).toEqual([]);
});
