#!/usr/bin/env bash
# `npm run bench`: install if needed, build, and run the benchmarks (arguments pass through, e.g. --quick).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! node scripts/node-modules-current.mjs; then
  npm ci --no-audit --no-fund --silent
fi
npm run build --silent
node --import tsx bench/run.ts "$@"
