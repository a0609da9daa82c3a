/**
 * `npm run eval -- --url http://127.0.0.1:8080/v1 --model NAME` (or `--chrome`): the live
 * eval, opt-in. Plays the scenarios of eval/scenarios.ts against a real model several times and
 * prints the seed-style score table; the JSON report keeps every run. Nothing here runs in
 * `npm test`: the tests replay a recording through a loopback server (tests/eval/).
 */
import { runCli } from './cli';

runCli({
  argv: process.argv.slice(2),
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then(
  (status) => process.exit(status),
  (error: unknown) => {
    console.error(`eval: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
