/**
 * Non-2xx answers: redirects never followed, 401/403 with the parsed challenge and no token in the error,
 * JSON-RPC error bodies delivered as messages (S26 streamable-http status table), other statuses as transport.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpConnection } from '../../../src/transport/http/index.js';
import { collector, json, options, rejection, serversClosedAfter } from './test-server.js';

const server = serversClosedAfter();

for (const status of [301, 302, 307, 308]) {
  test(`a ${status} redirect is not followed and names the status and target origin, not the query`, async () => {
    const elsewhere = await server((_req, res) => json(res, 200, {}));
    const s = await server((_req, res) => {
      res.writeHead(status, { location: `${elsewhere.url.origin}/mcp?token=secret-q` });
      res.end();
    });
    const conn = new HttpConnection(options(s.url));
    await conn.start(collector().events);
    const error = await rejection(conn.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    assert.equal(error['kind'], 'transport');
    assert.equal(error['status'], status);
    assert.ok(
      error.message.includes(String(status)) && error.message.includes(elsewhere.url.origin),
      error.message,
    );
    assert.ok(!error.message.includes('secret-q'));
    assert.equal(elsewhere.requests.length, 0, 'the Location target is never contacted');
    await conn.close();
  });
}

test('401 is auth_required with the parsed challenge, and neither message nor JSON leaks the token', async () => {
  const s = await server((_req, res) => {
    res.writeHead(401, {
      'www-authenticate':
        'Bearer error="invalid_token", scope="mcp:basic", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"',
    });
    res.end('{"error":"invalid_token"}');
  });
  const conn = new HttpConnection(options(s.url, { authToken: 'very-secret-token' }));
  await conn.start(collector().events);
  const error = await rejection(conn.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  assert.equal(error['kind'], 'auth_required');
  assert.equal(error['status'], 401);
  assert.deepEqual(error['challenge'], {
    scheme: 'Bearer',
    error: 'invalid_token',
    scope: 'mcp:basic',
    resourceMetadata: 'http://127.0.0.1/.well-known/oauth-protected-resource/mcp',
  });
  const text = `${error.message} ${JSON.stringify(error)} ${String((error as unknown as Error).stack)}`;
  assert.ok(!text.includes('very-secret-token'), 'the token never appears');
  assert.equal(s.requests[0]?.headers['authorization'], 'Bearer very-secret-token');
  await conn.close();
});

test('403 is forbidden with the insufficient_scope challenge', async () => {
  const s = await server((_req, res) => {
    res.writeHead(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="mcp:write"' });
    res.end();
  });
  const conn = new HttpConnection(options(s.url, { authToken: 'tok' }));
  await conn.start(collector().events);
  const error = await rejection(conn.send({ jsonrpc: '2.0', id: 1, method: 'tools/call' }));
  assert.equal(error['kind'], 'forbidden');
  assert.deepEqual(error['challenge'], { scheme: 'Bearer', error: 'insufficient_scope', scope: 'mcp:write' });
  await conn.close();
});

test('403 without a challenge (bad Origin) is forbidden without challenge', async () => {
  const s = await server((_req, res) => {
    res.writeHead(403);
    res.end();
  });
  const conn = new HttpConnection(options(s.url));
  await conn.start(collector().events);
  const error = await rejection(conn.send({ jsonrpc: '2.0', id: 1, method: 'tools/call' }));
  assert.equal(error['kind'], 'forbidden');
  assert.equal(error['challenge'], undefined);
  await conn.close();
});

test('a 400 with a JSON-RPC error carrying the id (-32022) is delivered as a message and send resolves', async () => {
  const body = {
    jsonrpc: '2.0',
    id: 3,
    error: {
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28'], requested: '2099-01-01' },
    },
  };
  const s = await server((_req, res) => json(res, 400, body));
  const conn = new HttpConnection(options(s.url));
  const c = collector();
  await conn.start(c.events);
  await conn.send({ jsonrpc: '2.0', id: 3, method: 'server/discover' });
  assert.deepEqual(c.messages, [body]);
  await conn.close();
});

test('a 404 with -32601 and no session is delivered as a message', async () => {
  const body = { jsonrpc: '2.0', id: 'q', error: { code: -32601, message: 'Method not found' } };
  const s = await server((_req, res) => json(res, 404, body));
  const conn = new HttpConnection(options(s.url));
  const c = collector();
  await conn.start(c.events);
  await conn.send({ jsonrpc: '2.0', id: 'q', method: 'nope' });
  assert.deepEqual(c.messages, [body]);
  await conn.close();
});

test('a 400 with an id-less JSON-RPC error is a transport error with the status and code', async () => {
  const s = await server((_req, res) =>
    json(res, 400, {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Bad Request: Server not initialized' },
    }),
  );
  const conn = new HttpConnection(options(s.url));
  const c = collector();
  await conn.start(c.events);
  const error = await rejection(conn.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  assert.equal(error['kind'], 'transport');
  assert.equal(error['status'], 400);
  assert.equal(error['code'], -32000);
  assert.deepEqual(c.messages, []);
  await conn.close();
});

test('a 500 is a transport error naming method, origin+path and status, not the query or headers', async () => {
  const s = await server((_req, res) => {
    res.writeHead(500, { 'content-type': 'text/html' });
    res.end('<h1>oops</h1>');
  });
  const url = new URL(`${s.url.href}?api_key=qsecret`);
  const conn = new HttpConnection(options(url, { headers: { 'X-Api-Key': 'hsecret' } }));
  await conn.start(collector().events);
  const error = await rejection(conn.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  assert.equal(error['kind'], 'transport');
  assert.equal(error['status'], 500);
  assert.equal(error.message, `POST tools/list to ${s.url.origin}/mcp: HTTP 500`);
  assert.equal(s.requests[0]?.path, '/mcp?api_key=qsecret', 'the query is sent');
  assert.equal(conn.target, `${s.url.origin}/mcp`);
  await conn.close();
});

test('a 503 from a gateway leaves delivery unknown', async () => {
  const s = await server((_req, res) => {
    res.writeHead(503);
    res.end();
  });
  const conn = new HttpConnection(options(s.url));
  await conn.start(collector().events);
  const error = await rejection(conn.send({ jsonrpc: '2.0', id: 1, method: 'tools/call' }));
  assert.equal(error['delivery'], 'unknown');
  await conn.close();
});
