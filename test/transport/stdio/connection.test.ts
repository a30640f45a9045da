import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isErrorKind } from '../../../src/errors/index.js';
import { StdioConnection } from '../../../src/transport/stdio/index.js';
import { must } from '../../helpers/must.js';
import { firstText, fixtureOptions, isReceived, open, Recorder, request } from './harness.js';

describe('StdioConnection: messages', () => {
  it('exchanges line-delimited JSON with a real server', async () => {
    const { connection, recorder } = await open('echo-server.mjs');
    assert.equal(connection.kind, 'stdio');
    assert.equal(connection.target, `${path.basename(process.execPath)} echo-server.mjs`);
    assert.ok(must(connection.pid, 'the server pid') > 0);
    await connection.send(request(1, 'initialize'));
    await connection.send(request(2, 'tools/call', { name: 'echo', arguments: { text: 'héllo\nworld' } }));
    const answer = await recorder.waitFor((m) => m.id === 2);
    assert.deepEqual(answer.result, { content: [{ type: 'text', text: 'héllo\nworld' }] });
    const report = await connection.close();
    assert.equal(report.process?.ended, 'exited', 'the server exits by itself once stdin closes');
    assert.equal(report.process?.exitCode, 0);
    assert.equal(report.process?.activeProcesses, 0);
    assert.equal(recorder.closedCount, 0, 'closed() is never called after close()');
  });

  it('queues writes to a server that reads nothing for a second, in order', async () => {
    const { connection, recorder } = await open('slow-start.mjs', ['1000']);
    const sends = [];
    for (let id = 1; id <= 50; id++)
      sends.push(
        connection.send(request(id, 'tools/call', { name: 'echo', arguments: { text: 'x'.repeat(4000) } })),
      );
    await Promise.all(sends);
    await recorder.waitFor((m) => m.id === 50);
    assert.deepEqual(
      recorder.messages.map((m) => (isReceived(m) ? m.id : undefined)),
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    await connection.close();
  });

  it('send() after close() rejects with kind closed and delivery not_sent', async () => {
    const { connection } = await open('echo-server.mjs');
    await connection.close();
    await assert.rejects(connection.send(request(1, 'ping')), (error: unknown) => {
      assert.ok(isErrorKind(error, 'closed'));
      assert.equal(error.delivery, 'not_sent');
      return true;
    });
  });

  it('with maxSkippedLines 0, fails the connection with kind protocol on a non-JSON line, redacted and clipped', async () => {
    const { connection, recorder } = await open('garbage-stdout.mjs', [], { maxSkippedLines: 0 });
    await connection.send(request(1, 'initialize'));
    await recorder.waitFor((m) => m.id === 1);
    await connection.send(request(2, 'ping'));
    const error = await recorder.waitClosed();
    assert.equal(error.kind, 'protocol');
    assert.match(error.message, /not MCP messages/);
    assert.doesNotMatch(error.message, /supersecretvalue123/);
    assert.ok(error.message.length < 250, `message too long: ${error.message.length}`);
    const report = await connection.close();
    assert.equal(report.process?.activeProcesses, 0);
    assert.equal(recorder.closedCount, 1);
  });

  it('fails with kind too_large as soon as a line crosses maxMessageBytes', async () => {
    const { connection, recorder } = await open('oversized-line.mjs', [String(8 * 1024 * 1024)], {
      maxMessageBytes: 1024 * 1024,
    });
    await connection.send(request(1, 'tools/call', { name: 'big' }));
    const error = await recorder.waitClosed();
    assert.equal(error.kind, 'too_large');
    assert.equal(recorder.messages.length, 0);
    assert.equal((await connection.close()).process?.activeProcesses, 0);
  });

  it('reports a crash mid-call as closed with the exit code and the stderr tail', async () => {
    const { connection, recorder } = await open('crash-mid-call.mjs');
    await connection.send(request(1, 'tools/call', { name: 'echo', arguments: { text: 'x' } }));
    const error = await recorder.waitClosed();
    assert.equal(error.kind, 'closed');
    // It never answered anything, so to the transport this is still startup.
    assert.match(error.message, /exited during startup with code 3$/);
    assert.match(error.stderrTail ?? '', /crashing in the middle/);
    const report = await connection.close();
    assert.equal(report.process?.exitCode, 3);
    assert.equal(report.process?.ended, 'exited');
  });
});

describe('StdioConnection: start', () => {
  it('rejects with kind spawn and an install hint when the command does not exist', async () => {
    const connection = new StdioConnection({
      ...fixtureOptions('echo-server.mjs'),
      command: 'no-such-command-xyz',
      args: ['--token=abc'],
    });
    await assert.rejects(connection.start(new Recorder().events), (error: unknown) => {
      assert.ok(isErrorKind(error, 'spawn'));
      assert.match(error.message, /no-such-command-xyz/);
      assert.match(error.message, /is it installed and on PATH\?/);
      assert.doesNotMatch(error.message, /token/);
      return true;
    });
    assert.equal((await connection.close()).process?.ended, 'not_started');
  });

  it('rejects with kind spawn and an executable hint when the file is not executable', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-'));
    const file = path.join(dir, 'server.sh');
    writeFileSync(file, '#!/bin/sh\necho hi\n');
    chmodSync(file, 0o644);
    const connection = new StdioConnection({ ...fixtureOptions('echo-server.mjs'), command: file, args: [] });
    await assert.rejects(connection.start(new Recorder().events), (error: unknown) => {
      assert.ok(isErrorKind(error, 'spawn'));
      assert.match(error.message, /server\.sh/);
      assert.match(error.message, /is it executable\?/);
      return true;
    });
  });

  it('rejects with kind spawn and a cwd hint when cwd does not exist', async () => {
    const connection = new StdioConnection(
      fixtureOptions('echo-server.mjs', [], { cwd: '/no/such/dir/xyz' }),
    );
    await assert.rejects(connection.start(new Recorder().events), (error: unknown) => {
      assert.ok(isErrorKind(error, 'spawn'));
      assert.match(error.message, /does cwd exist\?/);
      assert.match(error.message, /ENOENT/);
      return true;
    });
  });

  it('rejects with a cwd hint when cwd is a file', async () => {
    const connection = new StdioConnection(fixtureOptions('echo-server.mjs', [], { cwd: process.execPath }));
    await assert.rejects(connection.start(new Recorder().events), /ENOTDIR.*does cwd exist\?/);
  });

  it('resolves start() for a server that exits at once, then reports closed with code and redacted stderr', async () => {
    const { connection, recorder } = await open('exit-at-start.mjs');
    const error = await recorder.waitClosed();
    assert.equal(error.kind, 'closed');
    assert.match(error.message, /exited during startup with code 2$/);
    assert.match(error.stderrTail ?? '', /config missing/);
    assert.doesNotMatch(error.stderrTail ?? '', /sk-live/);
    const report = await connection.close();
    assert.equal(report.process?.exitCode, 2);
    assert.match(report.process?.stderrTail, /config missing/);
    assert.doesNotMatch(report.process?.stderrTail, /sk-live/);
  });

  it('does not pass the parent environment to the child, only the allow-list and options.env', async () => {
    process.env['AUTOS_MCP_TEST_PARENT_SECRET'] = 'parent-secret-value';
    try {
      const { connection, recorder } = await open('print-env.mjs', [], { env: { SERVER_SETTING: 'on' } });
      await connection.send(request(1, 'tools/call', { name: 'env' }));
      const answer = await recorder.waitFor((m) => m.id === 1);
      const env = JSON.parse(firstText(answer));
      assert.equal(env.AUTOS_MCP_TEST_PARENT_SECRET, undefined);
      assert.equal(env.SERVER_SETTING, 'on');
      assert.equal(env.PATH, process.env['PATH']);
      await connection.close();
    } finally {
      delete process.env['AUTOS_MCP_TEST_PARENT_SECRET'];
    }
  });
});

describe('StdioConnection: stderr', () => {
  it('drains a 100 MB stderr flood while answering requests, keeping a bounded tail', async () => {
    const started = Date.now();
    const { connection, recorder } = await open('stderr-flood.mjs', ['100']);
    await connection.send(request(1, 'ping'));
    await recorder.waitFor((m) => m.id === 1, 8000);
    await recorder.waitFor((m) => m.method === 'notifications/message', 9000);
    const tail = (await connection.close()).process?.stderrTail ?? '';
    assert.ok(tail.length <= 64 * 1024 + 1, `tail ${tail.length}`);
    assert.ok(tail.length > 1000);
    assert.ok(Date.now() - started < 10_000);
  });

  it('ignores stderr in mode ignore (and still works)', async () => {
    const { connection, recorder } = await open('exit-at-start.mjs', [], { stderr: 'ignore' });
    const error = await recorder.waitClosed();
    assert.equal(error.stderrTail, undefined);
    assert.equal((await connection.close()).process?.stderrTail, '');
  });
});
