/**
 * Non-2xx answers: redirects never followed, 401/403 with the parsed challenge and no token in the error,
 * JSON-RPC error bodies delivered as messages (S26 streamable-http status table), other statuses as transport.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answer, CALL_TOOL, connectHttp, failedSend, LIST_TOOLS } from '../../helpers/http-once.js';
import { json, serversClosedAfter } from './test-server.js';

const server = serversClosedAfter();

for (const status of [301, 302, 307, 308]) {
  test(`a ${status} redirect is not followed and names the status and target origin, not the query`, async () => {
    const elsewhere = await server((_req, res) => json(res, 200, {}));
    const s = await server(answer(status, { location: `${elsewhere.url.origin}/mcp?token=secret-q` }));
    const { error } = await failedSend(s.url);
    assert.equal(error['kind'], 'transport');
    assert.equal(error['status'], status);
    assert.ok(
      error.message.includes(String(status)) && error.message.includes(elsewhere.url.origin),
      error.message,
    );
    assert.ok(!error.message.includes('secret-q'));
    assert.equal(elsewhere.requests.length, 0, 'the Location target is never contacted');
  });
}

test('401 is auth_required with the parsed challenge, and neither message nor JSON leaks the token', async () => {
  const s = await server(
    answer(
      401,
      {
        'www-authenticate':
          'Bearer error="invalid_token", scope="mcp:basic", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"',
      },
      '{"error":"invalid_token"}',
    ),
  );
  const { error } = await failedSend(s.url, LIST_TOOLS, { authToken: 'very-secret-token' });
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
});

test('403 is forbidden with the insufficient_scope challenge', async () => {
  const s = await server(
    answer(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="mcp:write"' }),
  );
  const { error } = await failedSend(s.url, CALL_TOOL, { authToken: 'tok' });
  assert.equal(error['kind'], 'forbidden');
  assert.deepEqual(error['challenge'], { scheme: 'Bearer', error: 'insufficient_scope', scope: 'mcp:write' });
});

test('403 without a challenge (bad Origin) is forbidden without challenge', async () => {
  const s = await server(answer(403));
  const { error } = await failedSend(s.url, CALL_TOOL);
  assert.equal(error['kind'], 'forbidden');
  assert.equal(error['challenge'], undefined);
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
  const { conn, c } = await connectHttp(s.url);
  await conn.send({ jsonrpc: '2.0', id: 3, method: 'server/discover' });
  assert.deepEqual(c.messages, [body]);
  await conn.close();
});

test('a 404 with -32601 and no session is delivered as a message', async () => {
  const body = { jsonrpc: '2.0', id: 'q', error: { code: -32601, message: 'Method not found' } };
  const s = await server((_req, res) => json(res, 404, body));
  const { conn, c } = await connectHttp(s.url);
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
  const { error, c } = await failedSend(s.url);
  assert.equal(error['kind'], 'transport');
  assert.equal(error['status'], 400);
  assert.equal(error['code'], -32000);
  assert.deepEqual(c.messages, []);
});

test('a 500 is a transport error naming method, origin+path and status, not the query or headers', async () => {
  const s = await server(answer(500, { 'content-type': 'text/html' }, '<h1>oops</h1>'));
  const url = new URL(`${s.url.href}?api_key=qsecret`);
  const { error, conn } = await failedSend(url, LIST_TOOLS, { headers: { 'X-Api-Key': 'hsecret' } });
  assert.equal(error['kind'], 'transport');
  assert.equal(error['status'], 500);
  assert.equal(error.message, `POST tools/list to ${s.url.origin}/mcp: HTTP 500`);
  assert.equal(s.requests[0]?.path, '/mcp?api_key=qsecret', 'the query is sent');
  assert.equal(conn.target, `${s.url.origin}/mcp`);
});

test('a 503 from a gateway leaves delivery unknown', async () => {
  const s = await server(answer(503));
  const { error } = await failedSend(s.url, CALL_TOOL);
  assert.equal(error['delivery'], 'unknown');
});
