/**
 * `tools.approve` and `onApprove` against the bundled demo server: a call to a tool the list names waits
 * for a yes; a no, a throw or no handler is `denied`, `not_sent`, and the server's `calls` tool shows that
 * no `tools/call` reached it; a handler that hangs is ended by the call's deadline or signal (`not_sent`).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { demoServerCommand } from '../../src/cli/demo-server.js';
import { normalizeConfig } from '../../src/config/index.js';
import {
  type ApprovalRequest,
  type Client,
  type ConnectOptions,
  callToolOnce,
  connect,
  isMcpError,
  session,
} from '../../src/index.js';

/** A demo server whose tools matching `e*` need approval, with `options`; `fn` runs with the client. */
async function withDemo(options: ConnectOptions, fn: (client: Client) => Promise<void>): Promise<void> {
  const client = await connect({ ...demoServerCommand(), tools: { approve: ['e*', 'typed'] } }, options);
  try {
    await fn(client);
  } finally {
    await client.close();
  }
}

/** How many `tools/call` requests the server received so far (the `calls` tool does not need approval). */
async function callsSeen(client: Client): Promise<number> {
  const result = await client.callTool('calls', {});
  return (result.structuredContent as { calls: number }).calls;
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => assert.fail('want a refusal'),
    (e: unknown) => e,
  );
  assert.ok(isMcpError(error), String(error));
  assert.equal(error.delivery, 'not_sent');
  return error;
}

describe('tools.approve', () => {
  test('a yes lets the call go, with the tool, arguments and annotations asked about', async () => {
    const asked: ApprovalRequest[] = [];
    await withDemo(
      {
        onApprove: (request) => {
          asked.push(request);
          return true;
        },
      },
      async (client) => {
        const result = await client.callTool('echo', { text: 'hi' });
        assert.deepEqual(result.structuredContent, { text: 'hi' });
        assert.equal(asked.length, 1);
        assert.equal(asked[0]?.tool, 'echo');
        assert.deepEqual(asked[0]?.arguments, { text: 'hi' });
        assert.equal(typeof asked[0]?.server, 'string');
        await client.callTool('calls', {});
        assert.equal(asked.length, 1, 'a tool the list does not name is not asked about');
      },
    );
  });

  test('a no, a throw and a non-true answer are denied and never reach the server', async () => {
    const answers: Array<() => unknown> = [
      () => false,
      () => {
        throw new Error('nope');
      },
      () => Promise.reject(new Error('nope')),
      () => 'yes',
    ];
    let next = 0;
    await withDemo({ onApprove: () => (answers[next++]?.() ?? false) as boolean }, async (client) => {
      const before = await callsSeen(client);
      for (let i = 0; i < answers.length; i++) {
        const error = await refusal(client.callTool('echo', { text: 'no' }));
        assert.equal(error.kind, 'denied');
        assert.match(
          error.message,
          /tool echo on .* was not called: (approval refused|the approval handler failed)/,
        );
      }
      assert.equal(await callsSeen(client), before + 1, 'only the calls tool itself was received');
    });
  });

  test('no handler: denied, saying no one can answer', async () => {
    await withDemo({}, async (client) => {
      const before = await callsSeen(client);
      const error = await refusal(client.callTool('typed', { id: 'a' }));
      assert.equal(error.kind, 'denied');
      assert.match(error.message, /needs approval and no one can answer/);
      assert.equal(await callsSeen(client), before + 1);
    });
  });

  test('a handler that hangs is ended by the call’s deadline and by its signal, not_sent', async () => {
    await withDemo({ onApprove: () => new Promise<boolean>(() => {}) }, async (client) => {
      const before = await callsSeen(client);
      const timedOut = await refusal(client.callTool('echo', { text: 'x' }, { timeoutMs: 100 }));
      assert.equal(timedOut.kind, 'timeout');
      assert.match(timedOut.message, /no approval within 100 ms/);
      const controller = new AbortController();
      const pending = client.callTool('echo', { text: 'x' }, { signal: controller.signal });
      controller.abort();
      assert.equal((await refusal(pending)).kind, 'cancelled');
      assert.equal(await callsSeen(client), before + 1);
    });
  });

  test('a tool filtered out by deny stays invalid_tool, however approve reads', async () => {
    const client = await connect(
      { ...demoServerCommand(), tools: { deny: ['echo'], approve: ['*'] } },
      { onApprove: () => true },
    );
    try {
      assert.equal((await refusal(client.callTool('echo', { text: 'x' }))).kind, 'invalid_tool');
    } finally {
      await client.close();
    }
  });

  test('callToolOnce with no handler is refused before the server is started', async () => {
    const error = await refusal(
      callToolOnce({ command: '/nonexistent/autos-mcp-never-started', tools: { approve: ['*'] } }, 'echo'),
    );
    assert.equal(error.kind, 'denied', error.message);
    assert.match(error.message, /no one can answer/);
  });

  test('a session asks its onApprove too', async () => {
    const asked: string[] = [];
    const handle = session({ ...demoServerCommand(), tools: { approve: ['echo'] } }, undefined, {
      onApprove: ({ tool }) => {
        asked.push(tool);
        return false;
      },
    });
    try {
      assert.equal((await refusal(handle.callTool('echo', { text: 'x' }))).kind, 'denied');
      assert.deepEqual(asked, ['echo']);
    } finally {
      await handle.close();
    }
  });

  test('approve is bounded like allow and deny', () => {
    const many = Array.from({ length: 257 }, (_, i) => `t${i}`);
    for (const approve of [many, ['a'.repeat(513)], ['*'.repeat(17)], [''], 'echo']) {
      assert.throws(
        () => normalizeConfig({ command: 'node', tools: { approve } as never }),
        (error: unknown) =>
          isMcpError(error) && error.kind === 'config' && /tools\.approve/.test(error.message),
      );
    }
  });
});
