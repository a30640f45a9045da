/**
 * The 2025-11-25 session (S25/basic/transports "Session Management"): captured from the initialize
 * response only, sent on later POST/GET/DELETE, 404 ⇒ session_expired, DELETE on close; and close() semantics.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectHttp, rejection } from '../../helpers/http-once.js';
import { waitFor } from '../../helpers/wait.js';
import { json, result, serversClosedAfter } from './test-server.js';

const server = serversClosedAfter();

const V = { 'MCP-Protocol-Version': '2025-11-25' };

test('the session id comes only from the initialize response and is sent on later POSTs, GET and the DELETE on close', async () => {
  const s = await server((req, res) => {
    if (req.method === 'DELETE') {
      res.writeHead(200);
      res.end();
      return;
    }
    if (req.method === 'GET') {
      res.writeHead(405);
      res.end();
      return;
    }
    const method = req.json?.['method'];
    // a spurious id on a non-initialize answer must be ignored (2026 mocks do this)
    const sid = method === 'initialize' ? 'sess-1' : 'spurious';
    if (req.json?.['id'] === undefined) {
      res.writeHead(202, { 'mcp-session-id': sid });
      res.end();
      return;
    }
    json(res, 200, result(req.json['id']), { 'mcp-session-id': sid });
  });
  const { conn } = await connectHttp(s.url);
  await conn.send({ jsonrpc: '2.0', id: 0, method: 'tools/list' });
  assert.equal(conn.sessionId, undefined, 'not from a non-initialize answer');
  await conn.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
  assert.equal(conn.sessionId, 'sess-1');
  await conn.send({ jsonrpc: '2.0', method: 'notifications/initialized' }, { headers: V });
  await conn.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { headers: V });
  assert.equal(conn.sessionId, 'sess-1');
  conn.negotiated({ protocolVersion: '2025-11-25', openServerStream: true });
  await waitFor(() => s.requests.some((r) => r.method === 'GET'), { what: 'the GET stream request' });
  await conn.close();
  const seen = s.requests.map((r) => [
    r.method,
    r.json?.['method'] ?? '',
    r.headers['mcp-session-id'] ?? '-',
    r.headers['mcp-protocol-version'] ?? '-',
  ]);
  assert.deepEqual(seen, [
    ['POST', 'tools/list', '-', '-'],
    ['POST', 'initialize', '-', '-'],
    ['POST', 'notifications/initialized', 'sess-1', '2025-11-25'],
    ['POST', 'tools/list', 'sess-1', '2025-11-25'],
    ['GET', '', 'sess-1', '2025-11-25'],
    ['DELETE', '', 'sess-1', '2025-11-25'],
  ]);
  assert.equal(s.requests[4]?.headers['accept'], 'text/event-stream');
});

test('an invalid session id on the initialize response is a protocol error', async () => {
  const s = await server((req, res) =>
    json(res, 200, result(req.json?.['id']), { 'mcp-session-id': 'has space\u00e9' }),
  );
  const { conn } = await connectHttp(s.url);
  const error = await rejection(conn.send({ jsonrpc: '2.0', id: 1, method: 'initialize' }));
  assert.equal(error['kind'], 'protocol');
  assert.equal(conn.sessionId, undefined);
  await conn.close();
});

test('a 404 to a request that carried the session id is session_expired and drops the id', async () => {
  const s = await server((req, res) => {
    if (req.json?.['method'] === 'initialize')
      return json(res, 200, result(req.json['id']), { 'mcp-session-id': 'gone-soon' });
    if (req.headers['mcp-session-id'] !== undefined) {
      res.writeHead(404);
      res.end();
      return;
    }
    json(res, 200, result(req.json?.['id']));
  });
  const { conn } = await connectHttp(s.url);
  await conn.send({ jsonrpc: '2.0', id: 1, method: 'initialize' });
  const error = await rejection(conn.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
  assert.equal(error['kind'], 'session_expired');
  assert.equal(error['delivery'], 'delivered');
  assert.equal(conn.sessionId, undefined);
  await conn.send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
  assert.equal(s.requests[2]?.headers['mcp-session-id'], undefined);
  await conn.close();
  assert.equal(s.requests.length, 3, 'no DELETE without a session');
});

test('close() is idempotent and concurrent-safe, aborts in-flight exchanges as closed, and tolerates a DELETE 405', async () => {
  const s = await server((req, res) => {
    if (req.method === 'DELETE') {
      res.writeHead(405);
      res.end();
      return;
    }
    if (req.json?.['method'] === 'initialize')
      return json(res, 200, result(req.json['id']), { 'mcp-session-id': 's' });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': hold\n\n'); // never answers
  });
  const { conn } = await connectHttp(s.url);
  await conn.send({ jsonrpc: '2.0', id: 1, method: 'initialize' });
  const pending = rejection(conn.send({ jsonrpc: '2.0', id: 2, method: 'tools/call' }));
  await waitFor(() => s.requests.some((r) => r.json?.['method'] === 'tools/call'), {
    what: 'the call at the server',
  });
  const [a, b] = await Promise.all([conn.close(), conn.close()]);
  assert.deepEqual(a, {}, 'an HTTP connection runs no local process');
  assert.deepEqual(a, b);
  assert.deepEqual(await conn.close(), a);
  const error = await pending;
  assert.equal(error['kind'], 'closed');
  assert.equal(error['delivery'], 'unknown');
  const late = await rejection(conn.send({ jsonrpc: '2.0', id: 3, method: 'tools/list' }));
  assert.equal(late['kind'], 'closed');
  assert.equal(late['delivery'], 'not_sent');
  assert.equal(s.requests.filter((r) => r.method === 'DELETE').length, 1);
});

test('close() does not wait long for a DELETE that never answers', async () => {
  const s = await server((req, res) => {
    if (req.method === 'DELETE') return; // hang
    json(res, 200, result(req.json?.['id']), { 'mcp-session-id': 's' });
  });
  const { conn } = await connectHttp(s.url);
  await conn.send({ jsonrpc: '2.0', id: 1, method: 'initialize' });
  const started = performance.now();
  await conn.close();
  const took = performance.now() - started;
  assert.ok(took >= 1900 && took < 3000, `close took ${took} ms`);
});
