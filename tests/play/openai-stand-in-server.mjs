// A stand-in for an OpenAI-compatible server (llama.cpp, Ollama, LM Studio) for the browser
// suite's `--url` scene: every chat completion gets the same reply, with the CORS headers a
// page on another port needs, and each request's messages are kept so the test can see them.
import { createServer } from 'node:http';

export const SERVER_LINE = 'A server on this machine answered this line.';

export function startOpenAiStandIn() {
  const requests = [];
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'content-type, authorization',
    'access-control-allow-methods': 'POST, GET, OPTIONS',
  };
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
        res.writeHead(404, cors).end();
        return;
      }
      requests.push(JSON.parse(body));
      const content = JSON.stringify({ emotion: 'happy', line: SERVER_LINE });
      res
        .writeHead(200, { ...cors, 'content-type': 'application/json' })
        .end(
          JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }),
        );
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}/v1`,
        requests,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
