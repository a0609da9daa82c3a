#!/usr/bin/env bash
# The whole test command (`npm test`): type checks, the runtime bundle, the Kotlin module's
# JVM tests, then jest. Stops at the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "type-check src/ with only the globals Cocos's native runtime has"
npx tsc -p tsconfig.src.json

step "type-check tests, bench, demo"
npx tsc -p tsconfig.json

if [ -f scripts/build-runtime.mjs ]; then
  step "build the runtime bundle and the editor extension"
  npm run --silent build
fi

if [ -f tsconfig.assets.json ]; then
  step "type-check assets/ against @cocos/creator-types and Creator's Babel limits"
  npx tsc -p tsconfig.assets.json
  node scripts/check-babel-limits.mjs assets
fi

if [ -f samples/tavern/tsconfig.json ]; then
  step "type-check the tavern sample"
  npx tsc -p samples/tavern/tsconfig.json
  node scripts/check-babel-limits.mjs samples/tavern/assets
fi

if [ -f native-android/test.sh ]; then
  step "compile the Kotlin module and run its JVM tests"
  bash native-android/test.sh
fi

step "jest"
mkdir -p tests/artifacts
set +e
npx jest --ci --json --outputFile=tests/artifacts/jest-results.json "$@"
status=$?
set -e
node -e '
  const r = require("./tests/artifacts/jest-results.json");
  console.log(`jest: ${r.numPassedTests} passed, ${r.numFailedTests} failed` + (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));
' || true
exit $status
