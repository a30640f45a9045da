#!/usr/bin/env bash
# The whole test run, from a fresh clone on a fresh Debian machine: install, build, lint, type-check, every
# test on this machine's Node (both tiers of test/tiers.ts, stress tests at full count), the real-peer tests
# again on Node 22 and 24, the runtime suite, then the conformance suite. The package is built and packed
# once, up front, for every test that installs or links it. `npm test` runs this; .ci/run runs `npm test`.
# The quick tier alone is `npm run test:unit`.
set -euo pipefail
cd "$(dirname "$0")/.."
# npm's own notices (a newer npm, funding, audit) off for every npm and npx this starts, and for the tests
# they run: test/helpers/npm.ts holds the same settings; test/scripts/npm-notices.test.ts checks both.
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

step() { printf '\n=== %s\n' "$*"; }
summary=$(mktemp)
package_stage=$(mktemp -d)
trap 'rm -f "$summary"; rm -rf "$package_stage"' EXIT

step "install (npm ci)"
if [ -n "${CI:-}" ] || ! node scripts/node-modules-current.mjs; then
  npm ci --no-audit --no-fund
fi

step "PostgreSQL server binaries (test/helpers/postgres.ts starts its own throwaway cluster)"
# Debian's postgresql package, only when no /usr/lib/postgresql/<major>/bin/initdb exists yet. The system's
# own cluster is neither created nor started: a createcluster.d drop-in turns off the "main" cluster, and a
# policy-rc.d (put in place only for this install, when none exists) stops the service from starting.
if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  echo "found $(compgen -G '/usr/lib/postgresql/*/bin/initdb' | sort -V | tail -n 1)"
else
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  "${as_root[@]}" mkdir -p /etc/postgresql-common/createcluster.d
  echo 'create_main_cluster = off' | "${as_root[@]}" tee /etc/postgresql-common/createcluster.d/autos-mcp-no-main.conf >/dev/null
  policy_added=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | "${as_root[@]}" tee /usr/sbin/policy-rc.d >/dev/null
    "${as_root[@]}" chmod 755 /usr/sbin/policy-rc.d
    policy_added=1
  fi
  pg_install() {
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql
  }
  # Package lists are fetched first when apt knows no postgresql (fresh image), and again if the install
  # fails on stale lists.
  if ! apt-cache show postgresql >/dev/null 2>&1; then "${as_root[@]}" apt-get update; fi
  pg_install || { "${as_root[@]}" apt-get update && pg_install; } || pg_failed=1
  if [ -n "$policy_added" ]; then "${as_root[@]}" rm -f /usr/sbin/policy-rc.d; fi
  if [ -n "${pg_failed:-}" ]; then echo "could not install postgresql" >&2; exit 1; fi
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || { echo "postgresql installed, but no /usr/lib/postgresql/*/bin/initdb" >&2; exit 1; }
fi

step "Chromium (test/helpers/browser.ts drives /usr/bin/chromium through the OAuth sign-in pages)"
# Debian's chromium package, only when /usr/bin/chromium does not exist yet. Package lists are fetched first
# when apt knows no chromium (fresh image), and again if the install fails on stale lists.
if [ -x /usr/bin/chromium ]; then
  echo "found /usr/bin/chromium"
else
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  chromium_install() {
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
  }
  if ! apt-cache show chromium >/dev/null 2>&1; then "${as_root[@]}" apt-get update; fi
  chromium_install || { "${as_root[@]}" apt-get update && chromium_install; } || { echo "could not install chromium" >&2; exit 1; }
  [ -x /usr/bin/chromium ] || { echo "chromium installed, but no /usr/bin/chromium" >&2; exit 1; }
fi

step "Secret Service (test/helpers/keyring-session.ts runs gnome-keyring in a private D-Bus session)"
# Debian's gnome-keyring, dbus and libsecret-tools (secret-tool) packages, only when gnome-keyring-daemon or
# dbus-run-session is not on PATH yet. Package lists are fetched first when apt does not know all three (fresh
# image), and again if the install fails on stale lists. No daemon is started here: each test starts its own.
if command -v gnome-keyring-daemon >/dev/null && command -v dbus-run-session >/dev/null && command -v secret-tool >/dev/null; then
  echo "found $(command -v gnome-keyring-daemon) and $(command -v dbus-run-session)"
else
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  keyring_packages=(gnome-keyring dbus libsecret-tools)
  keyring_install() {
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${keyring_packages[@]}"
  }
  if ! apt-cache show "${keyring_packages[@]}" >/dev/null 2>&1; then "${as_root[@]}" apt-get update; fi
  keyring_install || { "${as_root[@]}" apt-get update && keyring_install; } || { echo "could not install ${keyring_packages[*]}" >&2; exit 1; }
  command -v gnome-keyring-daemon >/dev/null && command -v dbus-run-session >/dev/null && command -v secret-tool >/dev/null ||
    { echo "${keyring_packages[*]} installed, but gnome-keyring-daemon or dbus-run-session is not on PATH" >&2; exit 1; }
fi

step "build"
npm run build --silent

step "package build and pack, once for the run (test/helpers/package-build.ts)"
# From a private copy of the sources; every test that installs or links the package reads these two paths
# (AUTOS_MCP_TEST_BUILD, AUTOS_MCP_TEST_TARBALL) instead of building and packing its own.
package_env=$(node --import tsx test/helpers/package-build.ts "$package_stage")
while IFS='=' read -r name value; do export "${name}=${value}"; done <<<"$package_env"
echo "$package_env"

step "lint and format check (biome)"
npx biome check .

step "type-check (src, tests, bench, examples)"
npx tsc -p tsconfig.json --noEmit

step "dead code and packaging (knip, publint, attw)"
# knip: unused files, exports and dependencies (knip.json). Each tool exits non-zero on a finding.
npx knip
npx publint --strict
# The package is ESM-only ("type": "module", ESM files only, no `require` condition), so attw's
# esm-only profile skips two resolutions that cannot apply: node10 (predates `exports`; engines is
# >=20.18) and node16-from-CJS (a require() of ESM, which CJS callers replace with `await import()`).
# Every ESM and bundler resolution is still checked.
npx attw "$AUTOS_MCP_TEST_TARBALL" --profile esm-only

step "tests on $(node --version): every file of test/tiers.ts (quick and full tiers)"
node --import tsx scripts/test-tier.ts full --test-reporter=spec | tee -a "$summary"

real_peer=(test/client/real-servers-stdio.test.ts test/client/http-client.test.ts test/client/http-behaviour.test.ts test/docs/examples.test.ts)
for v in 22 24; do
  step "real-peer tests on Node ${v}"
  npx -y -p "node@${v}" node --import tsx --test --test-reporter=spec "${real_peer[@]}" | tee -a "$summary"
done

step "runtime suite: the packed package under Node, Bun and Deno (npm packages, pinned in test/runtimes/binaries.ts)"
# Fetched with npx into npm's cache on first use; a runtime that cannot be fetched fails the run.
node --import tsx --test --test-reporter=spec test/runtimes/suite.ts | tee -a "$summary"

step "conformance suite (@modelcontextprotocol/conformance, both revisions)"
bash scripts/conformance.sh

step "all test stages passed"
# One closing line over every runner above (node's runner prints one per stage).
passed=$(awk '/^ℹ pass /{n+=$3} END{print n+0}' "$summary")
failed=$(awk '/^ℹ fail /{n+=$3} END{print n+0}' "$summary")
echo "tests: ${passed} passed, ${failed} failed"
