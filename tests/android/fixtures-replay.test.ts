/**
 * Replays every recorded exchange in fixtures/bridge/ against GeminiNanoModel. The Kotlin
 * module's JVM tests replay the same files against its protocol handler, so the two ends
 * cannot drift apart.
 */
import { AgentError } from '../../src/contract/errors';
import { Canceller } from '../../src/contract/abort';
import { GeminiNanoModel, type DownloadProgress } from '../../src/models/gemini-nano';
import type { GenerationChunk, GenerationRequest } from '../../src/contract/language-model';
import { FixturePlayer, loadFixtures, settle, type JsCall } from './fixture-player';

const fixtures = loadFixtures();

async function run(
  model: GeminiNanoModel,
  call: JsCall,
): Promise<{ result?: unknown; error?: AgentError; chunks: string[]; progress: DownloadProgress[] }> {
  const chunks: string[] = [];
  const progress: DownloadProgress[] = [];
  try {
    switch (call.call) {
      case 'availability':
        return { result: await model.availability(), chunks, progress };
      case 'modelInfo':
        return { result: await model.loadModelInfo(), chunks, progress };
      case 'countTokens':
        return { result: await model.countTokens(call.text ?? ''), chunks, progress };
      case 'prewarm':
        await model.prewarm();
        return { result: null, chunks, progress };
      case 'download':
        await model.download({ onProgress: (downloadProgress) => progress.push(downloadProgress) });
        return { result: null, chunks, progress };
      case 'generate': {
        const canceller = new Canceller();
        let last: GenerationChunk | undefined;
        for await (const chunk of model.generate(call.request as unknown as GenerationRequest, canceller.signal)) {
          if (chunk.finishReason === undefined) chunks.push(chunk.delta);
          last = chunk;
          if (call.abortAfterChunks !== undefined && chunks.length >= call.abortAfterChunks) canceller.abort();
          if (call.disposeAfterChunks !== undefined && chunks.length >= call.disposeAfterChunks) model.dispose();
        }
        return { result: { chunks, text: last?.text, finishReason: last?.finishReason }, chunks, progress };
      }
    }
  } catch (error) {
    if (!(error instanceof AgentError)) throw error;
    return { error, chunks, progress };
  }
}

describe('shared bridge fixtures (TypeScript side)', () => {
  it('has the recorded exchanges the protocol doc promises', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(14);
    for (const fixture of fixtures) {
      expect(typeof fixture.name).toBe('string');
      expect(fixture.steps[0]).toEqual({
        dir: 'js->native',
        message: { jsonrpc: '2.0', id: 1, method: 'ready', params: expect.objectContaining({ protocol: 1 }) },
      });
      expect(fixture.js.length).toBeGreaterThan(0);
    }
  });

  it.each(fixtures.map((fixture) => [fixture.name, fixture] as const))('replays %s', async (_name, fixture) => {
    const player = new FixturePlayer(fixture.steps);
    const model = new GeminiNanoModel({
      ...fixture.model,
      transport: player,
      readyTimeoutMs: 2000,
      requestTimeoutMs: 2000,
    });
    for (const call of fixture.js) {
      const outcome = await run(model, call);
      if (call.expect.error) {
        expect(outcome.error?.toJSON()).toEqual(expect.objectContaining({ code: call.expect.error.code }));
        expect(outcome.error?.retryAfterMs).toBe(call.expect.error.retryAfterMs);
        expect(outcome.error?.nativeCode).toBe(call.expect.error.nativeCode);
      } else {
        expect(outcome.error).toBeUndefined();
        expect(outcome.result).toEqual(call.expect.result);
      }
      if (call.expect.chunks) expect(outcome.chunks).toEqual(call.expect.chunks);
      if (call.expect.progress) expect(outcome.progress).toEqual(call.expect.progress);
    }
    await settle(); // let trailing native messages (e.g. the answer to a cancelled request) arrive
    expect(player.mismatches).toEqual([]);
    expect(player.remaining).toEqual([]);
    model.dispose();
  });
});
