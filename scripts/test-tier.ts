/**
 * Runs a test tier of test/tiers.ts: `node --import tsx scripts/test-tier.ts quick|full [node --test flags]`.
 * `npm run test:unit` is the quick tier; scripts/test-all.sh runs the full one.
 *
 * Tests that run the CLI binary get it from test/helpers/built-package.ts (built from the current sources,
 * once per run), never from the repository's dist/. The quick tier runs its
 * files 4 at a time (Node 20's default is one less than the cores, so one at a time on 2 cores, while most
 * files wait on child processes and sockets, not on CPU) with QUICK_ENV's smaller stress counts. The full
 * tier keeps the runner's defaults.
 */
import { spawnSync } from 'node:child_process';
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
