/**
 * 2025-11-25 resumption and the GET stream (S25/basic/transports "Resumability and Redelivery",
 * "Listening for Messages from the Server"), modelled on the conformance scenario `sse-retry`.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { test } from 'node:test';
import { answer, CALL_TOOL, connectHttp, failedSend, rejection } from '../../helpers/http-once.js';
import { waitFor } from '../../helpers/wait.js';
import { json, result, serversClosedAfter } from './test-server.js';

const server = serversClosedAfter();

const V = { 'MCP-Protocol-Version': '2025-11-25' };
const SSE = { 'content-type': 'text/event-stream' };

test('a broken response stream is resumed with GET + Last-Event-ID after exactly the retry delay, never re-POSTed', async () => {
  let closedAt = 0;
  let pendingId: unknown;
  const s = await server((req, res) => {
    if (req.method === 'POST' && req.json?.['method'] === 'initialize') {
      return json(res, 200, result(req.json['id']), { 'mcp-session-id': 'sess-r' });
    }
    if (req.method === 'POST') {
      pendingId = req.json?.['id'];
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('id: event-1\nretry: 500\ndata: \n\n');
      setTimeout(() => {
        closedAt = performance.now();
        res.end();
      }, 50);
      return;
    }
    // GET: the resumed stream carries the response and stays open (the client must stop reading)
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(
      `id: event-2\nretry: 500\ndata: \n\nevent: message\nid: event-3\ndata: ${JSON.stringify(result(pendingId, { resumed: true }))}\n\n`,
    );
  });
  const { conn, c } = await connectHttp(s.url);
  await conn.send({ jsonrpc: '2.0', id: 1, method: 'initialize' });
  await conn.send(
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_reconnection' } },
    { headers: V, resumable: true },
  );
  assert.deepEqual(c.messages.at(-1), result(2, { resumed: true }));
  const get = s.requests.find((r) => r.method === 'GET');
  assert.ok(get !== undefined, 'a GET was sent');
  assert.equal(get.headers['last-event-id'], 'event-1');
  assert.equal(get.headers['mcp-session-id'], 'sess-r');
  assert.equal(get.headers['mcp-protocol-version'], '2025-11-25');
  assert.equal(get.headers['accept'], 'text/event-stream');
  const delay = get.at - closedAt;
  assert.ok(
    delay >= 450 && delay <= 700,
    `want the GET 450–700 ms after the close, got ${delay.toFixed(0)} ms`,
  );
  assert.equal(s.requests.filter((r) => r.method === 'POST').length, 2, 'never re-POSTed');
  await conn.close();
});

test('a stream that ends without an event id is not resumable even when allowed', async () => {
  const s = await server(answer(200, SSE, ': nothing\n\n'));
  const { error } = await failedSend(s.url, CALL_TOOL, {}, { resumable: true });
  assert.equal(error['kind'], 'transport');
  assert.equal(error['delivery'], 'unknown');
  assert.equal(s.requests.length, 1);
});

test('resumption gives up after a bounded number of fruitless GETs', async () => {
  const s = await server((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(req.method === 'POST' ? 'id: only\nretry: 10\ndata:\n\n' : ': empty\n\n');
  });
  const { error } = await failedSend(s.url, CALL_TOOL, {}, { resumable: true });
  assert.equal(error['kind'], 'transport');
  assert.equal(s.requests.filter((r) => r.method === 'GET').length, 3);
  assert.ok(s.requests.every((r) => r.method === 'GET' || r.json?.['id'] === 1));
});

test('cancelling during the retry wait rejects at once as cancelled', async () => {
  const s = await server(answer(200, SSE, 'id: x\nretry: 5000\ndata:\n\n'));
  const { conn } = await connectHttp(s.url);
  const started = performance.now();
  const error = await rejection(conn.send(CALL_TOOL, { resumable: true, signal: AbortSignal.timeout(100) }));
  assert.equal(error['kind'], 'cancelled');
  assert.ok(performance.now() - started < 1000);
  await conn.close();
});

test('listen() delivers server messages from the GET stream and reconnects with Last-Event-ID after retry', async () => {
  const gets: ServerResponse[] = [];
  const s = await server((req, res) => {
    if (req.method === 'POST' && req.json?.['id'] !== undefined) {
      return json(res, 200, result(req.json['id']), { 'mcp-session-id': 'L' });
    }
    if (req.method !== 'GET') {
      res.writeHead(204);
      res.end();
      return;
    }
    gets.push(res);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const n = gets.length;
    const message = { jsonrpc: '2.0', id: `srv-${n}`, method: 'elicitation/create', params: {} };
    res.write(`retry: 50\nid: g${n}\ndata: ${JSON.stringify(message)}\n\n`);
    if (n === 1) res.end(); // first stream ends: the client must come back
  });
  const { conn, c } = await connectHttp(s.url);
  await conn.send({ jsonrpc: '2.0', id: 1, method: 'initialize' });
  await conn.send({ jsonrpc: '2.0', method: 'notifications/initialized' }, { headers: V });
  conn.negotiated({ protocolVersion: '2025-11-25', openServerStream: false });
  conn.listen();
  conn.listen(); // idempotent
  await waitFor(() => c.messages.length >= 3, { timeoutMs: 2000, what: 'both GET stream messages' });
  const getRequests = s.requests.filter((r) => r.method === 'GET');
  assert.equal(getRequests.length, 2);
  assert.equal(getRequests[0]?.headers['last-event-id'], undefined);
  assert.equal(getRequests[1]?.headers['last-event-id'], 'g1');
  assert.equal(getRequests[1]?.headers['mcp-protocol-version'], '2025-11-25');
  assert.deepEqual(
    c.messages.slice(1).map((m) => (m as { id?: unknown }).id),
    ['srv-1', 'srv-2'],
  );
  await conn.close();
  const before = c.messages.length;
  // A window in which nothing may arrive: proving an absence needs a wait.
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(c.messages.length, before, 'nothing delivered after close');
});

test('listen() quietly gives up on 405', async () => {
  const s = await server((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(405);
      res.end();
      return;
    }
    json(res, 200, result(req.json?.['id']));
  });
  const { conn, c } = await connectHttp(s.url);
  conn.listen();
  await waitFor(() => s.requests.some((r) => r.method === 'GET'), { what: 'the GET' });
  // A window longer than a retry, in which no second GET may come: proving an absence needs a wait.
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(s.requests.filter((r) => r.method === 'GET').length, 1);
  assert.deepEqual(c.diagnostics, []);
  await conn.close();
});
