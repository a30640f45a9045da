/**
 * `autos-mcp/worker` from the main thread: open, calls, results and errors as the caller sees them, busy,
 * the whole-request budget with a late answer, cancel by request id (a stale id cancels nothing), failure
 * marking, close and the id afterwards.
 */
import assert from 'node:assert/strict';
import { after, describe, mock, test } from 'node:test';
import { isMcpError } from '../../src/errors/index.js';
import { callTool, cancel, close, listTools, open, status } from '../../src/worker/index.js';
import { alive } from '../helpers/proc.js';
import { idle, nodeServer, runningRequest, STATE_SERVER } from './helpers.js';

function kindOf(error: unknown): { kind: string; delivery: string } {
  assert.ok(isMcpError(error), `want an McpError, got ${String(error)}`);
  return { kind: error.kind, delivery: error.delivery };
}

describe('a worker from the main thread', async () => {
  const id = await open(nodeServer(STATE_SERVER));
  after(async () => {
    await close(id).catch(() => {});
  });

  test('open resolves with an opaque string id; status is small plain data', async () => {
    assert.equal(typeof id, 'string');
    const s = await status(id);
    assert.equal(s.id, id);
    assert.equal(s.state, 'ready');
    assert.equal(s.busy, false);
    assert.equal(s.requestId, undefined);
    assert.equal(typeof s.pid, 'number');
    assert.equal(typeof s.threadId, 'number');
    assert.equal(s.protocolVersion, '2025-11-25');
    assert.deepEqual(s.server, { name: 'state-server', version: '1.0.0' });
    // Plain data: survives JSON, and holds no config.
    assert.deepEqual(JSON.parse(JSON.stringify(s)).id, id);
    assert.ok(!JSON.stringify(s).includes(STATE_SERVER), 'the status must not hold the config');
  });

  test('listTools and callTool return the raw result, structuredContent included', async () => {
    const tools = await listTools(id);
    assert.ok(tools.some((t) => t.name === 'increment'));
    const result = await callTool(id, 'args', { a: 1 });
    assert.deepEqual(result.structuredContent, { args: { a: 1 } });
  });

  test('isError is a result and a JSON-RPC error restarts nothing', async () => {
    const failed = await callTool(id, 'fail');
    assert.equal(failed.isError, true);
    await assert.rejects(callTool(id, 'reject'), (e) => {
      assert.deepEqual(kindOf(e), { kind: 'rpc', delivery: 'delivered' });
      assert.equal(isMcpError(e) && e.code, -32001);
      return true;
    });
    assert.equal((await status(id)).state, 'ready');
    assert.equal((await callTool(id, 'args', {})).isError, undefined);
  });

  test('a concurrent call fails at once with busy / not_sent, and nothing is queued', async () => {
    const slow = callTool(id, 'slow', { delayMs: 300, text: 'first' });
    const t0 = Date.now();
    await assert.rejects(callTool(id, 'args', { x: 1 }), (e) => {
      assert.deepEqual(kindOf(e), { kind: 'busy', delivery: 'not_sent' });
      return true;
    });
    assert.ok(Date.now() - t0 < 250, 'busy must be immediate');
    const during = await status(id);
    assert.equal(during.busy, true);
    assert.equal(typeof during.requestId, 'string');
    assert.equal((await slow).content?.[0]?.['text'], 'first');
    assert.equal((await status(id)).busy, false);
  });

  test('timeoutMs is the budget of the whole request; the late answer is dropped, never returned later', async () => {
    await assert.rejects(callTool(id, 'slow', { delayMs: 400, text: 'late' }, { timeoutMs: 100 }), (e) => {
      assert.deepEqual(kindOf(e), { kind: 'timeout', delivery: 'unknown' });
      return true;
    });
    // The worker is free again (the timed-out request was cancelled) and the late answer goes nowhere.
    const next = await callTool(id, 'slow', { delayMs: 500, text: 'second' });
    assert.equal(next.content?.[0]?.['text'], 'second');
    assert.equal((await status(id)).state, 'ready');
  });

  test('a timeout longer than the acknowledgement window: the worker acks and the caller keeps waiting', async () => {
    const result = await callTool(id, 'slow', { delayMs: 1300, text: 'long' }, { timeoutMs: 3000 });
    assert.equal(result.content?.[0]?.['text'], 'long');
  });

  test('cancel(id, requestId) cancels that request only; a stale request id cancels nothing', async () => {
    let firstId = '';
    const first = callTool(id, 'slow', { delayMs: 100, text: 'one' }, { onRequestId: (r) => (firstId = r) });
    assert.equal((await first).content?.[0]?.['text'], 'one');
    let secondId = '';
    const second = callTool(
      id,
      'slow',
      { delayMs: 400, text: 'two' },
      { onRequestId: (r) => (secondId = r) },
    );
    await runningRequest(id, () => secondId);
    assert.equal(await cancel(id, firstId), false, 'a stale request id must not cancel');
    assert.equal((await status(id)).requestId, secondId);
    assert.equal((await second).content?.[0]?.['text'], 'two');

    const third = callTool(id, 'slow', { delayMs: 2000, text: 'three' });
    const running = await runningRequest(id);
    assert.equal(await cancel(id, running), true);
    await assert.rejects(third, (e) => {
      assert.deepEqual(kindOf(e), { kind: 'cancelled', delivery: 'unknown' });
      return true;
    });
  });

  test('signal and shouldStop stay in the caller and cancel the request', async () => {
    const controller = new AbortController();
    const pending = callTool(id, 'slow', { delayMs: 2000, text: 'x' }, { signal: controller.signal });
    void runningRequest(id).then(() => controller.abort());
    await assert.rejects(pending, (e) => kindOf(e).kind === 'cancelled');
    await idle(id);
    let stop = false;
    void runningRequest(id).then(() => (stop = true));
    await assert.rejects(
      callTool(id, 'slow', { delayMs: 2000, text: 'y' }, { shouldStop: () => stop }),
      (e) => kindOf(e).kind === 'cancelled' && kindOf(e).delivery === 'unknown',
    );
    const aborted = AbortSignal.abort();
    await assert.rejects(callTool(id, 'args', {}, { signal: aborted }), (e) => {
      assert.deepEqual(kindOf(e), { kind: 'cancelled', delivery: 'not_sent' });
      return true;
    });
    // The worker is free once the cancel reaches it.
    await idle(id);
    assert.equal((await callTool(id, 'args', { z: 0 })).isError, undefined);
  });
});

describe('failures and close', () => {
  test('a transport failure marks the worker failed until a new open; close still cleans up', async () => {
    const id = await open(nodeServer(STATE_SERVER));
    const { pid } = await status(id);
    await assert.rejects(callTool(id, 'crash'), (e) => kindOf(e).kind === 'closed');
    const s = await status(id);
    assert.equal(s.state, 'failed');
    assert.equal(s.lastFailure?.kind, 'closed');
    await assert.rejects(callTool(id, 'args', {}), (e) => {
      assert.deepEqual(kindOf(e), { kind: 'closed', delivery: 'not_sent' });
      return true;
    });
    const final = await close(id);
    assert.equal(final.cleanup?.activeProcesses, 0);
    assert.ok(pid === undefined || !alive(pid));
  });

  test('close → the final status with activeProcesses 0; the id is invalid afterwards', async () => {
    const id = await open(nodeServer(STATE_SERVER));
    const { pid } = await status(id);
    const final = await close(id);
    assert.equal(final.state, 'closed');
    assert.equal(final.cleanup?.activeProcesses, 0);
    assert.ok(pid !== undefined && !alive(pid), 'the server process must be gone');
    await assert.rejects(callTool(id, 'args', {}), (e) => {
      assert.deepEqual(kindOf(e), { kind: 'closed', delivery: 'not_sent' });
      return true;
    });
    await assert.rejects(status(id), (e) => kindOf(e).kind === 'closed');
    assert.deepEqual(await close(id), final, 'closing again gives the same final status');
  });

  test('an unknown id is refused: a malformed one at once (config), a well-formed one after the window', async () => {
    await assert.rejects(callTool('nope', 'x'), (e) => kindOf(e).kind === 'config');
    // The window is the caller's clock: faked, so the test does not wait out 1 s.
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      let settled = false;
      const refused = status('mcpw_00000000-0000-0000-0000-000000000000').finally(() => (settled = true));
      refused.catch(() => {});
      mock.timers.tick(999);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(settled, false, 'silence is not an answer before the window ends');
      mock.timers.tick(1);
      await assert.rejects(refused, (e) => {
        assert.deepEqual(kindOf(e), { kind: 'closed', delivery: 'not_sent' });
        return true;
      });
    } finally {
      mock.timers.reset();
    }
  });

  test('open fails with the client error and leaves nothing behind', async () => {
    await assert.rejects(open({ command: '/nonexistent/server-binary' }), (e) => kindOf(e).kind === 'spawn');
    await assert.rejects(open({ command: process.execPath, args: [STATE_SERVER], timeoutMs: -1 }), (e) => {
      assert.deepEqual(kindOf(e), { kind: 'config', delivery: 'not_sent' });
      return true;
    });
  });

  test('errors cross as data with every field: kind, delivery, code, rpcMessage', async () => {
    const id = await open(nodeServer(STATE_SERVER));
    try {
      await assert.rejects(callTool(id, 'reject'), (e) => {
        assert.ok(isMcpError(e) && e.kind === 'rpc');
        assert.equal(e.name, 'RpcError');
        assert.equal((e as unknown as { rpcMessage: string }).rpcMessage, 'refused by the fixture');
        return true;
      });
    } finally {
      await close(id);
    }
  });
});
