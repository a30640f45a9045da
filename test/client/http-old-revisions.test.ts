/**
 * Older revisions over Streamable HTTP: a server that answers `initialize` with 2025-03-26 or 2024-11-05
 * is used for what it shares with 2025-11-25, without the `MCP-Protocol-Version` header it predates; a
 * deprecated HTTP+SSE endpoint gets an error that says what it is.
 */
import assert from 'node:assert/strict';
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
