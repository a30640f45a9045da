import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { trackedCount } from '../../../src/transport/stdio/exit-hook.js';
import { must } from '../../helpers/must.js';
import { alive, childPids } from '../../helpers/proc.js';
import { eventually, once } from '../../helpers/wait.js';
import { fixtureOptions, open, reportedPids, request } from './harness.js';

const linux = process.platform === 'linux';

describe('StdioConnection: shutdown', { skip: !linux && 'needs /proc' }, () => {
  it('close() ends the whole process tree, including a grandchild that called setsid', async () => {
    const { connection, recorder } = await open('grandchildren.mjs');
    const note = await recorder.waitFor((m) => m.method === 'notifications/message');
    const all = [must(connection.pid, 'the server pid'), ...reportedPids(note)];
    for (const pid of all) assert.ok(alive(pid), `pid ${pid} should run before close`);
    const report = await connection.close({ graceMs: 500 });
    const left = all.filter(alive);
    assert.deepEqual(left, [], `want none alive, got ${left.join(',')}`);
    assert.equal(report.process?.activeProcesses, 0);
    assert.equal(report.process?.ended, 'exited', 'the server itself exits when stdin closes');
  });

  it('a server that ignores SIGTERM and stdin EOF is SIGKILLed after the grace periods', async () => {
    const { connection, recorder } = await open('ignore-sigterm.mjs');
    await recorder.waitFor((m) => m.method === 'notifications/message');
    const pid = must(connection.pid, 'the server pid');
    const started = Date.now();
    const report = await connection.close({ graceMs: 300 });
    assert.equal(report.process?.ended, 'sigkill');
    assert.equal(report.process?.signal, 'SIGKILL');
    assert.equal(report.process?.activeProcesses, 0);
    assert.ok(!alive(pid));
    assert.ok(Date.now() - started >= 600, 'it waited both grace periods');
  });

  it('a server that ignores stdin EOF but honours SIGTERM ends by sigterm', async () => {
    const { connection, recorder } = await open('hang.mjs', ['10000', '--stay']);
    await connection.send(request(1, 'initialize'));
    await recorder.waitFor((m) => m.id === 1);
    await connection.send(request(2, 'tools/call', { name: 'echo', arguments: { text: 'x' } }));
    const report = await connection.close({ graceMs: 200 });
    assert.equal(report.process?.ended, 'sigterm');
    assert.equal(report.process?.signal, 'SIGTERM');
    assert.equal(report.process?.activeProcesses, 0);
  });

  it('close() is idempotent and concurrent callers get the same report', async () => {
    const { connection } = await open('echo-server.mjs');
    const [a, b] = await Promise.all([connection.close(), connection.close()]);
    assert.equal(a, b);
    assert.equal(await connection.close(), a);
  });

  it('adds one process exit listener however many connections are open', async () => {
    const before = process.listenerCount('exit');
    const opened = await Promise.all(Array.from({ length: 20 }, () => open('echo-server.mjs')));
    assert.ok(process.listenerCount('exit') - before <= 1);
    assert.equal(trackedCount(), 20);
    await Promise.all(opened.map(({ connection }) => connection.close()));
    assert.ok(process.listenerCount('exit') - before <= 1);
    assert.equal(trackedCount(), 0, 'closed connections are no longer tracked by the exit hook');
  });

  it('kills the server tree when the host process exits without closing', async () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const script = `
      import { StdioConnection } from ${JSON.stringify(path.resolve(here, '../../../src/transport/stdio/index.ts'))};
      const c = new StdioConnection(${JSON.stringify(fixtureOptions('grandchildren.mjs'))});
      await c.start({ message: (m) => { if (m.method) { process.stdout.write(JSON.stringify([c.pid, ...Object.values(m.params.data.pids)]) + '\\n', () => process.exit(0)); } }, closed() {} });
    `;
    const host = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    host.stdout.on('data', (d) => {
      out += d;
    });
    await once(host, 'exit', { timeoutMs: 30_000, what: 'the host process to exit' });
    const pids: number[] = JSON.parse(out.trim());
    assert.equal(pids.length, 5);
    // The exit hook's SIGKILLs land a moment after the host is gone: wait for them, bounded.
    await eventually(() => !pids.some(alive), { timeoutMs: 2000 });
    const left = pids.filter(alive);
    assert.deepEqual(left, [], `want none alive after host exit, got ${left.join(',')}`);
  });
});

/** Live processes of this one that are stdio guards (`autos-mcp-guard` in their command line). */
function guards(): number[] {
  return childPids().filter((pid) => {
    try {
      return alive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('autos-mcp-guard');
    } catch {
      return false;
    }
  });
}

describe('StdioConnection: the guard', { skip: !linux && 'needs /proc' }, () => {
  it('a host killed with SIGKILL runs no exit hook, and its guard still ends the server', async () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    // The server ignores SIGTERM, SIGHUP, the end of stdin and errors on its pipes: only a SIGKILL ends it.
    const script = `
      import { StdioConnection } from ${JSON.stringify(path.resolve(here, '../../../src/transport/stdio/index.ts'))};
      const c = new StdioConnection(${JSON.stringify(fixtureOptions('stubborn.mjs'))});
      await c.start({ message: () => {}, closed() {} });
      process.stdout.write(c.pid + '\\n', () => process.kill(process.pid, 'SIGKILL'));
    `;
    const host = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    host.stdout.on('data', (d) => {
      out += d;
    });
    const [, signal] = await once(host, 'exit', { timeoutMs: 30_000, what: 'the host process to exit' });
    assert.equal(signal, 'SIGKILL');
    const pid = Number(out.trim());
    assert.ok(pid > 0, out);
    const gone = await eventually(() => !alive(pid), { timeoutMs: 3000 });
    if (!gone) process.kill(pid, 'SIGKILL');
    assert.ok(gone, `the server (pid ${pid}) outlived its SIGKILLed host`);
  });

  it('one guard per open server; close ends it, and so does a server that exits by itself', async () => {
    const before = guards().length;
    const { connection } = await open('echo-server.mjs');
    try {
      assert.ok(await eventually(() => guards().length === before + 1, { timeoutMs: 3000 }), 'a guard runs');
    } finally {
      await connection.close();
    }
    assert.ok(
      await eventually(() => guards().length === before, { timeoutMs: 3000 }),
      'close ended the guard',
    );
    const crashing = await open('exit-at-start.mjs');
    try {
      const pid = must(crashing.connection.pid, 'the server pid');
      assert.ok(await eventually(() => !alive(pid), { timeoutMs: 3000 }), 'the server exits by itself');
      assert.ok(
        await eventually(() => guards().length === before, { timeoutMs: 3000 }),
        'the exit ended the guard',
      );
    } finally {
      await crashing.connection.close();
    }
    assert.equal(guards().length, before);
  });
});

describe('StdioConnection: isolate', { skip: !linux && 'Linux only' }, () => {
  it('runs the server in its own PID namespace and still ends every process on close', async (t) => {
    let opened: Awaited<ReturnType<typeof open>>;
    try {
      opened = await open('grandchildren.mjs', [], { isolate: true });
    } catch (error) {
      // A host without user/PID namespaces must say so with a config error, not fail obscurely.
      assert.equal((error as { kind?: string }).kind, 'config');
      t.skip('unshare cannot create a PID namespace here');
      return;
    }
    const { connection, recorder } = opened;
    const note = await recorder.waitFor((m) => m.method === 'notifications/message');
    // Inside the namespace the server is pid 1's child, so the pids it reports are small namespace pids.
    assert.ok(reportedPids(note).every((pid) => pid < 100));
    const unsharePid = must(connection.pid, 'the unshare pid');
    const report = await connection.close({ graceMs: 500 });
    assert.equal(report.process?.activeProcesses, 0);
    assert.ok(!alive(unsharePid));
  });
});
