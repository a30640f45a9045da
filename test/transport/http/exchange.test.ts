/**
 * HttpConnection exchanges against real node:http servers: JSON and SSE answers, hostile streams, size
 * bounds, aborts, and delivery semantics (S25/basic/transports, S26/basic/transports/streamable-http).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answer, CALL_TOOL, connectHttp, failedSend, rejection } from '../../helpers/http-once.js';
import { waitFor } from '../../helpers/wait.js';
import { json, result, serversClosedAfter, startSilentServer } from './test-server.js';

const server = serversClosedAfter();
const SSE = { 'content-type': 'text/event-stream' };

test('a JSON answer is delivered; the POST carries content negotiation, user, auth and per-message headers', async () => {
  const s = await server((req, res) => json(res, 200, result(req.json?.['id'], { ok: true })));
  const { conn, c } = await connectHttp(s.url, { headers: { 'X-Custom': 'yes' }, authToken: 'tok-123' });
  await conn.send(
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    { headers: { 'Mcp-Method': 'tools/list', 'MCP-Protocol-Version': '2026-07-28' } },
  );
  assert.deepEqual(c.messages, [result(1, { ok: true })]);
  const h = s.requests[0]?.headers ?? {};
  assert.equal(h['content-type'], 'application/json');
  assert.equal(h['accept'], 'application/json, text/event-stream');
  assert.equal(h['x-custom'], 'yes');
  assert.equal(h['authorization'], 'Bearer tok-123');
  assert.equal(h['mcp-method'], 'tools/list');
  assert.equal(h['mcp-protocol-version'], '2026-07-28');
  assert.equal(h['mcp-session-id'], undefined);
  assert.equal(h['cookie'], undefined);
  assert.deepEqual(s.requests[0]?.json, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  await conn.close();
});

test('an SSE answer with comments, priming event, junk fields, multi-line data and a notification is delivered in order, and reading stops at the response', async () => {
  let streamClosed = false;
  const s = await server((req, res, raw) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(
      ': keep-alive\n\nid: p1\ndata:\n\nbogus-field: 1\nevent: message\ndata: {"jsonrpc":"2.0",\ndata: "method":"notifications/progress","params":{"progress":1}}\n\n',
    );
    res.write('event: ignored-type\ndata: {"not":"delivered"}\n\n');
    res.write(`data: ${JSON.stringify(result(req.json?.['id'], { done: 1 }))}\n\n`);
    raw.socket.on('close', () => {
      streamClosed = true;
    }); // never ends the stream: the client must stop on its own
  });
  const { conn, c } = await connectHttp(s.url);
  await conn.send({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x' } });
  assert.deepEqual(c.messages, [
    { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
    result('a', { done: 1 }),
  ]);
  await conn.close();
  await waitFor(() => streamClosed, { what: 'the server to see the response stream closed' });
  assert.ok(streamClosed, 'the response stream is closed by the client');
});

test('an SSE answer written one byte at a time (with a multi-byte character) is reassembled', async () => {
  const s = await server(async (req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    const bytes = Buffer.from(
      `data: ${JSON.stringify(result(req.json?.['id'], { text: 'Grüße 世界' }))}\r\n\r\n`,
    );
    for (const byte of bytes) {
      res.write(Buffer.from([byte]));
      await new Promise((r) => setImmediate(r));
    }
    res.end();
  });
  const { conn, c } = await connectHttp(s.url);
  await conn.send({ jsonrpc: '2.0', id: 7, method: 'tools/call' });
  assert.deepEqual(c.messages, [result(7, { text: 'Grüße 世界' })]);
  await conn.close();
});

test('a JSON body over maxMessageBytes fails with too_large', async () => {
  const s = await server((req, res) =>
    json(res, 200, result(req.json?.['id'], { blob: 'x'.repeat(200_000) })),
  );
  const { error, c } = await failedSend(s.url, CALL_TOOL, { maxMessageBytes: 100_000 });
  assert.equal(error['kind'], 'too_large');
  assert.deepEqual(c.messages, []);
});

test('an SSE message over maxMessageBytes fails with too_large, delivery unknown', async () => {
  const s = await server((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`data: ${JSON.stringify(result(req.json?.['id'], { blob: 'x'.repeat(200_000) }))}\n\n`);
  });
  const { error } = await failedSend(s.url, CALL_TOOL, { maxMessageBytes: 100_000 });
  assert.equal(error['kind'], 'too_large');
  assert.equal(error['delivery'], 'unknown');
});

test('an SSE message within the character bound but over maxMessageBytes in UTF-8 fails with too_large', async () => {
  // 60,000 characters of 3 UTF-8 bytes: under the parser's character bound, 180,000 bytes on the wire.
  const s = await server((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`data: ${JSON.stringify(result(req.json?.['id'], { blob: '世'.repeat(60_000) }))}\n\n`);
  });
  const { error, c } = await failedSend(s.url, CALL_TOOL, { maxMessageBytes: 100_000 });
  assert.equal(error['kind'], 'too_large');
  assert.equal(error['delivery'], 'unknown');
  assert.deepEqual(c.messages, []);
});

test('an SSE stream that never ends is bounded by the caller signal: cancelled, delivery unknown', async () => {
  const s = await server((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const timer = setInterval(() => res.write(': ping\n\n'), 20);
    res.on('close', () => clearInterval(timer));
  });
  const { conn } = await connectHttp(s.url);
  const started = performance.now();
  const error = await rejection(
    conn.send({ jsonrpc: '2.0', id: 1, method: 'tools/call' }, { signal: AbortSignal.timeout(150) }),
  );
  assert.equal(error['kind'], 'cancelled');
  assert.equal(error['delivery'], 'unknown');
  assert.ok(performance.now() - started < 1000);
  await conn.close();
});

test('a server that accepts the connection and never answers: the signal aborts, delivery unknown', async () => {
  const silent = await startSilentServer();
  const { error } = await failedSend(
    silent.url,
    { jsonrpc: '2.0', id: 1, method: 'initialize' },
    {},
    { signal: AbortSignal.timeout(100) },
  );
  assert.equal(error['kind'], 'cancelled');
  assert.equal(error['delivery'], 'unknown');
  assert.equal(silent.connections(), 1);
  await silent.close();
});

test('connection refused is a transport error that was certainly not sent', async () => {
  const s = await server(answer(200));
  const url = s.url;
  await s.close();
  const { error } = await failedSend(url);
  assert.equal(error['kind'], 'transport');
  assert.equal(error['delivery'], 'not_sent');
  assert.match(error.message, /ECONNREFUSED/);
});

test('notifications and responses resolve on 202, 204 and an empty 200', async () => {
  const statuses = [202, 204, 200];
  const s = await server((_req, res) => {
    res.writeHead(statuses.shift() ?? 500);
    res.end();
  });
  const { conn } = await connectHttp(s.url);
  await conn.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await conn.send({ jsonrpc: '2.0', id: 5, result: {} });
  await conn.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
  await conn.close();
});

test('a request answered with 202 and no body is a protocol error', async () => {
  const s = await server(answer(202));
  const { error } = await failedSend(s.url);
  assert.equal(error['kind'], 'protocol');
});

test('an SSE event whose data is not JSON fails the exchange with protocol', async () => {
  const s = await server(answer(200, SSE, 'data: {not json\n\n'));
  const { error } = await failedSend(s.url);
  assert.equal(error['kind'], 'protocol');
  assert.equal(error['delivery'], 'unknown');
});

test('a response stream that ends before the response is a transport error, delivery unknown', async () => {
  const s = await server(answer(200, SSE, 'id: e1\ndata: \n\n'));
  const { error } = await failedSend(s.url, CALL_TOOL);
  assert.equal(error['kind'], 'transport');
  assert.equal(error['delivery'], 'unknown');
  assert.match(error.message, /ended before the response/);
  assert.equal(s.requests.length, 1, 'no resumption when not resumable');
});
