// The web-build stage of `npm test`: builds the tavern site (build-site.mjs) and a second one from
// the sample broken on purpose, serves both on 127.0.0.1, and runs tests/play/ (headless Chromium
// against them) and tests/web/effects/ (the effect compiler on the engine's sources). Exits 3
// when there is no engine tree (scripts/test.sh: "no engine").
// Usage: node scripts/web/test-play.mjs [jest arguments…]
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOpenAiStandIn } from '../../tests/play/openai-stand-in-server.mjs';
import { EngineNotFoundError } from '../engine/locate-engine.mjs';
import { buildSite } from './build-site.mjs';
import { serveSite } from './serve-site.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NOT_RUN = 3;
// Folders of their own, so a test run never rebuilds the site an `npm run play` is serving.
const PLAY = join(REPO, 'build', 'web-play-test');

const say = (line) => console.log(`play suite: ${line}`);

/** The sample with one component gone (its class is missing from the scene) and one that throws. */
function breakSample(project) {
  const scripts = join(project, 'assets', 'scripts');
  rmSync(join(scripts, 'TavernGame.ts'));
  rmSync(join(scripts, 'TavernGame.ts.meta'));
  const guard = join(scripts, 'GuardBrain.ts');
  const source = readFileSync(guard, 'utf8');
  const handler = 'onApproachClicked(_event: unknown, customEventData: string): void {';
  if (!source.includes(handler)) throw new Error(`${guard}: cannot find onApproachClicked to break`);
  writeFileSync(guard, source.replace(handler, `${handler}\n    throw new Error('broken on purpose');`));
}

async function main() {
  const started = Date.now();
  let sites;
  try {
    const good = await buildSite({ repo: REPO, siteDir: join(PLAY, 'site'), workDir: join(PLAY, 'work'), say });
    const broken = await buildSite({
      repo: REPO,
      siteDir: join(PLAY, 'broken-site'),
      workDir: join(PLAY, 'broken-work'),
      change: breakSample,
      say: () => undefined,
    });
    sites = { good, broken };
  } catch (error) {
    if (error instanceof EngineNotFoundError) {
      say(`NOT RUN: ${error.message}`);
      return NOT_RUN;
    }
    throw error;
  }
  say(`both sites built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const good = await serveSite({ siteDir: sites.good.siteDir });
  const broken = await serveSite({ siteDir: sites.broken.siteDir });
  // The same site as `npm run play -- --url <server> --model <name>` serves it.
  const modelServer = await startOpenAiStandIn();
  const withServer = await serveSite({
    siteDir: sites.good.siteDir,
    options: { openaiUrl: modelServer.url, model: 'stand-in-model' },
  });
  try {
    const results = join(REPO, 'tests', 'artifacts', 'play-results.json');
    if (existsSync(results)) rmSync(results);
    // jest runs in its own process, asynchronously: this one serves the sites meanwhile.
    const status = await new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        [
          join(REPO, 'node_modules', 'jest', 'bin', 'jest.js'),
          '--config',
          join(REPO, 'tests', 'play', 'jest.config.js'),
          '--ci',
          '--json',
          `--outputFile=${results}`,
          ...process.argv.slice(2),
        ],
        {
          cwd: REPO,
          stdio: 'inherit',
          env: {
            ...process.env,
            OAM_PLAY_URL: good.url,
            OAM_PLAY_BROKEN_URL: broken.url,
            OAM_PLAY_SERVER_URL: withServer.url,
            OAM_ENGINE_ROOT: sites.good.engineRoot,
          },
        },
      );
      child.on('exit', (code) => resolve(code ?? 1));
    });
    if (existsSync(results)) {
      const summary = JSON.parse(readFileSync(results, 'utf8'));
      say(`${summary.numPassedTests} passed, ${summary.numFailedTests} failed (effect compiler and browser)`);
    }
    return status === 0 ? 0 : 1;
  } finally {
    await Promise.all([good.close(), broken.close(), withServer.close(), modelServer.close()]);
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`play suite: ${error && error.message ? error.message : error}`);
    process.exit(1);
  },
);
