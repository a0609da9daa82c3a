// The real-engine suite (part of `npm test`): the tavern sample with the extension installed by
// copy is compiled and packed by Creator's own pipeline (scripts/creator/pipeline.mjs), and the
// tests in tests/engine/ run those packed scripts on the Cocos engine v3.8.5 through the engine's
// own jest harness.
//
// The engine tree, first found wins:
//   OAM_COCOS_ENGINE         a prepared engine tree (prepare.sh output: engine source + its node_modules)
//   OAM_COCOS_ENGINE_SOURCE  a folder with prepare.sh (default: ../shared/cocos-engine beside the repo),
//                            prepared once into OAM_ENGINE_CACHE (default ~/.cache/oam-cocos/cocos-engine-3.8.5)
// Without one it prints how to provide one and exits 3: the suite did not run, so it did not pass.
// Usage: node scripts/test-engine.mjs [jest arguments…]
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ENGINE_INDEX_URL,
  FEATURE_UNIT_PREFIX,
  FEATURE_UNITS,
  PREREQUISITE_IMPORTS_URL,
  packProject,
} from './creator/pipeline.mjs';
import { installExtension } from './install-extension.mjs';
import { compressUuid } from '../samples/tavern/tools/uuid.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const NOT_RUN = 3;

function say(line) {
  console.log(`engine suite: ${line}`);
}

function isPrepared(dir) {
  return (
    existsSync(join(dir, 'exports', 'base.ts')) &&
    existsSync(join(dir, 'node_modules', 'jest', 'bin', 'jest.js')) &&
    existsSync(join(dir, 'tests', 'init.ts'))
  );
}

/** The engine tree to test on, prepared when needed; null when there is none. */
function locateEngine() {
  const given = process.env.OAM_COCOS_ENGINE;
  if (given) {
    if (!isPrepared(given))
      throw new Error(
        `OAM_COCOS_ENGINE=${given} is not a prepared engine tree (run prepare.sh on it: it needs exports/, tests/init.ts and node_modules/jest).`,
      );
    return resolve(given);
  }
  const source = process.env.OAM_COCOS_ENGINE_SOURCE || join(REPO, '..', 'shared', 'cocos-engine');
  if (!existsSync(join(source, 'prepare.sh'))) return null;
  const cache = process.env.OAM_ENGINE_CACHE || join(homedir(), '.cache', 'oam-cocos', 'cocos-engine-3.8.5');
  if (!isPrepared(cache) || !existsSync(join(cache, '.prepared')))
    say(`preparing the engine in ${cache} (once, about a minute)`);
  const run = spawnSync('bash', [join(source, 'prepare.sh'), cache], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`prepare.sh failed (exit ${run.status})`);
  return cache;
}

/** Stages the sample with the extension copied in, packs it, and writes the manifest the harness reads. */
async function packSample(workDir) {
  const project = join(workDir, 'tavern');
  mkdirSync(project, { recursive: true });
  for (const entry of ['assets', 'settings', 'package.json'])
    cpSync(join(REPO, 'samples', 'tavern', entry), join(project, entry), { recursive: true });
  const extension = installExtension(project);
  const workspace = join(workDir, 'pack');
  const result = await packProject({
    projectRoot: project,
    workspace,
    mounts: [
      { root: 'db://assets/', physical: join(project, 'assets') },
      { root: 'db://oam-cocos/', physical: join(extension, 'assets') },
    ],
  });
  if (result.errors.length > 0) throw new Error(`Creator's pipeline refused the sample:\n${result.errors.join('\n')}`);
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
  try {
    engine = locateEngine();
  } catch (error) {
    say(error.message);
    return 1;
  }
  if (!engine) {
    say(
      'NOT RUN: no Cocos engine v3.8.5 tree. Set OAM_COCOS_ENGINE to a prepared tree, or OAM_COCOS_ENGINE_SOURCE to a folder with prepare.sh (README.md, "Tests on the real engine").',
    );
    return NOT_RUN;
  }
  const work = mkdtempSync(join(tmpdir(), 'oam-engine-'));
  try {
    const pack = await packSample(work);
    say(`${pack.count} scripts packed by Creator's pipeline; running tests/engine/ on ${engine}`);
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
