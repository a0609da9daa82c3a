/**
 * `--url`: an OpenAI-compatible server (llama.cpp's llama-server, Ollama, LM Studio). It is
 * checked first with a short timeout, so a wrong port or a server that accepts and never
 * answers is reported in seconds with what to start, not after the first step's long timeout.
 */
import { OpenAICompatibleModel } from '../src';
import { TargetUnavailable, type OpenedTarget } from './target';

export interface ServerTargetOptions {
  url: string;
  model: string;
  streaming: boolean;
  /** How long the first check may take (ms). */
  checkTimeoutMs: number;
  /** How long each model step may wait for the server (ms). */
  stepTimeoutMs: number;
}

export const START_A_SERVER = [
  'Start one of these, then run the eval again with its URL and model name:',
  '  llama.cpp:  llama-server -m qwen2.5-1.5b-instruct-q4_k_m.gguf --port 8080',
  '              → --url http://127.0.0.1:8080/v1 --model qwen',
  '  Ollama:     ollama serve, then ollama pull qwen2.5:1.5b',
  '              → --url http://127.0.0.1:11434/v1 --model qwen2.5:1.5b',
  '  LM Studio:  load a model, then start its local server (Developer → Start Server)',
  "              → --url http://127.0.0.1:1234/v1 --model <the model's id>",
].join('\n');

export async function openServerTarget(options: ServerTargetOptions): Promise<OpenedTarget> {
  let model: OpenAICompatibleModel;
  try {
    model = new OpenAICompatibleModel({
      baseUrl: options.url,
      model: options.model,
      streaming: options.streaming,
      requestTimeoutMs: options.stepTimeoutMs,
    });
  } catch (error) {
    throw new TargetUnavailable(`${(error as Error).message}\n${START_A_SERVER}`);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const noAnswer = new Promise<{ status: 'unavailable'; reason: string; detail: string }>((done) => {
    timer = setTimeout(
      () =>
        done({
          status: 'unavailable',
          reason: 'no answer',
          detail: `nothing came back within ${options.checkTimeoutMs / 1000} s`,
        }),
      options.checkTimeoutMs,
    );
  });
  const availability = await Promise.race([model.availability(), noAnswer]);
  clearTimeout(timer);
  if (availability.status !== 'available') {
    const why =
      availability.status === 'unavailable'
        ? `${availability.reason}${availability.detail ? `: ${availability.detail}` : ''}`
        : availability.status;
    throw new TargetUnavailable(`Nothing usable answers at ${model.baseUrl} (GET /models: ${why}).\n${START_A_SERVER}`);
  }
  return {
    model,
    info: { kind: 'openai-compatible', where: model.baseUrl, model: options.model },
    close: async () => undefined,
  };
}
