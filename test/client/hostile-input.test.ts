/**
 * Hostile servers and careless input, at the client: bounded memory when a server never reads, timers that
 * mean what they say, `not_sent` for a call that never left, consistency of what is listed and callable,
 * progress only on tokens the client handed out, single-flight listing, and `auto` not remembering a guess
 * whose handshake failed.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { clearEraCache } from '../../src/client/lifecycle.js';
import { callToolOnce, connect, isMcpError } from '../../src/index.js';
import { scriptedPair, startedEngine } from '../helpers/memory-server.js';
import { waitFor } from '../helpers/wait.js';
import { json, type Recorded, result, serversClosedAfter } from '../transport/http/test-server.js';
import { fixture } from './helpers.js';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
setFlagsFromString('--expose-gc');
/** The real garbage collector, so heap figures are live objects only. */
const gc = runInNewContext('gc') as () => void;
const server = serversClosedAfter();

describe('a server that never reads its stdin', () => {
  it('requests pile up only to maxQueuedBytes, then the connection fails with a clear error', async () => {
    const client = await connect(fixture('never-reads.mjs', [], { graceMs: 200, timeoutMs: 30_000 }));
    const big = 'x'.repeat(1024 * 1024);
    const calls = Array.from({ length: 64 }, () =>
      client.callTool('echo', { text: big }).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    const errors = await Promise.all(calls);
    await client.close();
    const refused = errors.find((e) => isMcpError(e) && e.delivery === 'not_sent' && e.kind === 'transport');
    assert.ok(isMcpError(refused), 'a call beyond the bound is refused, not queued');
    assert.match(
      refused.message,
      /does not read its stdin: more than 33554432 bytes of messages are waiting \(maxQueuedBytes\)/,
    );
    for (const error of errors)
      assert.ok(isMcpError(error), `every call failed with an McpError, got ${String(error)}`);
  });

  it('maxQueuedBytes is an option: a smaller bound fails sooner', async () => {
    const client = await connect(
      fixture('never-reads.mjs', [], { graceMs: 200, maxQueuedBytes: 1024 * 1024 }),
    );
    const big = 'x'.repeat(300 * 1024);
    const errors = await Promise.all(
      Array.from({ length: 16 }, () => client.callTool('echo', { text: big }).catch((e: unknown) => e)),
    );
    await client.close();
    const refused = errors.find((e) => isMcpError(e) && e.delivery === 'not_sent');
    assert.ok(isMcpError(refused));
    assert.match(refused.message, /more than 1048576 bytes of messages are waiting/);
  });

  it('a flood of 300k pings it never reads the answers of keeps the host bounded', async () => {
    const client = await connect(fixture('never-reads.mjs', ['pings', '300000'], { graceMs: 200 }));
    gc();
    const before = process.memoryUsage().heapUsed;
    // The pings arrive for a while; the answers cannot be written. Wait until the flood has passed.
    let last = -1;
    for (let i = 0; i < 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50)); // polling the host's own heap: no event to wait for
      const now = process.memoryUsage().heapUsed;
      if (Math.abs(now - last) < 64 * 1024 && i > 20) break;
      last = now;
    }
    gc();
    const growth = process.memoryUsage().heapUsed - before;
    await client.close();
    // Unbounded, the waiting answers held ~48 MB here (and +265 MB in the report that found it); bounded, ~9 MB.
    assert.ok(
      growth < 24 * 1024 * 1024,
      `want < 24 MB of heap growth, got ${(growth / 1048576).toFixed(1)} MB`,
    );
  });
});

describe('timer options mean what they say', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 }));
  afterEach(() => mock.timers.reset());

  async function engine() {
    const { engine: e, server: peer } = await startedEngine();
    return { engine: e, peer };
  }

  for (const ms of [Number.POSITIVE_INFINITY, 2 ** 31, 1e12]) {
    it(`timeoutMs ${ms} does not fire early (Node would clamp it to 1 ms)`, async () => {
      const { engine: e, peer } = await engine();
      let settled = false;
      const call = e.request('tools/call', {}, { timeoutMs: ms }).finally(() => {
        settled = true;
      });
      await flush();
      mock.timers.tick(2 ** 31 + 10_000);
      await flush();
      assert.equal(settled, false, 'still waiting after more than 2^31 ms');
      peer.reply(1, { ok: true });
      assert.deepEqual(await call, { ok: true });
    });
  }

  it('1e12 ms still fires, at its time', async () => {
    const { engine: e } = await engine();
    const call = e
      .request('tools/call', {}, { timeoutMs: 3e9, maxTotalTimeoutMs: 3e9 })
      .catch((x: unknown) => x);
    await flush();
    mock.timers.tick(3e9 - 1);
    await flush();
    mock.timers.tick(1);
    await flush();
    const error = await call;
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'timeout');
  });

  for (const bad of [Number.NaN, -1, 0, '100' as unknown as number]) {
    it(`timeoutMs ${String(bad)} is a config error before anything is sent`, async () => {
      const { engine: e, peer } = await engine();
      const error = await e.request('tools/call', {}, { timeoutMs: bad }).catch((x: unknown) => x);
      assert.ok(isMcpError(error));
      assert.equal(error.kind, 'config');
      assert.equal(error.delivery, 'not_sent');
      await flush();
      assert.equal(peer.sent('tools/call').length, 0);
    });
  }

  it('progress on a token the client never handed out does not keep a call alive', async () => {
    const { engine: e, peer } = await engine();
    const call = e.request('tools/call', {}, { timeoutMs: 1000 }).catch((x: unknown) => x);
    await flush();
    for (let i = 0; i < 3; i++) {
      mock.timers.tick(500);
      peer.notify('notifications/progress', { progressToken: 1, progress: i });
      await flush();
    }
    const error = await call;
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'timeout');
  });
});

describe('connect options are checked before anything starts', () => {
  it('a bad ConnectOptions.timeoutMs is a config error and spawns nothing', async () => {
    const error = await connect(fixture('echo-server.mjs'), { timeoutMs: -5 }).catch((x: unknown) => x);
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'config');
    assert.match(error.message, /timeoutMs/);
  });
});

describe('a call that never left says not_sent', () => {
  it('one-shot callTool whose initialize times out', async () => {
    const error = await callToolOnce(
      fixture('slow-start.mjs', ['5000']),
      'echo',
      { text: 'x' },
      { timeoutMs: 300 },
    ).catch((x: unknown) => x);
    assert.ok(isMcpError(error), `want McpError, got ${String(error)}`);
    assert.equal(error.kind, 'timeout');
    assert.equal(error.delivery, 'not_sent');
    assert.match(
      error.message,
      /^tools\/call echo: connecting failed: node slow-start\.mjs \(pid \d+\) is running but did not answer initialize within 300 ms$/,
    );
    // connect() failed as not_sent (nothing of the caller's left); the initialize's own fate is its cause.
    assert.ok(isMcpError(error.cause) && error.cause.delivery === 'not_sent');
    const initialize = (error.cause as { cause?: unknown }).cause;
    assert.ok(
      isMcpError(initialize) && initialize.delivery === 'unknown',
      "the initialize's own fate is in the cause chain",
    );
  });

  it('a 2026 call whose implicit tools/list times out', async () => {
    const slow = scriptedPair({ traits: { perMessageHeaders: true, cancelBy: 'abort' } });
    const client = await connect({ protocolVersion: '2026-07-28' }, { connection: slow.connection });
    slow.server.peer.onMessage(() => {}); // from now on nothing is answered
    const error = await client.callTool('echo', {}, { timeoutMs: 200 }).catch((x: unknown) => x);
    await client.close();
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'timeout');
    assert.equal(error.delivery, 'not_sent');
    assert.match(
      error.message,
      /^tools\/call echo: the tools\/list it needs first failed: tools\/list on memory test server: no answer within 200 ms$/,
    );
  });

  it('arguments that are not JSON data (a BigInt) over stdio', async () => {
    const client = await connect(fixture('echo-server.mjs'));
    const error = await client.callTool('echo', { n: 10n }).catch((x: unknown) => x);
    await client.close();
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'config');
    assert.equal(error.delivery, 'not_sent');
  });
});

describe('arguments that are not JSON data over HTTP', () => {
  it('a BigInt argument is a config error, not_sent, and nothing reaches the server', async () => {
    const s = await server((req: Recorded, res) => {
      const id = req.json?.['id'];
      if (id === undefined) {
        res.writeHead(202);
        res.end();
        return;
      }
      json(
        res,
        200,
        result(id, {
          protocolVersion: '2025-11-25',
          capabilities: {},
          serverInfo: { name: 's', version: '1' },
        }),
      );
    });
    const client = await connect({ url: s.url.href });
    const before = s.requests.length;
    const error = await client.callTool('echo', { n: 10n }).catch((x: unknown) => x);
    await client.close();
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'config');
    assert.equal(error.delivery, 'not_sent');
    assert.equal(s.requests.filter((r) => r.json?.['method'] === 'tools/call').length, 0);
    assert.ok(s.requests.length >= before);
  });
});

describe('what is listed is callable, what is excluded is refused', () => {
  it('two tools with one name: both excluded, the call refused at once', async () => {
    const tool = { name: 'twice', inputSchema: { type: 'object' } };
    const { connection, server: peer } = scriptedPair({ tools: [tool, { ...tool, description: 'other' }] });
    const client = await connect({}, { connection });
    const list = await client.listToolsDetailed();
    assert.deepEqual(list.tools, []);
    assert.deepEqual(
      list.excluded.map((e) => e.name),
      ['twice', 'twice'],
    );
    const error = await client.callTool('twice', {}).catch((x: unknown) => x);
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'invalid_tool');
    assert.equal(peer.sent('tools/call').length, 0);
    await client.close();
  });
});

describe('single flight', () => {
  it('20 concurrent first calls on a 2026 client with per-message headers share one tools/list', async () => {
    const { connection, server: peer } = scriptedPair({
      traits: { perMessageHeaders: true, cancelBy: 'abort' },
      onRequest: (request, s) => s.reply(request.id, { content: [] }),
    });
    const client = await connect({ protocolVersion: '2026-07-28' }, { connection });
    await Promise.all(Array.from({ length: 20 }, () => client.callTool('echo', {})));
    assert.equal(peer.sent('tools/list').length, 1);
    assert.equal(peer.sent('tools/call').length, 20);
    await client.close();
  });
});

describe('auto remembers an era only once its handshake worked', () => {
  it('a failed initialize after a failed probe is not remembered: the next connect probes again', async () => {
    clearEraCache();
    let initializeCalls = 0;
    const s = await server((req: Recorded, res) => {
      const id = req.json?.['id'];
      const method = req.json?.['method'];
      if (id === undefined) {
        res.writeHead(202);
        res.end();
        return;
      }
      if (method === 'server/discover') {
        json(res, 200, { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
        return;
      }
      if (method === 'initialize' && ++initializeCalls === 1) {
        json(res, 200, { jsonrpc: '2.0', id, error: { code: -32603, message: 'not ready yet' } });
        return;
      }
      json(
        res,
        200,
        result(id, {
          protocolVersion: '2025-11-25',
          capabilities: {},
          serverInfo: { name: 's', version: '1' },
        }),
      );
    });
    const first = await connect({ url: s.url.href, protocolVersion: 'auto' }).catch((x: unknown) => x);
    assert.ok(isMcpError(first), 'the first handshake failed');
    const second = await connect({ url: s.url.href, protocolVersion: 'auto' });
    await second.close();
    const probes = s.requests.filter((r) => r.json?.['method'] === 'server/discover');
    assert.equal(probes.length, 2, 'the second connect probed again');
  });
});

describe('a server that makes the client answer 1500 requests whose answer POSTs never complete', () => {
  it('opens at most the pool cap of sockets, with at most 16 answers in flight', async () => {
    let open = 0;
    let most = 0;
    let held = 0;
    const sockets = new Set<Socket>();
    const http = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      req.on('end', () => {
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          for (let i = 0; i < 1500; i++)
            res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: `s${i}`, method: 'ping' })}\n\n`);
          return; // the stream stays open
        }
        if (req.method === 'DELETE') {
          res.writeHead(200);
          res.end();
          return;
        }
        const message = JSON.parse(body) as { id?: unknown; method?: unknown; result?: unknown };
        if (message.method === 'initialize') {
          const answer = result(message.id, {
            protocolVersion: '2025-11-25',
            capabilities: {},
            serverInfo: { name: 's', version: '1' },
          });
          res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'flood' });
          res.end(JSON.stringify(answer));
          return;
        }
        if ('result' in message) {
          held++; // an answer to one of our pings: never completed
          return;
        }
        res.writeHead(202);
        res.end();
      });
    });
    http.on('connection', (socket: Socket) => {
      sockets.add(socket);
      open++;
      most = Math.max(most, open);
      socket.on('close', () => {
        sockets.delete(socket);
        open--;
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    try {
      const client = await connect(
        { url: `http://127.0.0.1:${port}/mcp`, timeoutMs: 5000 },
        { onElicitation: async () => ({ action: 'decline' }) },
      );
      await waitFor(() => held >= 15, { what: '15 answers held by the server', timeoutMs: 5000 });
      // Give the client every chance to open more than it should: it must not.
      await new Promise((resolve) => setTimeout(resolve, 300)); // proving nothing more happens in a window
      const heldAtPeak = held;
      await client.close();
      // 16 answers may be in flight; the pool's 16 sockets, one of them the GET stream, carry 15 at once.
      assert.ok(heldAtPeak >= 15 && heldAtPeak <= 16, `answers in flight at once: ${heldAtPeak}`);
      assert.ok(most <= 17, `want at most 17 sockets (the pool's cap of 16, one spare), got ${most}`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
