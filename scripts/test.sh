#!/usr/bin/env bash
# The whole test command (`npm test`): type checks, the runtime bundle, Creator's own script
# pipeline on the extension and the sample, the Kotlin module's JVM tests, the components on the
# real Cocos engine, then jest. Stops at the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

# Runs a stage that needs the Cocos engine tree: its exit status 3 means "no engine here", which
# fails the run unless OAM_SKIP_ENGINE=1, and then says plainly what the run does not show.
needs_engine() {
  local skipped="$1"
  shift
  local status=0
  "$@" || status=$?
  if [ "$status" -eq 3 ] && [ "${OAM_SKIP_ENGINE:-}" = "1" ]; then
    echo "$skipped"
  elif [ "$status" -ne 0 ]; then
    exit "$status"
  fi
}

step "formatter and linter (prettier, eslint with typescript-eslint)"
npx prettier --check src assets extension preview tests bench demo scripts eval
npx eslint src assets extension preview tests bench demo scripts eval

step "no import cycles between source folders, every layer imports only what it may"
node scripts/check-layers.mjs >/dev/null

step "type-check src/ with only the globals Cocos's native runtime has"
npx tsc -p tsconfig.src.json

step "type-check tests, bench, demo"
npx tsc -p tsconfig.json

if [ -f scripts/build-runtime.mjs ]; then
  step "build the runtime bundle and the editor extension"
  npm run --silent build
fi

if [ -f tsconfig.assets.json ]; then
  step "type-check assets/ against @cocos/creator-types, and what Creator's pipeline cannot tell"
  npx tsc -p tsconfig.assets.json
  node scripts/creator/limits.mjs assets
fi

if [ -f samples/tavern/tsconfig.json ]; then
  step "type-check the tavern sample"
  npx tsc -p samples/tavern/tsconfig.json
  node scripts/creator/limits.mjs samples/tavern/assets
fi

step "compile and pack the extension and the sample with Creator's own pipeline (ModLo + QuickPack)"
node scripts/creator/check.mjs

step "the components and the sample on the real Cocos engine v3.8.5"
npx tsc -p tests/engine/tsconfig.json
needs_engine "engine suite: skipped (OAM_SKIP_ENGINE=1); this run says nothing about the real engine" \
  node scripts/test-engine.mjs --silent

step "the web build: the engine's effects compiled and checked by glslangValidator, the tavern in Chromium (real mouse and keyboard)"
needs_engine "play suite: skipped (OAM_SKIP_ENGINE=1); this run says nothing about the web build" \
  node scripts/web/test-play.mjs --silent

if [ -f native-android/test.sh ]; then
  step "compile the Kotlin module against the real Cocos Java classes and run its JVM tests"
  needs_engine "kotlin: skipped (OAM_SKIP_ENGINE=1, no Cocos engine tree); this run says nothing about the Kotlin module" \
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
