/**
 * No orphans and honest cleanup: a close that cannot finish in its budget fails, keeps the id, and can be
 * retried until `activeProcesses` is 0; a worker thread that dies takes its server with it; a host process
 * that exits (process.exit, an uncaught exception, the end of its work, a worker opened from another thread)
 * leaves no server behind. The server used ignores SIGTERM and the end of stdin: only SIGKILL ends it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isMcpError } from '../../src/errors/index.js';
import { callTool, close, open, status } from '../../src/worker/index.js';
import { ownedWorker } from '../../src/worker/registry.js';
import { must } from '../helpers/must.js';
import { alive } from '../helpers/proc.js';
import { eventually, IGNORE_SIGTERM, nodeServer, runningRequest, STATE_SERVER } from './helpers.js';

const HOST = fileURLToPath(new URL('./fixtures/exit-host.ts', import.meta.url));

describe('cleanup', () => {
  test('a close that outlasts its budget fails, keeps the id, and a retry finishes it with activeProcesses 0', async () => {
    // The stdio close sequence waits graceMs after closing stdin and again after SIGTERM: ~600 ms here.
    const id = await open(nodeServer(IGNORE_SIGTERM, { graceMs: 300 }));
    const pid = must((await status(id)).pid, 'the server pid');
    await assert.rejects(close(id, { timeoutMs: 100 }), (e) => {
      assert.ok(isMcpError(e));
      assert.equal(e.kind, 'timeout');
      assert.match(e.message, /call close again/);
      return true;
    });
    // Still owned and valid: status answers, calls are refused, the server is still being ended.
    const during = await status(id);
    assert.equal(during.closing, true);
    assert.ok(alive(pid), 'the server is still in its grace period');
    await assert.rejects(callTool(id, 'echo', { text: 'x' }), (e) => isMcpError(e) && e.kind === 'closed');
    const final = await close(id);
    assert.equal(final.state, 'closed');
    assert.equal(final.cleanup?.activeProcesses, 0);
    assert.equal(final.cleanup?.ended, 'sigkill');
    assert.ok(!alive(pid));
  });

  test('a worker thread that dies takes its server with it; the id is gone', async () => {
    const id = await open(nodeServer(IGNORE_SIGTERM));
    const pid = must((await status(id)).pid, 'the server pid');
    await must(ownedWorker(id), 'the owned worker').terminate();
    assert.ok(await eventually(() => !alive(pid), 3000), 'the server must not outlive its thread');
    await assert.rejects(status(id), (e) => isMcpError(e) && e.kind === 'closed');
  });

  test('a call in flight when the thread dies fails with closed / unknown', async () => {
    const id = await open(nodeServer(STATE_SERVER));
    const pending = callTool(id, 'slow', { delayMs: 5000 }, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    await runningRequest(id);
    await must(ownedWorker(id), 'the owned worker').terminate();
    const error = await pending;
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'closed');
    assert.equal(error.delivery, 'unknown');
  });

  for (const how of ['exit', 'throw', 'natural', 'nested']) {
    test(`no server outlives its host process (${how})`, async () => {
      const run = spawnSync(process.execPath, ['--import', 'tsx', HOST, how], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      const pid = Number(/pid (\d+)/.exec(run.stdout)?.[1]);
      assert.ok(pid > 0, `the host printed the server pid: ${run.stdout} ${run.stderr.slice(0, 500)}`);
      // The host killed it on its way out; an orphaned zombie may take a moment to be reaped by init.
      const left = !(await eventually(() => !alive(pid), 2000));
      if (left) process.kill(pid, 'SIGKILL');
      assert.equal(left, false, `the server (pid ${pid}) outlived the host (${how})`);
    });
  }
});
