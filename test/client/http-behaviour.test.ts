/**
 * Client behaviour over Streamable HTTP that needs a server we control (real node:http on port 0):
 * how a timeout cancels in each revision, that a broken 2026 stream is never re-sent, -32022 handling,
 * and `auto` against the 2025-only server-everything.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clearEraCache } from '../../src/client/lifecycle.js';
import { type CallToolResult, isMcpError, withClient } from '../../src/index.js';
import { listenLocal, readBody } from '../helpers/http-server.js';
import { waitFor } from '../helpers/wait.js';
import { ROOT, textOf } from './helpers.js';
import { freePort, type RunningServer, startServer } from './http-servers.js';

interface Seen {
  method: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  closedEarly: boolean;
}

/** A minimal MCP endpoint: 2026 stateless or 2025 stateful (JSON answers), with scripted tools. */
function scriptedServer() {
  const seen: Seen[] = [];
  let lists = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then((raw) => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const entry: Seen = {
        method: String(body['method'] ?? req.method),
        headers: req.headers,
        body,
        closedEarly: false,
      };
      seen.push(entry);
      res.on('close', () => {
        if (!res.writableFinished) entry.closedEarly = true;
      });
      const id = body['id'];
      const params = (body['params'] ?? {}) as Record<string, unknown>;
      const reply = (result: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
      };
      if (id === undefined) return void res.writeHead(202).end();
      if (body['method'] === 'initialize') {
        res.setHeader('mcp-session-id', 'session-1');
        return reply({
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'scripted', version: '1' },
        });
      }
      if (body['method'] === 'tools/call' && params['name'] === 'moved') {
        if (req.headers['mcp-param-region'] === undefined) {
          res.writeHead(400, { 'content-type': 'application/json' });
          return void res.end(
            JSON.stringify({
              jsonrpc: '2.0',
              id,
              error: { code: -32020, message: 'Header mismatch: Mcp-Param-Region' },
            }),
          );
        }
        return reply({
          resultType: 'complete',
          content: [{ type: 'text', text: `region ${req.headers['mcp-param-region']}` }],
        });
      }
      if (body['method'] === 'tools/call') {
        const name = params['name'];
        if (name === 'hang')
          return void res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n');
        if (name === 'break') {
          res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': about to break\n\n');
          setTimeout(() => res.destroy(), 20); // the stream breaks after its first bytes: the case under test
          return;
        }
        if (
          name === 'refuse_version_once' &&
          seen.filter((s) => (s.body['params'] as { name?: string })?.name === name).length === 1
        ) {
          res.writeHead(400, { 'content-type': 'application/json' });
          return void res.end(
            JSON.stringify({
              jsonrpc: '2.0',
              id,
              error: {
                code: -32022,
                message: 'Unsupported',
                data: { supported: ['2026-07-28'], requested: 'x' },
              },
            }),
          );
        }
        return reply({ resultType: 'complete', content: [{ type: 'text', text: `called ${String(name)}` }] });
      }
      if (body['method'] === 'tools/list') {
        lists++;
        const region = { type: 'string', ...(lists > 1 ? { 'x-mcp-header': 'Region' } : {}) };
        const later = lists > 1 ? [{ name: 'late_tool', inputSchema: { type: 'object' } }] : [];
        return reply({
          resultType: 'complete',
          tools: [
            ...['hang', 'break', 'refuse_version_once'].map((n) => ({
              name: n,
              inputSchema: { type: 'object' },
            })),
            { name: 'moved', inputSchema: { type: 'object', properties: { region } } },
            ...later,
          ],
        });
      }
      reply({});
    });
  });
  const resetLists = () => {
    lists = 0;
  };
  return { server, seen, resetLists };
}

const isHang = (s: Seen) => (s.body['params'] as { name?: string })?.name === 'hang';

describe('cancellation and broken streams over HTTP', () => {
  const { server, seen } = scriptedServer();
  let url = '';
  before(async () => {
    url = (await listenLocal(server)).href;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  test('2026: a timeout closes the response stream (the cancellation) and sends no notifications/cancelled', async () => {
    seen.length = 0;
    await withClient({ url, protocolVersion: '2026-07-28' }, async (client) => {
      // Listed first, so the call's deadline covers the call alone: a tools/list inside it left a busy
      // machine no time to send the call (not_sent, seen once on Node 22 in a full run).
      await client.listTools();
      await assert.rejects(client.callTool('hang', {}, { timeoutMs: 150 }), (error: unknown) => {
        assert.ok(isMcpError(error));
        assert.equal(error.kind, 'timeout');
        assert.equal(error.delivery, 'unknown');
        return true;
      });
      await waitFor(() => seen.find((s) => s.method === 'tools/call')?.closedEarly, {
        what: 'the server to see the stream closed',
      });
      // A window for a notifications/cancelled that must not come: proving an absence needs a wait.
      await new Promise((r) => setTimeout(r, 100));
    });
    const call = seen.find((s) => s.method === 'tools/call');
    assert.equal(call?.closedEarly, true, 'the server saw the stream closed');
    assert.equal(seen.filter((s) => s.method === 'notifications/cancelled').length, 0);
    assert.equal(call?.headers['mcp-method'], 'tools/call');
    assert.equal(call?.headers['mcp-name'], 'hang');
  });

  test('after completed calls, cancelling the next one still closes its stream, and later calls succeed', async () => {
    // The engine reuses the abort controllers of completed requests: reuse must not weaken cancellation.
    seen.length = 0;
    await withClient({ url, protocolVersion: '2026-07-28' }, async (client) => {
      for (let i = 0; i < 3; i++) await client.callTool('plain', {});
      const controller = new AbortController();
      const hang = client.callTool('hang', {}, { signal: controller.signal });
      await waitFor(() => seen.some(isHang), { what: 'the hang call at the server' });
      controller.abort();
      await assert.rejects(hang, (error: unknown) => isMcpError(error) && error.kind === 'cancelled');
      const after = await client.callTool('plain', {});
      assert.equal(textOf(after), 'called plain');
      await waitFor(() => seen.find(isHang)?.closedEarly, {
        what: 'the server to see the hang stream closed',
      });
    });
    const hung = seen.find(isHang);
    assert.equal(hung?.closedEarly, true, 'the server saw the cancelled stream closed');
  });

  test('2025: a timeout sends notifications/cancelled with the request id and the session', async () => {
    seen.length = 0;
    await withClient({ url, protocolVersion: '2025-11-25' }, async (client) => {
      await assert.rejects(
        client.callTool('hang', {}, { timeoutMs: 150 }),
        (error: unknown) => isMcpError(error) && error.kind === 'timeout',
      );
      await waitFor(() => seen.some((s) => s.method === 'notifications/cancelled'), {
        what: 'notifications/cancelled at the server',
      });
    });
    const call = seen.find((s) => s.method === 'tools/call');
    const cancel = seen.find((s) => s.method === 'notifications/cancelled');
    assert.ok(cancel, 'notifications/cancelled was posted');
    assert.equal((cancel.body['params'] as { requestId: unknown }).requestId, call?.body['id']);
    assert.equal(cancel.headers['mcp-session-id'], 'session-1');
    assert.equal(cancel.headers['mcp-protocol-version'], '2025-11-25');
  });

  test('2026: a stream that breaks is a transport error with delivery unknown, and is never re-sent', async () => {
    seen.length = 0;
    await withClient({ url, protocolVersion: '2026-07-28' }, async (client) => {
      await assert.rejects(client.callTool('break'), (error: unknown) => {
        assert.ok(isMcpError(error));
        assert.equal(error.kind, 'transport');
        assert.equal(error.delivery, 'unknown');
        return true;
      });
    });
    assert.equal(seen.filter((s) => s.method === 'tools/call').length, 1);
  });

  test('2026: -32022 with a common version is retried once, with a new id', async () => {
    seen.length = 0;
    await withClient({ url, protocolVersion: '2026-07-28' }, async (client) => {
      const result = (await client.callTool('refuse_version_once')) as CallToolResult;
      assert.equal(textOf(result), 'called refuse_version_once');
    });
    const calls = seen.filter((s) => s.method === 'tools/call');
    assert.equal(calls.length, 2);
    assert.notEqual(calls[0]?.body['id'], calls[1]?.body['id']);
  });
});

describe('2026 tool headers kept current over HTTP', () => {
  const { server, seen, resetLists } = scriptedServer();
  let url = '';
  before(async () => {
    url = (await listenLocal(server)).href;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  test('-32020 on Mcp-Param headers: the tool list is re-fetched and the call sent once more with the header', async () => {
    seen.length = 0;
    resetLists();
    await withClient({ url, protocolVersion: '2026-07-28' }, async (client) => {
      const result = (await client.callTool('moved', { region: 'eu-west' })) as CallToolResult;
      assert.equal(textOf(result), 'region eu-west');
    });
    assert.equal(seen.filter((s) => s.method === 'tools/list').length, 2);
    const calls = seen.filter((s) => s.method === 'tools/call');
    assert.equal(calls.length, 2);
    assert.equal(calls[0]?.headers['mcp-param-region'], undefined);
    assert.equal(calls[1]?.headers['mcp-param-region'], 'eu-west');
  });

  test('a tool the last list did not have triggers one re-list before the call', async () => {
    seen.length = 0;
    resetLists();
    await withClient({ url, protocolVersion: '2026-07-28' }, async (client) => {
      await client.listTools();
      const result = (await client.callTool('late_tool')) as CallToolResult;
      assert.equal(textOf(result), 'called late_tool');
      await client.callTool('late_tool');
    });
    assert.equal(seen.filter((s) => s.method === 'tools/list').length, 2);
  });
});

describe('@modelcontextprotocol/server-everything over Streamable HTTP (2025 only)', () => {
  let server: RunningServer;
  before(async () => {
    const port = await freePort();
    server = await startServer(
      path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
      ['streamableHttp'],
      (line) => (/listening on port/.test(line) ? `http://127.0.0.1:${port}/mcp` : undefined),
      { PORT: String(port) },
    );
  });
  after(() => server.stop());

  test('2025-11-25: lists tools and calls echo over SSE answers', async () => {
    await withClient({ url: server.url }, async (client) => {
      assert.equal(client.protocolVersion, '2025-11-25');
      assert.ok((await client.listTools()).some((t) => t.name === 'echo'));
      assert.match(
        textOf((await client.callTool('echo', { message: 'remote' })) as CallToolResult),
        /remote/,
      );
    });
  });

  test('auto falls back to initialize after a 4xx without a 2026 error body', async () => {
    clearEraCache();
    await withClient({ url: server.url, protocolVersion: 'auto' }, async (client) => {
      assert.equal(client.protocolVersion, '2025-11-25');
      assert.match(textOf((await client.callTool('echo', { message: 'auto' })) as CallToolResult), /auto/);
    });
  });
});
