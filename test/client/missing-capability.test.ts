/**
 * `-32021` MissingRequiredClientCapability (2026-07-28) is its own kind, `missing_capability`: the server's
 * `error.data` kept as data, what is missing named in the message — each name terminal-safe and bounded, at
 * most 8 named — and under `auto` a probe refused with it means a modern server (no legacy fallback).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connect, isMcpError } from '../../src/index.js';
import { createMemoryPair } from '../../src/transport/index.js';
import { scriptedPair } from '../helpers/memory-server.js';

const hostileData = {
  requiredCapabilities: {
    elicitation: { url: {} },
    extensions: Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [
        `com.example/\x1b[31mext${i}${'x'.repeat(i === 0 ? 500 : 0)}`,
        {},
      ]),
    ),
  },
};

test('a -32021 answer is missing_capability with its data and the missing parts named safely', async () => {
  const { connection } = scriptedPair({
    onRequest: (request, server) =>
      server.peer.send({
        jsonrpc: '2.0',
        id: request.id,
        error: { code: -32021, message: 'Missing required client capability', data: hostileData },
      }),
  });
  const client = await connect({ protocolVersion: '2026-07-28' }, { connection });
  try {
    await assert.rejects(client.callTool('echo', {}), (error: unknown) => {
      assert.ok(isMcpError(error));
      assert.equal(error.kind, 'missing_capability');
      assert.equal(error.delivery, 'delivered');
      assert.equal(error.code, -32021);
      assert.deepEqual(error.data, hostileData);
      assert.doesNotMatch(error.message, /\x1b/);
      assert.match(
        error.message,
        /^tools\/call on memory test server: the server requires elicitation, extension .*, extension com\.example\/ext1, /,
      );
      assert.match(
        error.message,
        / and 5 more; turn the extension on with connect\(config, \{ extensions: \[id\] \}\) or --extension <id>$/,
      );
      assert.ok(error.message.length < 1200, `${error.message.length}`);
      // The round trip keeps it (errors cross threads as data).
      assert.equal(error.toJSON().kind, 'missing_capability');
      return true;
    });
  } finally {
    await client.close();
  }
});

test('auto: a probe refused with -32021 is a modern server asking for more, not a legacy one', async () => {
  const { client: connection, server: end } = createMemoryPair({ target: 'probe test', traits: {} });
  const methods: string[] = [];
  end.onMessage((delivery) => {
    const message = delivery.message as { id?: number | string; method?: string };
    if (message.method !== undefined) methods.push(message.method);
    if (message.id === undefined) return;
    end.send({
      jsonrpc: '2.0',
      id: message.id,
      error: {
        code: -32021,
        message: 'no',
        data: { requiredCapabilities: { extensions: { 'com.example/x': {} } } },
      },
    });
  });
  await assert.rejects(
    connect({ protocolVersion: 'auto' }, { connection }),
    (error: unknown) =>
      isMcpError(error) &&
      error.kind === 'missing_capability' &&
      /extension com\.example\/x/.test(error.message),
  );
  assert.deepEqual(methods, ['server/discover']);
});
