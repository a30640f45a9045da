/**
 * A hostile 2026 server on `subscriptions/listen` (test/fixtures/hostile-listen.mjs): a flood of change
 * notifications is one flag, not a queue (a few events, one re-list, nothing for another subscription
 * id); notifications before the acknowledgement are ignored; a server that never acknowledges, or whose
 * stream breaks again and again, is reopened after a back-off (never a hot loop) a bounded number of
 * times; a smaller acknowledged set than asked is compared and the listen cancelled. Spec:
 * S26/basic/patterns/subscriptions, S26/basic/transports/stdio.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { connect, type ToolsChangedEvent } from '../../src/client/index.js';
import { SUBSCRIPTION_BUDGET, SUBSCRIPTION_RETRY_MS } from '../../src/client/subscription.js';
import { waitFor } from '../helpers/wait.js';
import { fixture } from './helpers.js';
import { startServer } from './http-servers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'autos-hostile-listen-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let runs = 0;

/** A fresh event log of the fixture: `<event> <ms>` lines. */
function eventLog(): { file: string; events: (name: string) => number[] } {
  const file = path.join(dir, `listen-${++runs}.log`);
  const events = (name: string) => {
    try {
      return readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(' '))
        .filter(([event]) => event === name)
        .map(([, at]) => Number(at));
    } catch {
      return [];
    }
  };
  return { file, events };
}

const hostile = (mode: string, log: string, timeoutMs = 5_000) =>
  fixture('hostile-listen.mjs', [mode], {
    protocolVersion: '2026-07-28',
    env: { LISTEN_LOG: log },
    timeoutMs,
  });

/** Every event a client tells, and a wait for the first of a reason. */
function recorder() {
  const seen: ToolsChangedEvent[] = [];
  const waiters: Array<{ reason: string; resolve: () => void }> = [];
  const listener = (event: ToolsChangedEvent) => {
    seen.push(event);
    for (const waiter of waiters) if (waiter.reason === event.reason) waiter.resolve();
  };
  const reached = (reason: ToolsChangedEvent['reason']) =>
    seen.some((e) => e.reason === reason)
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ reason, resolve }));
  return { seen, listener, reached };
}

/** Gaps between consecutive times. */
const gaps = (times: number[]) => times.slice(1).map((at, i) => at - (times[i] as number));

test('a flood of list_changed on the subscription is told as a few events and costs one re-list', {
  timeout: 30_000,
}, async () => {
  const log = eventLog();
  const client = await connect(hostile('flood', log.file));
  const { seen, listener } = recorder();
  client.onToolsChanged(listener);
  try {
    await waitFor(() => log.events('open').length === 1, { what: 'the listen' });
    await client.listTools({ cache: true });
    const count = 50_000;
    const flooded = await client.callTool('flood', { count });
    assert.equal((flooded as { isError?: boolean }).isError, undefined);
    await waitFor(() => seen.length > 0, { what: 'an event' });
    // 100 000 notifications (half for an id that is not ours) arrive in a few large reads: a flag each.
    assert.ok(seen.length < count / 100, `want a few events, got ${seen.length}`);
    assert.ok(seen.every((e) => e.reason === 'changed'));
    await client.listTools({ cache: true });
    await client.listTools({ cache: true });
    assert.equal(
      log.events('list').length,
      2,
      'one list before the flood, one after it (the list is cached for its ttlMs)',
    );
  } finally {
    await client.close();
  }
});

test('a server that never acknowledges: its notifications are ignored, reopened with back-off, then unavailable', {
  timeout: 30_000,
}, async () => {
  const log = eventLog();
  const ackMs = 200;
  const client = await connect(hostile('silent', log.file, ackMs));
  const { seen, listener, reached } = recorder();
  client.onToolsChanged(listener);
  try {
    await reached('unavailable');
    const opens = log.events('open');
    assert.equal(opens.length, SUBSCRIPTION_BUDGET + 1, 'the first listen and its bounded reopenings');
    for (const gap of gaps(opens))
      assert.ok(gap >= SUBSCRIPTION_RETRY_MS, `want a back-off between listens, got ${gap} ms`);
    assert.deepEqual(
      seen.map((e) => e.reason),
      ['unavailable'],
      'notifications before an acknowledgement are never a change',
    );
  } finally {
    await client.close();
  }
});

test('an acknowledged set without tool changes is compared: the listen is cancelled, not reopened', {
  timeout: 30_000,
}, async () => {
  const log = eventLog();
  const client = await connect(hostile('smaller', log.file));
  const { seen, listener, reached } = recorder();
  client.onToolsChanged(listener);
  try {
    await reached('unavailable');
    await waitFor(() => log.events('cancelled').length === 1, {
      what: 'notifications/cancelled for the listen',
    });
    assert.equal(log.events('open').length, 1);
    assert.deepEqual(
      seen.map((e) => e.reason),
      ['unavailable'],
    );
  } finally {
    await client.close();
  }
});

test('removing the last listener cancels the listen (stdio: notifications/cancelled)', {
  timeout: 30_000,
}, async () => {
  const log = eventLog();
  const client = await connect(hostile('flood', log.file));
  try {
    const stop = client.onToolsChanged(() => {});
    await waitFor(() => log.events('open').length === 1, { what: 'the listen' });
    stop();
    stop();
    await waitFor(() => log.events('cancelled').length === 1, {
      what: 'notifications/cancelled for the listen',
    });
    const again = client.onToolsChanged(() => {});
    await waitFor(() => log.events('open').length === 2, { what: 'a new listen for a new listener' });
    again();
  } finally {
    await client.close();
  }
});

test('HTTP: a stream that breaks at once, again and again, is reopened with back-off a bounded number of times', {
  timeout: 30_000,
}, async () => {
  const log = eventLog();
  const server = await startServer(
    'test/fixtures/hostile-listen.mjs',
    ['drop', '--http'],
    (line) => line.match(/listening (http:\/\/\S+)/)?.[1],
    { LISTEN_LOG: log.file },
  );
  const client = await connect({ url: server.url, protocolVersion: '2026-07-28' });
  const { seen, listener, reached } = recorder();
  client.onToolsChanged(listener);
  try {
    await reached('ended');
    const opens = log.events('open');
    assert.equal(opens.length, SUBSCRIPTION_BUDGET + 1, 'the first listen and its bounded reopenings');
    for (const gap of gaps(opens))
      assert.ok(gap >= SUBSCRIPTION_RETRY_MS - 20, `want a back-off between listens, got ${gap} ms`);
    // Each reopening may have missed a change: told as `resumed` (the cached list dropped), then `ended`.
    assert.equal(seen.at(-1)?.reason, 'ended');
    assert.ok(
      seen.slice(0, -1).every((e) => e.reason === 'resumed'),
      JSON.stringify(seen),
    );
  } finally {
    await client.close();
    await server.stop();
  }
});

test('HTTP: closing the client ends the open listen stream', { timeout: 30_000 }, async () => {
  const log = eventLog();
  const server = await startServer(
    'test/fixtures/hostile-listen.mjs',
    ['flood', '--http'],
    (line) => line.match(/listening (http:\/\/\S+)/)?.[1],
    { LISTEN_LOG: log.file },
  );
  try {
    const client = await connect({ url: server.url, protocolVersion: '2026-07-28' });
    client.onToolsChanged(() => {});
    await waitFor(() => log.events('open').length === 1, { what: 'the listen' });
    await client.close();
    await waitFor(() => log.events('closed').length === 1, { what: 'the listen stream to end' });
  } finally {
    await server.stop();
  }
});
