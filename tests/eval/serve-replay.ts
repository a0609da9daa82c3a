/**
 * `node scripts/run-ts.mjs tests/eval/serve-replay.ts [recording.json]`: serves a recording
 * (default: the tests' hand-written one) on 127.0.0.1 as an OpenAI-compatible server until
 * stopped, so `npm run eval -- --url <printed URL> --model replay` can be watched by hand, or a
 * recording someone shared with `--record` can be replayed. One eval's worth of answers each.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readRecording } from '../../eval/recording';
import { ReplayServer } from './replay-server';

async function main(): Promise<void> {
  const path = process.argv[2] ? resolve(process.argv[2]) : join(process.cwd(), 'tests/eval/fixtures/small-model.json');
  const recording = readRecording(JSON.parse(readFileSync(path, 'utf8')));
  const server = new ReplayServer({ recording });
  const url = await server.start();
  console.log(`replaying ${recording.exchanges.length} answers of ${path} (${recording.model}) at ${url}`);
  console.log(`run: npm run eval -- --url ${url} --model replay`);
  const stop = () => {
    console.log(`served ${server.served}, ${server.remaining} left, ${server.problems.length} refused`);
    void server.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`serve-replay: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
