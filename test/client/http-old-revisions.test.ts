/**
 * Older revisions over Streamable HTTP: a server that answers `initialize` with 2025-03-26 or 2024-11-05
 * is used for what it shares with 2025-11-25, without the `MCP-Protocol-Version` header it predates; a
 * deprecated HTTP+SSE endpoint gets an error that says what it is.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { connect, isMcpError } from '../../src/index.js';
import { json, type Recorded, result, serversClosedAfter } from '../transport/http/test-server.js';

const server = serversClosedAfter();

function olderServer(version: string) {
  return server((req: Recorded, res) => {
    const id = req.json?.['id'];
    if (req.method !== 'POST' || id === undefined) {
      res.writeHead(req.method === 'POST' ? 202 : 405);
      res.end();
      return;
    }
    switch (req.json?.['method']) {
      case 'initialize':
        json(
          res,
          200,
          result(id, {
            protocolVersion: version,
            capabilities: { tools: {} },
            serverInfo: { name: 'old', version: '0.6.2' },
          }),
          {
            'mcp-session-id': 'old-session',
          },
        );
        return;
      case 'tools/list':
        json(res, 200, result(id, { tools: [{ name: 'query', inputSchema: { type: 'object' } }] }));
        return;
      default:
        json(res, 200, result(id, { content: [{ type: 'text', text: 'rows' }] }));
    }
  });
}

describe('older revisions over Streamable HTTP', () => {
  for (const version of ['2024-11-05', '2025-03-26']) {
    for (const protocolVersion of ['2025-11-25', 'auto'] as const) {
      it(`${version} (${protocolVersion}): tools work, and no MCP-Protocol-Version header is sent`, async () => {
        const s = await olderServer(version);
        const client = await connect({ url: s.url.href, protocolVersion });
        assert.equal(client.protocolVersion, version);
        assert.deepEqual(
          (await client.listTools()).map((t) => t.name),
          ['query'],
        );
        const answer = await client.callTool('query', { sql: 'select 1' });
        assert.deepEqual(answer.content, [{ type: 'text', text: 'rows' }]);
        await client.close();
        const afterInit = s.requests.filter(
          (r) => r.json?.['method'] !== 'initialize' && r.json?.['method'] !== 'server/discover',
        );
        assert.ok(afterInit.length >= 3, 'initialized, tools/list, tools/call (and the DELETE)');
        for (const r of afterInit) {
          assert.equal(
            r.headers['mcp-protocol-version'],
            undefined,
            `${r.method} ${String(r.json?.['method'])}`,
          );
          assert.equal(r.headers['mcp-session-id'], 'old-session');
        }
      });
    }
  }

  it('2025-06-18 gets the header', async () => {
    const s = await olderServer('2025-06-18');
    const client = await connect({ url: s.url.href });
    await client.listTools();
    await client.close();
    const list = s.requests.find((r) => r.json?.['method'] === 'tools/list');
    assert.equal(list?.headers['mcp-protocol-version'], '2025-06-18');
  });

  it('a deprecated HTTP+SSE endpoint (405 to the POST) is an error that says so', async () => {
    const s = await server((_req, res) => {
      res.writeHead(405, { allow: 'GET' });
      res.end();
    });
    const error = await connect({ url: s.url.href }).catch((e: unknown) => e);
    assert.ok(isMcpError(error), `want McpError, got ${String(error)}`);
    assert.equal(error.kind, 'transport');
    assert.equal(error.status, 405);
    assert.match(
      error.message,
      /deprecated HTTP\+SSE transport \(2024-11-05\), that transport is not supported/,
    );
  });
});

/**
 * What a Streamable HTTP server on the Rust SDK (rmcp 1.x–2.x, `StreamableHttpService`) does with a request
 * before `initialize`: stateful (the default), a POST without `Mcp-Session-Id` that is not `initialize`
 * gets 422 `Unexpected message, expect initialize request` as text/plain; stateless, any request whose
 * `MCP-Protocol-Version` it does not know gets 400 `Bad Request: Unsupported MCP-Protocol-Version: …`.
 */
function rmcpServer(stateful: boolean) {
  const known = ['2024-11-05', '2025-03-26', '2025-06-18'];
  const plain = (res: ServerResponse, status: number, text: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(text);
  };
  return server((req: Recorded, res) => {
    const id = req.json?.['id'];
    const method = req.json?.['method'];
    if (req.method === 'DELETE' || id === undefined) {
      res.writeHead(req.method === 'POST' || req.method === 'DELETE' ? 202 : 405);
      res.end();
      return;
    }
    const header = req.headers['mcp-protocol-version'];
    if (stateful && req.headers['mcp-session-id'] === undefined && method !== 'initialize') {
      plain(res, 422, 'Unexpected message, expect initialize request');
      return;
    }
    if (typeof header === 'string' && !known.includes(header) && method !== 'initialize') {
      plain(res, 400, `Bad Request: Unsupported MCP-Protocol-Version: ${header}`);
      return;
    }
    const session = stateful ? { 'mcp-session-id': 'rmcp-session' } : undefined;
    switch (method) {
      case 'initialize':
        json(
          res,
          200,
          result(id, {
            protocolVersion: '2025-06-18',
            capabilities: { tools: {} },
            serverInfo: { name: 'rmcp', version: '1.1.1' },
          }),
          session,
        );
        return;
      case 'tools/list':
        json(res, 200, result(id, { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }));
        return;
      default:
        json(res, 200, result(id, { content: [{ type: 'text', text: String(method) }] }));
    }
  });
}

describe('auto with a Streamable HTTP server on the Rust SDK (rmcp), which refuses requests before initialize', () => {
  for (const [mode, status] of [
    ['stateful', 422],
    ['stateless', 400],
  ] as const) {
    it(`${mode}: its ${status} to server/discover means legacy; the call is sent once; the era is remembered`, async () => {
      const s = await rmcpServer(mode === 'stateful');
      const config = { url: s.url.href, protocolVersion: 'auto' } as const;
      const client = await connect(config);
      assert.equal(client.protocolVersion, '2025-06-18');
      assert.deepEqual((await client.callTool('echo', {})).content, [{ type: 'text', text: 'tools/call' }]);
      await client.close();
      const methods = () => s.requests.map((r) => r.json?.['method']).filter((m) => m !== undefined);
      assert.equal(methods().filter((m) => m === 'server/discover').length, 1);
      assert.equal(methods().filter((m) => m === 'tools/call').length, 1);
      await (await connect(config)).close();
      assert.equal(methods().filter((m) => m === 'server/discover').length, 1, 'no second probe');
    });
  }
});
