/**
 * HttpConnection against the official SDK v2 server (examples/demo-server.mjs, a real child process,
 * stateful Streamable HTTP) with raw JSON-RPC messages: session capture, SSE and JSON answers, GET, DELETE.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningServer, startDemoHttp } from '../../client/http-servers.js';
import { connectHttp } from '../../helpers/http-once.js';

const V = { 'MCP-Protocol-Version': '2025-11-25' };
const initialize = {
  jsonrpc: '2.0' as const,
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'autos-mcp-test', version: '0' },
  },
};

for (const mode of ['sse', 'json'] as const) {
  describe(`raw messages to the SDK v2 server answering ${mode}`, () => {
    let server: RunningServer;
    before(async () => {
      server = await startDemoHttp(mode === 'json');
    });
    after(() => server.stop());

    test('initialize gives a session id that later requests carry; tools/list answers; close ends the session', async () => {
      const { conn, c } = await connectHttp(new URL(server.url));
      await conn.send(initialize);
      assert.match(conn.sessionId ?? '', /^[\x21-\x7e]+$/);
      const init = c.messages[0] as { id: number; result: { protocolVersion: string } };
      assert.equal(init.id, 1);
      assert.equal(init.result.protocolVersion, '2025-11-25');
      await conn.send({ jsonrpc: '2.0', method: 'notifications/initialized' }, { headers: V });
      conn.listen();
      await conn.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { headers: V });
      const list = c.messages.at(-1) as { id: number; result: { tools: Array<{ name: string }> } };
      assert.equal(list.id, 2);
      assert.deepEqual(list.result.tools.map((t) => t.name).sort(), ['echo', 'fail', 'image', 'slow']);
      await conn.close();
    });

    test('a request carrying a session id the server has deleted is session_expired', async () => {
      const { conn: first } = await connectHttp(new URL(server.url));
      await first.send(initialize);
      const dead = first.sessionId ?? '';
      await first.close(); // sends DELETE: the server forgets the session
      const { conn } = await connectHttp(new URL(server.url));
      const error = await conn
        .send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { headers: { ...V, 'Mcp-Session-Id': dead } })
        .then(
          () => undefined,
          (e: { kind?: string; status?: number }) => e,
        );
      assert.equal(error?.kind, 'session_expired');
      assert.equal(error?.status, 404);
      await conn.close();
    });
  });
}
