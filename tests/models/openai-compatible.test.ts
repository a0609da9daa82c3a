import * as http from 'http';
import type { AddressInfo } from 'net';
import { Canceller } from '../../src/contract/abort';
import { AgentError } from '../../src/contract/errors';
import { OpenAICompatibleModel, type OpenAICompatibleOptions } from '../../src/models/openai-compatible';
import { SseDecoder } from '../../src/models/sse';
import { generateText, type GenerationChunk, type GenerationRequest } from '../../src/contract/language-model';

interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, recorded: Recorded) => void | Promise<void>;

/** A loopback server the test scripts per case. */
class TestServer {
  readonly requests: Recorded[] = [];
  handler: Handler = (_req, res) => {
    res.statusCode = 500;
    res.end();
  };
  /** Resolves when a response's connection closed before the handler ended it. */
  closedEarly: Promise<void>;
  private markClosedEarly!: () => void;
  private server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      this.requests.push(recorded);
      res.on('close', () => {
        if (!res.writableEnded) this.markClosedEarly();
      });
      void this.handler(req, res, recorded);
    });
  });

  constructor() {
    this.closedEarly = new Promise((resolve) => {
      this.markClosedEarly = resolve;
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const sse = (value: unknown): string => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
const deltaEvent = (content: string, finish: string | null = null): unknown => ({
  id: 'x',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: { content }, finish_reason: finish }],
});
const usageEvent = {
  id: 'x',
  choices: [],
  usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15, prompt_tokens_details: { cached_tokens: 8 } },
};

function streamHead(res: http.ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
}

/** Writes pieces one network write at a time, letting each go out before the next. */
async function writeSlowly(res: http.ServerResponse, pieces: string[]): Promise<void> {
  for (const piece of pieces) {
    res.write(piece);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function collect(iterable: AsyncIterable<GenerationChunk>): Promise<GenerationChunk[]> {
  const out: GenerationChunk[] = [];
  for await (const chunk of iterable) out.push(chunk);
  return out;
}

async function failureOf(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    return error as AgentError;
  }
  throw new Error('expected a failure');
}

const request: GenerationRequest = { kind: 'respond', prompt: 'Hello there.' };

let server: TestServer;
let baseUrl: string;
const model = (extra: Partial<OpenAICompatibleOptions> = {}) => new OpenAICompatibleModel({ baseUrl, ...extra });

beforeEach(async () => {
  server = new TestServer();
  baseUrl = await server.start();
});

afterEach(async () => {
  await server.stop();
});

describe('OpenAICompatibleModel request', () => {
  test('sends a system message and one user message with the sampling settings, never tools', async () => {
    server.handler = (_req, res) => {
      streamHead(res);
      res.end(sse(deltaEvent('Hi', 'stop')) + sse('[DONE]'));
    };
    const backend = model({ model: 'gemma-3n', apiKey: 'sk-test', extraBody: { repeat_penalty: 1.1 } });
    await collect(
      backend.generate({
        kind: 'decide',
        prompt: 'Player: hi',
        promptPrefix: 'PREFIX|',
        systemInstruction: 'You are Bram.',
        temperature: 0,
        topK: 40,
        seed: 7,
        maxOutputTokens: 256,
        priority: 100,
        label: 'Bram',
      }),
    );
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0];
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent.body)).toEqual({
      model: 'gemma-3n',
      messages: [
        { role: 'system', content: 'You are Bram.' },
        { role: 'user', content: 'PREFIX|Player: hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0,
      top_k: 40,
      seed: 7,
      max_tokens: 256,
      repeat_penalty: 1.1,
    });
  });

  test('without settings sends only the model, one user message and the stream flags', async () => {
    server.handler = (_req, res) => {
      streamHead(res);
      res.end(sse(deltaEvent('ok', 'stop')) + sse('[DONE]'));
    };
    await collect(new OpenAICompatibleModel({ baseUrl: `${baseUrl}/` }).generate(request));
    const sent = server.requests[0];
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBeUndefined();
    expect(JSON.parse(sent.body)).toEqual({
      model: 'default',
      messages: [{ role: 'user', content: 'Hello there.' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  test('rejects bad options and bad requests before any network call', async () => {
    expect(() => new OpenAICompatibleModel({ baseUrl: 'localhost:8080' })).toThrow(AgentError);
    expect(() => new OpenAICompatibleModel({ baseUrl: '' })).toThrow(/baseUrl/);
    expect(() => new OpenAICompatibleModel({ baseUrl, requestTimeoutMs: 0 })).toThrow(/requestTimeoutMs/);
    expect(() => new OpenAICompatibleModel({ baseUrl, maxInputTokens: -1 })).toThrow(/maxInputTokens/);
    expect(() => new OpenAICompatibleModel({ baseUrl, model: '  ' })).toThrow(/model/);
    const backend = model();
    expect((await failureOf(collect(backend.generate({ kind: 'text' } as unknown as GenerationRequest)))).code).toBe(
      'invalid_request',
    );
    expect((await failureOf(collect(backend.generate({ ...request, maxOutputTokens: 0 })))).code).toBe(
      'invalid_request',
    );
    expect(server.requests).toHaveLength(0);
  });

  test('capabilities and token counting', async () => {
    const backend = model({ model: 'llama', maxInputTokens: 8000 });
    expect(backend.capabilities).toMatchObject({
      modelName: 'llama',
      maxInputTokens: 8000,
      systemInstructions: true,
      prefixCaching: false,
      nativeToolCalling: false,
    });
    expect(model().capabilities.maxInputTokens).toBe(4000);
    expect(await backend.countTokens('anything')).toBeNull();
  });

  test('uses an injected fetch', async () => {
    const seen: string[] = [];
    const backend = new OpenAICompatibleModel({
      baseUrl: 'http://example.invalid/v1',
      streaming: false,
      fetch: async (url) => {
        seen.push(url);
        return {
          ok: true,
          status: 200,
          headers: { get: () => 'application/json' },
          text: async () => JSON.stringify({ choices: [{ message: { content: 'injected' }, finish_reason: 'stop' }] }),
        };
      },
    });
    expect((await generateText(backend, request)).text).toBe('injected');
    expect(seen).toEqual(['http://example.invalid/v1/chat/completions']);
  });

  test('without any fetch in the runtime it fails as model_unavailable', async () => {
    const globals = globalThis as { fetch?: unknown };
    const saved = globals.fetch;
    delete globals.fetch;
    try {
      const error = await failureOf(collect(model().generate(request)));
      expect(error.code).toBe('model_unavailable');
      expect(error.message).toMatch(/fetch/);
    } finally {
      globals.fetch = saved;
    }
  });
});

describe('OpenAICompatibleModel streaming', () => {
  test('parses SSE split across network writes, mid-line and between CR and LF', async () => {
    const whole = [
      ': keep-alive comment\r\n\r\n',
      sse(deltaEvent('Hel')).replace(/\n/g, '\r\n'),
      sse(deltaEvent('lo, ')),
      sse(deltaEvent('trav\u00e9ller')),
      sse(deltaEvent('', 'stop')),
      sse(usageEvent),
      sse('[DONE]'),
    ].join('');
    // cut at awkward places: inside "data:", inside JSON, between \r and \n, inside a UTF-8 sequence
    const bytes = Buffer.from(whole, 'utf8');
    const cuts = [3, 20, 21, 57, bytes.indexOf(Buffer.from('\u00e9', 'utf8')) + 1, bytes.length - 9, bytes.length - 3];
    const crlf = whole.indexOf('\r\n', 30);
    cuts.push(crlf + 1);
    const sorted = Array.from(new Set(cuts)).sort((left, right) => left - right);
    server.handler = async (_req, res) => {
      streamHead(res);
      let from = 0;
      for (const cut of sorted) {
        res.write(bytes.subarray(from, cut));
        from = cut;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      res.end(bytes.subarray(from));
    };
    const chunks = await collect(model().generate(request));
    expect(chunks.map((chunk) => chunk.delta)).toEqual(['Hel', 'lo, ', 'trav\u00e9ller', '']);
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      'Hel',
      'Hello, ',
      'Hello, trav\u00e9ller',
      'Hello, trav\u00e9ller',
    ]);
    const last = chunks[chunks.length - 1];
    expect(last.finishReason).toBe('stop');
    expect(last.usage).toEqual({ inputTokens: 12, cachedInputTokens: 8, outputTokens: 3 });
    expect(chunks.slice(0, -1).every((chunk) => chunk.finishReason === undefined)).toBe(true);
  });

  test('maps finish reasons: length → max_tokens, anything else → other', async () => {
    server.handler = (_req, res) => {
      streamHead(res);
      res.end(sse(deltaEvent('cut', 'length')) + sse('[DONE]'));
    };
    expect((await generateText(model(), request)).finishReason).toBe('max_tokens');
    server.handler = (_req, res) => {
      streamHead(res);
      res.end(sse(deltaEvent('x', 'tool_calls')) + sse('[DONE]'));
    };
    expect((await generateText(model(), request)).finishReason).toBe('other');
  });

  test('a stream that finishes without [DONE] still completes; one that is cut off fails', async () => {
    server.handler = (_req, res) => {
      streamHead(res);
      res.end(sse(deltaEvent('done', 'stop')));
    };
    expect(await generateText(model(), request)).toEqual({ text: 'done', finishReason: 'stop', usage: undefined });
    server.handler = (_req, res) => {
      streamHead(res);
      res.end(sse(deltaEvent('half a sent')));
    };
    const error = await failureOf(generateText(model(), request));
    expect(error.code).toBe('generation_failed');
    expect(error.message).toMatch(/ended before/);
  });

  test('a malformed event is generation_failed', async () => {
    server.handler = (_req, res) => {
      streamHead(res);
      res.end(sse(deltaEvent('a')) + 'data: {"choices": [\n\n');
    };
    const error = await failureOf(generateText(model(), request));
    expect(error.code).toBe('generation_failed');
    expect(error.message).toMatch(/not JSON/);
  });

  test('the last event without a trailing blank line is still read', async () => {
    server.handler = (_req, res) => {
      streamHead(res);
      res.end(sse(deltaEvent('tail')) + `data: ${JSON.stringify(deltaEvent('!', 'stop'))}`);
    };
    expect(await generateText(model(), request)).toMatchObject({ text: 'tail!', finishReason: 'stop' });
  });

  test('non-streaming mode returns one chunk with usage', async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ index: 0, message: { role: 'assistant', content: 'Whole answer.' }, finish_reason: 'length' }],
          usage: usageEvent.usage,
        }),
      );
    };
    const chunks = await collect(model({ streaming: false }).generate(request));
    expect(chunks).toEqual([
      {
        delta: 'Whole answer.',
        text: 'Whole answer.',
        finishReason: 'max_tokens',
        usage: { inputTokens: 12, cachedInputTokens: 8, outputTokens: 3 },
      },
    ]);
    const body = JSON.parse(server.requests[0].body);
    expect(body.stream).toBe(false);
    expect(body.stream_options).toBeUndefined();
    expect(server.requests[0].headers.accept).toBe('application/json');
  });

  test('a server that ignores stream:true and answers JSON is read as one chunk', async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ choices: [{ message: { content: 'plain' }, finish_reason: 'stop' }] }));
    };
    const chunks = await collect(model().generate(request));
    expect(chunks).toEqual([{ delta: 'plain', text: 'plain', finishReason: 'stop' }]);
  });

  test('non-streaming answers that are not JSON or have no message fail as generation_failed', async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('<html>');
    };
    expect((await failureOf(generateText(model({ streaming: false }), request))).code).toBe('generation_failed');
    server.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"choices":[]}');
    };
    expect((await failureOf(generateText(model({ streaming: false }), request))).code).toBe('generation_failed');
  });
});

describe('OpenAICompatibleModel error mapping', () => {
  const cases: Array<{
    name: string;
    status: number;
    body: unknown;
    headers?: Record<string, string>;
    code: string;
    retryAfterMs?: number;
  }> = [
    {
      name: '429 with Retry-After seconds',
      status: 429,
      body: { error: { message: 'slow down' } },
      headers: { 'Retry-After': '3' },
      code: 'rate_limited',
      retryAfterMs: 3000,
    },
    {
      name: '503 with Retry-After',
      status: 503,
      body: { error: { message: 'Loading model' } },
      headers: { 'Retry-After': '1.5' },
      code: 'busy',
      retryAfterMs: 1500,
    },
    { name: '503 without Retry-After', status: 503, body: 'Service Unavailable', code: 'busy' },
    {
      name: '401',
      status: 401,
      body: { error: { message: 'bad key', type: 'invalid_request_error' } },
      code: 'model_unavailable',
    },
    { name: '403', status: 403, body: '', code: 'model_unavailable' },
    {
      name: '404 unknown model',
      status: 404,
      body: { error: 'model "x" not found, try pulling it first' },
      code: 'model_unavailable',
    },
    { name: '400', status: 400, body: { error: { message: 'temperature must be >= 0' } }, code: 'invalid_request' },
    { name: '422', status: 422, body: 'unprocessable', code: 'invalid_request' },
    {
      name: 'context_length_exceeded code',
      status: 400,
      body: { error: { message: 'too long', code: 'context_length_exceeded' } },
      code: 'context_size_exceeded',
    },
    {
      name: 'llama.cpp context size message',
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'the request exceeds the available context size, try increasing it',
          type: 'exceed_context_size_error',
        },
      },
      code: 'context_size_exceeded',
    },
    {
      name: '"context length" in message',
      status: 400,
      body: { error: { message: "This model's maximum context length is 4096 tokens" } },
      code: 'context_size_exceeded',
    },
    {
      name: '"too many tokens" on a 500',
      status: 500,
      body: { error: { message: 'Too many tokens in prompt' } },
      code: 'context_size_exceeded',
    },
    {
      name: 'content_filter code',
      status: 400,
      body: { error: { message: 'filtered', code: 'content_filter' } },
      code: 'guardrail_violation',
    },
    { name: '500', status: 500, body: { error: { message: 'CUDA out of memory' } }, code: 'generation_failed' },
    { name: '502 with HTML', status: 502, body: '<html>bad gateway</html>', code: 'generation_failed' },
  ];

  test.each(cases)('$name → $code', async ({ status, body, headers, code, retryAfterMs }) => {
    server.handler = (_req, res) => {
      res.writeHead(status, {
        'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json',
        ...(headers ?? {}),
      });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const error = await failureOf(generateText(model(), request));
    expect(error.code).toBe(code);
    expect(error.nativeCode).toBe(status);
    expect(error.retryAfterMs).toBe(retryAfterMs);
    expect(error.message).toContain(String(status));
  });

  test('Retry-After as an HTTP date becomes milliseconds from now', async () => {
    const at = new Date(Date.now() + 30000).toUTCString();
    server.handler = (_req, res) => {
      res.writeHead(429, { 'Retry-After': at });
      res.end();
    };
    const error = await failureOf(generateText(model(), request));
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfterMs).toBeGreaterThan(20000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(30000);
  });

  test('an unreadable Retry-After is ignored', async () => {
    server.handler = (_req, res) => {
      res.writeHead(429, { 'Retry-After': 'soon' });
      res.end();
    };
    const error = await failureOf(generateText(model(), request));
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfterMs).toBeUndefined();
  });

  test('finish_reason content_filter is a guardrail violation', async () => {
    server.handler = (_req, res) => {
      streamHead(res);
      res.end(sse(deltaEvent('I will')) + sse(deltaEvent('', 'content_filter')) + sse('[DONE]'));
    };
    expect((await failureOf(generateText(model(), request))).code).toBe('guardrail_violation');
  });

  test('a refusal field is a refusal, streamed or not', async () => {
    server.handler = (_req, res) => {
      streamHead(res);
      res.end(
        sse({ choices: [{ delta: { refusal: "I can't help with that." }, finish_reason: null }] }) + sse('[DONE]'),
      );
    };
    expect((await failureOf(generateText(model(), request))).code).toBe('refusal');
    server.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: null, refusal: 'No.' }, finish_reason: 'stop' }] }));
    };
    expect((await failureOf(generateText(model({ streaming: false }), request))).code).toBe('refusal');
  });

  test('an error object inside the stream is mapped like an HTTP error', async () => {
    server.handler = (_req, res) => {
      streamHead(res);
      res.end(sse(deltaEvent('Once upon')) + sse({ error: { message: 'context length exceeded while generating' } }));
    };
    expect((await failureOf(generateText(model(), request))).code).toBe('context_size_exceeded');

    // llama.cpp writes `error: {...}` lines with the HTTP-like status as the code
    server.handler = (_req, res) => {
      streamHead(res);
      res.end(
        sse(deltaEvent('a')) +
          `error: ${JSON.stringify({ code: 503, message: 'server busy', type: 'unavailable_error' })}\n\n`,
      );
    };
    const busy = await failureOf(generateText(model(), request));
    expect(busy.code).toBe('busy');
    expect(busy.nativeCode).toBe(503);

    server.handler = (_req, res) => {
      streamHead(res);
      res.end(sse({ error: { message: 'kaboom', type: 'server_error' } }));
    };
    expect((await failureOf(generateText(model(), request))).code).toBe('generation_failed');

    server.handler = (_req, res) => {
      streamHead(res);
      res.end(sse({ error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } }));
    };
    expect((await failureOf(generateText(model(), request))).code).toBe('rate_limited');
  });
});

describe('OpenAICompatibleModel cancellation and failures of the connection', () => {
  test('a consumer that stops early cancels the request quietly', async () => {
    server.handler = async (_req, res) => {
      streamHead(res);
      await writeSlowly(res, [sse(deltaEvent('first ')), sse(deltaEvent('second '))]);
      // then keeps the connection open forever
    };
    const seen: string[] = [];
    for await (const chunk of model().generate(request)) {
      seen.push(chunk.delta);
      break;
    }
    expect(seen).toEqual(['first ']);
    await server.closedEarly; // the server saw the client hang up
  });

  test('aborting mid-stream stops reading, cancels the fetch and throws cancelled', async () => {
    server.handler = async (_req, res) => {
      streamHead(res);
      res.write(sse(deltaEvent('first ')));
    };
    const canceller = new Canceller();
    const seen: string[] = [];
    const error = await failureOf(
      (async () => {
        for await (const chunk of model().generate(request, canceller.signal)) {
          seen.push(chunk.delta);
          canceller.abort();
        }
      })(),
    );
    expect(error.code).toBe('cancelled');
    expect(seen).toEqual(['first ']);
    await server.closedEarly;
  });

  test('aborting while waiting for the response head throws cancelled', async () => {
    server.handler = () => undefined; // never answers
    const canceller = new Canceller();
    const pending = failureOf(generateText(model(), request, canceller.signal));
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    canceller.abort();
    expect((await pending).code).toBe('cancelled');
    await server.closedEarly;
  });

  test('an already aborted signal sends nothing', async () => {
    const canceller = new Canceller();
    canceller.abort();
    expect((await failureOf(generateText(model(), request, canceller.signal))).code).toBe('cancelled');
    expect(server.requests).toHaveLength(0);
  });

  test('a server that never answers times out as generation_failed', async () => {
    server.handler = () => undefined;
    const error = await failureOf(generateText(model({ requestTimeoutMs: 100 }), request));
    expect(error.code).toBe('generation_failed');
    expect(error.message).toMatch(/did not answer in 100 ms/);
  });

  test('a stream that goes silent times out as generation_failed', async () => {
    server.handler = (_req, res) => {
      streamHead(res);
      res.write(sse(deltaEvent('and then')));
    };
    const error = await failureOf(generateText(model({ requestTimeoutMs: 100 }), request));
    expect(error.code).toBe('generation_failed');
    expect(error.message).toMatch(/did not answer in 100 ms/);
  });

  test('a connection that breaks mid-answer is generation_failed', async () => {
    server.handler = async (req, res) => {
      streamHead(res);
      await writeSlowly(res, [sse(deltaEvent('partial'))]);
      req.socket.destroy();
    };
    expect((await failureOf(generateText(model(), request))).code).toBe('generation_failed');
  });

  test('an unreachable server is model_unavailable and says to start it', async () => {
    const closed = new TestServer();
    const url = await closed.start();
    await closed.stop(); // nothing listens on this port any more
    const error = await failureOf(generateText(new OpenAICompatibleModel({ baseUrl: url }), request));
    expect(error.code).toBe('model_unavailable');
    expect(error.message).toContain(url);
    expect(error.message).toMatch(/llama\.cpp\/Ollama\/LM Studio running/);
  });
});

describe('OpenAICompatibleModel availability', () => {
  test('available when GET /models answers 2xx', async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"data":[{"id":"default"}]}');
    };
    expect(await model({ apiKey: 'k' }).availability()).toEqual({ status: 'available' });
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/v1/models' });
    expect(server.requests[0].headers.authorization).toBe('Bearer k');
  });

  test('unavailable with http_<status> otherwise', async () => {
    server.handler = (_req, res) => {
      res.writeHead(401);
      res.end('nope');
    };
    expect(await model().availability()).toMatchObject({ status: 'unavailable', reason: 'http_401' });
    server.handler = (_req, res) => {
      res.writeHead(503);
      res.end();
    };
    expect(await model().availability()).toMatchObject({ status: 'unavailable', reason: 'http_503' });
  });

  test('unreachable when nothing listens or the server hangs', async () => {
    const closed = new TestServer();
    const url = await closed.start();
    await closed.stop();
    const result = await new OpenAICompatibleModel({ baseUrl: url }).availability();
    expect(result).toMatchObject({ status: 'unavailable', reason: 'unreachable' });
    expect((result as { detail?: string }).detail).toContain(url);

    server.handler = () => undefined;
    expect(await model({ requestTimeoutMs: 100 }).availability()).toMatchObject({
      status: 'unavailable',
      reason: 'unreachable',
    });
  });
});

describe('SseDecoder', () => {
  const stream =
    'event: x\r\ndata: one\r\ndata: two\r\n\r\n: comment\n\ndata:three\n\nerror: {"code":500}\n\nid: 7\nretry: 10\n\ndata: last';

  test('gives the same events whatever the chunking', () => {
    const whole = new SseDecoder();
    const expected = whole.push(stream).concat(whole.end());
    expect(expected).toEqual([
      { event: 'x', data: 'one\ntwo' },
      { event: 'message', data: 'three' },
      { event: 'error', data: '{"code":500}' },
      { event: 'message', data: 'last' },
    ]);
    for (let cut = 0; cut <= stream.length; cut++) {
      for (const second of [cut, Math.min(stream.length, cut + 1), Math.min(stream.length, cut + 7)]) {
        const decoder = new SseDecoder();
        const events = decoder
          .push(stream.slice(0, cut))
          .concat(decoder.push(stream.slice(cut, second)), decoder.push(stream.slice(second)), decoder.end());
        expect(events).toEqual(expected);
      }
    }
  });

  test('returns nothing for an empty or comment-only stream', () => {
    const decoder = new SseDecoder();
    expect(decoder.push('')).toEqual([]);
    expect(decoder.push(': ping\r\n\r\n')).toEqual([]);
    expect(decoder.end()).toEqual([]);
  });
});
