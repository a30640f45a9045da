/**
 * The client over the in-memory pair: `connect(config, { connection })`, the handshake's one negotiated
 * value handed to the connection, traits read instead of transport names, and the server's notifications
 * routed to the tool catalog and `onLog`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connect, isMcpError } from '../../src/index.js';
import { scriptedPair } from '../helpers/memory-server.js';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('connect() with a connection given in options', () => {
  it('2025-11-25: initialize, then the negotiated version goes to the connection; calls work', async () => {
    const { connection, server } = scriptedPair({
      onRequest: (request, s) => s.reply(request.id, { content: [{ type: 'text', text: 'hi' }] }),
    });
    const client = await connect({ timeoutMs: 2000 }, { connection });
    try {
      assert.equal(client.protocolVersion, '2025-11-25');
      assert.equal(client.transport, 'memory');
      assert.equal(client.target, 'memory test server');
      assert.deepEqual(client.serverInfo, { name: 'scripted', version: '1.0.0' });
      assert.deepEqual(server.peer.negotiated, { protocolVersion: '2025-11-25', openServerStream: false });
      const result = await client.callTool('echo', { text: 'hi' });
      assert.deepEqual(result.content, [{ type: 'text', text: 'hi' }]);
      assert.deepEqual(
        server.received.map((d) => ('method' in d.message ? d.message.method : 'response')),
        ['initialize', 'notifications/initialized', 'tools/call'],
      );
      assert.equal(server.received[0]?.headers, undefined, 'no per-message headers on this transport');
    } finally {
      await client.close();
    }
    assert.equal(server.peer.closedByClient, true);
  });

  it('asks for the server stream only when the transport has one and a handler can answer', async () => {
    const { connection, server } = scriptedPair({ traits: { serverStream: true } });
    const client = await connect({}, { connection, onElicitation: async () => ({ action: 'decline' }) });
    assert.deepEqual(server.peer.negotiated, { protocolVersion: '2025-11-25', openServerStream: true });
    await client.close();
    const bare = scriptedPair({ traits: { serverStream: true } });
    const plain = await connect({}, { connection: bare.connection });
    assert.equal(bare.server.peer.negotiated?.openServerStream, false, 'nothing to answer: no stream');
    await plain.close();
  });

  it('2026-07-28 with per-message headers: headers are computed and _meta carries the version', async () => {
    const { connection, server } = scriptedPair({
      traits: { perMessageHeaders: true, cancelBy: 'abort' },
      onRequest: (request, s) =>
        s.reply(request.id, {
          content: [],
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'renamed', version: '3' } },
        }),
    });
    const client = await connect({ protocolVersion: '2026-07-28' }, { connection });
    try {
      assert.equal(server.peer.negotiated?.protocolVersion, '2026-07-28');
      await client.callTool('echo', {});
      const call = server.received.find((d) => 'method' in d.message && d.message.method === 'tools/call');
      assert.ok(call, 'the call was sent');
      assert.equal(call.headers?.['Mcp-Method'], 'tools/call');
      assert.equal(call.headers?.['Mcp-Name'], 'echo');
      assert.equal(call.headers?.['MCP-Protocol-Version'], '2026-07-28');
      const meta = (call.message as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
      assert.equal(meta?.['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
      // With per-message headers the tool definitions are listed before the first call (x-mcp-header).
      assert.equal(server.sent('tools/list').length, 1);
      assert.deepEqual(
        client.serverInfo,
        { name: 'renamed', version: '3' },
        'identity from the result _meta',
      );
    } finally {
      await client.close();
    }
  });

  it('2026-07-28 without per-message headers: no headers, no listing before a call', async () => {
    const { connection, server } = scriptedPair({
      onRequest: (request, s) => s.reply(request.id, { content: [] }),
    });
    const client = await connect({ protocolVersion: '2026-07-28' }, { connection });
    await client.callTool('echo', {});
    assert.equal(server.sent('tools/list').length, 0);
    assert.equal(server.received[0]?.headers, undefined);
    await client.close();
  });

  it('auto: discover answers modern, so the client is modern without initialize', async () => {
    const { connection, server } = scriptedPair();
    const client = await connect({ protocolVersion: 'auto' }, { connection });
    assert.equal(client.protocolVersion, '2026-07-28');
    assert.deepEqual(client.serverInfo, { name: 'scripted', version: '2.0.0' });
    assert.equal(server.sent('initialize').length, 0);
    await client.close();
  });

  it('a list_changed notification invalidates the cached tool list; logs reach onLog redacted', async () => {
    const logs: string[] = [];
    const { connection, server } = scriptedPair();
    const client = await connect({}, { connection, onLog: (entry) => logs.push(entry.data) });
    try {
      await client.listTools();
      assert.equal(
        (await client.listToolsDetailed({ cache: true })).fromCache,
        false,
        '2025 lists carry no ttl',
      );
      server.notify('notifications/message', {
        level: 'info',
        data: 'token=sk-secret-value-1234567890abcdef',
      });
      server.notify('notifications/tools/list_changed');
      await flush();
      assert.equal(logs.length, 1);
      assert.doesNotMatch(logs[0] ?? '', /sk-secret-value/);
      assert.equal(server.sent('tools/list').length, 2);
    } finally {
      await client.close();
    }
  });

  it('a config naming a command or url cannot be combined with a connection', async () => {
    const { connection } = scriptedPair();
    const error = await connect({ command: 'node' }, { connection }).catch((e: unknown) => e);
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'config');
    assert.match(error.message, /"command" cannot be combined with a connection/);
  });

  it('a server request the client declared nothing for gets -32601, ping gets an empty result', async () => {
    const { connection, server } = scriptedPair();
    const client = await connect({}, { connection });
    server.peer.send({ jsonrpc: '2.0', id: 'srv-1', method: 'sampling/createMessage', params: {} });
    server.peer.send({ jsonrpc: '2.0', id: 'srv-2', method: 'ping' });
    await flush();
    await flush();
    const answers = server.received.filter((d) => !('method' in d.message)).map((d) => d.message);
    assert.deepEqual(answers, [
      {
        jsonrpc: '2.0',
        id: 'srv-1',
        error: { code: -32601, message: 'Method not found: sampling/createMessage' },
      },
      { jsonrpc: '2.0', id: 'srv-2', result: {} },
    ]);
    await client.close();
  });
});
