/**
 * The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) against a server that follows its text
 * (test/fixtures/tasks-server.mjs; the official SDK v2 server 2.4.0 serves only the 2025 experimental task
 * shape, not this one), over stdio and Streamable HTTP: a task is followed to its CallToolResult, its input
 * requests answered through tasks/update by the MRTR handlers, `Mcp-Name` is the task id, `onTask` hears
 * each status, failures have their kinds, and a hostile server cannot make the client poll for ever,
 * spin, or hang.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TASKS_EXTENSION, type TaskUpdate } from '../../../src/extensions/index.js';
import { MAX_POLLS, POLL_CEILING_MS, POLL_FLOOR_MS } from '../../../src/extensions/tasks/poll-delay.js';
import {
  type Client,
  type ConnectOptions,
  connect,
  isMcpError,
  type ServerConfig,
} from '../../../src/index.js';
import * as worker from '../../../src/worker/index.js';
import { fixture, textOf } from '../../client/helpers.js';
import { type RunningServer, startServer } from '../../client/http-servers.js';
import { testClock } from '../../helpers/clock.js';

const STDIO: ServerConfig = fixture('tasks-server.mjs', [], { protocolVersion: '2026-07-28' });
const ON: ConnectOptions = {
  extensions: [TASKS_EXTENSION],
  onElicitation: async () => ({ action: 'accept', content: { name: 'Luca' } }),
};

interface Seen {
  method: string;
  params: Record<string, unknown>;
  headers?: Record<string, string | undefined>;
}

async function seen(client: Client): Promise<Seen[]> {
  return (JSON.parse(textOf(await client.callTool('received', {}))) as Seen[]).filter(
    (r) => !(r.method === 'tools/call' && r.params['name'] === 'received'),
  );
}

async function using<T>(config: ServerConfig, options: ConnectOptions, fn: (client: Client) => Promise<T>) {
  const client = await connect(config, options);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

function failsWith(kind: string, delivery: string, pattern: RegExp) {
  return (error: unknown) => {
    assert.ok(isMcpError(error), String(error));
    assert.equal(error.kind, kind, error.message);
    assert.equal(error.delivery, delivery, error.message);
    assert.match(error.message, pattern);
    return true;
  };
}

describe('followed to the end over stdio', () => {
  test('callTool resolves to the final CallToolResult; onTask hears the id and each status', async () => {
    const updates: TaskUpdate[] = [];
    await using(STDIO, ON, async (client) => {
      const result = await client.callTool(
        'work',
        { text: 'hi', polls: 3 },
        { onTask: (u) => updates.push(u) },
      );
      assert.equal(textOf(result), 'done: hi');
      assert.deepEqual(
        (await seen(client)).map((r) => r.method),
        ['tools/list', 'tools/call', 'tasks/get', 'tasks/get', 'tasks/get'].filter(
          (m) => m !== 'tools/list' || false,
        ),
      );
    });
    assert.deepEqual(updates, [
      { taskId: 'task-1-work', status: 'working' },
      { taskId: 'task-1-work', status: 'completed' },
    ]);
  });

  test('input requests are answered by onElicitation through tasks/update, once per key', async () => {
    let asked = 0;
    const options = {
      ...ON,
      onElicitation: async () => {
        asked++;
        return { action: 'accept' as const, content: { name: 'Luca' } };
      },
    };
    await using(STDIO, options, async (client) => {
      assert.equal(textOf(await client.callTool('ask', {})), 'Hello, Luca!');
      const updates = (await seen(client)).filter((r) => r.method === 'tasks/update');
      assert.deepEqual(
        updates.map((r) => r.params),
        [{ taskId: 'task-1-ask', inputResponses: { name: { action: 'accept', content: { name: 'Luca' } } } }],
      );
    });
    assert.equal(asked, 1);
  });

  test('an input no handler answers: the task is cancelled, task_cancelled, delivery unknown', async () => {
    await using(STDIO, { extensions: [TASKS_EXTENSION] }, async (client) => {
      await assert.rejects(
        client.callTool('ask', {}),
        failsWith('task_cancelled', 'unknown', /asks for "elicitation\/create", which no handler .* answers/),
      );
      assert.ok((await seen(client)).some((r) => r.method === 'tasks/cancel'));
    });
  });

  test('failed is the JSON-RPC error the task ended with; cancelled by the server is task_cancelled', async () => {
    await using(STDIO, ON, async (client) => {
      await assert.rejects(client.callTool('fail', {}), (error: unknown) => {
        assert.ok(isMcpError(error) && error.kind === 'rpc');
        assert.equal(error.code, -32603);
        assert.deepEqual(error.data, { retryAfterMs: 1000 });
        assert.equal(error.delivery, 'delivered');
        assert.match(error.message, /tools\/call fail \(task "task-1-fail"\).*API rate limit exceeded/);
        return true;
      });
      await assert.rejects(client.callTool('cancelled', {}), (error: unknown) => {
        failsWith('task_cancelled', 'delivered', /the server cancelled the task: operator stopped it/)(error);
        assert.doesNotMatch((error as Error).message, /\x1b/);
        return true;
      });
    });
  });

  test('a server may answer without a task; without the extension a task server says -32021', async () => {
    await using(STDIO, ON, async (client) => {
      assert.equal(textOf(await client.callTool('sync', {})), 'no task');
    });
    await using(STDIO, {}, async (client) => {
      await assert.rejects(client.callTool('work', {}), (error: unknown) => {
        failsWith(
          'missing_capability',
          'delivered',
          /requires extension io\.modelcontextprotocol\/tasks; turn the extension on/,
        )(error);
        assert.equal((error as { code?: number }).code, -32021);
        assert.deepEqual((error as { data?: unknown }).data, {
          requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
        });
        return true;
      });
    });
  });
});

describe("the config's extensions", () => {
  test('turn the extension on as the option does, also in a worker thread', async () => {
    const config = { ...STDIO, extensions: [TASKS_EXTENSION] };
    await using(config, {}, async (client) => {
      assert.equal(textOf(await client.callTool('work', { text: 'config' })), 'done: config');
    });
    const id = await worker.open(config);
    try {
      assert.equal(textOf(await worker.callTool(id, 'work', { text: 'worker' })), 'done: worker');
    } finally {
      await worker.close(id);
    }
  });

  test('a bad id in the config is config, before anything is started', async () => {
    await assert.rejects(
      connect({ command: '/nonexistent/autos-mcp-never', extensions: ['no-prefix'] }),
      failsWith('config', 'not_sent', /extensions: "no-prefix" is not prefix\/name/),
    );
  });
});

describe('over Streamable HTTP', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer(
      'test/fixtures/tasks-server.mjs',
      ['--http'],
      (line) => line.match(/listening (http:\/\/\S+)/)?.[1],
    );
  });
  after(() => server.stop());

  test('tasks/get, tasks/update and tasks/cancel carry Mcp-Name: <taskId>', async () => {
    await using({ url: server.url, protocolVersion: '2026-07-28' }, ON, async (client) => {
      assert.equal(textOf(await client.callTool('ask', {})), 'Hello, Luca!');
      await assert.rejects(client.callTool('bad-status', {}), failsWith('protocol', 'unknown', /"paused"/));
      const all = await seen(client);
      const tasks = all.filter((r) => r.method.startsWith('tasks/'));
      assert.deepEqual([...new Set(tasks.map((r) => r.method))].sort(), [
        'tasks/cancel',
        'tasks/get',
        'tasks/update',
      ]);
      for (const r of tasks) {
        assert.equal(r.headers?.['mcp-name'], r.params['taskId'], r.method);
        assert.equal(r.headers?.['mcp-method'], r.method);
      }
    });
  });
});

describe('a hostile server', () => {
  test('a task that never ends: the call’s deadline ends it (timeout, unknown) and tasks/cancel is sent', async () => {
    const clock = testClock();
    await using(STDIO, { ...ON, clock }, async (client) => {
      await assert.rejects(
        client.callTool('forever', { interval: 1e12 }, { timeoutMs: 300_000 }),
        failsWith(
          'timeout',
          'unknown',
          /not finished by the call's deadline \(last status working\); tasks\/cancel sent/,
        ),
      );
      // A huge pollIntervalMs is clamped to the ceiling; the deadline (5 × the ceiling) bounds the polls.
      assert.deepEqual(clock.sleeps, [
        POLL_CEILING_MS,
        POLL_CEILING_MS,
        POLL_CEILING_MS,
        POLL_CEILING_MS,
        POLL_CEILING_MS,
      ]);
      const methods = (await seen(client)).map((r) => r.method);
      assert.equal(methods.filter((m) => m === 'tasks/get').length, 4);
      assert.equal(methods.at(-1), 'tasks/cancel');
    });
  });

  test('a task that never ends and a call with no deadline: polls stop at the bound, the task is cancelled', async () => {
    const clock = testClock();
    await using(STDIO, { ...ON, clock }, async (client) => {
      await assert.rejects(
        client.callTool('forever', { interval: 0 }, { timeoutMs: Number.POSITIVE_INFINITY }),
        failsWith('protocol', 'unknown', new RegExp(`still working after ${MAX_POLLS} polls`)),
      );
      const methods = (await seen(client)).map((r) => r.method);
      assert.equal(methods.filter((m) => m === 'tasks/get').length, MAX_POLLS);
      assert.equal(methods.at(-1), 'tasks/cancel');
    });
    assert.equal(clock.sleeps.length, MAX_POLLS);
  });

  test('pollIntervalMs 0 is never polled faster than the floor', async () => {
    const clock = testClock();
    await using(STDIO, { ...ON, clock }, async (client) => {
      assert.equal(textOf(await client.callTool('work', { text: 'x', polls: 4, interval: 0 })), 'done: x');
    });
    assert.deepEqual(clock.sleeps, [POLL_FLOOR_MS, POLL_FLOOR_MS, POLL_FLOOR_MS, POLL_FLOOR_MS]);
  });

  test('the caller aborts: cancelled at once, delivery unknown, tasks/cancel sent', async () => {
    const controller = new AbortController();
    await using(STDIO, ON, async (client) => {
      const call = client.callTool(
        'forever',
        {},
        {
          signal: controller.signal,
          onTask: (u) => {
            if (u.status === 'working') controller.abort();
          },
        },
      );
      await assert.rejects(
        call,
        failsWith('cancelled', 'unknown', /cancelled while the task was working; tasks\/cancel sent/),
      );
      const methods = (await seen(client)).map((r) => r.method);
      assert.deepEqual(methods.slice(-1), ['tasks/cancel']);
    });
  });

  test('a flood of status changes and unasked notifications/tasks: one onTask per change, the call ends', async () => {
    const updates: TaskUpdate[] = [];
    await using(STDIO, ON, async (client) => {
      const result = await client.callTool('flood', { polls: 6 }, { onTask: (u) => updates.push(u) });
      assert.equal(textOf(result), 'flooded');
    });
    // The first status, then one per poll (each changed): never more than the polls + 1.
    assert.ok(updates.length <= 7, `${updates.length}`);
    assert.equal(updates.at(-1)?.status, 'completed');
  });

  test('garbage: a bogus taskId, an unknown status, another task’s answer, no result, too many inputs', async () => {
    await using(STDIO, ON, async (client) => {
      await assert.rejects(
        client.callTool('bogus-id', {}),
        failsWith('protocol', 'unknown', /created a task, but the task has no taskId string/),
      );
      await assert.rejects(
        client.callTool('bad-status', {}),
        failsWith('protocol', 'unknown', /unknown status "paused"/),
      );
      await assert.rejects(
        client.callTool('garbage', {}),
        failsWith('protocol', 'unknown', /unknown status undefined/),
      );
      await assert.rejects(
        client.callTool('other-id', {}),
        failsWith('protocol', 'unknown', /about another taskId/),
      );
      await assert.rejects(
        client.callTool('completed-garbage', {}),
        failsWith('protocol', 'unknown', /no result object/),
      );
      await assert.rejects(
        client.callTool('many-inputs', {}),
        failsWith('protocol', 'unknown', /40 inputs at once \(at most 32\)/),
      );
      // Each task the client could name was cancelled; the bogus one could not be.
      const cancelled = (await seen(client))
        .filter((r) => r.method === 'tasks/cancel')
        .map((r) => r.params['taskId']);
      assert.deepEqual(cancelled, [
        'task-2-bad-status',
        'task-3-garbage',
        'task-4-other-id',
        'task-5-completed-garbage',
        'task-6-many-inputs',
      ]);
      // The connection is still good.
      assert.equal(textOf(await client.callTool('sync', {})), 'no task');
    });
  });
});
