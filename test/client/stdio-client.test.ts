/**
 * The client over stdio against line-JSON fixture servers (real child processes): the 2025 lifecycle,
 * honest delivery on timeout and cancel, late answers dropped, failures with clear kinds.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { callToolOnce, connect, isMcpError, McpError, withClient } from '../../src/index.js';
import { alive } from '../helpers/proc.js';
import { signal } from '../helpers/wait.js';
import { fixture, textOf } from './helpers.js';

describe('2025-11-25 lifecycle over stdio', () => {
  test('connect() initializes and exposes server info, version and capabilities', async () => {
    const client = await connect(fixture('echo-server.mjs'));
    try {
      assert.equal(client.protocolVersion, '2025-11-25');
      assert.equal(client.serverInfo?.name, 'echo-server');
      assert.deepEqual(client.capabilities, { tools: {} });
      assert.equal(client.transport, 'stdio');
      const tools = await client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        ['echo'],
      );
      const result = await client.callTool('echo', { text: 'hi' });
      assert.equal(textOf(result), 'hi');
    } finally {
      const report = await client.close();
      assert.equal(report.process?.activeProcesses, 0);
    }
  });

  test('callToolOnce() one-shot returns the result and leaves no process', async () => {
    const result = await callToolOnce(fixture('echo-server.mjs'), 'echo', { text: 'once' });
    assert.equal(textOf(result), 'once');
  });

  test('an initialize answer with an unsupported version fails with unsupported_version naming both', async () => {
    await assert.rejects(connect(fixture('wrong-version.mjs', ['2024-01-01'])), (error: unknown) => {
      assert.ok(isMcpError(error));
      assert.equal(error.kind, 'unsupported_version');
      assert.match(error.message, /2025-11-25/);
      assert.match(error.message, /2024-01-01/);
      return true;
    });
  });

  test('a server answering 2025-06-18 is accepted (same lifecycle)', async () => {
    await withClient(fixture('wrong-version.mjs', ['2025-06-18']), (client) => {
      assert.equal(client.protocolVersion, '2025-06-18');
    });
  });
});

describe('delivery semantics', () => {
  test('a timeout after sending reports delivery unknown; the late answer is dropped, never given to the next call', async () => {
    const client = await connect(fixture('slow-echo.mjs'));
    try {
      await assert.rejects(
        client.callTool('echo', { text: 'first', delayMs: 600 }, { timeoutMs: 100 }),
        (error: unknown) => {
          assert.ok(error instanceof McpError);
          assert.equal(error.kind, 'timeout');
          assert.equal(error.delivery, 'unknown');
          return true;
        },
      );
      const second = await client.callTool('echo', { text: 'second', delayMs: 900 });
      assert.equal(textOf(second), 'second');
    } finally {
      const report = await client.close();
      assert.equal(report.lateResponsesDropped, 1, "the first call's late answer was counted as dropped");
    }
  });

  test('aborting a call after it was sent rejects at once with cancelled / unknown', async () => {
    const received = signal();
    const onLog = (entry: { data: string }) => {
      if (entry.data === 'received tools/call') received.resolve();
    };
    await withClient(
      fixture('slow-echo.mjs', ['--announce']),
      async (client) => {
        const controller = new AbortController();
        const started = Date.now();
        const call = client.callTool('echo', { text: 'x', delayMs: 2000 }, { signal: controller.signal });
        await received.wait({ what: 'the server to receive the call' });
        controller.abort();
        await assert.rejects(call, (error: unknown) => {
          assert.ok(isMcpError(error));
          assert.equal(error.kind, 'cancelled');
          assert.equal(error.delivery, 'unknown');
          return true;
        });
        assert.ok(Date.now() - started < 1000, 'cancel returns at once');
      },
      { onLog },
    );
  });

  test('an already-aborted signal refuses the call before sending: not_sent', async () => {
    await withClient(fixture('echo-server.mjs'), async (client) => {
      await assert.rejects(
        client.callTool('echo', { text: 'x' }, { signal: AbortSignal.abort() }),
        (error: unknown) => {
          assert.ok(isMcpError(error));
          assert.equal(error.kind, 'cancelled');
          assert.equal(error.delivery, 'not_sent');
          return true;
        },
      );
    });
  });

  test('a call after close() is refused with closed / not_sent', async () => {
    const client = await connect(fixture('echo-server.mjs'));
    await client.close();
    await assert.rejects(client.callTool('echo', { text: 'x' }), (error: unknown) => {
      assert.ok(isMcpError(error));
      assert.equal(error.kind, 'closed');
      assert.equal(error.delivery, 'not_sent');
      return true;
    });
  });

  test('a JSON-RPC error keeps code, message and data, with delivery delivered', async () => {
    await withClient(fixture('echo-server.mjs'), async (client) => {
      await assert.rejects(client.callTool('nope'), (error: unknown) => {
        assert.ok(isMcpError(error));
        assert.equal(error.kind, 'rpc');
        assert.equal(error.code, -32602);
        assert.equal(error.delivery, 'delivered');
        return true;
      });
    });
  });
});

describe('hostile and broken servers', () => {
  test('garbage on stdout past maxSkippedLines fails the connection with a protocol error, not a crash', async () => {
    await assert.rejects(
      withClient(fixture('garbage-stdout.mjs', [], { maxSkippedLines: 0 }), (client) => client.listTools()),
      (error: unknown) => isMcpError(error) && error.kind === 'protocol',
    );
  });

  test('an oversized line fails with too_large and the pending call is rejected', async () => {
    await assert.rejects(
      withClient(fixture('oversized-line.mjs', [], { maxMessageBytes: 1024 * 1024 }), (client) =>
        client.callTool('big'),
      ),
      (error: unknown) => isMcpError(error) && error.kind === 'too_large',
    );
  });

  test('a crash mid-call rejects the call with delivery unknown and the stderr tail', async () => {
    await assert.rejects(
      withClient(fixture('crash-mid-call.mjs'), (client) => client.callTool('echo', { text: 'x' })),
      (error: unknown) => {
        assert.ok(isMcpError(error));
        assert.equal(error.kind, 'closed');
        assert.equal(error.delivery, 'unknown');
        assert.match(error.stderrTail ?? '', /crashing in the middle of a call/);
        return true;
      },
    );
  });

  test('a server that exits at start fails connect() with closed and says how it ended', async () => {
    await assert.rejects(connect(fixture('exit-at-start.mjs')), (error: unknown) => {
      assert.ok(isMcpError(error));
      assert.equal(error.kind, 'closed');
      assert.match(error.message, /exit|code/i);
      return true;
    });
  });

  test('a missing command fails with spawn, naming it, and nothing was sent', async () => {
    await assert.rejects(connect({ command: 'autos-mcp-no-such-server-xyz' }), (error: unknown) => {
      assert.ok(isMcpError(error));
      assert.equal(error.kind, 'spawn');
      assert.match(error.message, /autos-mcp-no-such-server-xyz/);
      return true;
    });
  });

  test('a slow start is waited for', async () => {
    const result = await callToolOnce(fixture('slow-start.mjs'), 'echo', { text: 'late riser' });
    assert.equal(textOf(result), 'late riser');
  });

  test('close() ends grandchildren, including one that left the process group', async () => {
    // The fixture logs its tree once the middle child has started its own children.
    const announced = signal();
    const client = await connect(fixture('grandchildren.mjs'), { onLog: () => announced.resolve() });
    await announced.wait({ what: 'the fixture to announce its process tree' });
    const tree = JSON.parse(textOf(await client.callTool('pids'))) as Record<string, number>;
    const pids = Object.values(tree);
    assert.equal(pids.length, 4, `want 4 descendant pids, got ${JSON.stringify(tree)}`);
    for (const pid of pids) assert.ok(alive(pid), `pid ${pid} alive before close`);
    const report = await client.close();
    assert.equal(report.process?.activeProcesses, 0);
    for (const pid of pids) assert.equal(alive(pid), false, `pid ${pid} gone after close`);
  });

  test('a secret in the parent environment does not reach the server; config env does', async () => {
    process.env['AUTOS_TEST_PARENT_SECRET'] = 'parent-secret-value';
    try {
      const result = await callToolOnce(fixture('print-env.mjs', [], { env: { GIVEN: 'yes' } }), 'env');
      const text = textOf(result);
      assert.doesNotMatch(text, /parent-secret-value/);
      assert.match(text, /GIVEN/);
    } finally {
      delete process.env['AUTOS_TEST_PARENT_SECRET'];
    }
  });
});
