/**
 * Development backend: any server speaking OpenAI's /v1/chat/completions (llama.cpp server,
 * Ollama, LM Studio). It sends what the on-device model would get — a system message and ONE
 * user message (promptPrefix + prompt), never `tools` — so the core's own tool calling and
 * prompt layout are exercised the same way. The only file in src/ that uses fetch.
 */
import { throwIfAborted, type SignalLike } from '../contract/abort';
import { AgentError } from '../contract/errors';
import { imageDataUrl } from '../contract/image-input';
import { HttpExchange, runtimeFetch, type FetchLike, type FetchResponseLike } from './http-exchange';
import { agentErrorFromServer, errorObjectOf, errorObjectOfValue, parseRetryAfter } from './openai-errors';
import { SseDecoder } from './sse';
import {
  applyEvent,
  brokenConnection,
  describeNetworkError,
  finishReasonOf,
  firstChoice,
  snippet,
  throwOnRefusal,
  usageOf,
  type StreamProgress,
} from './openai-answer';
import {
  checkGenerationRequest,
  DEFAULT_CAPABILITIES,
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
  type ModelAvailability,
  type ModelCapabilities,
} from '../contract/language-model';

export interface OpenAICompatibleOptions {
  /** The API root, e.g. `http://127.0.0.1:8080/v1` (llama.cpp), `http://127.0.0.1:11434/v1` (Ollama). */
  baseUrl: string;
  /** Model name sent in the body; default `"default"` (llama.cpp ignores it, Ollama needs it). */
  model?: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /** Stream with server-sent events (default true); false asks for one JSON answer. */
  streaming?: boolean;
  /** How long to wait for the server to answer each step (the head, then each chunk); default 120000. */
  requestTimeoutMs?: number;
  /** Extra fields merged into the request body last (e.g. `{ repeat_penalty: 1.1 }`). */
  extraBody?: Record<string, unknown>;
  /** The input budget the core plans prompts for; default 4000 like Gemini Nano. */
  maxInputTokens?: number;
  /** Injectable fetch; default the runtime's globalThis.fetch. */
  fetch?: FetchLike;
  /**
   * Whether the server's model takes images (a vision model, llama.cpp with its mmproj): sent
   * as `image_url` data URIs. Default true; false refuses requests with images before sending.
   */
  imageInput?: boolean;
}

const DEFAULT_TIMEOUT_MS = 120000;

type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

interface ChatMessage {
  role: 'system' | 'user';
  content: string | ContentPart[];
}

export class OpenAICompatibleModel implements LanguageModel {
  readonly capabilities: ModelCapabilities;
  readonly baseUrl: string;
  private readonly model: string;
  private readonly apiKey: string | undefined;
  private readonly streaming: boolean;
  private readonly timeoutMs: number;
  private readonly extraBody: Record<string, unknown>;
  private readonly fetchOverride: FetchLike | undefined;

  constructor(options: OpenAICompatibleOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new AgentError(
        'invalid_request',
        'OpenAICompatibleModel needs options: { baseUrl: "http://127.0.0.1:8080/v1" }.',
      );
    }
    const baseUrl = typeof options.baseUrl === 'string' ? options.baseUrl.trim().replace(/\/+$/, '') : '';
    if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) {
      throw new AgentError(
        'invalid_request',
        `baseUrl must be an http(s) URL such as http://127.0.0.1:8080/v1, got ${JSON.stringify(options.baseUrl)}.`,
      );
    }
    const timeoutMs = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) {
      throw new AgentError(
        'invalid_request',
        `requestTimeoutMs must be a positive number of milliseconds, got ${String(options.requestTimeoutMs)}.`,
      );
    }
    const maxInputTokens = options.maxInputTokens ?? DEFAULT_CAPABILITIES.maxInputTokens;
    if (typeof maxInputTokens !== 'number' || !(maxInputTokens > 0)) {
      throw new AgentError(
        'invalid_request',
        `maxInputTokens must be a positive number, got ${String(options.maxInputTokens)}.`,
      );
    }
    if (options.model !== undefined && (typeof options.model !== 'string' || options.model.trim() === '')) {
      throw new AgentError('invalid_request', 'model must be a non-empty string when given.');
    }
    if (options.fetch !== undefined && typeof options.fetch !== 'function') {
      throw new AgentError('invalid_request', 'fetch must be a function when given.');
    }
    if (options.imageInput !== undefined && typeof options.imageInput !== 'boolean') {
      throw new AgentError('invalid_request', 'imageInput must be true or false when given.');
    }
    this.baseUrl = baseUrl;
    this.model = options.model ?? 'default';
    this.apiKey = options.apiKey || undefined;
    this.streaming = options.streaming !== false;
    this.timeoutMs = timeoutMs;
    this.extraBody = options.extraBody ?? {};
    this.fetchOverride = options.fetch;
    this.capabilities = {
      ...DEFAULT_CAPABILITIES,
      modelName: this.model,
      maxInputTokens,
      systemInstructions: true,
      prefixCaching: false,
      nativeToolCalling: false,
      imageInput: options.imageInput !== false,
    };
  }

  /** The exact JSON body sent for a request (also handy for logging and tests). */
  requestBody(request: GenerationRequest): Record<string, unknown> {
    const messages: ChatMessage[] = [];
    if (request.systemInstruction) messages.push({ role: 'system', content: request.systemInstruction });
    const text = (request.promptPrefix ?? '') + request.prompt;
    const images = request.images ?? [];
    const content: ChatMessage['content'] =
      images.length === 0
        ? text
        : [
            { type: 'text', text },
            ...images.map((image): ContentPart => ({ type: 'image_url', image_url: { url: imageDataUrl(image) } })),
          ];
    messages.push({ role: 'user', content });
    const body: Record<string, unknown> = { model: this.model, messages, stream: this.streaming };
    if (this.streaming) body.stream_options = { include_usage: true };
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.topK !== undefined) body.top_k = request.topK;
    if (request.seed !== undefined) body.seed = request.seed;
    if (request.maxOutputTokens !== undefined) body.max_tokens = request.maxOutputTokens;
    return { ...body, ...this.extraBody };
  }

  async *generate(request: GenerationRequest, signal?: SignalLike): AsyncGenerator<GenerationChunk, void, undefined> {
    checkGenerationRequest(
      request,
      this.capabilities,
      `The OpenAI-compatible model "${this.model}" at ${this.baseUrl}`,
    );
    throwIfAborted(signal);
    const url = `${this.baseUrl}/chat/completions`;
    const exchange = new HttpExchange(
      signal,
      this.timeoutMs,
      () => `The server at ${url} did not answer in ${this.timeoutMs} ms.`,
    );
    try {
      const response = await this.send(exchange, url, {
        method: 'POST',
        body: JSON.stringify(this.requestBody(request)),
      });
      if (!response.ok) throw await this.httpError(exchange, url, response);
      const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
      // Some servers ignore `stream: true` and answer with one JSON object; read it as such.
      if (!this.streaming || contentType.indexOf('application/json') >= 0) {
        yield await this.readWhole(exchange, url, response);
        return;
      }
      yield* this.readStream(exchange, url, response);
    } finally {
      // Also reached when the consumer stops iterating early: drop the request quietly.
      exchange.close();
    }
  }

  async availability(): Promise<ModelAvailability> {
    const url = `${this.baseUrl}/models`;
    const exchange = new HttpExchange(undefined, this.timeoutMs, () => `no answer in ${this.timeoutMs} ms`);
    try {
      const response = await this.send(exchange, url, { method: 'GET' });
      await exchange.wait(response.text()).catch(() => '');
      if (response.ok) return { status: 'available' };
      return {
        status: 'unavailable',
        reason: `http_${response.status}`,
        detail: `GET ${url} answered HTTP ${response.status}.`,
      };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return { status: 'unavailable', reason: 'unreachable', detail };
    } finally {
      exchange.close();
    }
  }

  /** A remote server's tokenizer is not reachable through this API. */
  async countTokens(_text: string): Promise<number | null> {
    return null;
  }

  private fetchFunction(): FetchLike {
    const fetchFn = this.fetchOverride ?? runtimeFetch();
    if (!fetchFn) {
      throw new AgentError(
        'model_unavailable',
        'This runtime has no fetch (Cocos native builds do not); OpenAICompatibleModel is for development in the editor, browsers and Node. Pass options.fetch or use GeminiNanoModel on devices.',
      );
    }
    return fetchFn;
  }

  private headers(method: 'GET' | 'POST'): Record<string, string> {
    const headers: Record<string, string> = {
      Accept: method === 'POST' && this.streaming ? 'text/event-stream' : 'application/json',
    };
    if (method === 'POST') headers['Content-Type'] = 'application/json';
    if (this.apiKey !== undefined) headers.Authorization = `Bearer ${this.apiKey}`;
    return headers;
  }

  /** Sends the request; a failure to connect becomes model_unavailable naming the URL. */
  private async send(
    exchange: HttpExchange,
    url: string,
    { method, body }: { method: 'GET' | 'POST'; body?: string },
  ): Promise<FetchResponseLike> {
    const fetchFn = this.fetchFunction();
    const headers = this.headers(method);
    let pending: Promise<FetchResponseLike>;
    try {
      pending = Promise.resolve(fetchFn(url, { method, headers, body, signal: exchange.fetchSignal }));
    } catch (error) {
      pending = Promise.reject(error);
    }
    try {
      return await exchange.wait(pending);
    } catch (error) {
      if (error instanceof AgentError) throw error;
      throw new AgentError(
        'model_unavailable',
        `Could not reach ${this.baseUrl} (${describeNetworkError(error)}). Is llama.cpp/Ollama/LM Studio running and serving that URL? Start the server or fix baseUrl.`,
        { cause: error },
      );
    }
  }

  private async httpError(exchange: HttpExchange, url: string, response: FetchResponseLike): Promise<AgentError> {
    let bodyText = '';
    try {
      bodyText = await exchange.wait(response.text());
    } catch (error) {
      if (error instanceof AgentError && error.code === 'cancelled') return error;
    }
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
    return agentErrorFromServer(`POST ${url}`, errorObjectOf(bodyText), { status: response.status, retryAfterMs });
  }

  private async readWhole(exchange: HttpExchange, url: string, response: FetchResponseLike): Promise<GenerationChunk> {
    let bodyText: string;
    try {
      bodyText = await exchange.wait(response.text());
    } catch (error) {
      throw brokenConnection(url, error);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(bodyText);
    } catch (error) {
      throw new AgentError(
        'generation_failed',
        `The server at ${url} sent an answer that is not JSON: ${snippet(bodyText)}`,
        { cause: error },
      );
    }
    const serverError = errorObjectOfValue(parsed);
    if (serverError) throw agentErrorFromServer(`POST ${url}`, serverError);
    const choice = firstChoice(parsed);
    const message = choice?.message as { content?: unknown; refusal?: unknown } | undefined;
    if (!choice || typeof message !== 'object' || message === null) {
      throw new AgentError(
        'generation_failed',
        `The server at ${url} answered without choices[0].message: ${snippet(bodyText)}`,
      );
    }
    throwOnRefusal(url, message.refusal);
    const finish = finishReasonOf(url, choice.finish_reason);
    const text = typeof message.content === 'string' ? message.content : '';
    const chunk: GenerationChunk = { delta: text, text, finishReason: finish ?? 'stop' };
    const usage = usageOf((parsed as { usage?: unknown }).usage);
    if (usage) chunk.usage = usage;
    return chunk;
  }

  private async *readStream(
    exchange: HttpExchange,
    url: string,
    response: FetchResponseLike,
  ): AsyncGenerator<GenerationChunk, void, undefined> {
    const body = response.body;
    if (!body || typeof body.getReader !== 'function') {
      throw new AgentError('generation_failed', `The server at ${url} answered without a readable body.`);
    }
    const reader = body.getReader();
    exchange.attachReader(reader);
    const decoder = new TextDecoder('utf-8');
    const sse = new SseDecoder();
    const progress: StreamProgress = { text: '', sawDone: false };
    while (!progress.sawDone) {
      let read: { done: boolean; value?: Uint8Array };
      try {
        read = await exchange.wait(reader.read());
      } catch (error) {
        throw brokenConnection(url, error);
      }
      const events = read.done
        ? sse.push(decoder.decode()).concat(sse.end())
        : sse.push(decoder.decode(read.value, { stream: true }));
      for (const event of events) {
        const delta = applyEvent(url, event, progress);
        if (delta) yield { delta, text: progress.text };
        if (progress.sawDone) break;
      }
      if (read.done) break;
    }
    if (!progress.sawDone && progress.finishReason === undefined) {
      throw new AgentError(
        'generation_failed',
        `The stream from ${url} ended before the answer was complete (no finish_reason, no [DONE]).`,
      );
    }
    // [DONE] without a finish_reason: the server finished normally but did not say why.
    const last: GenerationChunk = { delta: '', text: progress.text, finishReason: progress.finishReason ?? 'stop' };
    if (progress.usage) last.usage = progress.usage;
    yield last;
  }
}
