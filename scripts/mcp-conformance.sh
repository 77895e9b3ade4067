#!/usr/bin/env bash
# Runs the client scenarios of the official MCP conformance suite against seek's MCP client.
#
#   scripts/mcp-conformance.sh [scenario ...]     (default: every client scenario the suite lists)
#
# Installs @modelcontextprotocol/conformance (pinned) and Node 22 (the suite needs Node >= 22;
# seek itself stays on the Node that runs this script) from the npm registry into a temp dir,
# then runs each scenario on its own (not the suite's parallel mode: results must not depend on a
# busy machine) with test/conformance/client-adapter.ts as "the client" and
# test/conformance/expected-failures.yml as the baseline of known failures.
# Exit status: 0 when every scenario passes or fails as the baseline expects, 1 otherwise
# (a new failure, or a baseline entry that now passes).
#
# SEEK_CONFORMANCE_DIR=<dir>  install into (and reuse) this dir instead of a temp dir removed at exit.
# Results (checks.json, client stdout/stderr, the suite's log per scenario) go to <dir>/results.
set -euo pipefail

SUITE_VERSION=0.1.16
SUITE_NODE=22
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SEEK_NODE="$(command -v node)"

if [[ -n "${SEEK_CONFORMANCE_DIR:-}" ]]; then
  DIR="$SEEK_CONFORMANCE_DIR"
  mkdir -p "$DIR"
else
  DIR="$(mktemp -d "${TMPDIR:-/tmp}/seek-mcp-conformance.XXXXXX")"
  trap 'rm -rf "$DIR"' EXIT
fi
BIN="$DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
SUITE_NODE_BIN="$DIR/node_modules/node/bin/node"

installed_version() {
  "$SEEK_NODE" -p "require('$DIR/node_modules/@modelcontextprotocol/conformance/package.json').version" 2>/dev/null || true
}
if [[ "$(installed_version)" != "$SUITE_VERSION" || ! -x "$SUITE_NODE_BIN" ]]; then
  echo "installing @modelcontextprotocol/conformance@$SUITE_VERSION and node@$SUITE_NODE into $DIR" >&2
  [[ -f "$DIR/package.json" ]] || echo '{ "private": true }' >"$DIR/package.json"
  (cd "$DIR" && npm install --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/conformance@$SUITE_VERSION" "node@$SUITE_NODE" >&2)
fi
case "$("$SUITE_NODE_BIN" --version)" in
  "v$SUITE_NODE".*) ;;
  *) echo "node@$SUITE_NODE did not install a working node binary at $SUITE_NODE_BIN" >&2; exit 1 ;;
esac

# The suite splits this on spaces and appends the server URL; seek's code runs on seek's Node.
if [[ "$ROOT$SEEK_NODE" == *" "* ]]; then echo "the suite cannot run a client from a path with spaces: $ROOT" >&2; exit 1; fi
CLIENT="$SEEK_NODE --import $ROOT/node_modules/tsx/dist/esm/index.mjs $ROOT/test/conformance/client-adapter.ts"
BASELINE="$ROOT/test/conformance/expected-failures.yml"
RESULTS="$DIR/results"
mkdir -p "$RESULTS"

if [[ $# -gt 0 ]]; then
  SCENARIOS=("$@")
else
  mapfile -t SCENARIOS < <("$SUITE_NODE_BIN" "$BIN" list --client | sed -n 's/^ *- \([^ ]*\).*/\1/p')
fi

unexpected=0
for scenario in "${SCENARIOS[@]}"; do
  log="$RESULTS/${scenario//\//_}.log"
  started=$(date +%s%N)
  if "$SUITE_NODE_BIN" "$BIN" client --command "$CLIENT" --scenario "$scenario" \
      --expected-failures "$BASELINE" -o "$RESULTS" >"$log" 2>&1; then status=0; else status=$?; fi
  ms=$(( ($(date +%s%N) - started) / 1000000 ))
  summary="$(grep -m1 '^Passed:' "$log" || echo 'no checks')"
  if grep -q 'OVERALL: PASSED' "$log"; then verdict=PASS; else verdict=FAIL; fi
  if [[ $status -eq 0 ]]; then
    [[ $verdict == FAIL ]] && verdict="FAIL (expected, in baseline)"
  else
    unexpected=1
    [[ $verdict == PASS ]] && verdict="PASS (stale baseline entry)" || verdict="FAIL (unexpected)"
  fi
  printf '%-45s %-30s %s  %d ms\n' "$scenario" "$verdict" "$summary" "$ms"
done
echo "logs and checks.json per scenario: $RESULTS$([[ -z "${SEEK_CONFORMANCE_DIR:-}" ]] && echo ' (removed at exit; set SEEK_CONFORMANCE_DIR to keep)')"
exit $unexpected
