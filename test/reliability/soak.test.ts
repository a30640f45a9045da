/**
 * Soak: many echo calls over one stdio and one HTTP client against bench/server.mjs, each in a child
 * `node --expose-gc` (soak-child.ts) so heapUsed is measured after a real GC. Every call must get its own
 * answer and the heap after the run must stay near the heap after the warm-up. CI sizes by default;
 * `AUTOS_MCP_FULL_RELIABILITY=1` runs 100k stdio / 20k HTTP calls.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ROOT } from '../client/helpers.js';
import { size } from './helpers.js';

const run = promisify(execFile);
const CHILD = path.join(ROOT, 'test/reliability/soak-child.ts');
/** Allowed heap growth between warm-up and end: a leak of even 100 bytes per call over 20k calls crosses it. */
const MAX_GROWTH_BYTES = 2 * 1024 * 1024;

interface SoakReport {
  calls: number;
  callsPerSecond: number;
  heapBefore: number;
  heapAfter: number;
  wrong: number;
  activeProcesses: number;
  gc: boolean;
}

async function soak(transport: 'stdio' | 'http', calls: number): Promise<SoakReport> {
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', CHILD, transport, String(calls), '8'],
    { cwd: ROOT, timeout: 300_000 },
  );
  const report = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as SoakReport;
  process.stdout.write(`# soak ${transport}: ${JSON.stringify(report)}\n`);
  return report;
}

function check(report: SoakReport, calls: number): void {
  assert.equal(report.gc, true, 'the soak child must run with --expose-gc');
  assert.equal(report.calls, calls);
  assert.equal(report.wrong, 0, 'want every call to get its own answer');
  assert.equal(report.activeProcesses, 0);
  const growth = report.heapAfter - report.heapBefore;
  assert.ok(
    growth < MAX_GROWTH_BYTES,
    `want heap growth under ${MAX_GROWTH_BYTES} bytes, got ${growth} (${report.heapBefore} → ${report.heapAfter})`,
  );
}

describe('soak', { concurrency: false }, () => {
  const stdioCalls = size(20_000, 100_000);
  it(`${stdioCalls} calls over stdio: every answer right, heap stable`, { timeout: 300_000 }, async () => {
    check(await soak('stdio', stdioCalls), stdioCalls);
  });

  const httpCalls = size(5_000, 20_000);
  it(`${httpCalls} calls over HTTP: every answer right, heap stable`, { timeout: 300_000 }, async () => {
    check(await soak('http', httpCalls), httpCalls);
  });
});
