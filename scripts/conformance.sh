#!/usr/bin/env bash
# Runs the official MCP conformance suite, client side, at both revisions against the expected-failure
# baseline test/conformance/baseline.yml, and prints a summary (scripts/conformance-summary.ts).
# Fails on any scenario failing outside the baseline, on a baseline entry that now passes, and on a client
# that does not exit 0 where success is expected. Results go to results/conformance/ (gitignored).
# The runner needs Node >= 22; `npx -p node@22` puts it on the PATH of the runner and of the client it spawns.
set -euo pipefail

cd "$(dirname "$0")/.."
# npm's own notices (a newer npm, funding, audit) off for every npm and npx this starts, and for the tests
# they run: test/helpers/npm.ts holds the same settings; test/scripts/npm-notices.test.ts checks both.
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
RUNNER_PACKAGE="@modelcontextprotocol/conformance@0.2.0-alpha.12"
REVISIONS=(2025-11-25 2026-07-28)
OUT=results/conformance
BASELINE=test/conformance/baseline.yml
# The runner runs every scenario of a revision in parallel; on a small machine 40 Node clients starting at
# once can take far longer than the default 30 s. A hung client still fails: it prints no exit line.
TIMEOUT_MS="${CONFORMANCE_TIMEOUT_MS:-90000}"

conformance() {
  npx -y -p node@22 -p "$RUNNER_PACKAGE" conformance "$@"
}

started=$SECONDS
rm -rf "$OUT"
mkdir -p "$OUT"

# Which client scenarios each revision scores, fetched while the driver compiles (one npx at a time: a
# cold npx cache must not be filled by two installs at once).
(
  for revision in "${REVISIONS[@]}"; do
    conformance list --requirements "$revision" >"$OUT/$revision.list" 2>"$OUT/$revision.list.err"
  done
) &
lists=$!
# Compile the driver and the src/ it imports: the runner then starts plain Node (no tsx per client) on the
# current sources, never a stale dist/.
node_modules/.bin/tsc -p test/conformance/tsconfig.json
wait "$lists" || { cat "$OUT"/*.list.err >&2; exit 1; }
CLIENT="node $OUT/build/test/conformance/client.js"

status=0
for revision in "${REVISIONS[@]}"; do
  echo "conformance $revision: running (log: $OUT/$revision.log)"
  # json-schema-2020-12-preservation runs here too (not scored: added-after-release); the summary gates it.
  if ! conformance client --command "$CLIENT" --requirements "$revision" \
    --expected-failures "$BASELINE" --timeout "$TIMEOUT_MS" -o "$OUT/$revision" >"$OUT/$revision.log" 2>&1; then
    echo "conformance $revision: the runner's own baseline check failed:"
    sed 's/\x1b\[[0-9;]*m//g' "$OUT/$revision.log" | sed -n '/^Stale baseline entries/,/^$/p;/^Unexpected failures/,/^$/p'
    status=1
  fi
done

# Extension scenarios no requirement list names (SEP-2640 skills), run one by one; each fails the run on a
# failing check (the runner exits 1).
for scenario in sep-2640-client-no-prefetch sep-2640-client-verify-digest sep-2640-client-verify-size \
  sep-2640-client-verify-frontmatter; do
  if ! conformance client --command "$CLIENT" --scenario "$scenario" --timeout "$TIMEOUT_MS" \
    -o "$OUT/extensions" >"$OUT/$scenario.log" 2>&1; then
    echo "conformance $scenario: failed (log: $OUT/$scenario.log)"
    status=1
  fi
done

node --import tsx scripts/conformance-summary.ts "$OUT" "$BASELINE" "${REVISIONS[@]}" || status=1
echo "conformance: finished in $((SECONDS - started)) s"
exit "$status"
