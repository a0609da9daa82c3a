/**
 * The persona inspector in headless Chromium: the view bundled for the browser, a static
 * harness page with a stub `Editor.Message.request` (one open scene with Mira's NPC) that
 * records save calls; then the meter's default set-up, its split bar and verdicts, invalid
 * tool lists, the form's messages, refused saves, a broken file, the panel's narrow width and
 * a save. No Chromium = failure.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { PERSONA_FIELDS } from '../../src/game/persona';
import { componentDefaultsSetup, measurePersona, tavernSetup } from '../../extension/token-meter/token-meter';
import { sceneNpcSetup } from '../../extension/token-meter/npc-setup';
import { readNpcNode } from '../../extension/panels/preview/npc-dump';
import { chromiumLaunchOptions } from '../support/chromium';

const en = require('../../i18n/en.js');

const ROOT = path.join(__dirname, '..', '..');
const SCREENSHOT = path.join(ROOT, 'tests', 'artifacts', 'persona-inspector.png');
const NARROW_SCREENSHOT = path.join(ROOT, 'tests', 'artifacts', 'persona-inspector-300.png');
const MIRA_TEXT = fs.readFileSync(path.join(ROOT, 'demo', 'tavern', 'mira.persona.json'), 'utf8');

/** The open scene the stub editor answers with: one NPC node (Mira's persona), a world store. */
const SCENE_WORLD = { player: { gold: 12 }, time: 'evening' };
const field = (value: unknown) => ({ value });
const NPC_NODE_DUMP = {
  name: field('Mira'),
  __comps__: [
    {
      type: 'oam.NPCComponent',
      value: {
        persona: field({ uuid: 'uuid-of-mira' }),
        worldStore: field({ uuid: 'store-1' }),
        worldReadable: field([field('')]),
        worldWritable: field([field('player.gold')]),
        rememberFacts: field(true),
        trackRelationship: field(true),
        replyFormat: field(1),
        playerOptionCount: field(2),
        externalTools: field([
          {
            type: 'oam.ToolDeclaration',
            value: {
              name: field('pour_drink'),
              description: field('Pours the player a drink.'),
              parametersSchema: field('{"type":"object","properties":{"drink":{"type":"string"}}}'),
            },
          },
        ]),
      },
    },
  ],
};
const SCENE = {
  tree: {
    name: 'tavern',
    uuid: 'scene-1',
    children: [
      {
        name: 'Canvas',
        uuid: 'n-canvas',
        components: [],
        children: [
          { name: 'Mira', uuid: 'n-mira', components: [{ type: 'oam.NPCComponent', value: 'c-mira' }], children: [] },
        ],
      },
    ],
  },
  nodes: { 'n-mira': NPC_NODE_DUMP },
  components: {
    'store-1': {
      type: 'oam.WorldStateStore',
      value: { initialState: field(null), initialJson: field(JSON.stringify(SCENE_WORLD)) },
    },
  },
};

let dir: string;
let browser: Browser;
let harnessFile: string;
let page: Page;

async function harness(): Promise<string> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oam-inspector-'));
  await build({
    entryPoints: [path.join(ROOT, 'extension', 'inspector', 'persona-view.ts')],
    outfile: path.join(dir, 'persona-view.js'),
    bundle: true,
    format: 'iife',
    globalName: 'OamPersonaView',
    platform: 'browser',
    target: 'es2019',
    logLevel: 'warning',
  });
  // The page wires the view the way persona-inspector.ts does in Creator, with a stub Editor;
  // start() takes the file text, the edited asset's uuid and whether a scene is open.
  const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>persona inspector harness</title>
<style>body { background: #2b2b2b; margin: 0; padding: 8px 12px; font-family: sans-serif; }</style>
</head><body><div id="root"></div>
<script src="persona-view.js"></script>
<script>
  const dictionary = ${JSON.stringify(en)};
  window.missingKeys = [];
  window.saved = [];
  window.Editor = {
    Message: { request(pkg, message, uuid, text) {
      const scene = ${JSON.stringify(SCENE)};
      window.requests = (window.requests || []).concat([pkg + ':' + message]);
      if (pkg === 'scene' && !window.sceneOpen) return Promise.resolve(null);
      if (pkg === 'scene' && message === 'query-node-tree') return Promise.resolve(scene.tree);
      if (pkg === 'scene' && message === 'query-node') return Promise.resolve(scene.nodes[uuid] || null);
      if (pkg === 'scene' && message === 'query-component') return Promise.resolve(scene.components[uuid] || null);
      window.saved.push({ pkg, message, uuid, text }); return Promise.resolve({ uuid });
    } },
    I18n: { t(key) {
      const value = key.replace(/^oam-cocos\\./, '').split('.').reduce((node, part) => (node && typeof node === 'object' ? node[part] : undefined), dictionary);
      if (typeof value !== 'string') { window.missingKeys.push(key); return key; }
      return value;
    } },
  };
  const t = (key, vars) => Editor.I18n.t('oam-cocos.' + key).replace(/\\{(\\w+)\\}/g, (w, n) => (vars && n in vars ? String(vars[n]) : w));
  const style = document.createElement('style');
  style.textContent = OamPersonaView.PERSONA_INSPECTOR_STYLE;
  document.head.appendChild(style);
  window.start = ({ text, personaUuid, sceneOpen }) => {
    window.sceneOpen = sceneOpen;
    window.inspector = OamPersonaView.renderPersonaInspector(document.getElementById('root'), {
      t,
      text,
      save: (text) => Editor.Message.request('asset-db', 'save-asset', personaUuid, text),
      sceneNpcs: OamPersonaView.sceneNpcSource((pkg, message, ...args) => Editor.Message.request(pkg, message, ...args), () => '{}', () => personaUuid),
    });
  };
</script></body></html>`;
  const file = path.join(dir, 'inspector-harness.html');
  fs.writeFileSync(file, page);
  return file;
}

interface Start {
  text?: string;
  personaUuid?: string;
  sceneOpen?: boolean;
  width?: number;
}

/** A fresh page with the inspector on it (Mira's file, her NPC in the open scene, unless told). */
async function open(start: Start = {}): Promise<Page> {
  const tab = await browser.newPage({ viewport: { width: start.width ?? 380, height: 900 } });
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(error.message));
  await tab.goto(`file://${harnessFile}`);
  await tab.evaluate((startOptions) => (window as unknown as { start(s: unknown): void }).start(startOptions), {
    text: start.text ?? MIRA_TEXT,
    personaUuid: start.personaUuid ?? 'uuid-of-mira',
    sceneOpen: start.sceneOpen ?? true,
  });
  await tab.waitForSelector('[data-role="token-meter"]', { state: 'attached' });
  expect(errors).toEqual([]);
  return tab;
}

beforeAll(async () => {
  const launchOptions = chromiumLaunchOptions(); // throws (apt-get install -y chromium) when missing: no skip
  harnessFile = await harness();
  browser = await chromium.launch(launchOptions);
  page = await open();
  // The scene is read in the background: wait until Mira's NPC is measured.
  await page.waitForFunction(() =>
    document.querySelector('[data-role="meter-source"]')!.textContent!.includes('Canvas/Mira'),
  );
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const figure = (name: string, on: Page = page) =>
  on.textContent(`[data-figure="${name}"]`).then((content) => Number(content));
const text = (selector: string, on: Page = page) => on.textContent(selector).then((content) => content ?? '');
const savedCount = (on: Page) => on.evaluate(() => (window as unknown as { saved: unknown[] }).saved.length);
const miraNpcSetup = () => {
  const setup = sceneNpcSetup(readNpcNode(NPC_NODE_DUMP)!, SCENE_WORLD);
  if (!setup.ok) throw new Error(setup.message);
  return setup.setup;
};
const withMira = (changes: Record<string, unknown>) =>
  `${JSON.stringify({ ...JSON.parse(MIRA_TEXT), ...changes }, null, 2)}\n`;

describe('the persona inspector in Chromium', () => {
  it('shows a field for every persona field, filled from the file, with English texts', async () => {
    for (const field of PERSONA_FIELDS) expect(await page.locator(`[data-field="${field}"]`).count()).toBe(1);
    expect(await page.inputValue('#oam-persona-name')).toBe('Mira');
    expect(await page.locator('[data-field="goals"] [data-role="list"] input').count()).toBe(2);
    expect(await page.inputValue('#oam-persona-defaultEmotion')).toBe('neutral');
    expect(await text('[data-field="speakingStyle"] label')).toBe('Speaking style');
    // The bounds in the help are the schema's own.
    expect(await text('[data-field="maxSentences"] .help')).toContain('from 1 to 8');
    expect(await page.evaluate(() => (window as unknown as { missingKeys: string[] }).missingKeys)).toEqual([]);
  });

  it("measures by default with what the NPC really sends: the open scene's NPC using this persona", async () => {
    expect(await page.inputValue('[data-role="tool-preset"]')).toBe('npc');
    expect(await page.isVisible('[data-role="scene-npc-box"]')).toBe(true);
    expect(await page.inputValue('[data-role="scene-npc"]')).toBe('n-mira');
    expect(await text('[data-role="meter-source"]')).toBe('Measured as Canvas/Mira in the open scene sends it.');
    const expected = measurePersona(JSON.parse(MIRA_TEXT), miraNpcSetup());
    expect(await figure('persona')).toBe(expected.personaTokens);
    expect(await figure('tools')).toBe(expected.toolsTokens);
    expect(await figure('replyFormat')).toBe(expected.replyFormatTokens);
    expect(await figure('prefix')).toBe(expected.prefixTokens);
    expect(await figure('conversation')).toBe(expected.conversationTokens);
    expect(expected.toolsTokens).toBeGreaterThan(0);
  });

  it('measures by default as a new NPCComponent sends it when no NPC of the scene uses the persona', async () => {
    for (const start of [{ personaUuid: 'uuid-of-greta' }, { sceneOpen: false }]) {
      const other = await open(start);
      await other.waitForFunction(() =>
        document.querySelector('[data-role="meter-source"]')!.textContent!.startsWith('Measured as a new NPCComponent'),
      );
      expect(await other.inputValue('[data-role="tool-preset"]')).toBe('none');
      const expected = measurePersona(JSON.parse(MIRA_TEXT), componentDefaultsSetup());
      expect(await figure('prefix', other)).toBe(expected.prefixTokens);
      expect(await figure('tools', other)).toBe(0);
      expect(await text('[data-role="meter-source"]', other)).toBe(
        start.sceneOpen === false
          ? 'Measured as a new NPCComponent sends it (no tools, no world store).'
          : 'Measured as a new NPCComponent sends it (no tools, no world store); no NPC of the open scene uses this persona.',
      );
      await other.close();
    }
  });

  it('splits the bar by persona field, tools, reply format and secrets, with a row for each part', async () => {
    const expected = measurePersona(JSON.parse(MIRA_TEXT), miraNpcSetup());
    const parts = await page.$$eval('[data-role="meter-bar"] .seg', (segs) =>
      segs.map((segment) => ({
        key: segment.getAttribute('data-part'),
        width: parseFloat((segment as HTMLElement).style.width),
      })),
    );
    expect(parts.map((part) => part.key)).toEqual([
      'rules',
      'role',
      'personality',
      'speakingStyle',
      'backstory',
      'goals',
      'knowledge',
      'tools',
      'replyFormat',
      'secrets',
    ]);
    expect(parts.map((part) => part.key)).toEqual(expected.parts.map((part) => part.key));
    // Widths are shares of the usable budget; together they are the meter's share.
    const total = parts.reduce((sum, part) => sum + part.width, 0);
    expect(total).toBeCloseTo(expected.share * 100, 3);
    for (const part of expected.parts.filter((candidate) => candidate.group === 'persona'))
      expect(await figure(`part-${part.key}`)).toBe(part.tokens);
    expect(await text('[data-part-row="backstory"] td')).toBe('Background');
    expect(expected.parts.filter((part) => part.group === 'persona').reduce((sum, part) => sum + part.tokens, 0)).toBe(
      expected.personaTokens,
    );
    const percent = Math.round(expected.share * 100);
    expect(await text('[data-role="meter-verdict"]')).toBe(
      `${percent}% of the usable budget: ${expected.prefixTokens + expected.secretsTokens} of 3744 tokens, ${expected.conversationTokens} left for memory, world and the conversation.`,
    );
  });

  it('follows the set-up the designer picks and updates live while they type', async () => {
    await page.selectOption('[data-role="tool-preset"]', 'tavern');
    const tavern = measurePersona(JSON.parse(MIRA_TEXT), tavernSetup());
    expect(await figure('tools')).toBe(tavern.toolsTokens);
    expect(await figure('prefix')).toBe(tavern.prefixTokens);
    expect(await text('[data-role="meter-source"]')).toBe('');
    expect(await page.isVisible('[data-role="scene-npc-box"]')).toBe(false);
    await page.selectOption('[data-role="tool-preset"]', 'none');
    expect(await page.isVisible('[data-role="custom-tools"]')).toBe(false);
    const before = await figure('persona');
    await page.fill('#oam-persona-backstory', `${'A long tale of the road. '.repeat(20)}`);
    expect(await figure('persona')).toBeGreaterThan(before);
    expect(await page.getAttribute('[data-role="token-meter"]', 'data-level')).toBe('ok');
    await page.fill('#oam-persona-backstory', 'The old mill burned down. '.repeat(420).trim());
    expect(await page.getAttribute('[data-role="token-meter"]', 'data-level')).toBe('danger');
    expect(await text('[data-role="meter-verdict"]')).toMatch(
      /^\d+% of the usable budget: only \d+ tokens left, so the NPC soon forgets the start of a conversation and long turns may fail\. Shorten Background \(\d+ tokens\), the largest part\.$/,
    );
  });

  it('says in plain words when the persona is over budget: every turn fails, and which part to shorten by how much', async () => {
    await page.fill('#oam-persona-backstory', 'The old mill burned down. '.repeat(615).trim());
    const persona = JSON.parse(
      await page.evaluate(() =>
        (window as unknown as { inspector: { currentText(): string } }).inspector.currentText(),
      ),
    );
    const figures = measurePersona(persona, componentDefaultsSetup());
    const used = figures.prefixTokens + figures.secretsTokens;
    expect(figures.level).toBe('over');
    expect(figures.largestPart).toMatchObject({ key: 'backstory' });
    expect(await page.getAttribute('[data-role="token-meter"]', 'data-level')).toBe('over');
    expect(await text('[data-role="meter-verdict"]')).toBe(
      `Over budget: ${used} tokens where 3744 fit, so every turn fails (context_size_exceeded) before the model is asked. Shorten Background (${figures.largestPart.tokens} tokens), the largest part, by at least ${used - 3744} tokens.`,
    );
    // The bar is scaled to the whole prompt and marks where the budget ends.
    expect(await page.locator('[data-role="budget-mark"]').count()).toBe(1);
    await page.fill('#oam-persona-backstory', 'Mira inherited the Crooked Lantern from her aunt.');
    expect(await page.getAttribute('[data-role="token-meter"]', 'data-level')).toBe('ok');
    expect(await page.locator('[data-role="budget-mark"]').count()).toBe(0);
  });

  it('measures with any NPC of the open scene, marked when it uses this persona', async () => {
    await page.selectOption('[data-role="tool-preset"]', 'npc');
    await page.waitForSelector('[data-role="scene-npc"] option[value="n-mira"]', { state: 'attached' });
    expect(await page.getAttribute('[data-role="scene-npc"] option[value="n-mira"]', 'data-this-persona')).toBe('true');
    expect(await text('[data-role="scene-npc"] option[value="n-mira"]')).toBe(
      '★ Mira (Canvas/Mira) · uses this persona',
    );
    await page.selectOption('[data-role="scene-npc"]', '');
    expect(await figure('tools')).toBe(0);
    await page.selectOption('[data-role="scene-npc"]', 'n-mira');
    const persona = JSON.parse(
      await page.evaluate(() =>
        (window as unknown as { inspector: { currentText(): string } }).inspector.currentText(),
      ),
    );
    const expected = measurePersona(persona, miraNpcSetup());
    await page.waitForFunction(
      (count) => document.querySelector('[data-figure="tools"]')!.textContent === String(count),
      expected.toolsTokens,
    );
    expect(await figure('prefix')).toBe(expected.prefixTokens);
    const requests = await page.evaluate(() => (window as unknown as { requests: string[] }).requests);
    expect(requests).toEqual(
      expect.arrayContaining(['scene:query-node-tree', 'scene:query-node', 'scene:query-component']),
    );
  });

  it('reports an invalid custom tool list as invalid and measures nothing, never 0 tool tokens', async () => {
    await page.selectOption('[data-role="tool-preset"]', 'custom');
    for (const [json, reason] of [
      ['[{"name": "open gate"', /^not JSON/],
      ['[{"name": "open gate", "description": "Opens the town gate."}]', /^tool 1: /],
      ['[{"name": "remember_fact", "description": "Clashes."}]', /clashes with a built-in NPC tool/],
    ] as const) {
      await page.fill('[data-role="custom-tools"]', json);
      expect(await page.getAttribute('[data-role="token-meter"]', 'data-level')).toBe('invalid');
      const problem = await text('[data-role="custom-tools-problem"]');
      expect(problem.replace(/^Custom tools: /, '')).toMatch(reason);
      expect(await text('[data-role="meter-verdict"]')).toMatch(
        /^Not measured: the custom tool list is not valid \(.+\)\. Fix it or choose another set-up\.$/,
      );
      expect(await text('[data-figure="tools"]')).toBe('—');
      expect(await text('[data-figure="prefix"]')).toBe('—');
      expect(await page.locator('[data-role="meter-bar"] .seg').count()).toBe(0);
    }
    await page.fill('[data-role="custom-tools"]', '[{"name": "open_gate", "description": "Opens the town gate."}]');
    expect(await text('[data-role="custom-tools-problem"]')).toBe('');
    expect(await page.getAttribute('[data-role="token-meter"]', 'data-level')).toBe('ok');
    expect(await figure('tools')).toBeGreaterThan(0);
  });

  it('shows a bad default emotion as it is, with the message, never as the default', async () => {
    const tab = await open({ text: withMira({ defaultEmotion: 'grumpy' }) });
    expect(await tab.inputValue('#oam-persona-defaultEmotion')).toBe('grumpy');
    expect(
      await tab.$eval(
        '#oam-persona-defaultEmotion',
        (select) => (select as HTMLSelectElement).selectedOptions[0].textContent,
      ),
    ).toBe('"grumpy" (not an emotion)');
    expect(await tab.getAttribute('#oam-persona-defaultEmotion', 'class')).toContain('invalid');
    expect(await text('[data-field="defaultEmotion"] [data-role="problems"]', tab)).toMatch(
      /^Not one of the emotions: "grumpy"\. Pick one from the list\./,
    );
    await tab.click('[data-action="save"]');
    expect(await text('[data-role="save-status"]', tab)).toBe(
      'Not saved: an NPC would refuse this persona; fix the 1 problem(s) marked in red first.',
    );
    expect(await savedCount(tab)).toBe(0);
    // Picking a real emotion clears it, and the bad value is not offered again.
    await tab.selectOption('#oam-persona-defaultEmotion', 'happy');
    expect(await text('[data-field="defaultEmotion"] [data-role="problems"]', tab)).toBe('');
    expect(await tab.locator('#oam-persona-defaultEmotion option[value="grumpy"]').count()).toBe(0);
    await tab.close();
  });

  it('opens a file that is not JSON read-only with its error, and Save cannot write over it', async () => {
    const broken = '{\n  "name": "Bo",\n  "role": "smith"\n  "goals": []\n}\n';
    const tab = await open({ text: broken });
    expect(await tab.isVisible('[data-role="file-error"]')).toBe(true);
    expect(await text('[data-role="file-error-message"]', tab)).toMatch(
      /^The file is not JSON: .+ \(line 4, column 3\)\.$/,
    );
    expect(await text('[data-role="file-text"]', tab)).toBe(broken);
    expect(await tab.isVisible('[data-role="persona-form"]')).toBe(false);
    expect(await tab.isVisible('[data-role="token-meter"]')).toBe(false);
    expect(await tab.isDisabled('[data-action="save"]')).toBe(true);
    await tab.click('[data-action="save"]', { force: true });
    expect(await savedCount(tab)).toBe(0);
    expect(
      await tab.evaluate(() => (window as unknown as { inspector: { currentText(): string } }).inspector.currentText()),
    ).toBe(broken);
    // JSON that is not an object is no persona either; a fixed file opens the form again.
    await tab.evaluate(() => (window as unknown as { inspector: { load(t: string): void } }).inspector.load('[1, 2]'));
    expect(await text('[data-role="file-error-message"]', tab)).toBe(
      'The file is JSON but not a persona (an object with a "name"); got a list.',
    );
    await tab.evaluate(
      (fileText) => (window as unknown as { inspector: { load(t: string): void } }).inspector.load(fileText),
      MIRA_TEXT,
    );
    expect(await tab.isVisible('[data-role="file-error"]')).toBe(false);
    expect(await tab.isDisabled('[data-action="save"]')).toBe(false);
    expect(await tab.inputValue('#oam-persona-name')).toBe('Mira');
    await tab.evaluate(() =>
      (window as unknown as { inspector: { loadUnreadable(r: string): void } }).inspector.loadUnreadable(
        'EACCES: permission denied',
      ),
    );
    expect(await text('[data-role="file-error-message"]', tab)).toBe(
      'The file could not be read: EACCES: permission denied.',
    );
    expect(await tab.isDisabled('[data-action="save"]')).toBe(true);
    await tab.close();
  });

  it('never writes less than it read without asking: what the form cannot show is listed, and a second Save confirms', async () => {
    const tab = await open({
      text: withMira({ goals: [{ step: 1, text: 'Pay the brewer' }, 'Keep the inn'], greeting: 7 }),
    });
    // The designer fixes the goals by editing the entry the form shows; the object entry is not in the form.
    const goals = tab.locator('[data-field="goals"] [data-role="list"] input');
    await goals.last().fill('Keep the inn full');
    await tab.fill('#oam-persona-greeting', 'Welcome, love!');
    await tab.click('[data-action="save"]');
    expect(await savedCount(tab)).toBe(0);
    const status = await text('[data-role="save-status"]', tab);
    expect(status).toMatch(/^Not saved yet: .*goals\[0\]: an object, dropped.*Press Save again/);
    expect(status).toContain('greeting: the number 7, saved as text');
    await tab.click('[data-action="save"]');
    await tab.waitForFunction(() => (window as unknown as { saved: unknown[] }).saved.length === 1);
    await tab.close();
  });

  it('refuses to save with an empty name and says so', async () => {
    await page.fill('#oam-persona-name', '');
    expect(await text('[data-field="name"] [data-role="problems"]')).toBe(
      'Required: give the character a name; an NPC cannot use a persona without one.',
    );
    expect(await page.getAttribute('#oam-persona-name', 'class')).toContain('invalid');
    await page.click('[data-action="save"]');
    expect(await text('[data-role="save-status"]')).toBe('Not saved: give the character a name first.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('oam-persona-name');
    await page.fill('#oam-persona-name', '   ');
    await page.click('[data-action="save"]');
    expect(await text('[data-role="save-status"]')).toBe('Not saved: give the character a name first.');
    expect(await savedCount(page)).toBe(0);
    await page.fill('#oam-persona-name', 'Mira Brandt');
    expect(await text('[data-field="name"] [data-role="problems"]')).toBe('');
    expect(await text('[data-role="save-status"]')).toBe('');
  });

  it("refuses sentences per reply outside the schema's 1 to 8, and text that is not a whole number", async () => {
    for (const typed of ['999', '0', '9', '-1', '2.5', 'two']) {
      await page.fill('#oam-persona-maxSentences', typed);
      const got = /^-?\d+$/.test(typed) ? typed : `"${typed}"`;
      expect(await text('[data-field="maxSentences"] [data-role="problems"]')).toBe(
        `Must be a whole number from 1 to 8; got ${got}.`,
      );
      expect(await page.inputValue('#oam-persona-maxSentences')).toBe(typed);
      await page.click('[data-action="save"]');
      expect(await text('[data-role="save-status"]')).toBe(
        'Not saved: an NPC would refuse this persona; fix the 1 problem(s) marked in red first.',
      );
    }
    expect(await savedCount(page)).toBe(0);
    for (const typed of ['1', '8', '3']) {
      await page.fill('#oam-persona-maxSentences', typed);
      expect(await text('[data-field="maxSentences"] [data-role="problems"]')).toBe('');
    }
  });

  it('words every message in one voice: a sentence, the bad value as the file has it', async () => {
    const tab = await open({
      text: JSON.stringify({
        name: 'Bo',
        role: 5,
        goals: 'eat',
        defaultEmotion: 'Happy',
        maxSentences: 999,
        speaking_style: 'gruff',
      }),
    });
    const messages = await tab.$$eval(
      '[data-role="general-problems"] .problem, [data-role="persona-form"] .problem',
      (nodes) => nodes.map((node) => node.textContent ?? '').filter(Boolean),
    );
    expect(messages).toEqual([
      '"speaking_style" is not a persona field; an NPC refuses the file until it is removed. Did you mean "speakingStyle"?',
      'Must be text; got 5.',
      'Must be a list; got "eat".',
      'Not one of the emotions: "Happy". Pick one from the list. Did you mean "happy"?',
      'Must be a whole number from 1 to 8; got 999.',
    ]);
    for (const message of messages) expect(message).toMatch(/^["A-Z].*[.?]$/);
    // The role is shown as the file has it; its message stays until the field is edited.
    expect(await tab.inputValue('#oam-persona-role')).toBe('5');
    await tab.fill('#oam-persona-role', 'the smith');
    expect(await text('[data-field="role"] [data-role="problems"]', tab)).toBe('');
    await tab.close();
  });

  it("fits the Inspector panel's width (300 px) without sideways scrolling", async () => {
    const tab = await open({ width: 300, text: withMira({ defaultEmotion: 'grumpy' }) });
    await tab.waitForFunction(() =>
      document.querySelector('[data-role="meter-source"]')!.textContent!.includes('Canvas/Mira'),
    );
    const overflow = await tab.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await tab.screenshot({ path: NARROW_SCREENSHOT, fullPage: true });
    expect(fs.statSync(NARROW_SCREENSHOT).size).toBeGreaterThan(10_000);
    await tab.close();
  });

  it('edits the lists and the emotion, saves through the asset database and writes the JSON in schema order', async () => {
    await page.click('[data-field="goals"] [data-action="add"]');
    await page.locator('[data-field="goals"] [data-role="list"] input').nth(2).fill('Pay off the brewer');
    await page.locator('[data-field="knowledge"] [data-action="remove"]').first().click();
    await page.click('[data-field="secrets"] [data-action="add"]');
    await page.selectOption('#oam-persona-defaultEmotion', 'happy');
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    await page.click('[data-action="save"]');
    await page.waitForFunction(() => document.querySelector('[data-role="save-status"]')!.textContent === 'Saved.');
    const saved = await page.evaluate(
      () => (window as unknown as { saved: Array<{ pkg: string; message: string; uuid: string; text: string }> }).saved,
    );
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ pkg: 'asset-db', message: 'save-asset', uuid: 'uuid-of-mira' });
    const json = JSON.parse(saved[0].text);
    expect(Object.keys(json)).toEqual(PERSONA_FIELDS);
    const mira = JSON.parse(MIRA_TEXT);
    expect(json).toEqual({
      ...mira,
      name: 'Mira Brandt',
      backstory: 'Mira inherited the Crooked Lantern from her aunt.',
      goals: [...mira.goals, 'Pay off the brewer'],
      knowledge: mira.knowledge.slice(1),
      defaultEmotion: 'happy',
      maxSentences: 3,
    });
    expect(saved[0].text.endsWith('}\n')).toBe(true);
    expect(fs.statSync(SCREENSHOT).size).toBeGreaterThan(10_000);
    expect(await page.evaluate(() => (window as unknown as { missingKeys: string[] }).missingKeys)).toEqual([]);
  });
});
