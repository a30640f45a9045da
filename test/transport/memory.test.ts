/** The in-memory pair's `destroy()`: like `close()`, the client end is closed at once and nothing more crosses. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryPair } from '../../src/transport/memory.js';

test('destroy() closes the client end at once: send is refused and the server end hears nothing more', async () => {
  const { client, server } = createMemoryPair();
  const delivered: unknown[] = [];
  const closed: unknown[] = [];
  await client.start({ message: (value) => delivered.push(value), closed: (error) => closed.push(error) });
  const heard: unknown[] = [];
  server.onMessage(({ message }) => heard.push(message));
  client.destroy();
  assert.equal(server.closedByClient, true);
  await assert.rejects(client.send({ jsonrpc: '2.0', method: 'ping', id: 1 }), { kind: 'closed' });
  server.send({ jsonrpc: '2.0', method: 'notifications/message' });
  server.end();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual([delivered, heard, closed], [[], [], []]);
  assert.deepEqual(await client.close(), {});
});
