/**
 * The protocol over stdio, as open-apple-models' `oam stdio` serves it: one JSON-RPC message per
 * line on stdin, one per line on stdout. "system" turns use an OpenAI-compatible server when
 * --url is given (llama.cpp, Ollama, LM Studio) and fail with model_unavailable otherwise;
 * scripted models always work. The process ends after `shutdown` or when stdin closes.
 *
 *   node scripts/run-ts.mjs demo/bridge-stdio.ts [--url http://127.0.0.1:8080/v1 --model qwen]
 */
import { createInterface } from 'node:readline';
import { BridgeEngine, OpenAICompatibleModel } from '../src';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const url = option('--url');
const systemModel = url ? new OpenAICompatibleModel({ baseUrl: url, model: option('--model') }) : undefined;
const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
const engine = new BridgeEngine({
  send: (line) => process.stdout.write(`${line}\n`),
  systemModel,
  onShutdown: () => input.close(),
});
input.on('line', (line) => engine.receive(line));
