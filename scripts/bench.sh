#!/usr/bin/env bash
# `npm run bench`: install if needed, build, and run the benchmarks (arguments pass through, e.g. --quick).
set -euo pipefail
cd "$(dirname "$0")/.."
# npm's own notices (a newer npm, funding, audit) off for every npm and npx this starts, and for the tests
# they run: test/helpers/npm.ts holds the same settings; test/scripts/npm-notices.test.ts checks both.
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
if ! node scripts/node-modules-current.mjs; then
  npm ci --no-audit --no-fund --silent
fi
npm run build --silent
node --import tsx bench/run.ts "$@"
