#!/usr/bin/env bash
# `npm run bench`: install if needed, build, and run the benchmarks (arguments pass through, e.g. --quick).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || ! cmp -s package-lock.json node_modules/.package-lock.json 2>/dev/null; then
  npm ci --no-audit --no-fund --silent
fi
npm run build --silent
node --import tsx bench/run.ts "$@"
