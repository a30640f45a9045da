/**
 * 1,000 open/close cycles (AUTOS_MCP_WORKER_CYCLES overrides the count; 4 run at a time) leave no thread,
 * no child process and no file descriptor behind: counted from /proc before and after. They run against the
 * bundle as it ships (worker.js + worker-thread.js, see bundle.ts), which also proves that the built entry
 * finds its thread file; through tsx every thread would cost ~200 ms of transpiling.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { childPids, fdCount } from '../helpers/proc.js';
import { buildWorkerBundle } from './bundle.js';
import { eventually, nodeServer, STATE_SERVER, threadCount } from './helpers.js';

const CYCLES = Number(process.env['AUTOS_MCP_WORKER_CYCLES'] ?? 1000);
const PARALLEL = 4;

test(`${CYCLES} open/close cycles leave no threads, processes or file descriptors behind`, {
  timeout: 15 * 60_000,
}, async () => {
  const { open, close } = await buildWorkerBundle();
  // One cycle first, so that lazily created process-wide things (the router, the exit hook) exist before counting.
  const baseline = threadCount();
  await close(await open(nodeServer(STATE_SERVER)));
  await eventually(() => threadCount() <= baseline);
  const before = { threads: threadCount(), children: childPids().length, fds: fdCount() };
  const started = Date.now();
  let next = 0;
  const chain = async () => {
    while (next < CYCLES) {
      next += 1;
      const id = await open(nodeServer(STATE_SERVER));
      const final = await close(id);
      assert.equal(final.cleanup?.activeProcesses, 0);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, chain));
  const elapsed = Date.now() - started;
  const settled = await eventually(
    () => threadCount() <= before.threads && childPids().length <= before.children && fdCount() <= before.fds,
    10_000,
  );
  const after = { threads: threadCount(), children: childPids().length, fds: fdCount() };
  process.stderr.write(
    `[worker cycles] ${CYCLES} cycles in ${elapsed} ms (${(elapsed / CYCLES).toFixed(1)} ms each, ${PARALLEL} at a time); before ${JSON.stringify(before)} after ${JSON.stringify(after)}\n`,
  );
  assert.ok(settled, `want nothing left: before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`);
});
