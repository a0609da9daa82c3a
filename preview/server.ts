/**
 * `npm run preview [-- --port 7456]`: builds the preview page and serves it on 127.0.0.1.
 * Open the printed URL and talk to Mira; to use a local llama.cpp/Ollama/LM Studio server,
 * choose "OpenAI-compatible server" in the set-up (that server must allow CORS).
 */
import { startPreviewServer } from './preview-server';

const DEFAULT_PORT = 7456;

function readPort(argv: string[]): number {
  const index = argv.indexOf('--port');
  if (index < 0) return DEFAULT_PORT;
  const value = Number(argv[index + 1]);
  if (argv[index + 1] === undefined || !Number.isInteger(value) || value < 0 || value > 65535) {
    console.error(`preview: --port needs a port number (0–65535), got ${argv[index + 1] ?? 'nothing'}.`);
    process.exit(2);
  }
  return value;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log('usage: npm run preview -- [--port 7456]');
    return;
  }
  const running = await startPreviewServer({ port: readPort(argv) });
  console.log(`oam-cocos preview: ${running.url}`);
  console.log('(Ctrl+C to stop)');
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: Error) => {
  console.error(`preview: ${error.message}`);
  process.exit(1);
});
