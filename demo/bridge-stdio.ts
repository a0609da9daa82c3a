/**
 * The protocol over stdio, as open-apple-models' `oam stdio` serves it: one JSON-RPC message per
 * line on stdin, one per line on stdout. "system" turns use an OpenAI-compatible server when
 * --url is given (llama.cpp, Ollama, LM Studio) and fail with model_unavailable otherwise;
 * scripted models always work. A line longer than 4 MiB is dropped as it streams in and answered
 * with one error; the process ends after `shutdown`, or when stdin closes (what still runs gets
 * half a second to answer and is then cancelled, a tool/call nobody can answer among it).
 *
 *   node scripts/run-ts.mjs demo/bridge-stdio.ts [--url http://127.0.0.1:8080/v1 --model qwen]
 */
import { BridgeEngine, BRIDGE_CODES, LineSplitter, MAX_LINE_BYTES, OpenAICompatibleModel } from '../src';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const url = option('--url');
const systemModel = url ? new OpenAICompatibleModel({ baseUrl: url, model: option('--model') }) : undefined;
const write = (line: string) => process.stdout.write(`${line}\n`);
let ended = false;
const engine = new BridgeEngine({
  send: write,
  systemModel,
  shutdownGraceMs: 500,
  // Everything written so far reaches the reader before the process ends.
  onShutdown: () => process.stdout.write('', () => process.exit(0)),
});
const lines = new LineSplitter({
  onLine: (line) => engine.receive(line),
  onTooLong: (bytes) =>
    write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: BRIDGE_CODES.invalid_message,
          message: `A line may be at most ${MAX_LINE_BYTES} bytes; one of ${bytes} bytes was dropped.`,
          data: { code: 'invalid_message' },
        },
      }),
    ),
});
process.stdin.on('data', (chunk: Buffer) => lines.push(chunk));
// The client is gone: what runs gets half a second to answer, the rest is cancelled, then exit.
process.stdin.on('end', () => {
  if (ended) return;
  ended = true;
  lines.end();
  if (engine.isShutDown) return; // a shutdown request is already ending the process
  void engine.close(500).then(() => process.stdout.write('', () => process.exit(0)));
});
