#!/usr/bin/env bash
# The newcomer test: clone the repository into a temporary folder and run exactly the two
# commands of the README's quick start, then check that the demo printed Mira's lines and the
# tool calls, and that the tests passed. Run by .ci/run after the main test command.
set -euo pipefail
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/oam-cocos"
cd "$work/oam-cocos"

# The commands as the README gives them: the first ```bash block under "## Quick start".
mapfile -t commands < <(awk '/^## Quick start/{q=1} q&&/^```bash/{b=1;next} b&&/^```/{exit} b' README.md | sed 's/[[:space:]]*#.*$//' | grep -v '^[[:space:]]*$')
if [ "${#commands[@]}" -ne 2 ]; then
  echo "newcomer: expected two quick-start commands in README.md, found ${#commands[@]}" >&2
  exit 1
fi

passed=0
failed=0
check() { # description, command…
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "newcomer: ok - $what"; else failed=$((failed + 1)); echo "newcomer: FAILED - $what"; fi
}

echo "newcomer: \$ ${commands[0]}"
set +e
bash -c "${commands[0]}" > demo.log 2>&1
demo_status=$?
echo "newcomer: \$ ${commands[1]}"
OAM_NEWCOMER=1 bash -c "${commands[1]}" > test.log 2>&1
test_status=$?
set -e

check "the demo command exits 0" test "$demo_status" -eq 0
check "the demo prints Mira's lines" grep -q "^Mira: Two ales, coming right up" demo.log
check "the demo prints the take_order tool call" grep -q "tool: take_order" demo.log
check "the demo prints the world change" grep -q "world: player.gold 20 → 14" demo.log
check "the demo prints calls and time per turn" grep -q "est. phone time" demo.log
check "the test command exits 0" test "$test_status" -eq 0
check "jest ran and nothing failed" grep -Eq "^jest: [1-9][0-9]* passed, 0 failed" test.log
if [ "$failed" -ne 0 ]; then
  echo "--- demo.log (tail)"; tail -n 40 demo.log
  echo "--- test.log (tail)"; tail -n 60 test.log
fi
echo "newcomer: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
