/**
 * Hostile Streamable HTTP servers, over real `node:http` servers: streams that end at once with `retry: 0`
 * (reconnects stay bounded by the policy of backoff.ts), JSON answers that are not the response to the
 * request (fail the call at once as `protocol`), and many requests held open (the pool's socket cap).
 */
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { connect } from '../../../src/index.js';
import { LISTEN_BUDGET, RESUME_BUDGET } from '../../../src/transport/http/backoff.js';
import { MAX_CONNECTIONS_PER_ORIGIN } from '../../../src/transport/http/create-pool.js';
import { CALL_TOOL, connectHttp, failedSend, rejection } from '../../helpers/http-once.js';
import { waitFor } from '../../helpers/wait.js';
import { json, type Recorded, result, serversClosedAfter } from './test-server.js';

const server = serversClosedAfter();

const SSE = { 'content-type': 'text/event-stream' };

/** The GET requests `requests` holds, and how many of them came within `windowMs` of the first. */
function getsWithin(requests: Recorded[], windowMs: number): { total: number; inWindow: number } {
  const gets = requests.filter((r) => r.method === 'GET');
  const first = gets[0]?.at ?? 0;
  return { total: gets.length, inWindow: gets.filter((r) => r.at - first <= windowMs).length };
}

/** A window in which nothing more may happen: proving an absence needs a wait. */
const quiet = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('reconnects are bounded', () => {
  it('a resumption GET that ends at once with retry: 0 and a fresh id is given up after the budget', async () => {
    let n = 0;
    const s = await server((req, res) => {
      res.writeHead(200, SSE);
      // Each stream a new priming id and `retry: 0`, then the end: before the policy, a tight GET loop.
      res.end(req.method === 'POST' ? 'id: p\nretry: 0\ndata:\n\n' : `id: g${++n}\nretry: 0\ndata:\n\n`);
    });
    const started = performance.now();
    const { error } = await failedSend(s.url, CALL_TOOL, {}, { resumable: true });
    const elapsed = performance.now() - started;
    assert.equal(error['kind'], 'transport');
    assert.equal(error['delivery'], 'unknown', 'the POST was delivered');
    assert.match(error.message, new RegExp(`gave up after ${RESUME_BUDGET} resumptions`));
    const counted = getsWithin(s.requests, 1000);
    assert.equal(counted.total, RESUME_BUDGET);
    assert.ok(counted.inWindow <= 4, `at most a handful of GETs in 1 s, got ${counted.inWindow}`);
    // Floor 100 ms, then backoff: the three waits take at least 100 + 100 + 200 ms.
    assert.ok(elapsed >= 400, `want the waits of the policy, got ${elapsed.toFixed(0)} ms`);
    assert.equal(s.requests.filter((r) => r.method === 'POST').length, 1, 'never re-POSTed');
  });

  it('a resumed stream that delivers a message resets the budget', async () => {
    let n = 0;
    const s = await server((req, res) => {
      res.writeHead(200, SSE);
      if (req.method === 'POST') {
        res.end('id: p\nretry: 0\ndata:\n\n');
        return;
      }
      n++;
      const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: n } };
      // Only the second GET brings a message: progress, so three more fruitless GETs are allowed.
      res.end(
        n === 2 ? `id: g${n}\ndata: ${JSON.stringify(progress)}\n\n` : `id: g${n}\nretry: 0\ndata:\n\n`,
      );
    });
    const { error, c } = await failedSend(s.url, CALL_TOOL, {}, { resumable: true });
    assert.equal(error['kind'], 'transport');
    assert.match(error.message, /gave up after 3 resumptions/);
    assert.equal(getsWithin(s.requests, 0).total, 2 + RESUME_BUDGET);
    assert.equal(c.messages.length, 1, 'the progress notification was delivered');
  });

  it('closing during a resumption wait fails the call as closed', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, SSE);
      res.end('id: p\nretry: 5000\ndata:\n\n');
    });
    const { conn } = await connectHttp(s.url);
    const pending = rejection(conn.send(CALL_TOOL, { resumable: true }));
    await waitFor(() => s.requests.length === 1, { what: 'the POST' });
    await conn.close();
    const error = await pending;
    assert.equal(error['kind'], 'closed');
    assert.equal(error['delivery'], 'unknown');
  });

  it('a listen stream that ends at once with retry: 0 reconnects with backoff and gives up with a diagnostic', async () => {
    let n = 0;
    const s = await server((req, res) => {
      if (req.method !== 'GET') {
        json(res, 200, result(req.json?.['id']));
        return;
      }
      res.writeHead(200, SSE);
      res.end(`id: l${++n}\nretry: 0\ndata:\n\n`);
    });
    const { conn, c } = await connectHttp(s.url);
    conn.listen();
    const diagnostic = await waitFor(() => c.diagnostics.find((d) => d.includes('gave up')), {
      timeoutMs: 8000,
      what: 'the give-up diagnostic',
    });
    assert.match(diagnostic, new RegExp(`gave up after ${LISTEN_BUDGET} reconnects without events`));
    assert.doesNotMatch(diagnostic, /\?/, 'no query in the message');
    const counted = getsWithin(s.requests, 1000);
    assert.equal(counted.total, 1 + LISTEN_BUDGET);
    assert.ok(counted.inWindow <= 5, `at most a handful of GETs in 1 s, got ${counted.inWindow}`);
    await quiet(300);
    assert.equal(getsWithin(s.requests, 0).total, 1 + LISTEN_BUDGET, 'no GET after giving up');
    await conn.close();
  });
});

describe('a JSON answer must be the response to the request', () => {
  const cases: [string, unknown, RegExp][] = [
    ['another id', result(2), /answers id 2, not the response to request 1/],
    ['the id as a string', result('1'), /answers id "1"/],
    ['a batch', [result(1)], /is a batch/],
    ['a response without id', { jsonrpc: '2.0', result: {} }, /response without an id/],
    [
      'an error with id null',
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } },
      /without an id/,
    ],
    ['a request', { jsonrpc: '2.0', id: 1, method: 'sampling/createMessage' }, /is a JSON-RPC request/],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/message' }, /is a JSON-RPC notification/],
    ['a bare value', 42, /is not a JSON-RPC message/],
    ['an object that is no response', { jsonrpc: '2.0', id: 1 }, /is not a JSON-RPC response/],
  ];
  for (const [what, body, message] of cases) {
    it(`${what} fails the call at once as protocol and is not delivered`, async () => {
      const s = await server((_req, res) => json(res, 200, body));
      const { error, c } = await failedSend(s.url, CALL_TOOL);
      assert.equal(error['kind'], 'protocol');
      assert.equal(error['delivery'], 'unknown');
      assert.match(error.message, message);
      assert.deepEqual(c.messages, []);
    });
  }

  it('a long foreign id is clipped in the message', async () => {
    const s = await server((_req, res) => json(res, 200, result('x'.repeat(5000))));
    const { error } = await failedSend(s.url, CALL_TOOL);
    assert.equal(error['kind'], 'protocol');
    assert.ok(error.message.length < 300, error.message);
  });

  it('an error response with the right id is delivered as before, over 200 and over 400', async () => {
    const rpcError = { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad params' } };
    for (const status of [200, 400]) {
      const s = await server((_req, res) => json(res, status, rpcError));
      const { conn, c } = await connectHttp(s.url);
      await conn.send(CALL_TOOL);
      assert.deepEqual(c.messages, [rpcError], `HTTP ${status}`);
      await conn.close();
    }
  });

  it('a 400 carrying an error for another id is not delivered: the call fails with the status', async () => {
    const s = await server((_req, res) =>
      json(res, 400, { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'bad params' } }),
    );
    const { error, c } = await failedSend(s.url, CALL_TOOL);
    assert.equal(error['kind'], 'transport');
    assert.equal(error['status'], 400);
    assert.deepEqual(c.messages, []);
  });

  it('a notification answered with JSON is still delivered as before', async () => {
    const s = await server((_req, res) => json(res, 200, result(9)));
    const { conn, c } = await connectHttp(s.url);
    await conn.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.deepEqual(c.messages, [result(9)]);
    await conn.close();
  });

  it('through the client, a wrong-id answer fails the call well before its timeout', async () => {
    const s = await server((req, res) => {
      const id = req.json?.['id'];
      if (req.method !== 'POST' || id === undefined) {
        res.writeHead(202);
        res.end();
        return;
      }
      if (req.json?.['method'] === 'initialize') {
        json(
          res,
          200,
          result(id, {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 'h', version: '1' },
          }),
          { 'mcp-session-id': 'h-1' },
        );
        return;
      }
      json(res, 200, result(typeof id === 'number' ? id + 1000 : 'other', { tools: [] }));
    });
    const client = await connect({ url: s.url.href, timeoutMs: 10_000 });
    try {
      const started = performance.now();
      const error = await rejection(client.listTools());
      const elapsed = performance.now() - started;
      assert.equal(error['kind'], 'protocol');
      assert.match(error.message, /not the response to request/);
      assert.ok(elapsed < 2000, `want a failure well under the 10 s timeout, got ${elapsed.toFixed(0)} ms`);
    } finally {
      await client.close();
    }
  });
});

describe('sockets stay bounded', () => {
  it(`the pool never opens more than ${MAX_CONNECTIONS_PER_ORIGIN} sockets to a server that holds requests open`, async () => {
    const sockets = new Set<Socket>();
    let open = 0;
    let peak = 0;
    const held: (() => void)[] = [];
    const s = await server((req, res, raw) => {
      if (!sockets.has(raw.socket)) {
        sockets.add(raw.socket);
        open++;
        peak = Math.max(peak, open);
        raw.socket.once('close', () => open--);
      }
      held.push(() => json(res, 200, result(req.json?.['id'])));
    });
    const { conn, c } = await connectHttp(s.url);
    const total = MAX_CONNECTIONS_PER_ORIGIN * 3;
    const sends = Array.from({ length: total }, (_, i) =>
      conn.send({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'hold' } }),
    );
    await waitFor(() => s.requests.length >= MAX_CONNECTIONS_PER_ORIGIN, { what: 'the first requests' });
    await quiet(200); // no request beyond the cap may arrive while the first ones are held
    assert.equal(s.requests.length, MAX_CONNECTIONS_PER_ORIGIN);
    assert.equal(sockets.size, MAX_CONNECTIONS_PER_ORIGIN);
    // Answer whatever is held until every send is done: the queued requests reuse the same sockets.
    const release = setInterval(() => {
      for (const answer of held.splice(0)) answer();
    }, 5);
    try {
      await Promise.all(sends);
    } finally {
      clearInterval(release);
    }
    assert.equal(c.messages.length, total);
    assert.equal(s.requests.length, total);
    assert.ok(peak <= MAX_CONNECTIONS_PER_ORIGIN, `peak ${peak} sockets`);
    assert.ok(sockets.size <= MAX_CONNECTIONS_PER_ORIGIN, `${sockets.size} sockets in all`);
    await conn.close();
  });
});
