/**
 * Who answers a character in a shipped native debug build (cc/env: DEV false, DEBUG true,
 * NATIVE true), through NPCComponent on the real engine: Gemini Nano on Android where it is
 * available (over the JsbBridge, answered here by a fake of the Kotlin module's protocol), the
 * character's line bank while it downloads and on a phone without it, the bank on iOS and
 * desktop; never the stand-in's developer text. NanoStatus says who answers, and a QAOverlay
 * records it per turn and writes its bundle under the native writable path.
 */
// The engine's exports as harness/cc-module.ts gives them, plus the `native` namespace a native
// build has (a headless run has none): the bridge wrapper and file utilities are faked below.
jest.mock(
  'cc',
  () => ({
    ...jest.requireActual('../../exports/base'),
    ...jest.requireActual('../../exports/2d'),
    ...jest.requireActual('../../exports/ui'),
    native: {},
  }),
  { virtual: true },
);

import { Node, native, sys } from 'cc';
import { mkdtempSync, readFileSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { freshScene, frame, jsonAsset, mount, settle, until } from './harness/scene';
import { guard } from './harness/guards';
import { loadOam, type LoadedOam } from './harness/oam';
import { readManifest } from './harness/pack';
import type { QAOverlay as QAOverlayType } from '../../assets/components/QAOverlay';

const REPO = readManifest().repo;
const MIRA = JSON.parse(readFileSync(join(REPO, 'demo/tavern/mira.persona.json'), 'utf8'));
const BANK = JSON.parse(readFileSync(join(REPO, 'demo/tavern/mira.bank.json'), 'utf8'));
const BANK_GREETING = /Welcome to the Crooked Lantern|Evening! Mind the wet floor/;
const STAND_IN = /Stand-in model|Gemini Nano answers here/;

let oam: LoadedOam;
let QAOverlay: typeof QAOverlayType;
beforeAll(async () => {
  // What a shipped native debug build's scripts read from cc/env; the engine stays headless.
  oam = await loadOam({ DEV: false, DEBUG: true, NATIVE: true });
  QAOverlay = oam.pack.script<{ QAOverlay: typeof QAOverlayType }>('QAOverlay').QAOverlay;
});

type Loose = Record<string, unknown>;
const nativeScope = native as unknown as Loose;
const platform = sys.platform;
const wrapperBefore = nativeScope.jsbBridgeWrapper;
const fileUtilsBefore = nativeScope.fileUtils;
guard(() => {
  oam.C.OamRuntime.reset();
  (sys as unknown as Loose).platform = platform;
  nativeScope.jsbBridgeWrapper = wrapperBefore;
  nativeScope.fileUtils = fileUtilsBefore;
});
beforeEach(() => freshScene());

/** The Kotlin module as docs/bridge-protocol.md describes it: availability as given, a line per generate. */
function fakeAndroid(availability: Loose, line = 'Nano says: two ales, coming up.') {
  const listeners: Array<(arg?: string) => void> = [];
  const toScript = (body: Loose) =>
    setTimeout(() => listeners.forEach((listener) => listener(JSON.stringify({ jsonrpc: '2.0', ...body }))), 0);
  const generated = { count: 0 };
  nativeScope.jsbBridgeWrapper = {
    addNativeEventListener: (_event: string, listener: (arg?: string) => void) => listeners.push(listener),
    removeNativeEventListener: (_event: string, listener: (arg?: string) => void) =>
      listeners.splice(listeners.indexOf(listener), 1),
    removeAllListenersForEvent: () => listeners.splice(0).length > 0,
    dispatchEventToNative: (_event: string, arg?: string) => {
      const message = JSON.parse(arg as string) as { id?: unknown; method: string };
      const { id } = message;
      if (message.method === 'ready') toScript({ id, result: { protocol: 1, platform: 'android' } });
      else if (message.method === 'availability') toScript({ id, result: availability });
      else if (message.method === 'modelInfo')
        toScript({
          id,
          result: {
            baseModelName: 'gemini-nano',
            tokenLimit: 4000,
            systemInstructions: true,
            prefixCaching: false,
            thinking: false,
            imageInput: false,
          },
        });
      else if (message.method === 'warmup') toScript({ id, result: {} });
      else if (message.method === 'countTokens') toScript({ id, result: { totalTokens: 10 } });
      else if (message.method === 'generate') {
        generated.count++;
        const text = JSON.stringify({ reply: { emotion: 'happy', line } });
        toScript({ method: 'generate/chunk', params: { id, delta: text, seq: 0 } });
        toScript({ id, result: { text, finishReason: 'stop' } });
      }
    },
  };
  return generated;
}

function onPlatform(name: 'ANDROID' | 'IOS' | 'WIN32' | 'MACOS'): void {
  const platforms = sys.Platform as unknown as Record<string, unknown>;
  (sys as unknown as Loose).platform = platforms[name];
}

function mira(node = new Node('mira')) {
  oam.C.OamRuntime.configure({ scheduler: { callsPerMinute: 0 } });
  return mount(
    oam.C.NPCComponent,
    { persona: jsonAsset(MIRA, 'mira.persona'), lineBank: jsonAsset(BANK, 'mira.bank'), prewarmOnStart: false },
    node,
  );
}

function status() {
  return mount(oam.C.NanoStatus, { refreshOnLoad: false }, new Node('status'));
}

describe('a shipped Android build', () => {
  test('with Gemini Nano available: Nano answers, and NanoStatus says so', async () => {
    onPlatform('ANDROID');
    const android = fakeAndroid({ status: 'available' });
    const npc = mira();
    expect(oam.C.OamRuntime.kind).toBe('gemini-nano');
    const turn = await npc.talk('Two ales, please.');
    expect(turn.line).toBe('Nano says: two ales, coming up.');
    expect(android.count).toBe(1);
    expect(npc.answeredBy).toBe('gemini-nano');
    const shown = status();
    shown.npc = npc;
    await shown.refresh();
    expect(shown.answeredBy).toBe('gemini-nano');
    expect(shown.answerer).toBe('Gemini Nano');
  });

  test('while Gemini Nano downloads: the line bank answers, and NanoStatus says why', async () => {
    onPlatform('ANDROID');
    const android = fakeAndroid({ status: 'downloading' });
    const npc = mira();
    const turn = await npc.talk('Evening!');
    expect(turn.line).toMatch(BANK_GREETING);
    expect(android.count).toBe(0);
    expect(npc.answeredBy).toBe('line-bank');
    const shown = status();
    await shown.refresh();
    expect(shown.status).toBe('downloading');
    expect(shown.answeredBy).toBe('line-bank');
    expect(shown.answerer).toBe('Line bank (Gemini Nano is downloading)');
  });

  test('on a phone without Gemini Nano: the line bank, never the stand-in', async () => {
    onPlatform('ANDROID');
    fakeAndroid({ status: 'unavailable', reason: 'device_not_eligible' });
    const npc = mira();
    const lines = [(await npc.talk('Evening!')).line, (await npc.talk('What is this place?')).line];
    expect(lines[0]).toMatch(BANK_GREETING);
    for (const line of lines) expect(line).not.toMatch(STAND_IN);
    expect(npc.answeredBy).toBe('line-bank');
    const shown = status();
    shown.npc = npc;
    await shown.refresh();
    expect(shown.answerer).toBe('Line bank');
  });
});

describe.each(['IOS', 'WIN32', 'MACOS'] as const)('a shipped %s build (no on-device model)', (name) => {
  test('the line bank answers; NanoStatus says the line bank', async () => {
    onPlatform(name);
    const npc = mira();
    expect(oam.C.OamRuntime.kind).toBe('stand-in');
    const turn = await npc.talk('Evening!');
    expect(turn.line).toMatch(BANK_GREETING);
    expect(turn.line).not.toMatch(STAND_IN);
    expect(npc.answeredBy).toBe('line-bank');
    const shown = status();
    await shown.refresh();
    expect(shown.answeredBy).toBe('line-bank');
  });
});

describe('a DecisionComponent in a shipped build', () => {
  function guardChoices(entries: Array<Record<string, unknown>>) {
    return entries.map((entry) => Object.assign(new oam.C.DecisionOptionEntry(), entry));
  }

  test("iOS (no model): the options' weights and conditions pick, with no model call", async () => {
    onPlatform('IOS');
    const model = { generated: 0 };
    oam.C.OamRuntime.configure({ scheduler: { callsPerMinute: 0 } });
    const spied = oam.C.OamRuntime.model;
    const generate = spied.generate.bind(spied);
    spied.generate = (...args: Parameters<typeof generate>) => {
      model.generated++;
      return generate(...args);
    };
    const decision = mount(oam.C.DecisionComponent, {
      options: guardChoices([
        { id: 'challenge', description: 'Ask who goes there', weight: 1, when: '{"guard.hp": {"min": 21}}' },
        { id: 'flee', description: 'Run for it', weight: 1, when: '{"guard.hp": {"max": 20}}' },
        { id: 'nap', description: 'Keep dozing', weight: 0 },
      ]),
    });
    const healthy = await decision.decide('A stranger at the gate.', { guard: { hp: 80 } });
    const wounded = await decision.decide('A stranger at the gate.', { guard: { hp: 12 } });
    expect([healthy.optionId, wounded.optionId]).toEqual(['challenge', 'flee']);
    expect(healthy).toMatchObject({ isFallback: true, modelCalls: 0, reason: '' });
    expect(model.generated).toBe(0);
  });

  test('Android with Gemini Nano available: the model decides', async () => {
    onPlatform('ANDROID');
    const android = fakeAndroid({ status: 'available' });
    const decision = mount(oam.C.DecisionComponent, {
      options: guardChoices([
        { id: 'challenge', description: 'Ask who goes there' },
        { id: 'flee', description: 'Run for it' },
      ]),
      withReason: false,
    });
    // The fake Nano answers every request with a reply, not a choice: the model was asked.
    await decision.decide('A stranger at the gate.').catch(() => undefined);
    expect(android.count).toBeGreaterThan(0);
  });

  test('iOS: generated content comes from its pool with noModelHere, with no model call', async () => {
    onPlatform('IOS');
    oam.C.OamRuntime.configure({ scheduler: { callsPerMinute: 0 } });
    const generator = new oam.core.ContentGenerator(oam.C.OamRuntime.model, { withoutModel: oam.C.noModelHere });
    const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    const pool = [{ name: 'Iron dagger' }, { name: 'Horseshoe' }];
    const first = await generator.generate({ prompt: 'An item.', schema, pool });
    const second = await generator.generate({ prompt: 'An item.', schema, pool });
    expect([first.value, second.value]).toEqual(pool);
    expect(first.modelCalls + second.modelCalls).toBe(0);
    expect(await oam.C.noModelHere()).toBe(true);
  });

  test("a bad 'when' is refused naming the option, before anything is picked", async () => {
    onPlatform('IOS');
    oam.C.OamRuntime.configure({ scheduler: { callsPerMinute: 0 } });
    const decision = mount(oam.C.DecisionComponent, {
      options: guardChoices([
        { id: 'challenge', description: 'Ask who goes there' },
        { id: 'flee', description: 'Run for it', when: '{hp < 20}' },
      ]),
    });
    await expect(decision.decide('A stranger at the gate.')).rejects.toThrow(
      'options[1].when is not JSON: "{hp < 20}".',
    );
  });
});

describe('the QA overlay in a native debug build', () => {
  test('records the backend of each turn and writes its bundle under the writable path', async () => {
    onPlatform('ANDROID');
    fakeAndroid({ status: 'unavailable', reason: 'device_not_eligible' });
    const dir = `${mkdtempSync(join(tmpdir(), 'oam-qa-'))}/`;
    const written: Record<string, string> = {};
    nativeScope.fileUtils = {
      getWritablePath: () => dir,
      writeStringToFile: (text: string, path: string) => {
        written[path] = text;
        return true;
      },
    };
    const node = new Node('mira');
    const npc = mira(node);
    const overlay = mount(QAOverlay, {}, node);
    frame();
    await npc.talk('Evening!');
    await npc.talk('Two ales, please.');
    await until(() => overlay.turns.length === 2, 'two recorded turns');
    expect(overlay.turns.map((turn) => turn.answeredBy)).toEqual(['line-bank', 'line-bank']);
    expect(overlay.text).toContain('line-bank');
    const path = overlay.saveBundle();
    expect(path).toBe(`${dir}oam-replay-bundle.json`);
    const bundle = oam.core.parseReplayBundle(written[path as string]);
    expect(bundle.source).toMatchObject({ place: 'shipped', node: 'mira' });
    const report = await oam.core.replayBundle(bundle);
    expect(report.turns.map((turn) => turn.line)).toEqual(bundle.turns.map((turn) => turn.line));
    expect(report.sameLines).toBe(true);
    // The preview page replays this bundle (tests/preview/bundle-replay.browser.test.ts): the
    // committed copy must be what this run exports, or be rewritten with OAM_UPDATE_FIXTURES=1.
    const fixture = join(REPO, 'tests/fixtures/engine/qa-replay-bundle.json');
    if (process.env.OAM_UPDATE_FIXTURES === '1') writeFileSync(fixture, `${written[path as string]}\n`);
    const committed = oam.core.parseReplayBundle(readFileSync(fixture, 'utf8'));
    expect(stableParts(committed)).toEqual(stableParts(bundle));
    await settle();
  });
});

/** What a bundle says that does not change from run to run (not its timings). */
function stableParts(bundle: ReturnType<LoadedOam['core']['parseReplayBundle']>) {
  return {
    source: bundle.source,
    persona: bundle.persona,
    turns: bundle.turns.map((turn) => ({
      said: turn.said,
      line: turn.line,
      emotion: turn.emotion,
      answeredBy: turn.answeredBy,
      steps: turn.steps.map((step) => ({ kind: step.kind, prompt: step.prompt, output: step.output })),
      toolCalls: turn.toolCalls.map((call) => ({ name: call.name, args: call.args })),
    })),
  };
}
