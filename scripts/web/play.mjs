// `npm run play [-- --port N] [--url http://127.0.0.1:8080/v1 [--model NAME]]`: builds the tavern
// for the web on the real engine v3.8.5 (the engine build is cached after the first run), serves
// it on 127.0.0.1 and prints the address; it never opens a browser. The scripted stand-in plays
// by default; --url points the NPCs at an OpenAI-compatible server (which must allow CORS), and a
// Chrome with its built-in model answers with that model (docs/web-play.md).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { buildSite } from './build-site.mjs';
import { serveSite } from './serve-site.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const USAGE = 'usage: npm run play -- [--port N] [--url http://host:port/v1] [--model NAME]';

/** `--flag value` and `--flag=value` alike, as [flag, value]s. */
function pairs(argv) {
  const found = [];
  for (let index = 0; index < argv.length; index += 1) {
    const [flag, inline] = argv[index].split(/=(.*)/s);
    if (flag === '--help' || flag === '-h') return [['--help']];
    const value = inline !== undefined ? inline : argv[index + 1];
    if (inline === undefined) index += 1;
    found.push([flag, value]);
  }
  return found;
}

/** The command line as { port, openaiUrl, model }; a wrong one exits 2 with what is wrong. */
export function readPlayArguments(argv) {
  const parsed = { port: 7457 };
  for (const [flag, value] of pairs(argv)) {
    if (flag === '--help') return { help: true };
    if (!['--port', '--url', '--model'].includes(flag)) throw new Error(`unknown argument ${flag}`);
    if (value === undefined || value === '' || value.startsWith('--')) throw new Error(`${flag} needs a value`);
    if (flag === '--port') {
      const port = Number(value);
      if (!/^\d+$/.test(value) || port > 65535) throw new Error(`--port needs 0–65535, got ${value}`);
      parsed.port = port;
    } else if (flag === '--url') {
      if (!/^https?:\/\//.test(value)) throw new Error(`--url must start with http:// or https://, got ${value}`);
      parsed.openaiUrl = value;
    } else parsed.model = value;
  }
  if (parsed.model && !parsed.openaiUrl) throw new Error('--model needs --url');
  return parsed;
}

/** Whether 127.0.0.1:`port` can be listened on, asked before a build that may take a minute. */
function portIsFree(port) {
  if (port === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function main() {
  let args;
  try {
    args = readPlayArguments(process.argv.slice(2));
  } catch (error) {
    console.error(`play: ${error.message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (!(await portIsFree(args.port))) {
    console.error(`play: port ${args.port} on 127.0.0.1 is in use; pass --port N (0 picks a free one).`);
    return 2;
  }
  const started = Date.now();
  const say = (line) => console.log(`play: ${line}`);
  const { siteDir } = await buildSite({ repo: REPO, siteDir: join(REPO, 'build', 'web-play', 'site'), say });
  const options = args.openaiUrl ? { openaiUrl: args.openaiUrl, model: args.model || '' } : {};
  const running = await serveSite({ siteDir, port: args.port, options });
  const model = args.openaiUrl ? `the server at ${args.openaiUrl}` : 'the scripted stand-in';
  say(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${running.url}  (${model} answers; Ctrl+C to stop)`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => code !== null && process.exit(code),
    (error) => {
      console.error(`play: ${error && error.message ? error.message : error}`);
      process.exit(1);
    },
  );
}
