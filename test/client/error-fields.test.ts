/**
 * What code decides on is a field of the error, never its wording: `exit` (how a stdio server's process
 * ended) and `target` (the server the error is about) are set where the facts are known and survive the
 * wrapping of connect() and of the call that was pending; a connection of someone else's whose failure
 * does not name the server is told where, because its error carries no `target`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normalizeConfig } from '../../src/config/index.js';
import { type AnyMcpError, connect, isMcpError, McpError } from '../../src/index.js';
import { createMemoryPair } from '../../src/transport/index.js';
import { fixture } from './helpers.js';

async function failure(promise: Promise<unknown>): Promise<AnyMcpError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isMcpError(error), `not an McpError: ${String(error)}`);
    return error;
  }
  assert.fail('expected a rejection');
}

describe('exit facts and the target are fields', () => {
  test('a server that exits at startup: connect() rejects with exit { code: 2 } and the target', async () => {
    const config = fixture('exit-at-start.mjs');
    const error = await failure(connect(config));
    assert.equal(error.kind, 'closed');
    assert.deepEqual(error.exit, { code: 2, signal: null });
    assert.equal(error.target, normalizeConfig(config).target);
    assert.deepEqual(McpError.fromJSON(error.toJSON()).exit, { code: 2, signal: null }, 'crosses threads');
  });

  test('a server that exits mid-call: the call is told once, the exit on its cause', async () => {
    const config = fixture('crash-mid-call.mjs');
    const target = normalizeConfig(config).target;
    const client = await connect(config);
    try {
      const error = await failure(client.callTool('anything', {}));
      assert.equal(error.kind, 'closed');
      assert.equal(error.target, target);
      const cause = error.cause;
      assert.ok(isMcpError(cause), 'the exit is the cause');
      assert.deepEqual(cause.exit, { code: 3, signal: null });
      // The cause names the server, so the call's sentence does not say it twice.
      assert.equal(error.message.split(target).length - 1, 1, error.message);
      assert.match(error.message, /^tools\/call failed: /);
    } finally {
      await client.close();
    }
  });

  test("a connection whose failure does not name the server: the pending call's sentence does", async () => {
    const { client: pair, server } = createMemoryPair({ target: 'scripted' });
    server.onMessage(({ message }) => {
      if ('id' in message && 'method' in message && message.method === 'initialize')
        server.send({
          jsonrpc: '2.0',
          id: message.id,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            serverInfo: { name: 's', version: '1' },
          },
        });
    });
    // A transport of someone else's: its failure says nothing of the server, and carries no `target`.
    let fail: ((error: McpError) => void) | undefined;
    const connection = {
      ...pair,
      kind: pair.kind,
      traits: pair.traits,
      target: pair.target,
      start: (events: Parameters<typeof pair.start>[0]) => {
        fail = (error) => events.closed(error);
        return pair.start(events);
      },
      send: pair.send.bind(pair),
      negotiated: pair.negotiated.bind(pair),
      close: pair.close.bind(pair),
    };
    const client = await connect({}, { connection });
    try {
      const pending = failure(client.request('custom/wait'));
      await new Promise((resolve) => setImmediate(resolve));
      fail?.(new McpError('closed', 'the socket died', { delivery: 'unknown' }));
      const error = await pending;
      assert.equal(error.message, 'custom/wait on scripted failed: the socket died');
      assert.equal(error.target, 'scripted');
    } finally {
      await client.close();
    }
  });
});
