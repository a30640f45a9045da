/**
 * The engine over an in-memory pair with a fake clock: deadlines restarted by progress, the hard cap of
 * `maxTotalTimeoutMs`, cancellation notices, late answers dropped, and honest `delivery` values.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { isMcpError } from '../../src/index.js';
import { startedEngine } from '../helpers/memory-server.js';
import { must } from '../helpers/must.js';

/** Lets queued microtasks (the pair's deliveries) run; `setImmediate` is not faked. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

const started = startedEngine;

/** Tracks whether a promise has settled, and how. */
function watch<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

describe('engine deadlines (fake clock)', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 }));
  afterEach(() => mock.timers.reset());

  it('without progress, a request times out at its deadline with delivery unknown', async () => {
    const { engine } = await started();
    const call = watch(engine.request('tools/call', { name: 'slow' }, { timeoutMs: 1000 }));
    await flush();
    mock.timers.tick(999);
    await flush();
    assert.equal(call.settled, false, 'still pending 1 ms before the deadline');
    mock.timers.tick(1);
    await flush();
    assert.ok(isMcpError(call.error), `want McpError, got ${String(call.error)}`);
    assert.equal(call.error.kind, 'timeout');
    assert.equal(call.error.delivery, 'unknown');
  });

  it('each progress update restarts the deadline', async () => {
    const { engine, server } = await started();
    const seen: number[] = [];
    const call = watch(
      engine.request(
        'tools/call',
        { name: 'slow' },
        { timeoutMs: 1000, onProgress: (p) => seen.push(p.progress) },
      ),
    );
    await flush();
    const request = server.open[0];
    assert.ok(request, 'the server got the request');
    const token = (request.params?.['_meta'] as { progressToken?: unknown } | undefined)?.progressToken;
    assert.equal(token, request.id, 'the request id doubles as the progress token');
    for (const step of [1, 2, 3]) {
      mock.timers.tick(800);
      server.notify('notifications/progress', { progressToken: token, progress: step });
      await flush();
    }
    mock.timers.tick(800); // 3200 ms in all: three times past a deadline that never restarted
    await flush();
    assert.equal(call.settled, false, `want pending at 3200 ms, got ${String(call.error)}`);
    server.reply(request.id, { done: true });
    await flush();
    assert.deepEqual(call.value, { done: true });
    assert.deepEqual(seen, [1, 2, 3]);
  });

  it('maxTotalTimeoutMs caps the wait however much progress arrives', async () => {
    const { engine, server } = await started();
    const call = watch(
      engine.request(
        'tools/call',
        { name: 'slow' },
        { timeoutMs: 1000, maxTotalTimeoutMs: 2500, onProgress: () => {} },
      ),
    );
    await flush();
    const request = must(server.open[0], 'the request the server got');
    for (let t = 500; t < 2500; t += 500) {
      mock.timers.tick(500);
      server.notify('notifications/progress', { progressToken: request.id, progress: t });
      await flush();
    }
    mock.timers.tick(499);
    await flush();
    assert.equal(call.settled, false, 'pending 1 ms before the cap');
    mock.timers.tick(1);
    await flush();
    assert.ok(isMcpError(call.error));
    assert.equal(call.error.kind, 'timeout');
  });

  it('the default cap is 5 × the deadline', async () => {
    const { engine, server } = await started();
    const call = watch(engine.request('tools/call', {}, { timeoutMs: 1000, onProgress: () => {} }));
    await flush();
    const request = must(server.open[0], 'the request the server got');
    for (let i = 0; i < 12; i++) {
      mock.timers.tick(450);
      if (!call.settled) server.notify('notifications/progress', { progressToken: request.id, progress: i });
      await flush();
    }
    assert.ok(isMcpError(call.error), 'timed out despite progress');
    assert.equal(Date.now() >= 5000 && Date.now() <= 5400, true, `cap reached at ${Date.now()} ms`);
  });

  it('a timed-out request is cancelled with a notification and its late answer is dropped, not handed on', async () => {
    const { engine, server } = await started();
    const first = watch(engine.request('tools/call', { name: 'a' }, { timeoutMs: 100 }));
    await flush();
    mock.timers.tick(100);
    await flush();
    assert.equal((first.error as { kind?: string }).kind, 'timeout');
    const cancelled = server.sent('notifications/cancelled');
    assert.equal(cancelled.length, 1);
    assert.deepEqual((cancelled[0] as { params?: unknown }).params, { requestId: 1, reason: 'timeout' });
    const second = watch(engine.request('tools/call', { name: 'b' }, { timeoutMs: 100 }));
    await flush();
    server.reply(1, { late: true }); // the answer to the first call arrives after all
    await flush();
    assert.equal(second.settled, false, 'the late answer did not settle the next call');
    server.reply(2, { mine: true });
    await flush();
    assert.deepEqual(second.value, { mine: true });
    const report = await engine.close();
    assert.equal(report.lateResponsesDropped, 1);
  });

  it('after cancelBy("abort") an abandoned request gets no cancellation notice', async () => {
    const { engine, server } = await started({ cancelBy: 'abort' });
    engine.cancelBy('abort');
    const call = watch(engine.request('tools/call', {}, { timeoutMs: 100 }));
    await flush();
    mock.timers.tick(100);
    await flush();
    assert.equal((call.error as { kind?: string }).kind, 'timeout');
    assert.equal(server.sent('notifications/cancelled').length, 0);
  });

  it('an abort signal cancels at once with kind cancelled', async () => {
    const { engine, server } = await started();
    const controller = new AbortController();
    const call = watch(engine.request('tools/call', {}, { signal: controller.signal }));
    await flush();
    controller.abort();
    await flush();
    assert.equal((call.error as { kind?: string }).kind, 'cancelled');
    assert.equal((call.error as { delivery?: string }).delivery, 'unknown');
    assert.deepEqual((server.sent('notifications/cancelled')[0] as { params?: unknown }).params, {
      requestId: 1,
      reason: 'cancelled',
    });
  });
});

describe('engine delivery', () => {
  it('a request on a connection the server already ended is not_sent', async () => {
    const { engine, server } = await started();
    server.peer.end('gone');
    await flush();
    assert.equal(engine.closed, true);
    const error = await engine.request('tools/list', {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(isMcpError(error), `want McpError, got ${String(error)}`);
    assert.equal(error.kind, 'closed');
    assert.equal(error.delivery, 'not_sent');
  });

  it('a request in flight when the server ends the connection is unknown, and later ones are not_sent', async () => {
    const { engine, server } = await started();
    const pending = engine.request('tools/call', {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    await flush();
    server.peer.end('crashed');
    const error = await pending;
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'closed');
    assert.equal(error.delivery, 'unknown');
    assert.match(error.message, /crashed/);
    const later = await engine.request('tools/list', {}).catch((e: unknown) => e);
    assert.equal((later as { delivery?: string }).delivery, 'not_sent');
  });

  it('a message that is not JSON-RPC fails the connection with kind protocol', async () => {
    const { engine, server } = await started();
    const pending = engine.request('tools/call', {}).catch((e: unknown) => e);
    await flush();
    server.peer.send({ hello: 'world' });
    const error = await pending;
    assert.equal((error as { kind?: string }).kind, 'protocol');
    assert.equal(engine.closed, true);
  });

  it('a JSON-RPC error answer is kind rpc with the code, delivered', async () => {
    const { engine, server } = await started();
    const pending = engine.request('tools/call', {}).catch((e: unknown) => e);
    await flush();
    server.fail(1, -32602, 'bad arguments');
    const error = await pending;
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'rpc');
    assert.equal(error.code, -32602);
    assert.equal(error.delivery, 'delivered');
  });
});
