/**
 * `destroy()` on stdio, the immediate end of the connection contract: the whole process tree is SIGKILLed
 * at once (no stdin close, no grace), a running close is cut short, and a connection destroyed before it
 * started never spawns. Also the process-group functions for a caller that holds only the pid (the worker).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { StdioConnection } from '../../../src/transport/stdio/index.js';
import {
  countProcessGroup,
  endProcessGroup,
  killProcessGroup,
} from '../../../src/transport/stdio/process-group.js';
import { must } from '../../helpers/must.js';
import { alive } from '../../helpers/proc.js';
import { eventually } from '../../helpers/wait.js';
import { FIXTURES, fixtureOptions, open, reportedPids } from './harness.js';

const linux = process.platform === 'linux';

describe('StdioConnection: destroy()', { skip: !linux && 'needs /proc' }, () => {
  it('destroy() SIGKILLs the whole tree at once, a grandchild that called setsid included', async () => {
    const { connection, recorder } = await open('grandchildren.mjs', [], { graceMs: 10_000 });
    const note = await recorder.waitFor((m) => m.method === 'notifications/message');
    const all = [must(connection.pid, 'the server pid'), ...reportedPids(note)];
    connection.destroy();
    // The signals went out before destroy() returned: no grace period is waited for.
    const report = await connection.close();
    const left = all.filter(alive);
    assert.deepEqual(left, [], `want none alive, got ${left.join(',')}`);
    assert.equal(report.process?.ended, 'sigkill');
    assert.equal(report.process?.activeProcesses, 0);
    assert.equal(recorder.closedCount, 0, 'no closed event after destroy()');
    await assert.rejects(connection.send({ jsonrpc: '2.0', method: 'ping' }), { delivery: 'not_sent' });
    connection.destroy(); // idempotent
  });

  it('destroy() cuts short a close() waiting out its grace periods', async () => {
    const { connection, recorder } = await open('ignore-sigterm.mjs', [], { graceMs: 10_000 });
    await recorder.waitFor((m) => m.method === 'notifications/message');
    const pid = must(connection.pid, 'the server pid');
    const closing = connection.close();
    assert.ok(alive(pid), 'the close waits: the server ignores the end of stdin');
    connection.destroy();
    const report = await closing;
    assert.equal(report.process?.ended, 'sigkill');
    assert.equal(report.process?.activeProcesses, 0);
    assert.ok(!alive(pid));
  });

  it('a connection destroyed before start() never spawns', async () => {
    const connection = new StdioConnection(fixtureOptions('echo-server.mjs'));
    connection.destroy();
    await assert.rejects(
      connection.start({ message() {}, closed() {} }),
      (e: unknown) => (e as { kind?: unknown }).kind === 'closed',
    );
    assert.equal(connection.pid, undefined);
    assert.equal((await connection.close()).process?.ended, 'not_started');
  });
});

describe('a process group by its pid', { skip: !linux && 'needs /proc' }, () => {
  it('killProcessGroup ends the group; endProcessGroup verifies it is gone', async () => {
    const child = spawn(process.execPath, [`${FIXTURES}/ignore-sigterm.mjs`], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const pid = must(child.pid, 'the pid');
    assert.ok(await eventually(() => countProcessGroup(pid) === 1), 'the group has its leader');
    killProcessGroup(pid);
    assert.equal(await endProcessGroup(pid, 2000), 0);
    assert.equal(countProcessGroup(pid), 0);
  });
});
