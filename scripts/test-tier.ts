/**
 * Runs a test tier of test/tiers.ts: `node --import tsx scripts/test-tier.ts quick|full [node --test flags]`.
 * `npm run test:unit` is the quick tier; scripts/test-all.sh runs the full one.
 *
 * The quick tier first bundles dist/*.js afresh (esbuild, about a second; the CLI tests run dist/bin.js, and
 * a bundle left from before an edit would test old code); declarations are `npm run build`'s. It runs its
 * files 4 at a time (Node 20's default is one less than the cores, so one at a time on 2 cores, while most
 * files wait on child processes and sockets, not on CPU) with QUICK_ENV's smaller stress counts. The full
 * tier keeps the runner's defaults.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { QUICK_ENV, ROOT, tierFiles } from '../test/tiers.js';

const QUICK_CONCURRENCY = 4;

const [tier, ...flags] = process.argv.slice(2);
if (tier !== 'quick' && tier !== 'full') {
  process.stderr.write('usage: node --import tsx scripts/test-tier.ts quick|full [node --test flags]\n');
  process.exit(2);
}

const defaults: string[] = [];
if (!flags.some((flag) => flag.startsWith('--test-reporter'))) defaults.push('--test-reporter=spec');
if (tier === 'quick') {
  // Chunk names carry a hash: old ones would pile up beside the new.
  rmSync(path.join(ROOT, 'dist/chunks'), { recursive: true, force: true });
  execFileSync(process.execPath, ['scripts/bundle.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (!flags.some((flag) => flag.startsWith('--test-concurrency')))
    defaults.push(`--test-concurrency=${QUICK_CONCURRENCY}`);
}

const run = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', ...defaults, ...flags, ...tierFiles(tier)],
  // A variable already set wins: `AUTOS_MCP_WORKER_CYCLES=1000 npm run test:unit`.
  { cwd: ROOT, stdio: 'inherit', env: tier === 'quick' ? { ...QUICK_ENV, ...process.env } : process.env },
);
process.exit(run.status ?? 1);
