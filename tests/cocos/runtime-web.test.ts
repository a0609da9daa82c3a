/**
 * OamRuntime and NanoStatus in a web build or browser preview whose browser has the Prompt API
 * (here: the Prompt API STAND-IN, not Chrome's model, installed as globalThis.LanguageModel).
 */
jest.mock('cc', () => require('./cc-double'), { virtual: true });
jest.mock('cc/env', () => require('./cc-double').env, { virtual: true });
jest.mock('../../assets/runtime/oam-core.js', () => jest.requireActual('../../src/bundle'), { virtual: true });

import { ChromePromptModel, KeywordModel, PreferAvailableModel } from '../../src';
import * as cc from './cc-double';
import { loadComponents, type NanoStatusLike } from './load';
import { flush, mount, persona } from './mocks';
import { createPromptApiStandIn, type StandInControl } from '../../bench/web/prompt-api-stand-in';

const components = loadComponents();
let control: StandInControl;
const globalScope = globalThis as { LanguageModel?: unknown };

function install(availability: 'available' | 'downloadable' | 'unavailable'): void {
  const made = createPromptApiStandIn({ availability, brain: () => 'Chrome says hello.' });
  control = made.control;
  globalScope.LanguageModel = made.api;
}

let warn: jest.SpyInstance;
beforeEach(() => {
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  warn.mockRestore();
  components.OamRuntime.reset();
  components.OamRuntime.configure({});
  cc.simulatePlatform('browser');
  delete globalScope.LanguageModel;
});

describe('OamRuntime on the web', () => {
  test("the browser has the Prompt API: Chrome's model once available, the stand-in while it is downloadable", async () => {
    install('downloadable');
    components.OamRuntime.configure({});
    expect(components.OamRuntime.kind).toBe('chrome-nano');
    expect(components.OamRuntime.model.inner).toBeInstanceOf(PreferAvailableModel);
    expect(components.OamRuntime.chromeNano).toBeInstanceOf(ChromePromptModel);
    expect(components.OamRuntime.onDevice).toBe(components.OamRuntime.chromeNano);
    expect(components.OamRuntime.nano).toBeNull();
    const npc = mount(components.NPCComponent, { persona: persona() });
    await expect(npc.talk('hello there')).resolves.toMatchObject({ line: 'Well met, traveller!' }); // the stand-in
    expect(control.log.prompts).toHaveLength(0);

    control.activated = true; // the player clicked the download button
    await components.OamRuntime.onDevice?.download();
    const turn = await npc.talk('hello again');
    expect(control.log.prompts.length).toBeGreaterThan(0);
    expect(turn.line).toBe('Chrome says hello.');
  });

  test('native builds, chromeNano: false, and a browser without the API keep the stand-in', () => {
    install('available');
    components.OamRuntime.configure({ chromeNano: false });
    expect(components.OamRuntime.kind).toBe('stand-in');
    components.OamRuntime.configure({});
    expect(components.OamRuntime.kind).toBe('chrome-nano');
    cc.simulatePlatform('ios');
    components.OamRuntime.configure({ chromeNano: true });
    expect(components.OamRuntime.kind).toBe('stand-in');
    cc.simulatePlatform('browser');
    delete globalScope.LanguageModel;
    components.OamRuntime.configure({});
    expect(components.OamRuntime.kind).toBe('stand-in');
    expect(components.OamRuntime.model.inner).toBeInstanceOf(KeywordModel);
  });

  test("a server configured for previews wins over Chrome's model", () => {
    install('available');
    components.OamRuntime.configure({ openaiUrl: 'http://127.0.0.1:9/v1' });
    expect(components.OamRuntime.kind).toBe('openai-compatible');
  });
});

describe('NanoStatus on the web', () => {
  test('downloadable, a download from the button with progress, then available', async () => {
    install('downloadable');
    components.OamRuntime.configure({});
    const node = new cc.Node('status');
    const progress: number[] = [];
    node.on(components.NANO_PROGRESS, (update: { fraction: number }) => progress.push(update.fraction));
    const status = mount(components.NanoStatus, { refreshOnLoad: false }, node) as NanoStatusLike;
    await status.refresh();
    expect(status.status).toBe('downloadable');
    expect(status.message).toMatch(/press Download/);

    // Without the player's gesture Chrome refuses, and the error says what to do.
    await expect(status.download()).rejects.toMatchObject({
      code: 'model_unavailable',
      message: expect.stringMatching(/click, tap or key handler/),
    });
    expect(status.status).toBe('downloadable');

    control.activated = true;
    await status.download();
    expect(progress).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(status.status).toBe('available');
    expect(status.progress).toBe(1);
    expect(status.message).toBe("Chrome's built-in AI model is ready.");
  });

  test('a computer that cannot run it, and an iframe without allow="language-model", get human messages', async () => {
    install('unavailable');
    components.OamRuntime.configure({});
    const status = mount(components.NanoStatus, { refreshOnLoad: false }, new cc.Node('status')) as NanoStatusLike;
    await expect(status.refresh()).resolves.toMatchObject({ status: 'unavailable', reason: 'device_not_eligible' });
    expect(status.message).toMatch(/22 GB/);
    control.permissionsAllowed = false;
    control.availability = 'available';
    await status.refresh();
    expect(status.status).toBe('unavailable'); // the spec says unavailable; only a browser's policy tells why
    status.node.destroy();
    await flush();
  });
});
