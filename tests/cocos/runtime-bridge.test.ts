jest.mock('cc', () => require('./cc-double'), { virtual: true });
jest.mock('cc/env', () => require('./cc-double').env, { virtual: true });
jest.mock('../../assets/runtime/oam-core.js', () => jest.requireActual('../../src/bundle'), { virtual: true });

import { AgentError, BRIDGE_EVENT, KeywordModel } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';
import * as cc from './cc-double';
import { loadComponents, type NanoStatusLike } from './load';
import { flush, mount, persona, say } from './mocks';

const components = loadComponents();

/** Answers the JS side like the Kotlin module would (see docs/bridge-protocol.md). */
function fakeNativeHost(wrapper: cc.FakeBridgeWrapper, availability: Record<string, unknown>): { methods: string[] } {
  const methods: string[] = [];
  const original = wrapper.dispatchEventToNative.bind(wrapper);
  wrapper.dispatchEventToNative = (event: string, arg?: string) => {
    original(event, arg);
    const msg = JSON.parse(arg as string);
    methods.push(msg.method);
    const reply = (body: object) =>
      setTimeout(() => wrapper.dispatchEventToScript(BRIDGE_EVENT, JSON.stringify({ jsonrpc: '2.0', ...body })), 1);
    if (msg.method === 'ready') reply({ id: msg.id, result: { protocol: 1, platform: 'android' } });
    else if (msg.method === 'availability') reply({ id: msg.id, result: availability });
    else if (msg.method === 'warmup') reply({ id: msg.id, result: {} });
    else if (msg.method === 'download') {
      reply({ method: 'download/progress', params: { id: msg.id, bytesDownloaded: 0, totalBytes: 100 } });
      reply({ method: 'download/progress', params: { id: msg.id, bytesDownloaded: 50, totalBytes: 100 } });
      reply({ id: msg.id, result: { status: 'available' } });
      availability = { status: 'available' };
    }
  };
  return { methods };
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
});

describe('OamRuntime model selection', () => {
  test('browser and editor previews get the stand-in model, behind one shared scheduler', async () => {
    components.OamRuntime.configure({});
    expect(components.OamRuntime.kind).toBe('stand-in');
    expect(components.OamRuntime.model.inner).toBeInstanceOf(KeywordModel);
    expect(components.OamRuntime.model).toBe(components.OamRuntime.model);
    expect(components.OamRuntime.nano).toBeNull();
    const npc = mount(components.NPCComponent, { persona: persona() });
    await expect(npc.talk('hello there')).resolves.toMatchObject({ line: 'Well met, traveller!' });
  });

  test('an OpenAI-compatible server when configured (no request is made until a turn); bad URLs are refused', () => {
    components.OamRuntime.configure({ openaiUrl: 'http://127.0.0.1:9/v1', model: 'gemma' });
    expect(components.OamRuntime.kind).toBe('openai-compatible');
    expect(() => components.OamRuntime.configure({ openaiUrl: 'localhost:8080' })).toThrow(AgentError);
  });

  test('the OamRuntimeSettings component configures the runtime from the Inspector', () => {
    mount(
      components.OamRuntimeSettings,
      { openaiUrl: 'http://127.0.0.1:9/v1', openaiModel: 'x' },
      new cc.Node('settings'),
    );
    expect(components.OamRuntime.kind).toBe('openai-compatible');
  });

  test('an Android native build gets Gemini Nano over the JsbBridge; a configured server is ignored there', () => {
    cc.simulatePlatform('android');
    components.OamRuntime.configure({ openaiUrl: 'http://127.0.0.1:9/v1' });
    expect(components.OamRuntime.kind).toBe('gemini-nano');
    expect(components.OamRuntime.nano).not.toBeNull();
    expect(components.OamRuntime.model.inner).toBe(components.OamRuntime.nano);
  });

  test('iOS and desktop native builds have no fetch: the stand-in answers, never the server', async () => {
    cc.simulatePlatform('ios');
    components.OamRuntime.configure({ openaiUrl: 'http://127.0.0.1:9/v1' });
    expect(components.OamRuntime.kind).toBe('stand-in');
    expect(components.OamRuntime.nano).toBeNull();
    const npc = mount(components.NPCComponent, { persona: persona() });
    await expect(npc.talk('hello')).resolves.toMatchObject({ line: 'Well met, traveller!', isFallback: false });
  });
});

describe('OamRuntime reconfiguration', () => {
  test('an NPC created before configure() talks to the model configured after it', async () => {
    const first = new ScriptedLanguageModel([say('From the first model.')]);
    const second = new ScriptedLanguageModel([say('From the second model.')]);
    components.OamRuntime.configure({ languageModel: first });
    const npc = mount(components.NPCComponent, { persona: persona() });
    const entry = (id: string) => Object.assign(new components.DecisionOptionEntry(), { id, description: `${id}.` });
    const decider = mount(components.DecisionComponent, { options: [entry('wait'), entry('go')] });
    const model = components.OamRuntime.model;
    components.OamRuntime.configure({ languageModel: second });
    expect(components.OamRuntime.model).toBe(model);
    expect(components.OamRuntime.model.inner).toBe(second);
    await expect(npc.talk('hi')).resolves.toMatchObject({ line: 'From the second model.' });
    expect(first.calls).toBe(0);
    const answer = { choice: 'go', reason: 'Why not.', confidence: 80 };
    components.OamRuntime.configure({
      languageModel: new ScriptedLanguageModel([
        Script.dynamic((request) => JSON.stringify(request.kind === 'decide' ? { reply: answer } : answer)),
      ]),
    });
    await expect(decider.decide('A door opens.')).resolves.toMatchObject({ optionId: 'go' });
  });

  test('loading OamRuntimeSettings again keeps the Gemini Nano model, its bridge and a running download', async () => {
    const wrapper = cc.simulatePlatform('android') as cc.FakeBridgeWrapper;
    const host = fakeNativeHost(wrapper, { status: 'downloadable' });
    components.OamRuntime.configure({ scheduler: { callsPerMinute: 30 } });
    const nano = components.OamRuntime.nano;
    const scheduler = components.OamRuntime.scheduler;
    const status = mount(components.NanoStatus, { refreshOnLoad: false }, new cc.Node('status')) as NanoStatusLike;
    await status.refresh();
    const download = status.download();
    for (const scene of ['tavern', 'street']) {
      mount(
        components.OamRuntimeSettings,
        { openaiUrl: '', openaiModel: 'default', callsPerMinute: 30 },
        new cc.Node(`${scene}-settings`),
      );
      // The same values again: not even a new scheduler.
      expect(components.OamRuntime.nano).toBe(nano);
      expect(components.OamRuntime.scheduler).toBe(scheduler);
    }
    await download;
    expect(status.status).toBe('available');
    expect(host.methods.filter((method) => method === 'ready')).toHaveLength(1);
    expect(wrapper.listenerCount(BRIDGE_EVENT)).toBe(1);
  });

  test('a pacing change keeps the same scheduler (one queue) over the same backend; a custom model and back keeps the Nano model', async () => {
    const wrapper = cc.simulatePlatform('android') as cc.FakeBridgeWrapper;
    const host = fakeNativeHost(wrapper, { status: 'available' });
    components.OamRuntime.configure({ scheduler: { callsPerMinute: 30 } });
    await components.OamRuntime.model.availability();
    const nano = components.OamRuntime.nano;
    const before = components.OamRuntime.scheduler;
    components.OamRuntime.configure({ scheduler: { callsPerMinute: 10 } });
    expect(components.OamRuntime.scheduler).toBe(before);
    expect(components.OamRuntime.scheduler.inner).toBe(nano);
    components.OamRuntime.configure({ languageModel: new KeywordModel({ rules: [] }) });
    expect(components.OamRuntime.kind).toBe('custom');
    expect(components.OamRuntime.nano).toBeNull();
    components.OamRuntime.configure({});
    expect(components.OamRuntime.nano).toBe(nano);
    await components.OamRuntime.model.availability();
    expect(host.methods.filter((method) => method === 'ready')).toHaveLength(1);
    expect(wrapper.listenerCount(BRIDGE_EVENT)).toBe(1);
  });

  test('the same stand-in rules keep the stand-in model; new rules replace it', () => {
    const rules = { rules: [], otherwise: { emotion: 'neutral' as const, line: 'Hm.' } };
    components.OamRuntime.configure({ standIn: rules });
    const standIn = components.OamRuntime.model.inner;
    components.OamRuntime.configure({ ...components.OamRuntime.config, scheduler: { callsPerMinute: 5 } });
    expect(components.OamRuntime.model.inner).toBe(standIn);
    components.OamRuntime.configure({ standIn: { ...rules } });
    expect(components.OamRuntime.model.inner).not.toBe(standIn);
  });

  test('OamRuntimeSettings merges into what scripts configured', () => {
    const custom = new KeywordModel({ rules: [] });
    components.OamRuntime.configure({ languageModel: custom, apiKey: 'k' });
    mount(
      components.OamRuntimeSettings,
      { openaiUrl: ' http://127.0.0.1:9/v1 ', openaiModel: 'gemma', callsPerMinute: 12 },
      new cc.Node('settings'),
    );
    expect(components.OamRuntime.config).toEqual({
      languageModel: custom,
      apiKey: 'k',
      openaiUrl: 'http://127.0.0.1:9/v1',
      model: 'gemma',
      scheduler: { callsPerMinute: 12 },
    });
    expect(components.OamRuntime.kind).toBe('custom');
  });
});

describe('emitSafely', () => {
  test('a throwing listener is logged, not thrown; a destroyed or missing node gets nothing', () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const node = new cc.Node('n');
    const heard: unknown[] = [];
    node.on('e', () => {
      throw new Error('boom');
    });
    node.on('e', (payload: unknown) => heard.push(payload));
    expect(components.emitSafely(node, 'e', 1)).toMatchObject({ emitted: true, threw: true, error: expect.any(Error) });
    expect(error).toHaveBeenCalledWith(expect.stringContaining('"e" listener on "n" threw'), expect.any(Error));
    node.destroy();
    cc.tick(); // the destroy is deferred to the end of the frame, as in the engine
    expect(components.emitSafely(node, 'e', 2)).toEqual({ emitted: false, threw: false });
    expect(components.emitSafely(null, 'e', 3)).toEqual({ emitted: false, threw: false });
    expect(heard.length).toBeLessThanOrEqual(1);
    error.mockRestore();
  });
});

describe('JsbBridgeTransport', () => {
  test('outside native builds it refuses to exist, with model_unavailable', () => {
    expect(components.JsbBridgeTransport.isSupported()).toBe(false);
    expect(() => new components.JsbBridgeTransport()).toThrow(expect.objectContaining({ code: 'model_unavailable' }));
  });

  test("sends and hears on the project's event, never takes bridge.onNative, removes its listener on dispose", () => {
    const wrapper = cc.simulatePlatform('android') as cc.FakeBridgeWrapper;
    const transport = new components.JsbBridgeTransport();
    const heard: string[] = [];
    const stop = transport.onMessage((message) => heard.push(message));
    transport.onMessage((message) => heard.push(`2:${message}`));
    expect(wrapper.listenerCount(BRIDGE_EVENT)).toBe(1);
    transport.send('{"a":1}');
    expect(wrapper.sent).toEqual([{ event: BRIDGE_EVENT, arg: '{"a":1}' }]);
    wrapper.dispatchEventToScript(BRIDGE_EVENT, 'x');
    wrapper.dispatchEventToScript(BRIDGE_EVENT, ''); // arrives as undefined, handed on as ''
    wrapper.dispatchEventToScript('someone-else', 'not ours');
    stop();
    wrapper.dispatchEventToScript(BRIDGE_EVENT, 'y');
    expect(heard).toEqual(['x', '2:x', '', '2:', '2:y']);
    expect(cc.native?.bridge.onNative).toBeUndefined();
    transport.dispose();
    expect(wrapper.listenerCount(BRIDGE_EVENT)).toBe(0);
    expect(() => transport.send('late')).toThrow(expect.objectContaining({ code: 'model_unavailable' }));
  });

  test('a listener that throws does not stop the others', () => {
    const wrapper = cc.simulatePlatform('android') as cc.FakeBridgeWrapper;
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const transport = new components.JsbBridgeTransport();
    const heard: string[] = [];
    transport.onMessage(() => {
      throw new Error('boom');
    });
    transport.onMessage((message) => heard.push(message));
    wrapper.dispatchEventToScript(BRIDGE_EVENT, 'ok');
    expect(heard).toEqual(['ok']);
    error.mockRestore();
    transport.dispose();
  });

  test('OamRuntime.reset() disposes the Nano model and its bridge listener', async () => {
    const wrapper = cc.simulatePlatform('android') as cc.FakeBridgeWrapper;
    fakeNativeHost(wrapper, { status: 'available' });
    components.OamRuntime.configure({});
    await expect(components.OamRuntime.model.availability()).resolves.toEqual({ status: 'available' });
    expect(wrapper.listenerCount(BRIDGE_EVENT)).toBe(1);
    components.OamRuntime.reset();
    expect(wrapper.listenerCount(BRIDGE_EVENT)).toBe(0);
  });
});

describe('NanoStatus', () => {
  test('in a browser preview it reports the stand-in as available, with a message saying so', async () => {
    components.OamRuntime.configure({});
    const node = new cc.Node('status');
    const events: Array<{ status: string; message: string; kind: string }> = [];
    node.on(components.NANO_AVAILABILITY, (event: { status: string; message: string; kind: string }) =>
      events.push(event),
    );
    const status = mount(components.NanoStatus, { refreshOnLoad: false }, node) as NanoStatusLike;
    await status.refresh();
    expect(status.status).toBe('available');
    expect(status.message).toMatch(/stand-in/);
    expect(events).toHaveLength(1);
    expect(events[0].kind).toBe('stand-in');
    await status.download(); // nothing to download
    expect(status.status).toBe('available');
  });

  test('on Android it follows the download with progress events, then reports available', async () => {
    const wrapper = cc.simulatePlatform('android') as cc.FakeBridgeWrapper;
    const host = fakeNativeHost(wrapper, { status: 'downloadable' });
    components.OamRuntime.configure({});
    const node = new cc.Node('status');
    const progress: Array<{ bytesDownloaded: number; fraction?: number }> = [];
    node.on(components.NANO_PROGRESS, (update: { bytesDownloaded: number; fraction?: number }) =>
      progress.push(update),
    );
    const status = mount(components.NanoStatus, { refreshOnLoad: true, autoDownload: true }, node) as NanoStatusLike;
    while (status.status !== 'available') await flush();
    expect(host.methods).toEqual(expect.arrayContaining(['ready', 'availability', 'download']));
    expect(progress.map((update) => update.fraction)).toEqual([0, 0.5]);
    expect(status.progress).toBe(1);
  });

  test('an unsupported device gets a human message', async () => {
    const wrapper = cc.simulatePlatform('android') as cc.FakeBridgeWrapper;
    fakeNativeHost(wrapper, { status: 'unavailable', reason: 'device_not_eligible' });
    components.OamRuntime.configure({});
    const status = mount(components.NanoStatus, { refreshOnLoad: false }, new cc.Node('status')) as NanoStatusLike;
    await expect(status.refresh()).resolves.toMatchObject({ status: 'unavailable', reason: 'device_not_eligible' });
    expect(status.status).toBe('unavailable');
    expect(status.message).toMatch(/cannot run Gemini Nano/);
    status.node.destroy();
    await flush();
  });
});

describe('NPCComponent warm-up', () => {
  test('on Android the scene start warms the model up once, so the first reply skips the cold start', async () => {
    const wrapper = cc.simulatePlatform('android') as cc.FakeBridgeWrapper;
    const host = fakeNativeHost(wrapper, { status: 'available' });
    mount(components.NPCComponent, { persona: persona() });
    expect(host.methods).not.toContain('warmup'); // start() runs on the next frame
    cc.tick();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(host.methods.filter((method) => method === 'warmup')).toHaveLength(1);
  });

  test('prewarmOnStart off: no warm-up', async () => {
    const wrapper = cc.simulatePlatform('android') as cc.FakeBridgeWrapper;
    const host = fakeNativeHost(wrapper, { status: 'available' });
    mount(components.NPCComponent, { persona: persona(), prewarmOnStart: false } as never);
    cc.tick();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(host.methods).not.toContain('warmup');
  });
});
