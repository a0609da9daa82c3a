/**
 * A loopback stand-in for an OpenAI-compatible server (127.0.0.1, port 0) that answers each
 * chat-completions request with the next answer of an eval recording (eval/recording.ts): as
 * server-sent events in small chunks when the request streams, as one JSON object otherwise,
 * the way llama.cpp's server does. It checks each request against the exchange it replays and
 * answers HTTP 409 when they differ, so a replay that went out of step fails loudly instead of
 * scoring answers to questions nobody asked.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Recording } from '../../eval/recording';

export interface ReplayedRequest {
  method: string;
  url: string;
  /** The parsed JSON body of a POST. */
  body?: { model?: string; stream?: boolean; messages?: Array<{ role: string; content: string }> };
}

export interface ReplayServerOptions {
  recording: Recording;
  /** Characters per streamed chunk (default 6: a few tokens, as a small model streams). */
  chunkChars?: number;
}

const sse = (value: unknown): string => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;

function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}

export class ReplayServer {
  readonly requests: ReplayedRequest[] = [];
  /** Requests the recording could not answer (out of step, or none left), in order. */
  readonly problems: string[] = [];
  private next = 0;
  private readonly server: Server;
  private readonly chunkChars: number;

  constructor(private readonly options: ReplayServerOptions) {
    this.chunkChars = options.chunkChars ?? 6;
    this.server = createServer((request, response) => {
      let text = '';
      request.setEncoding('utf8');
      request.on('data', (piece: string) => {
        text += piece;
      });
      request.on('end', () => this.answer(request, response, text));
    });
  }

  /** How many recorded answers have been given. */
  get served(): number {
    return this.next;
  }

  get remaining(): number {
    return this.options.recording.exchanges.length - this.next;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(request: IncomingMessage, response: ServerResponse, text: string): void {
    const record: ReplayedRequest = { method: request.method ?? '', url: request.url ?? '' };
    this.requests.push(record);
    if (record.method === 'GET' && record.url === '/v1/models') {
      this.json(response, 200, {
        object: 'list',
        data: [{ id: 'replay', object: 'model', owned_by: 'oam-cocos-tests' }],
      });
      return;
    }
    if (record.method !== 'POST' || record.url !== '/v1/chat/completions') {
      this.json(response, 404, { error: { message: `no route ${record.method} ${record.url}` } });
      return;
    }
    try {
      record.body = JSON.parse(text) as ReplayedRequest['body'];
    } catch {
      this.json(response, 400, { error: { message: 'the body is not JSON' } });
      return;
    }
    const exchanges = this.options.recording.exchanges;
    const exchange = exchanges[this.next];
    if (!exchange) {
      this.refuse(response, `replay: the recording has no answer left (all ${exchanges.length} used)`);
      return;
    }
    const asked = (record.body?.messages ?? []).map((message) => message.content).join('\n');
    if (asked.indexOf(exchange.expect) < 0) {
      this.refuse(
        response,
        `replay out of step at exchange ${this.next} (${exchange.scenario} run ${exchange.run}, ${exchange.kind}): ` +
          `the request does not contain ${JSON.stringify(exchange.expect)}`,
      );
      return;
    }
    this.next++;
    if (exchange.fail !== undefined) {
      this.json(response, 500, { error: { message: exchange.fail, type: 'server_error' } });
      return;
    }
    const output = exchange.output ?? '';
    const usage = {
      prompt_tokens: tokensOf(asked),
      completion_tokens: tokensOf(output),
      total_tokens: tokensOf(asked) + tokensOf(output),
    };
    if (record.body?.stream) this.stream(response, output, usage);
    else {
      this.json(response, 200, {
        id: `replay-${this.next}`,
        object: 'chat.completion',
        model: record.body?.model ?? 'replay',
        choices: [{ index: 0, message: { role: 'assistant', content: output }, finish_reason: 'stop' }],
        usage,
      });
    }
  }

  private stream(response: ServerResponse, output: string, usage: Record<string, number>): void {
    response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const id = `replay-${this.next}`;
    const chunk = (delta: Record<string, string>, finish: string | null) =>
      sse({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
    let body = chunk({ role: 'assistant' }, null);
    for (let at = 0; at < output.length; at += this.chunkChars)
      body += chunk({ content: output.slice(at, at + this.chunkChars) }, null);
    body += chunk({}, 'stop') + sse({ id, object: 'chat.completion.chunk', choices: [], usage }) + sse('[DONE]');
    // The client may stop reading once its JSON answer is complete; a closed socket is fine.
    response.on('error', () => undefined);
    response.end(body);
  }

  private refuse(response: ServerResponse, message: string): void {
    this.problems.push(message);
    this.json(response, 409, { error: { message, type: 'invalid_request_error' } });
  }

  private json(response: ServerResponse, status: number, value: unknown): void {
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(value));
  }
}
