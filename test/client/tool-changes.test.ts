/**
 * Tool change events against the official SDK v2 server (test/fixtures/changing-tools.mjs): 2025
 * `notifications/tools/list_changed`, 2026 `subscriptions/listen` over stdio and over HTTP (one POST whose
 * response is an SSE stream). A change drops the cached list, `onToolsChanged` is told, the next
 * `listTools({ cache: true })` asks again, and a pinned tool that changed is refused with nothing sent.
 * The listen is opened only once someone wants change events. Spec: S25+26/server/tools,
 * S26/basic/patterns/subscriptions.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Client, connect, type ToolsChangedEvent } from '../../src/client/index.js';
import { session } from '../../src/session/session.js';
import { waitFor } from '../helpers/wait.js';
import { fixture } from './helpers.js';
import { type RunningServer, startServer } from './http-servers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'autos-changes-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let runs = 0;

/** A fresh request log, and the lines in it. */
function requestLog(): { file: string; lines: () => string[] } {
  const file = path.join(dir, `requests-${++runs}.log`);
  const lines = () => {
    try {
      return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };
  return { file, lines };
}

const changing = (protocolVersion: '2025-11-25' | '2026-07-28', log: string, pin?: Record<string, string>) =>
  fixture('changing-tools.mjs', [], { protocolVersion, env: { CHANGE_LOG: log }, ...(pin ? { pin } : {}) });

/** The next event a client (or session) tells. */
function nextEvent(target: { onToolsChanged(l: (e: ToolsChangedEvent) => void): () => void }) {
  return new Promise<ToolsChangedEvent>((resolve) => {
    const stop = target.onToolsChanged((event) => {
      stop();
      resolve(event);
    });
  });
}

const names = async (client: Client, cache = true) =>
  (await client.listTools({ cache })).map((t) => t.name).sort();

test('2025 stdio: list_changed drops the cached list, onToolsChanged hears it, the next cached list asks again', {
  timeout: 30_000,
}, async () => {
  const log = requestLog();
  const client = await connect(changing('2025-11-25', log.file));
  try {
    assert.deepEqual(await names(client), ['add_tool', 'echo', 'rewrite']);
    const changed = nextEvent(client);
    await client.callTool('add_tool');
    assert.deepEqual(await changed, { target: client.target, reason: 'changed' });
    assert.deepEqual(await names(client), ['add_tool', 'echo', 'late', 'rewrite']);
    assert.equal(log.lines().filter((l) => l.startsWith('tools/list')).length, 2, log.lines().join('\n'));
    assert.ok(!log.lines().some((l) => l.startsWith('subscriptions/listen')), 'no listen in 2025');
  } finally {
    await client.close();
  }
});

test('2026 stdio: no subscriptions/listen until someone listens; then the change arrives on it', {
  timeout: 30_000,
}, async () => {
  const log = requestLog();
  const client = await connect(changing('2026-07-28', log.file));
  try {
    assert.deepEqual(await names(client), ['add_tool', 'echo', 'rewrite']);
    assert.ok(!log.lines().some((l) => l.startsWith('subscriptions/listen')), 'no listen before a listener');
    const changed = nextEvent(client);
    await waitFor(() => log.lines().some((l) => l.startsWith('subscriptions/listen')), {
      what: 'the listen',
    });
    await client.callTool('add_tool');
    assert.deepEqual(await changed, { target: client.target, reason: 'changed' });
    assert.deepEqual(await names(client), ['add_tool', 'echo', 'late', 'rewrite']);
  } finally {
    await client.close();
  }
});

test('2026 stdio: a pinned tool that changed is refused tool_changed after the event, with nothing sent', {
  timeout: 30_000,
}, async () => {
  const first = await connect(changing('2026-07-28', requestLog().file));
  const digest = (await first.listToolsDetailed()).digests['echo']?.digest as string;
  await first.close();
  const log = requestLog();
  const client = await connect(changing('2026-07-28', log.file, { echo: digest }));
  try {
    const changed = nextEvent(client);
    await waitFor(() => log.lines().some((l) => l.startsWith('subscriptions/listen')), {
      what: 'the listen',
    });
    assert.equal((await client.callTool('echo', { text: 'before' })).isError, undefined);
    await client.callTool('rewrite');
    assert.equal((await changed).reason, 'changed');
    const refused = await client.callTool('echo', { text: 'after' }).then(
      () => assert.fail('want tool_changed'),
      (error: { kind: string; delivery: string; message: string }) => error,
    );
    assert.equal(refused.kind, 'tool_changed');
    assert.equal(refused.delivery, 'not_sent');
    assert.doesNotMatch(refused.message, /IGNORE/, 'the new text is never quoted');
    assert.deepEqual(
      log.lines().filter((l) => l.startsWith('tools/call echo')),
      ['tools/call echo'],
      'the refused call never reached the server',
    );
  } finally {
    await client.close();
  }
});

test('2026 stdio: a session tells listeners added before it connected, past one that throws', {
  timeout: 30_000,
}, async () => {
  const log = requestLog();
  const handle = session(changing('2026-07-28', log.file));
  try {
    handle.onToolsChanged(() => {
      throw new Error('a careless listener'); // logged; the next listener is still told
    });
    const changed = nextEvent(handle);
    assert.equal(handle.started, false, 'a listener does not connect');
    assert.deepEqual((await handle.listTools()).map((t) => t.name).sort(), ['add_tool', 'echo', 'rewrite']);
    await waitFor(() => log.lines().some((l) => l.startsWith('subscriptions/listen')), {
      what: 'the listen',
    });
    await handle.callTool('add_tool');
    assert.equal((await changed).reason, 'changed');
    assert.ok((await handle.listTools({ cache: true })).some((t) => t.name === 'late'));
  } finally {
    await handle.close();
  }
});

describe('2026 over HTTP (the SDK handler: one POST whose response is an SSE stream)', () => {
  let server: RunningServer;
  const log = requestLog();
  before(async () => {
    server = await startServer(
      'test/fixtures/changing-tools.mjs',
      ['--http'],
      (line) => line.match(/listening (http:\/\/\S+)/)?.[1],
      { CHANGE_LOG: log.file },
    );
  });
  after(() => server.stop());

  test('the change arrives on the listen, the cached list is dropped, and close ends the stream', {
    timeout: 30_000,
  }, async () => {
    const client = await connect({ url: server.url, protocolVersion: '2026-07-28' });
    let closed = false;
    try {
      assert.deepEqual(await names(client), ['add_tool', 'echo', 'rewrite']);
      const changed = nextEvent(client);
      await waitFor(() => log.lines().some((l) => l.startsWith('subscriptions/listen')), {
        what: 'the listen',
      });
      await client.callTool('add_tool');
      assert.deepEqual(await changed, { target: client.target, reason: 'changed' });
      assert.deepEqual(await names(client), ['add_tool', 'echo', 'late', 'rewrite']);
      await client.close();
      closed = true;
    } finally {
      if (!closed) await client.close();
    }
  });
});

test('2025 over HTTP: a listener (the option, or one added later) opens the GET stream the SDK sends the change on', {
  timeout: 30_000,
}, async () => {
  const log = requestLog();
  const server = await startServer(
    'test/fixtures/changing-tools.mjs',
    ['--http', '--legacy'],
    (line) => line.match(/listening (http:\/\/\S+)/)?.[1],
    { CHANGE_LOG: log.file },
  );
  let told: (event: ToolsChangedEvent) => void = () => {};
  const changed = new Promise<ToolsChangedEvent>((resolve) => {
    told = resolve;
  });
  const client = await connect(
    { url: server.url, protocolVersion: '2025-11-25' },
    { onToolListChanged: told },
  );
  try {
    assert.deepEqual(await names(client), ['add_tool', 'echo', 'rewrite']);
    await client.callTool('add_tool');
    assert.deepEqual(await changed, { target: client.target, reason: 'changed' });
    assert.deepEqual(await names(client), ['add_tool', 'echo', 'late', 'rewrite']);
  } finally {
    await client.close();
  }
  const later = await connect({ url: server.url, protocolVersion: '2025-11-25' });
  try {
    const changedLater = nextEvent(later);
    await waitFor(() => log.lines().filter((l) => l.startsWith('GET')).length === 2, {
      what: 'the GET stream',
    });
    await later.callTool('rewrite');
    assert.deepEqual(await changedLater, { target: later.target, reason: 'changed' });
  } finally {
    await later.close();
    await server.stop();
  }
});

test('2026 stdio: a client without deadlines (timeoutMs: Infinity) keeps its listen', {
  timeout: 30_000,
}, async () => {
  const log = requestLog();
  const client = await connect({ ...changing('2026-07-28', log.file), timeoutMs: Number.POSITIVE_INFINITY });
  try {
    const changed = nextEvent(client);
    await waitFor(() => log.lines().some((l) => l.startsWith('subscriptions/listen')), {
      what: 'the listen',
    });
    await client.callTool('add_tool');
    assert.equal((await changed).reason, 'changed');
    assert.equal(log.lines().filter((l) => l.startsWith('subscriptions/listen')).length, 1, 'opened once');
  } finally {
    await client.close();
  }
});
