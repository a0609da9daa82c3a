/// <reference lib="dom" />
/**
 * The page `--chrome` opens in the browser, bundled by esbuild into an IIFE: it runs
 * ChromePromptModel on the browser's own `LanguageModel` (never a stand-in) and streams each
 * generation's chunks back to Node through the exposed function `oamEvalChunk`, so the eval's
 * scenarios run in Node against the browser's model as they would against a server.
 */
import { AgentError, Canceller, ChromePromptModel, type GenerationRequest } from '../src';

type ChunkMessage =
  | { id: number; chunk: { delta: string; text: string; finishReason?: string; usage?: unknown } }
  | { id: number; error: { code: string; message: string } }
  | { id: number; done: true };

const send = (message: ChunkMessage) =>
  (globalThis as unknown as { oamEvalChunk(m: ChunkMessage): Promise<void> }).oamEvalChunk(message);
const model = new ChromePromptModel();
const running = new Map<number, Canceller>();

const api = {
  hasPromptApi: () => ChromePromptModel.isSupported(),
  availability: () => model.availability(),
  capabilities: () => model.capabilities,
  start(id: number, request: GenerationRequest): void {
    const canceller = new Canceller();
    running.set(id, canceller);
    void (async () => {
      try {
        for await (const chunk of model.generate(request, canceller.signal)) await send({ id, chunk });
        await send({ id, done: true });
      } catch (error) {
        const agentError = AgentError.from(error);
        await send({ id, error: { code: agentError.code, message: agentError.message } });
      } finally {
        running.delete(id);
      }
    })();
  },
  cancel(id: number): void {
    running.get(id)?.abort();
  },
};

(globalThis as { OamEval?: unknown }).OamEval = api;
