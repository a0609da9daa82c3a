/**
 * The persona inspector in headless Chromium: the view bundled for the browser, a static
 * harness page with a stub `Editor.Message.request` that records save calls, then typing,
 * the token meter, a validation message, saving and a screenshot. No Chromium = failure.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { PERSONA_FIELDS } from '../../src/game/persona';
import { measurePersona, noToolsSetup, tavernSetup } from '../../extension/token-meter/token-meter';
import { sceneNpcSetup } from '../../extension/token-meter/npc-setup';
import { readNpcNode } from '../../extension/panels/preview/npc-dump';
import { chromiumLaunchOptions } from '../support/chromium';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const en = require('../../i18n/en.js');

const ROOT = path.join(__dirname, '..', '..');
const SCREENSHOT = path.join(ROOT, 'tests', 'artifacts', 'persona-inspector.png');
const MIRA_TEXT = fs.readFileSync(path.join(ROOT, 'demo', 'tavern', 'mira.persona.json'), 'utf8');

/** The open scene the stub editor answers with: one NPC node (Mira's persona), a world store. */
const SCENE_WORLD = { player: { gold: 12 }, time: 'evening' };
const field = (value: unknown) => ({ value });
const NPC_NODE_DUMP = {
  name: field('Mira'),
  __comps__: [{
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
      externalTools: field([{ type: 'oam.ToolDeclaration', value: { name: field('pour_drink'), description: field('Pours the player a drink.'), parametersSchema: field('{"type":"object","properties":{"drink":{"type":"string"}}}') } }]),
    },
  }],
};
const SCENE = {
  tree: { name: 'tavern', uuid: 'scene-1', children: [{ name: 'Canvas', uuid: 'n-canvas', components: [], children: [{ name: 'Mira', uuid: 'n-mira', components: [{ type: 'oam.NPCComponent', value: 'c-mira' }], children: [] }] }] },
  nodes: { 'n-mira': NPC_NODE_DUMP },
  components: { 'store-1': { type: 'oam.WorldStateStore', value: { initialState: field(null), initialJson: field(JSON.stringify(SCENE_WORLD)) } } },
};

let dir: string;
let browser: Browser;
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
  // The page wires the view the way persona-inspector.ts does in Creator, with a stub Editor.
  const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>persona inspector harness</title>
<style>body { background: #2b2b2b; margin: 0; padding: 8px 12px; width: 420px; font-family: sans-serif; }</style>
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
  window.inspector = OamPersonaView.renderPersonaInspector(document.getElementById('root'), {
    t,
    text: ${JSON.stringify(MIRA_TEXT)},
    save: (text) => Editor.Message.request('asset-db', 'save-asset', 'uuid-of-mira', text),
    sceneNpcs: OamPersonaView.sceneNpcSource((pkg, message, ...args) => Editor.Message.request(pkg, message, ...args), () => '{}', () => 'uuid-of-mira'),
  });
</script></body></html>`;
  const file = path.join(dir, 'inspector-harness.html');
  fs.writeFileSync(file, page);
  return file;
}

beforeAll(async () => {
  const launchOptions = chromiumLaunchOptions(); // throws (apt-get install -y chromium) when missing: no skip
  const file = await harness();
  browser = await chromium.launch(launchOptions);
  page = await browser.newPage({ viewport: { width: 460, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`file://${file}`);
  await page.waitForSelector('[data-role="token-meter"]');
  expect(errors).toEqual([]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const figure = (name: string) => page.textContent(`[data-figure="${name}"]`).then((s) => Number(s));

describe('the persona inspector in Chromium', () => {
  it('shows a field for every persona field, filled from the file, with English texts', async () => {
    for (const field of PERSONA_FIELDS) expect(await page.locator(`[data-field="${field}"]`).count()).toBe(1);
    expect(await page.inputValue('#oam-persona-name')).toBe('Mira');
    expect(await page.locator('[data-field="goals"] [data-role="list"] input').count()).toBe(2);
    expect(await page.inputValue('#oam-persona-defaultEmotion')).toBe('neutral');
    expect(await page.textContent('[data-field="speakingStyle"] label')).toBe('Speaking style');
    expect(await page.evaluate(() => (window as unknown as { missingKeys: string[] }).missingKeys)).toEqual([]);
  });

  it('shows the meter figures of the persona and follows the tool choice', async () => {
    const none = measurePersona(JSON.parse(MIRA_TEXT), noToolsSetup());
    expect(await figure('persona')).toBe(none.personaTokens);
    expect(await figure('prefix')).toBe(none.prefixTokens);
    expect(await figure('conversation')).toBe(none.conversationTokens);
    await page.selectOption('[data-role="tool-preset"]', 'tavern');
    const expected = measurePersona(JSON.parse(MIRA_TEXT), tavernSetup());
    expect(await figure('tools')).toBe(expected.toolsTokens);
    expect(await figure('prefix')).toBe(expected.prefixTokens);
    expect(await figure('conversation')).toBe(expected.conversationTokens);
  });

  it('updates the meter live while the designer types', async () => {
    const before = await figure('persona');
    await page.fill('#oam-persona-backstory', `${'A long tale of the road. '.repeat(20)}`);
    const after = await figure('persona');
    expect(after).toBeGreaterThan(before);
    expect(await page.getAttribute('[data-role="token-meter"]', 'data-level')).toBe('ok');
    await page.fill('#oam-persona-backstory', 'x'.repeat(12000));
    expect(await page.getAttribute('[data-role="token-meter"]', 'data-level')).toBe('danger');
    await page.fill('#oam-persona-backstory', 'Mira inherited the Crooked Lantern from her aunt.');
    expect(await page.getAttribute('[data-role="token-meter"]', 'data-level')).toBe('ok');
  });

  it('measures with an NPC of the open scene, picked from the scene and marked as using this persona', async () => {
    await page.selectOption('[data-role="tool-preset"]', 'none');
    const noTools = await figure('tools');
    await page.selectOption('[data-role="tool-preset"]', 'npc');
    await page.waitForSelector('[data-role="scene-npc"] option[value="n-mira"]', { state: 'attached' });
    expect(await page.getAttribute('[data-role="scene-npc"] option[value="n-mira"]', 'data-this-persona')).toBe('true');
    expect(await page.textContent('[data-role="scene-npc"] option[value="n-mira"]')).toBe('★ Mira (Canvas/Mira) · uses this persona');
    await page.selectOption('[data-role="scene-npc"]', '');
    expect(await figure('tools')).toBe(noTools);
    await page.selectOption('[data-role="scene-npc"]', 'n-mira');
    const setup = sceneNpcSetup(readNpcNode(NPC_NODE_DUMP)!, SCENE_WORLD);
    if (!setup.ok) throw new Error(setup.message);
    const persona = JSON.parse(await page.evaluate(() => (window as unknown as { inspector: { currentText(): string } }).inspector.currentText()));
    const expected = measurePersona(persona, setup.setup);
    await page.waitForFunction((n) => document.querySelector('[data-figure="tools"]')!.textContent === String(n), expected.toolsTokens);
    expect(await figure('tools')).toBeGreaterThan(noTools);
    expect(await figure('replyFormat')).toBe(expected.replyFormatTokens);
    expect(await figure('prefix')).toBe(expected.prefixTokens);
    expect(await page.textContent('[data-role="custom-tools-problem"]')).toBe('');
    const requests = await page.evaluate(() => (window as unknown as { requests: string[] }).requests);
    expect(requests).toEqual(expect.arrayContaining(['scene:query-node-tree', 'scene:query-node', 'scene:query-component']));
    expect(await page.evaluate(() => (window as unknown as { missingKeys: string[] }).missingKeys)).toEqual([]);
  });

  it('reports a bad custom tool list under the tool choice', async () => {
    await page.selectOption('[data-role="tool-preset"]', 'custom');
    await page.fill('[data-role="custom-tools"]', '[{"name": "open gate"');
    expect(await page.textContent('[data-role="custom-tools-problem"]')).toMatch(/^Custom tools: not JSON/);
    await page.fill('[data-role="custom-tools"]', '[{"name": "open_gate", "description": "Opens the town gate."}]');
    expect(await page.textContent('[data-role="custom-tools-problem"]')).toBe('');
    expect(await figure('tools')).toBeGreaterThan(0);
  });

  it('shows a validation message for an empty name and clears it when fixed', async () => {
    await page.fill('#oam-persona-name', '');
    expect(await page.textContent('[data-field="name"] [data-role="problems"]')).toBe('Must not be empty.');
    expect(await page.getAttribute('#oam-persona-name', 'class')).toContain('invalid');
    await page.fill('#oam-persona-maxSentences', '0');
    expect(await page.textContent('[data-field="maxSentences"] [data-role="problems"]')).toBe('persona.maxSentences: must be at least 1; got 0');
    await page.fill('#oam-persona-maxSentences', '3');
    await page.fill('#oam-persona-name', 'Mira Brandt');
    expect(await page.textContent('[data-field="name"] [data-role="problems"]')).toBe('');
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
    const saved = await page.evaluate(() => (window as unknown as { saved: Array<{ pkg: string; message: string; uuid: string; text: string }> }).saved);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ pkg: 'asset-db', message: 'save-asset', uuid: 'uuid-of-mira' });
    const json = JSON.parse(saved[0].text);
    expect(Object.keys(json)).toEqual(PERSONA_FIELDS.filter((f) => f in json));
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
  });
});
