/**
 * The diagnostics channels seen by a subscriber: the events of a real stdio call against the demo server
 * and of an HTTP call against a real HTTP server (the official SDK's), a timeout, failed connects and a
 * session that ends by itself, each event's payload fields, one connection id per connection, and no
 * secret in any payload.
 */
import assert from 'node:assert/strict';
import * as dc from 'node:diagnostics_channel';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { demoServerCommand } from '../../src/cli/demo-server.js';
import { diagnosticsChannels } from '../../src/diagnostics/index.js';
import { callToolOnce, connect, isMcpError, withClient } from '../../src/index.js';
import { type RunningServer, startDemoHttp } from '../client/http-servers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HOSTILE = path.join(ROOT, 'test/diagnostics/fixtures/hostile-debug.mjs');
const mint = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 12)}${Date.now() % 100000}Q`;

interface Seen {
  name: string;
  /** The payload as it was when published (request and HTTP payloads gain fields later). */
  snapshot: Record<string, unknown>;
  /** The payload object itself. */
  raw: Record<string, unknown>;
}

/** Subscribes to every channel while `fn` runs; returns what was published, in order. */
async function recording(fn: () => Promise<unknown>): Promise<Seen[]> {
  const seen: Seen[] = [];
  const listeners = Object.values(diagnosticsChannels).map((name) => {
    const listener = (message: unknown) => {
      const raw = message as Record<string, unknown>;
      seen.push({ name, raw, snapshot: JSON.parse(JSON.stringify(raw)) as Record<string, unknown> });
    };
    dc.subscribe(name, listener);
    return [name, listener] as const;
  });
  try {
    await fn().catch(() => undefined);
  } finally {
    for (const [name, listener] of listeners) dc.unsubscribe(name, listener);
  }
  return seen;
}

const short = (seen: Seen[]) => seen.map((s) => s.name.replace('autos-mcp:', ''));
const only = (seen: Seen[], name: string) => seen.filter((s) => s.name === name);
function one(seen: Seen[], name: string, where: (s: Seen) => boolean = () => true): Seen {
  const found = seen.filter((s) => s.name === name && where(s));
  assert.equal(found.length, 1, `want one ${name}, got ${found.length} in ${short(seen).join(', ')}`);
  return found[0] as Seen;
}

describe('diagnostics events of a stdio connection', () => {
  test('a call against the demo server: open, spawn, initialize, ready, tools/call, exit, close; one connection id', async () => {
    const seen = await recording(() =>
      withClient(demoServerCommand(), async (client) => {
        await client.callTool('echo', { text: 'hello' });
        await client.callTool('fail', {});
      }),
    );
    assert.deepEqual(short(seen), [
      'connection:open',
      'stdio:spawn',
      'request:start',
      'request:end',
      'connection:ready',
      'request:start',
      'request:end',
      'request:start',
      'request:end',
      'stdio:exit',
      'connection:close',
    ]);
    const ids = new Set(seen.map((s) => s.raw['connectionId']));
    assert.equal(ids.size, 1, `want one connection id, got ${[...ids].join(', ')}`);
    const id = [...ids][0];
    assert.equal(typeof id, 'string');
    for (const s of seen) {
      assert.equal(s.raw['transport'], 'stdio', s.name);
      assert.equal(typeof s.raw['target'], 'string', s.name);
    }

    const spawn = one(seen, diagnosticsChannels.stdioSpawn).snapshot;
    assert.equal(typeof spawn['pid'], 'number');
    const ready = one(seen, diagnosticsChannels.connectionReady).snapshot;
    assert.equal(ready['protocolVersion'], '2025-11-25');
    assert.equal(ready['serverName'], 'autos-mcp-demo');
    assert.ok(typeof ready['durationMs'] === 'number' && ready['durationMs'] >= 0);

    const starts = only(seen, diagnosticsChannels.requestStart);
    assert.deepEqual(
      starts.map((s) => [s.snapshot['method'], s.snapshot['tool']]),
      [
        ['initialize', undefined],
        ['tools/call', 'echo'],
        ['tools/call', 'fail'],
      ],
    );
    // Start payloads carry no end fields yet; end is the same object with them added.
    const echoStart = starts[1] as Seen;
    assert.equal(echoStart.snapshot['durationMs'], undefined);
    const ends = only(seen, diagnosticsChannels.requestEnd);
    const echoEnd = ends[1] as Seen;
    assert.equal(echoEnd.raw, echoStart.raw, 'want the start payload object again on request:end');
    assert.equal(echoEnd.snapshot['isError'], false);
    assert.equal(echoEnd.snapshot['requestId'], echoStart.snapshot['requestId']);
    assert.ok(typeof echoEnd.snapshot['durationMs'] === 'number');
    assert.equal((ends[2] as Seen).snapshot['isError'], true, 'the fail tool reports isError: a result');
    assert.equal(ends[0]?.snapshot['isError'], undefined, 'isError is for tools/call only');

    const exit = one(seen, diagnosticsChannels.stdioExit).snapshot;
    assert.equal(exit['pid'], spawn['pid']);
    assert.equal(exit['closing'], true);
    assert.equal(exit['startup'], false);
    const close = one(seen, diagnosticsChannels.connectionClose).snapshot;
    assert.deepEqual(close['process'], {
      pid: spawn['pid'],
      exitCode: 0,
      signal: null,
      ended: 'exited',
      activeProcesses: 0,
    });
    assert.equal(close['lateResponsesDropped'], 0);
  });

  test('a timeout is request:error with kind timeout and delivery unknown (it may have run)', async () => {
    const seen = await recording(() =>
      withClient(demoServerCommand(), (client) =>
        client.callTool('slow', { steps: 3, delayMs: 200 }, { timeoutMs: 100 }).catch(() => undefined),
      ),
    );
    const error = one(seen, diagnosticsChannels.requestError).snapshot;
    assert.equal(error['method'], 'tools/call');
    assert.equal(error['tool'], 'slow');
    const summary = error['error'] as Record<string, unknown>;
    assert.equal(summary['kind'], 'timeout');
    assert.equal(summary['delivery'], 'unknown');
    assert.match(String(summary['message']), /no answer within 100 ms/);
    assert.ok(Number(error['durationMs']) >= 90, `want the time waited, got ${error['durationMs']}`);
  });

  test('a command that does not exist: open, connection:error (connect, spawn, not_sent), close; no spawn or ready', async () => {
    const seen = await recording(() => connect({ command: path.join(ROOT, 'no-such-program-here') }));
    assert.deepEqual(short(seen), ['connection:open', 'connection:error', 'connection:close']);
    const error = one(seen, diagnosticsChannels.connectionError).snapshot;
    assert.equal(error['phase'], 'connect');
    assert.deepEqual(
      [
        (error['error'] as Record<string, unknown>)['kind'],
        (error['error'] as Record<string, unknown>)['delivery'],
      ],
      ['spawn', 'not_sent'],
    );
    const close = one(seen, diagnosticsChannels.connectionClose).snapshot;
    assert.equal((close['process'] as Record<string, unknown>)['ended'], 'not_started');
  });

  test('a server that exits during startup: exit with startup true, then connection:error with the sentence connect() rejects with', async () => {
    let thrown: unknown;
    const seen = await recording(() =>
      connect({ command: process.execPath, args: ['-e', 'process.exit(3)'] }).catch((error: unknown) => {
        thrown = error;
      }),
    );
    const exit = one(seen, diagnosticsChannels.stdioExit).snapshot;
    assert.equal(exit['exitCode'], 3);
    assert.equal(exit['startup'], true);
    assert.equal(exit['closing'], false);
    const error = one(seen, diagnosticsChannels.connectionError).snapshot;
    const summary = error['error'] as Record<string, unknown>;
    assert.ok(isMcpError(thrown));
    assert.equal(summary['kind'], thrown.kind);
    assert.equal(summary['delivery'], 'not_sent');
    assert.equal(summary['message'], thrown.message);
    assert.equal(short(seen).at(-1), 'connection:close');
    assert.equal(only(seen, diagnosticsChannels.connectionReady).length, 0);
  });

  test('a ready connection whose server exits mid-call: connection:error with phase ready', async () => {
    const seen = await recording(() =>
      withClient(
        { command: process.execPath, args: [path.join(ROOT, 'test/fixtures/crash-mid-call.mjs')] },
        (c) => c.callTool('echo', { text: 'x' }).catch(() => undefined),
      ),
    );
    const error = one(seen, diagnosticsChannels.connectionError).snapshot;
    assert.equal(error['phase'], 'ready');
    assert.equal((error['error'] as Record<string, unknown>)['kind'], 'closed');
    const failed = one(seen, diagnosticsChannels.requestError, (s) => s.snapshot['method'] === 'tools/call');
    assert.equal((failed.snapshot['error'] as Record<string, unknown>)['delivery'], 'unknown');
  });

  test('a subscriber of request:end alone still gets end events (no start subscriber needed)', async () => {
    const ends: unknown[] = [];
    const listener = (message: unknown) => ends.push(message);
    dc.subscribe(diagnosticsChannels.requestEnd, listener);
    try {
      await callToolOnce(demoServerCommand(), 'echo', { text: 'x' });
    } finally {
      dc.unsubscribe(diagnosticsChannels.requestEnd, listener);
    }
    assert.equal(ends.length, 2, 'initialize and tools/call');
  });

  test('after unsubscribing nothing reaches the listener, and no channel has subscribers', async () => {
    let count = 0;
    const listener = () => {
      count++;
    };
    for (const name of Object.values(diagnosticsChannels)) {
      dc.subscribe(name, listener);
      dc.unsubscribe(name, listener);
    }
    await callToolOnce(demoServerCommand(), 'echo', { text: 'x' });
    assert.equal(count, 0);
    for (const name of Object.values(diagnosticsChannels))
      assert.equal(dc.channel(name).hasSubscribers, false, `${name} has a subscriber of the library's own`);
  });
});

describe('diagnostics events of an HTTP connection', () => {
  let server: RunningServer;
  before(async () => {
    server = await startDemoHttp(true);
  });
  after(() => server.stop());

  test('http:request and http:response per exchange, with method, status and duration; the target has no query', async () => {
    const token = mint('sk-');
    const query = mint('qk-');
    const header = mint('hk-');
    const url = new URL(server.url);
    url.searchParams.set('key', query);
    const seen = await recording(() =>
      withClient({ url: url.href, authToken: token, headers: { 'X-Api-Key': header } }, (client) =>
        client.callTool('echo', { text: `argument ${token}` }),
      ),
    );
    const ids = new Set(seen.map((s) => s.raw['connectionId']));
    assert.equal(ids.size, 1);
    const requests = only(seen, diagnosticsChannels.httpRequest).map((s) => [
      s.snapshot['method'],
      s.snapshot['rpcMethod'],
    ]);
    assert.deepEqual(requests.slice(0, 3), [
      ['POST', 'initialize'],
      ['POST', 'notifications/initialized'],
      ['POST', 'tools/call'],
    ]);
    const responses = only(seen, diagnosticsChannels.httpResponse);
    assert.equal(responses.length, only(seen, diagnosticsChannels.httpRequest).length);
    for (const response of responses) {
      assert.equal(typeof response.snapshot['status'], 'number');
      assert.ok(typeof response.snapshot['durationMs'] === 'number');
    }
    const call = one(seen, diagnosticsChannels.httpResponse, (s) => s.snapshot['rpcMethod'] === 'tools/call');
    assert.equal(call.snapshot['status'], 200);
    assert.equal(call.snapshot['target'], `${url.origin}${url.pathname}`);
    assert.equal(
      one(seen, diagnosticsChannels.requestEnd, (s) => s.snapshot['tool'] === 'echo').snapshot['isError'],
      false,
    );
    const all = JSON.stringify(seen.map((s) => [s.name, s.snapshot]));
    for (const secret of [token, query, header])
      assert.ok(!all.includes(secret), `a payload holds ${secret}`);
    assert.ok(!all.includes('argument'), 'a payload holds the call arguments');
  });

  test('a refused connection: http:error with its code, then connection:error (connect)', async () => {
    // A port that was free a moment ago: nothing listens there.
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const seen = await recording(() => connect({ url: `http://127.0.0.1:${port}/mcp`, timeoutMs: 5000 }));
    const error = one(seen, diagnosticsChannels.httpError).snapshot;
    assert.equal(error['errorCode'], 'ECONNREFUSED');
    assert.equal(error['aborted'], false);
    assert.equal(one(seen, diagnosticsChannels.connectionError).snapshot['phase'], 'connect');
  });
});

describe('no secret in any payload', () => {
  test('stdio: env values, an option value in the args, and secrets the server prints reach no payload', async () => {
    const planted = mint('ek-');
    const argSecret = mint('ak-');
    const seen = await recording(() =>
      withClient(
        {
          command: process.execPath,
          args: [HOSTILE, `--api-key=${argSecret}`, '--leak'],
          env: { PLANTED: planted },
        },
        (client) => client.callTool('echo', { text: `argument ${planted}` }),
      ),
    );
    assert.ok(seen.length > 5, 'want events (else the test proves nothing)');
    assert.ok(only(seen, diagnosticsChannels.requestError).length === 1, 'want the rpc error event');
    const all = JSON.stringify(seen.map((s) => [s.name, s.snapshot]));
    for (const secret of [planted, argSecret]) assert.ok(!all.includes(secret), `a payload holds ${secret}`);
    assert.ok(!all.includes('stderr:'), 'a payload holds stderr text');
    assert.ok(!all.includes('argument'), 'a payload holds the call arguments');
  });
});
