// Runs ccbuild's buildEngine in a process of its own (build-engine.mjs starts it), so the tool's
// chatter (it logs every module it redirects) goes to a log file while the caller keeps its own
// console for progress. Writes cc.js and cc-env.json (the `cc/env` values) into the out folder.
// Usage: node build-engine-worker.mjs '<json: { engineRoot, out, options }>'
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const { engineRoot, out, options } = JSON.parse(process.argv[2]);
const ccbuild = createRequire(join(engineRoot, 'package.json'))('@cocos/ccbuild');
const result = await ccbuild.buildEngine({ engine: engineRoot, out, ...options });
if (result.exports.cc !== 'cc.js') throw new Error(`ccbuild wrote ${JSON.stringify(result.exports)}, not cc.js`);
const stats = await ccbuild.StatsQuery.create(engineRoot);
const { mode, platform, flags } = options;
const env = stats.constantManager.genCCEnvConstants({ mode, platform, flags });
writeFileSync(join(out, 'cc-env.json'), `${JSON.stringify(env, null, 2)}\n`);
