/**
 * `destroy()` on Streamable HTTP: the immediate end of the connection contract. It aborts what is in
 * flight and destroys the pool without the session DELETE, and cuts short a `close()` waiting on its DELETE.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent } from 'undici';
import { HttpConnection } from '../../../src/transport/http/index.js';
import { collector, connectHttp, options, rejection } from '../../helpers/http-once.js';
import { waitFor } from '../../helpers/wait.js';
import { json, result, serversClosedAfter } from './test-server.js';

const server = serversClosedAfter();

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} } as const;
const CALL = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'hang' } } as const;

/** Answers initialize with a session; never answers a tools/call; answers DELETE unless told to hang. */
function sessionServer(deleteHangs: boolean) {
  return server((req, res) => {
    if (req.method === 'DELETE') {
      if (deleteHangs) return;
      res.writeHead(200);
      res.end();
      return;
    }
    if (req.json?.['method'] === 'initialize') {
      json(res, 200, result(req.json['id']), { 'mcp-session-id': 'sess-1' });
    }
  });
}

test('destroy() ends the exchange in flight at once and sends no DELETE', async () => {
  const s = await sessionServer(false);
  const { conn, c } = await connectHttp(s.url);
  await conn.send(INITIALIZE);
  assert.equal(conn.sessionId, 'sess-1');
  const hanging = rejection(conn.send(CALL));
  await waitFor(() => s.requests.some((r) => r.json?.['method'] === 'tools/call'), {
    what: 'the tools/call to reach the server',
  });
  conn.destroy();
  const error = await hanging;
  assert.equal(error['kind'], 'closed', `want closed, got ${error['kind']}: ${error.message}`);
  assert.deepEqual(await conn.close(), {}, 'close() after destroy() resolves with the report');
  const refused = await rejection(conn.send({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  assert.equal(refused['kind'], 'closed');
  conn.destroy(); // idempotent
  assert.deepEqual(
    s.requests.map((r) => r.method),
    ['POST', 'POST'],
    'want no DELETE after destroy()',
  );
  assert.equal(c.messages.length, 1, 'only the initialize answer was delivered');
});

test('destroy() cuts short a close() that waits on its session DELETE, also on a dispatcher it does not own', async () => {
  const s = await sessionServer(true);
  // The caller's dispatcher is not destroyed with the connection: only destroy() itself can end the wait.
  const dispatcher = new Agent();
  const conn = new HttpConnection(options(s.url), { dispatcher });
  await conn.start(collector().events);
  await conn.send(INITIALIZE);
  const closing = conn.close();
  await waitFor(() => s.requests.some((r) => r.method === 'DELETE'), {
    what: 'the DELETE to reach the server',
  });
  let closed = false;
  void closing.then(() => (closed = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(closed, false, 'the close waits for its DELETE');
  conn.destroy();
  // The DELETE's own limit is 2 s; destroy() ends the wait now, so the close resolves first.
  const first = await Promise.race([
    closing.then(() => 'close'),
    new Promise((resolve) => setTimeout(resolve, 1500, 'the DELETE limit')),
  ]);
  assert.equal(first, 'close');
  await dispatcher.destroy();
});
