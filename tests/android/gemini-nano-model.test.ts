/**
 * GeminiNanoModel against a hand-driven native side: the unreliable-bridge cases the shared
 * fixtures cannot express (silence, garbage, lost and late messages) plus option handling.
 */
import { AgentError } from '../../src/contract/errors';
import { Canceller } from '../../src/contract/abort';
import { GeminiNanoModel, type DownloadProgress } from '../../src/models/gemini-nano';
import { generateText, type GenerationChunk } from '../../src/contract/language-model';
import { FixturePlayer, ScriptedNative, loadFixture, settle, type IncomingRequest } from './fixture-player';

const fast = { readyTimeoutMs: 40, requestTimeoutMs: 40, firstChunkTimeoutMs: 40, idleTimeoutMs: 40 };

async function failure(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

async function collect(
  iterable: AsyncIterable<GenerationChunk>,
  onChunk?: (chunk: GenerationChunk, received: number) => void,
): Promise<GenerationChunk[]> {
  const out: GenerationChunk[] = [];
  for await (const generationChunk of iterable) {
    out.push(generationChunk);
    onChunk?.(generationChunk, out.length);
  }
  return out;
}

const chunk = (id: string | undefined, delta: string, seq: number) => ({
  method: 'generate/chunk',
  params: { id, delta, seq },
});

describe('GeminiNanoModel: a native side that never answers', () => {
  it('reports unreachable from availability() with a hint about the Android module', async () => {
    const native = new ScriptedNative();
    const model = new GeminiNanoModel({ transport: native, ...fast });
    const availability = await model.availability();
    expect(availability).toEqual({
      status: 'unavailable',
      reason: 'unreachable',
      detail: expect.stringContaining('oam-cocos Android module'),
    });
    expect(native.methods()).toEqual(['ready', 'cancel']);
  });

  it('names the cause the transport can tell (a bridge taken over, the module missing) instead of the generic timeout', async () => {
    const native = new ScriptedNative();
    const cause =
      'Game code called JsbBridge.setCallback after JsbBridgeWrapper installed its callback (now held by com.example.AppActivity$1)';
    native.diagnose = () => cause;
    const model = new GeminiNanoModel({ transport: native, ...fast });
    const error = await failure(model.connect());
    expect(error.code).toBe('model_unavailable');
    expect(error.message).toBe(cause);
    expect(await model.availability()).toEqual({ status: 'unavailable', reason: 'unreachable', detail: cause });
  });

  it('keeps the generic message when the transport cannot tell, or its diagnosis throws', async () => {
    for (const diagnose of [
      () => undefined,
      () => {
        throw new Error('reflection failed');
      },
    ]) {
      const native = new ScriptedNative();
      native.diagnose = diagnose;
      const error = await failure(new GeminiNanoModel({ transport: native, ...fast }).connect());
      expect(error.message).toMatch(/oam-cocos Android module/);
    }
  });

  it('fails generate() with model_unavailable instead of hanging, and retries the handshake next time', async () => {
    const native = new ScriptedNative();
    const model = new GeminiNanoModel({ transport: native, ...fast });
    const error = await failure(generateText(model, { kind: 'text', prompt: 'hi' }));
    expect(error.code).toBe('model_unavailable');
    await failure(model.loadModelInfo());
    expect(native.methods().filter((method) => method === 'ready')).toHaveLength(2);
  });

  it('turns a transport that throws into model_unavailable', async () => {
    const native = new ScriptedNative();
    native.failSend = true;
    const model = new GeminiNanoModel({ transport: native, ...fast });
    expect((await failure(model.connect())).message).toMatch(/jsbBridgeWrapper is not available/);
    expect(await model.countTokens('x')).toBeNull();
  });

  it('times out a generation whose first chunk never comes, and one that stalls midway', async () => {
    const silent = ScriptedNative.device(() => undefined);
    const model = new GeminiNanoModel({ transport: silent, ...fast });
    const first = await failure(collect(model.generate({ kind: 'text', prompt: 'x' })));
    expect(first.code).toBe('generation_failed');
    expect(silent.methods()).toEqual(['ready', 'modelInfo', 'generate', 'cancel']);

    const stalling = ScriptedNative.device((request, native) => {
      if (request.method === 'generate') native.emit(chunk(request.id, 'Hel', 0));
    });
    const model2 = new GeminiNanoModel({ transport: stalling, ...fast });
    const seen: string[] = [];
    const midway = await failure(
      collect(model2.generate({ kind: 'text', prompt: 'x' }), (generationChunk) => seen.push(generationChunk.delta)),
    );
    expect(midway.code).toBe('generation_failed');
    expect(seen).toEqual(['Hel']);
  });

  it('rejects a native module that speaks another protocol version', async () => {
    const native = new ScriptedNative();
    native.onRequest = (request) => native.emit({ id: request.id, result: { protocol: 99 } });
    const error = await failure(new GeminiNanoModel({ transport: native, ...fast }).connect());
    expect(error.code).toBe('model_unavailable');
    expect(error.message).toMatch(/protocol 99/);
  });
});

describe('GeminiNanoModel: malformed and stray messages', () => {
  it('ignores garbage, unknown ids and requests from native, then takes the real answer', async () => {
    const native = ScriptedNative.device((request, scriptedNative) => {
      if (request.method !== 'availability') return;
      scriptedNative.emit('');
      scriptedNative.emit('not json');
      scriptedNative.emit('[1,2]');
      scriptedNative.emit(JSON.stringify({ jsonrpc: '1.0', id: request.id, result: { status: 'available' } }));
      scriptedNative.emit({ id: 999, result: { status: 'available' } });
      scriptedNative.emit({ id: request.id, method: 'availability', params: {} });
      scriptedNative.emit(chunk('x-12345', 'stray', 0));
      scriptedNative.emit({ id: request.id, result: { status: 'downloadable' } });
    });
    const model = new GeminiNanoModel({ transport: native, ...fast, requestTimeoutMs: 2000 });
    expect(await model.availability()).toEqual({ status: 'downloadable' });
  });

  it('fails the pending generation when the answer has the wrong shape', async () => {
    const native = ScriptedNative.device((request, scriptedNative) => {
      if (request.method === 'generate') scriptedNative.emit({ id: request.id, result: { txt: 'nope' } });
    });
    const error = await failure(
      generateText(new GeminiNanoModel({ transport: native, ...fast }), { kind: 'text', prompt: 'x' }),
    );
    expect(error.code).toBe('generation_failed');
    expect(error.message).toMatch(/malformed generate answer/);
  });

  it('fails a generation whose chunk has the wrong shape, and tells native to stop', async () => {
    const native = ScriptedNative.device((request, scriptedNative) => {
      if (request.method === 'generate')
        scriptedNative.emit({ method: 'generate/chunk', params: { id: request.id, delta: 5, seq: 0 } });
    });
    const error = await failure(
      generateText(new GeminiNanoModel({ transport: native, ...fast }), { kind: 'text', prompt: 'x' }),
    );
    expect(error.message).toMatch(/malformed chunk/);
    const generate = native.received.find((request) => request.method === 'generate');
    expect(native.received.at(-1)).toEqual({ jsonrpc: '2.0', method: 'cancel', params: { id: generate?.id } });
  });

  it('notices a chunk lost on the bridge (a message the engine turned into an empty string)', async () => {
    const native = ScriptedNative.device((request, scriptedNative) => {
      if (request.method !== 'generate') return;
      scriptedNative.emit(chunk(request.id, 'Hi ', 0));
      scriptedNative.emit(''); // what Cocos delivers for a message holding half a surrogate pair
      scriptedNative.emit(chunk(request.id, ' there', 2));
      scriptedNative.emit({ id: request.id, result: { text: 'Hi 😀 there', finishReason: 'stop' } });
    });
    const error = await failure(
      generateText(new GeminiNanoModel({ transport: native, ...fast }), { kind: 'text', prompt: 'x' }),
    );
    expect(error.code).toBe('generation_failed');
    expect(error.message).toMatch(/lost/);
  });

  it('maps an error without data.code from its JSON-RPC number, and an unknown number to generation_failed', async () => {
    let calls = 0;
    const native = ScriptedNative.device((request, nat) => {
      if (request.method !== 'generate') return;
      nat.emit({
        id: request.id,
        error: calls++ === 0 ? { code: -32004, message: 'too long' } : { code: -1, message: '' },
      });
    });
    const model = new GeminiNanoModel({ transport: native, ...fast });
    expect((await failure(generateText(model, { kind: 'text', prompt: 'x' }))).code).toBe('context_size_exceeded');
    expect((await failure(generateText(model, { kind: 'text', prompt: 'x' }))).code).toBe('generation_failed');
  });

  it('answers availability with unknown when native sends nonsense', async () => {
    const native = ScriptedNative.device((request, scriptedNative) =>
      scriptedNative.emit({ id: request.id, result: { status: 'maybe' } }),
    );
    expect(await new GeminiNanoModel({ transport: native, ...fast }).availability()).toEqual({
      status: 'unavailable',
      reason: 'unknown',
      detail: expect.any(String),
    });
  });
});

describe('GeminiNanoModel: a message native could not read (id null)', () => {
  it('fails the oldest request native has not answered or streamed for at once, naming the native error', async () => {
    let generateId: string | undefined;
    const native = ScriptedNative.device((request, scriptedNative) => {
      if (request.method === 'generate') {
        generateId = request.id;
        scriptedNative.emit(chunk(request.id, 'Hel', 0));
      }
      if (request.method === 'countTokens')
        scriptedNative.emit({
          id: null,
          error: { code: -32700, message: 'Parse error: not a JSON object.', data: { code: 'invalid_request' } },
        });
    });
    // Timeouts far beyond the test: the failure must come from the null-id answer, not a timer.
    const model = new GeminiNanoModel({
      transport: native,
      requestTimeoutMs: 60_000,
      firstChunkTimeoutMs: 60_000,
      idleTimeoutMs: 60_000,
    });
    const seen: string[] = [];
    const generation = collect(model.generate({ kind: 'text', prompt: 'x' }), (generationChunk) =>
      seen.push(generationChunk.delta),
    );
    await settle(20);
    const count = model.countTokens('broken');
    await settle(20);
    expect(await count).toBeNull();
    expect(native.received.at(-1)).toEqual({
      jsonrpc: '2.0',
      method: 'cancel',
      params: { id: native.received.find((request) => request.method === 'countTokens')?.id },
    });
    // The generation that already streamed is untouched and finishes normally.
    native.emit({ id: generateId, result: { text: 'Hello', finishReason: 'stop' } });
    expect((await generation).at(-1)?.text).toBe('Hello');
    expect(seen[0]).toBe('Hel');
  });

  it('rejects with generation_failed and the native message', async () => {
    const native = ScriptedNative.device((request, scriptedNative) => {
      if (request.method === 'warmup')
        scriptedNative.emit({ id: null, error: { code: -32600, message: 'Invalid JSON-RPC 2.0 request.' } });
    });
    const model = new GeminiNanoModel({ transport: native, requestTimeoutMs: 60_000 });
    const error = await failure(model.prewarm());
    expect(error.code).toBe('generation_failed');
    expect(error.message).toBe(
      "The native side could not read the 'warmup' request: Invalid JSON-RPC 2.0 request. (JSON-RPC -32600).",
    );
  });

  it('is left to the timeouts when several requests could be the unread one (a generation still in prefill)', async () => {
    let generateId: string | undefined;
    const native = ScriptedNative.device((request, scriptedNative) => {
      if (request.method === 'generate') generateId = request.id; // prefill: nothing sent back yet
      if (request.method === 'countTokens')
        scriptedNative.emit({ id: null, error: { code: -32700, message: 'Parse error' } });
    });
    const model = new GeminiNanoModel({
      transport: native,
      requestTimeoutMs: 60,
      firstChunkTimeoutMs: 60_000,
      idleTimeoutMs: 60_000,
    });
    const generation = collect(model.generate({ kind: 'text', prompt: 'x' }), () => undefined);
    await settle(20);
    const count = model.countTokens('broken');
    await settle(20);
    // The player's generation is not blamed; it streams and finishes.
    native.emit(chunk(generateId as string, 'Hi', 0));
    native.emit({ id: generateId, result: { text: 'Hi', finishReason: 'stop' } });
    expect((await generation).at(-1)?.text).toBe('Hi');
    expect(await count).toBeNull(); // the unread countTokens ran into its own timeout
  });

  it('is ignored when nothing is waiting', async () => {
    const native = ScriptedNative.device(() => undefined);
    const model = new GeminiNanoModel({ transport: native, ...fast });
    await model.connect();
    native.emit({ id: null, error: { code: -32700, message: 'Parse error' } });
    await settle();
    expect(await model.loadModelInfo()).toMatchObject({ baseModelName: 'nano-v3' });
  });
});

describe('GeminiNanoModel: two models on one bridge event', () => {
  it("never resolve each other's requests", async () => {
    // A native double that answers with what each request carried, so a crossed answer shows.
    const native = ScriptedNative.device((request, scriptedNative) => {
      if (request.method === 'generate')
        scriptedNative.emit({ id: request.id, result: { text: String(request.params.prompt), finishReason: 'stop' } });
      if (request.method === 'countTokens')
        scriptedNative.emit({ id: request.id, result: { totalTokens: String(request.params.text).length } });
    });
    const first = new GeminiNanoModel({
      transport: native,
      ...fast,
      requestTimeoutMs: 2000,
      firstChunkTimeoutMs: 2000,
    });
    const second = new GeminiNanoModel({
      transport: native,
      ...fast,
      requestTimeoutMs: 2000,
      firstChunkTimeoutMs: 2000,
    });
    const [ta, tb, ca, cb] = await Promise.all([
      generateText(first, { kind: 'text', prompt: 'from a' }),
      generateText(second, { kind: 'text', prompt: 'from b' }),
      first.countTokens('aaaa'),
      second.countTokens('bb'),
    ]);
    expect([ta.text, tb.text, ca, cb]).toEqual(['from a', 'from b', 4, 2]);
    const ids = native.received.filter((request) => request.id !== undefined).map((request) => request.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
  });
});

describe('GeminiNanoModel: cancellation', () => {
  it('throws cancelled at once for an already aborted signal and sends nothing', async () => {
    const native = new ScriptedNative();
    const canceller = new Canceller();
    canceller.abort();
    const error = await failure(
      collect(
        new GeminiNanoModel({ transport: native, ...fast }).generate({ kind: 'text', prompt: 'x' }, canceller.signal),
      ),
    );
    expect(error.code).toBe('cancelled');
    expect(native.received).toEqual([]);
  });

  it('ignores late chunks and the late answer after a cancel; the next generation works', async () => {
    let call = 0;
    const pending: IncomingRequest[] = [];
    const native = ScriptedNative.device((request, scriptedNative) => {
      if (request.method === 'generate') {
        call++;
        pending.push(request);
        scriptedNative.emit(chunk(request.id, call === 1 ? 'Once ' : 'Fresh.', 0));
        if (call === 2) scriptedNative.emit({ id: request.id, result: { text: 'Fresh.', finishReason: 'stop' } });
      }
    });
    const model = new GeminiNanoModel({ transport: native, ...fast, idleTimeoutMs: 2000 });
    const canceller = new Canceller();
    const seen: string[] = [];
    const error = await failure(
      collect(model.generate({ kind: 'text', prompt: 'x' }, canceller.signal), (ch) => {
        seen.push(ch.delta);
        canceller.abort();
      }),
    );
    expect(error.code).toBe('cancelled');
    const first = pending[0];
    expect(native.received.at(-1)).toEqual({ jsonrpc: '2.0', method: 'cancel', params: { id: first.id } });
    native.emit(chunk(first.id, 'upon ', 1));
    native.emit({ id: first.id, result: { text: 'Once upon ', finishReason: 'stop' } });
    await settle();
    expect(seen).toEqual(['Once ']);
    expect((await generateText(model, { kind: 'text', prompt: 'y' })).text).toBe('Fresh.');
  });

  it('sends cancel when the consumer stops reading early', async () => {
    const native = ScriptedNative.device((request, scriptedNative) => {
      if (request.method === 'generate') {
        scriptedNative.emit(chunk(request.id, 'a', 0));
        scriptedNative.emit(chunk(request.id, 'b', 1));
      }
    });
    const model = new GeminiNanoModel({ transport: native, ...fast, idleTimeoutMs: 2000 });
    for await (const generationChunk of model.generate({ kind: 'text', prompt: 'x' })) {
      expect(generationChunk.delta).toBe('a');
      break;
    }
    expect(native.methods().at(-1)).toBe('cancel');
  });

  it('stops waiting for a download when its signal aborts', async () => {
    const native = ScriptedNative.device((request, scriptedNative) => {
      if (request.method === 'download')
        scriptedNative.emit({
          method: 'download/progress',
          params: { id: request.id, bytesDownloaded: 10, totalBytes: 100 },
        });
    });
    const model = new GeminiNanoModel({
      transport: native,
      ...fast,
      downloadIdleTimeoutMs: 5000,
      requestTimeoutMs: 5000,
    });
    const canceller = new Canceller();
    const error = await failure(model.download({ signal: canceller.signal, onProgress: () => canceller.abort() }));
    expect(error.code).toBe('cancelled');
  });
});

describe('GeminiNanoModel: downloads, capabilities, options', () => {
  it('shares one native download among concurrent callers and reports progress to listeners', async () => {
    const fixture = loadFixture('download-in-progress');
    const steps = fixture.steps.filter(
      (step) => !(step.message.method === 'availability' || (step.message as { id?: number }).id === 2),
    );
    const renumbered = JSON.parse(JSON.stringify(steps).replace(/"id":3/g, '"id":2')) as typeof steps;
    const player = new FixturePlayer(renumbered);
    const model = new GeminiNanoModel({ transport: player, ...fast, requestTimeoutMs: 2000 });
    const heard: DownloadProgress[] = [];
    const off = model.onDownloadProgress((progress) => heard.push(progress));
    await Promise.all([model.download(), model.download()]);
    off();
    expect(player.mismatches).toEqual([]);
    expect(heard.map((progress) => progress.bytesDownloaded)).toEqual([0, 400, 1000]);
  });

  it('reports live progress in availability() while a download runs', async () => {
    let downloadId = '';
    const native = ScriptedNative.device((request, scriptedNative) => {
      if (request.method === 'download') {
        downloadId = request.id ?? '';
        scriptedNative.emit({
          method: 'download/progress',
          params: { id: request.id, bytesDownloaded: 300, totalBytes: 1000 },
        });
      }
      if (request.method === 'availability') scriptedNative.emit({ id: request.id, result: { status: 'downloading' } });
    });
    const model = new GeminiNanoModel({
      transport: native,
      ...fast,
      requestTimeoutMs: 2000,
      downloadIdleTimeoutMs: 2000,
    });
    const done = model.download();
    await settle(20);
    expect(await model.availability()).toEqual({ status: 'downloading', bytesDownloaded: 300, totalBytes: 1000 });
    native.emit({ id: downloadId, result: { status: 'available' } });
    await done;
  });

  it('updates capabilities from modelInfo and honours maxInputTokens and prefixCaching: false', async () => {
    const native = ScriptedNative.device(
      (request, scriptedNative) => {
        if (request.method === 'generate')
          scriptedNative.emit({ id: request.id, result: { text: 'ok', finishReason: 'stop' } });
      },
      { tokenLimit: 8192 },
    );
    const model = new GeminiNanoModel({ transport: native, ...fast, prefixCaching: false, maxInputTokens: 3000 });
    expect(model.capabilities).toMatchObject({ modelName: 'gemini-nano', maxInputTokens: 3000, prefixCaching: false });
    const seen: unknown[] = [];
    model.onCapabilities((capabilities) => seen.push(capabilities));
    await generateText(model, {
      kind: 'text',
      systemInstruction: 'Be brief.',
      promptPrefix: 'P:',
      prompt: 'x',
      seed: 7,
    });
    expect(model.capabilities).toMatchObject({
      modelName: 'nano-v3',
      maxInputTokens: 3000,
      systemInstructions: true,
      prefixCaching: false,
      nativeToolCalling: false,
    });
    expect(seen).toHaveLength(1);
    expect(native.received.find((request) => request.method === 'generate')?.params).toEqual({
      systemInstruction: 'Be brief.',
      prompt: 'P:x',
      seed: 7,
    });
  });

  it('uses the device token limit when no override is given', async () => {
    const native = ScriptedNative.device(() => undefined, { tokenLimit: 8192 });
    const model = new GeminiNanoModel({ transport: native, ...fast });
    await model.loadModelInfo();
    expect(model.capabilities.maxInputTokens).toBe(8192);
    expect(model.capabilities.prefixCaching).toBe(true);
  });

  it('sends the model selection in ready, and asks for thinking only for listed kinds on devices that have it', async () => {
    const native = ScriptedNative.device(
      (request, scriptedNative) => {
        if (request.method === 'generate')
          scriptedNative.emit({ id: request.id, result: { text: 'ok', finishReason: 'stop' } });
      },
      { thinking: true },
    );
    const model = new GeminiNanoModel({
      transport: native,
      ...fast,
      modelPreference: 'full',
      releaseStage: 'stable',
      thinkingFor: ['decide'],
    });
    await generateText(model, { kind: 'decide', prompt: 'a' });
    await generateText(model, { kind: 'respond', prompt: 'b' });
    expect(native.received[0].params).toEqual({ protocol: 1, preference: 'full', releaseStage: 'stable' });
    expect(native.received.filter((request) => request.method === 'generate').map((request) => request.params)).toEqual(
      [{ prompt: 'a', thinking: true }, { prompt: 'b' }],
    );

    const noThinking = ScriptedNative.device((request, scriptedNative) => {
      if (request.method === 'generate')
        scriptedNative.emit({ id: request.id, result: { text: 'ok', finishReason: 'stop' } });
    });
    await generateText(new GeminiNanoModel({ transport: noThinking, ...fast, thinkingFor: ['decide'] }), {
      kind: 'decide',
      prompt: 'a',
    });
    expect(noThinking.received.find((request) => request.method === 'generate')?.params).toEqual({ prompt: 'a' });
    expect(noThinking.received[0].params).toEqual({ protocol: 1 });
  });

  it('places the system instruction by what the device supports', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>, Record<string, unknown>]> = [
      // caching used: the system instruction leads the cached prefix
      [{}, { systemInstruction: 'S', promptPrefix: 'P', prompt: 'x' }, { promptPrefix: 'S\n\nP', prompt: 'x' }],
      // caching supported but no prefix in this request: ML Kit's system instruction
      [{}, { systemInstruction: 'S', prompt: 'x' }, { systemInstruction: 'S', prompt: 'x' }],
      // no system instruction support, caching: the system text is the cached prefix
      [{ systemInstructions: false }, { systemInstruction: 'S', prompt: 'x' }, { promptPrefix: 'S\n\n', prompt: 'x' }],
      // neither: everything in the prompt, system first
      [
        { systemInstructions: false, prefixCaching: false },
        { systemInstruction: 'S', promptPrefix: 'P', prompt: 'x' },
        { prompt: 'S\n\nPx' },
      ],
      // no caching: ML Kit's system instruction, prefix concatenated
      [
        { prefixCaching: false },
        { systemInstruction: 'S', promptPrefix: 'P', prompt: 'x' },
        { systemInstruction: 'S', prompt: 'Px' },
      ],
    ];
    for (const [info, request, expected] of cases) {
      const native = ScriptedNative.device((incomingRequest, scriptedNative) => {
        if (incomingRequest.method === 'generate')
          scriptedNative.emit({ id: incomingRequest.id, result: { text: 'ok', finishReason: 'stop' } });
      }, info);
      await generateText(new GeminiNanoModel({ transport: native, ...fast }), { kind: 'text', ...request } as never);
      expect(native.received.find((incomingRequest) => incomingRequest.method === 'generate')?.params).toEqual(
        expected,
      );
    }
  });

  it('rejects bad options and bad requests before anything is sent', async () => {
    const native = new ScriptedNative();
    expect(() => new GeminiNanoModel({ transport: native, modelPreference: 'huge' as never })).toThrow(
      /modelPreference/,
    );
    expect(() => new GeminiNanoModel({ transport: native, releaseStage: 'beta' as never })).toThrow(/releaseStage/);
    expect(() => new GeminiNanoModel({ transport: native, maxInputTokens: 10 })).toThrow(AgentError);
    expect(() => new GeminiNanoModel({} as never)).toThrow(/transport/);
    const error = await failure(
      collect(new GeminiNanoModel({ transport: native, ...fast }).generate({ kind: 'text' } as never)),
    );
    expect(error.code).toBe('invalid_request');
    expect(native.received).toEqual([]);
  });

  it('returns null from countTokens when native fails or answers nonsense', async () => {
    let calls = 0;
    const native = ScriptedNative.device((request, nat) => {
      if (request.method === 'countTokens')
        nat.emit(
          calls++ === 0
            ? { id: request.id, result: { totalTokens: -3 } }
            : { id: request.id, error: { code: -32001, message: 'no' } },
        );
    });
    const model = new GeminiNanoModel({ transport: native, ...fast });
    expect(await model.countTokens('a')).toBeNull();
    expect(await model.countTokens('b')).toBeNull();
  });

  it('dispose() fails pending calls and unsubscribes from the transport', async () => {
    const native = ScriptedNative.device(() => undefined);
    const model = new GeminiNanoModel({ transport: native, ...fast, requestTimeoutMs: 5000 });
    await model.connect();
    const pending = model.prewarm();
    await settle();
    model.dispose();
    expect((await failure(pending)).code).toBe('cancelled');
    expect(native.listenerCount).toBe(0);
    // The native side hears `detach`: it cancels this context's work and sends nothing until a new `ready`.
    expect(native.received[native.received.length - 1]).toEqual({ jsonrpc: '2.0', method: 'detach', params: {} });
  });

  it('dispose() before any handshake sends nothing', () => {
    const native = ScriptedNative.device(() => undefined);
    new GeminiNanoModel({ transport: native, ...fast }).dispose();
    expect(native.received).toEqual([]);
  });
});

describe('prewarm', () => {
  it('loads the model, then fills the prefix cache with one 1-token generation carrying the stable prefix', async () => {
    const native = ScriptedNative.device((request, scriptedNative) => {
      if (request.method === 'warmup') scriptedNative.emit({ id: request.id, result: {} });
      if (request.method === 'generate')
        scriptedNative.emit({ id: request.id, result: { text: 'OK', finishReason: 'stop' } });
    });
    await new GeminiNanoModel({ transport: native, ...fast }).prewarm('You are Mira.', 'Tools Mira can use: …\n\n');
    expect(native.methods()).toEqual(['ready', 'warmup', 'modelInfo', 'generate']);
    const generate = native.received.find((request) => request.method === 'generate') as IncomingRequest;
    expect(generate.params).toMatchObject({ maxOutputTokens: 1 });
    expect(String(generate.params.promptPrefix)).toContain('Tools Mira can use: …');
  });

  it('no prefix, or a device without prefix caching: the warm-up alone', async () => {
    const answer = (request: IncomingRequest, native: ScriptedNative) => {
      if (request.method === 'warmup') native.emit({ id: request.id, result: {} });
    };
    const bare = ScriptedNative.device(answer);
    await new GeminiNanoModel({ transport: bare, ...fast }).prewarm('You are Mira.');
    expect(bare.methods()).toEqual(['ready', 'warmup', 'modelInfo']);
    const uncached = ScriptedNative.device(answer, { prefixCaching: false });
    await new GeminiNanoModel({ transport: uncached, ...fast }).prewarm('You are Mira.', 'Tools: …');
    expect(uncached.methods()).toEqual(['ready', 'warmup', 'modelInfo']);
  });
});
