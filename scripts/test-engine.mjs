// The real-engine suite (part of `npm test`): the tavern sample with the extension installed by
// copy is compiled and packed by Creator's own pipeline (scripts/creator/pipeline.mjs), and the
// tests in tests/engine/ run those packed scripts on the Cocos engine v3.8.5 through the engine's
// own jest harness.
//
// The engine tree comes from scripts/engine/locate-engine.mjs (docs/engine.md): OAM_COCOS_ENGINE,
// else OAM_COCOS_ENGINE_SOURCE (default ../shared/cocos-engine), else a checkout fetched from GitHub.
// Without one it prints what it tried and exits 3: the suite did not run, so it did not pass.
// Usage: node scripts/test-engine.mjs [jest arguments…]
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINE_INDEX_URL, FEATURE_UNIT_PREFIX, FEATURE_UNITS, PREREQUISITE_IMPORTS_URL } from './creator/pipeline.mjs';
import { packSample } from './creator/pack-sample.mjs';
import { EngineNotFoundError, locateEngine } from './engine/locate-engine.mjs';
import { compressUuid } from '../samples/tavern/tools/uuid.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const NOT_RUN = 3;

function say(line) {
  console.log(`engine suite: ${line}`);
}

/** Packs the sample (creator/pack-sample.mjs) and writes the manifest the harness reads. */
async function packForHarness(workDir) {
  const { project, workspace, result } = await packSample({ repo: REPO, workDir });
  const manifest = {
    workspace,
    repo: REPO,
    project,
    prerequisiteImports: PREREQUISITE_IMPORTS_URL,
    engineIndex: ENGINE_INDEX_URL,
    featureUnitPrefix: FEATURE_UNIT_PREFIX,
    featureUnits: FEATURE_UNITS,
    scripts: result.scripts.map((script) => ({
      url: script.url,
      uuid: script.uuid,
      classId: compressUuid(script.uuid, 5),
      mount: script.mount,
      name: basename(script.path).replace(/\.(ts|js)$/, ''),
      path: script.path,
    })),
  };
  writeFileSync(join(workspace, 'pack.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { workspace, count: result.scripts.length };
}

async function main() {
  let engine;
  let via;
  try {
    ({ root: engine, via } = locateEngine({ say }));
  } catch (error) {
    // No engine: not run (test.sh decides what that means). Any other failure is a failure.
    say(error instanceof EngineNotFoundError ? `NOT RUN. ${error.message} (docs/engine.md)` : error.message);
    return error instanceof EngineNotFoundError ? NOT_RUN : 1;
  }
  const work = mkdtempSync(join(tmpdir(), 'oam-engine-'));
  try {
    const pack = await packForHarness(work);
    say(`${pack.count} scripts packed by Creator's pipeline; running tests/engine/ on ${engine} (${via})`);
    const suiteDir = join(engine, 'tests', 'oam-cocos');
    rmSync(suiteDir, { recursive: true, force: true });
    cpSync(join(REPO, 'tests', 'engine'), suiteDir, {
      recursive: true,
      filter: (source) => !source.endsWith('tsconfig.json'),
    });
    // The cc double, so double-agreement.test.ts can hold it to the engine.
    cpSync(join(REPO, 'tests', 'cocos', 'cc-double.ts'), join(suiteDir, 'double', 'cc-double.ts'));
    const results = join(REPO, 'tests', 'artifacts', 'engine-results.json');
    mkdirSync(dirname(results), { recursive: true });
    const jest = spawnSync(
      process.execPath,
      [
        join(engine, 'node_modules', 'jest', 'bin', 'jest.js'),
        '--config',
        join(suiteDir, 'jest.config.js'),
        '--ci',
        '--json',
        `--outputFile=${results}`,
        ...process.argv.slice(2),
      ],
      {
        cwd: engine,
        stdio: 'inherit',
        env: { ...process.env, OAM_PACK_DIR: pack.workspace },
      },
    );
    if (existsSync(results)) {
      const summary = JSON.parse(readFileSync(results, 'utf8'));
      const broken =
        summary.numFailedTestSuites > 0
          ? `, ${summary.numFailedTestSuites} of ${summary.numTotalTestSuites} files failed`
          : '';
      say(
        `${summary.numPassedTests} passed, ${summary.numFailedTests} failed in ${summary.numTotalTestSuites} files on the real engine${broken}`,
      );
    }
    return jest.status === 0 ? 0 : 1;
  } finally {
    if (!process.env.OAM_KEEP_PACK) rmSync(work, { recursive: true, force: true });
  }
}

process.exit(await main());
