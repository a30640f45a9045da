/**
 * `onToolListChanged` (connect option): called with the server's target for each
 * `notifications/tools/list_changed` (after the client dropped its cached list); a callback that throws is
 * logged, and the client goes on. The catalog rebuilds its index on it (test/catalog/changes.test.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connect } from '../../src/client/index.js';
import { scriptedPair } from '../helpers/memory-server.js';

test('onToolListChanged is called for each list_changed; a throwing one does not break the client', async () => {
  const { connection, server } = scriptedPair();
  const seen: string[] = [];
  let next: (() => void) | undefined;
  const client = await connect(
    { timeoutMs: 2_000 },
    {
      connection,
      onToolListChanged: ({ target }) => {
        seen.push(target);
        next?.();
        throw new Error('a careless callback');
      },
    },
  );
  try {
    for (let i = 0; i < 2; i++) {
      const told = new Promise<void>((resolve) => {
        next = resolve;
      });
      server.notify('notifications/tools/list_changed');
      await told;
    }
    assert.deepEqual(seen, ['memory test server', 'memory test server']);
    assert.deepEqual(
      (await client.listTools()).map((t) => t.name),
      ['echo'],
    );
  } finally {
    await client.close();
  }
});
