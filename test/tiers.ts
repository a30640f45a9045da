/**
 * The two test tiers. `npm run test:unit` runs the quick tier: what a developer runs after every change
 * (the aim is under a minute on 2 cores; docs/testing.md has where it stands), with no apt package (no browser, keyring or PostgreSQL), no package build or
 * pack, and no peer beyond loopback fixtures and the MCP servers in node_modules. `npm test`
 * (scripts/test-all.sh, what CI runs) runs every file, both tiers, with the stress tests at full count.
 *
 * The rule: every `*.test.ts` under test/ is in the quick tier unless FULL_ONLY names it with its reason.
 * test/tiers.test.ts checks the rule (a listed file exists; a quick file reaches none of the helpers that
 * need an apt package, and builds or packs nothing), so no file is in no tier and none drifts unseen.
 * scripts/test-tier.ts runs a tier.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Why a file runs in the full tier only. */
export type FullOnly =
  | 'browser' // chromium (apt): test/helpers/browser.ts
  | 'keyring' // gnome-keyring and D-Bus (apt): test/helpers/keyring-session.ts
  | 'postgres' // PostgreSQL server binaries (apt): test/helpers/postgres.ts
  | 'package' // builds or packs the package, and installs it into consumer projects
  | 'slow'; // a stress, timing-bound or whole-program check heavier than the loop after every change affords

/** Test files (paths from the repository root) that only `npm test` runs, each with its reason. */
export const FULL_ONLY: Readonly<Record<string, FullOnly>> = {
  'test/cli/auth.test.ts': 'browser',
  'test/oauth/fixtures.test.ts': 'browser',
  'test/oauth/forgotten-registration.test.ts': 'browser',
  'test/oauth/oidc.test.ts': 'browser',
  'test/oauth/secrets.test.ts': 'browser',
  'test/oauth/keyring-store.test.ts': 'keyring',
  'test/settings/settings.test.ts': 'keyring',
  'test/store/keyring.test.ts': 'keyring',
  'test/client/old-servers.test.ts': 'postgres',
  'test/cli/conventions.test.ts': 'package',
  'test/codegen/hostile.test.ts': 'package',
  'test/codegen/servers.test.ts': 'package',
  'test/codegen/tree.test.ts': 'package',
  'test/code/packed.test.ts': 'package',
  'test/docs/examples.test.ts': 'package',
  'test/package/package.test.ts': 'package',
  // Measured one file at a time (2 cores, shared): 8-15 s of CPU each, a stress count or a timing bound.
  'test/bench/context.test.ts': 'slow', // the context task over three real servers, both ways (~10 s)
  'test/internal/redact-linear.test.ts': 'slow', // 1 MB inputs per rule, CPU-time bounds
  'test/reliability/hostile-server.test.ts': 'slow', // floods of 100,000 notifications
  'test/reliability/lifecycle.test.ts': 'slow', // SIGKILL mid-call, connect/close cycles
  'test/reliability/soak.test.ts': 'slow', // 25,000 calls and a heap measure
  'test/types/types.test.ts': 'slow', // two whole-program tsc runs (`npm run typecheck` checks the cases compile)
};

/**
 * The environment of the quick tier: the stress tests at a smaller count (`npm test` runs them at full).
 * Each variable is read by the test it names.
 */
export const QUICK_ENV: Readonly<Record<string, string>> = {
  // test/worker/cycles.test.ts: 1,000 open/close cycles in full.
  AUTOS_MCP_WORKER_CYCLES: '40',
};

/** Every `*.test.ts` under test/, as paths from the repository root, sorted. */
export function testFiles(): string[] {
  return readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts') && !file.split(path.sep).includes('node_modules'))
    .map((file) => path.posix.join('test', ...file.split(path.sep)))
    .sort();
}

/** The files of a tier: `quick` (what `npm run test:unit` runs) or `full` (every file). */
export function tierFiles(tier: 'quick' | 'full'): string[] {
  const all = testFiles();
  return tier === 'full' ? all : all.filter((file) => FULL_ONLY[file] === undefined);
}
