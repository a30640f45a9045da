#!/usr/bin/env bash
# `npm run demo`: install if needed, build, and run the CLI's demo against the bundled demo server.
set -euo pipefail
cd "$(dirname "$0")/.."

if node scripts/node-modules-current.mjs; then
  echo "node_modules matches package-lock.json: npm ci skipped" >&2
else
  npm ci --no-audit --no-fund --silent
fi
npm run build --silent
node dist/bin.js demo
