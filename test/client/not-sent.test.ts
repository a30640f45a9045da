/**
 * `delivery: 'not_sent'` where a request really never left, on both real transports: a stdio server
 * whose stdin is closed (the write fails with EPIPE), and an HTTP endpoint that refuses the connection.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { connect, isMcpError } from '../../src/index.js';
import { fixture } from './helpers.js';

describe('requests that never left report not_sent', () => {
  it('stdio: a server that closed its stdin gets nothing; the call is not_sent', async () => {
    const client = await connect(fixture('closed-stdin.mjs', [], { graceMs: 200 }));
    try {
      let error: unknown;
      // The server closes stdin right after the handshake: the first write may still be in flight.
      for (let attempt = 0; attempt < 50 && error === undefined; attempt++) {
        error = await client.callTool('echo', { text: 'x' }, { timeoutMs: 100 }).then(
          () => undefined,
          (e: unknown) => (isMcpError(e) && e.kind === 'timeout' ? undefined : e),
        );
      }
      assert.ok(isMcpError(error), `want McpError, got ${String(error)}`);
      assert.equal(error.delivery, 'not_sent', `want not_sent, got ${error.delivery}: ${error.message}`);
      assert.match(error.message, /stdin is closed|connection closed/);
    } finally {
      await client.close();
    }
  });

  it('HTTP: a refused connection is not_sent', async () => {
    // A port that was free a moment ago: bind, read the port, close, connect to it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await connect({ url: `http://127.0.0.1:${port}/mcp` }).then(
      (client) => client.close().then(() => undefined),
      (e: unknown) => e,
    );
    assert.ok(isMcpError(error), `want McpError, got ${String(error)}`);
    assert.equal(error.kind, 'transport');
    assert.equal(error.delivery, 'not_sent');
    assert.match(error.message, /ECONNREFUSED/);
  });
});
