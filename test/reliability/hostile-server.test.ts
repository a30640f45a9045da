/**
 * Fuzz pass against hostile stdio servers (real child processes, test/fixtures/hostile-server.mjs): random
 * bytes, truncated JSON, 10k-deep nesting, ids out of range, duplicate and unsolicited answers, a
 * notification flood, 1-byte writes and string-typed ids. Each case: the call rejects with an McpError or
 * gets its own answer (texts are unique per call), nothing escapes to the host, and close() leaves 0 processes.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { type Client, connect, isMcpError, type McpError } from '../../src/index.js';
import { fixture, textOf } from '../client/helpers.js';
import { size, trapEscapes } from './helpers.js';

trapEscapes();

let serial = 0;
/** A text no other call in this file uses. */
const unique = (label: string) =>
  `${label}-${process.pid}-${++serial}-${Math.random().toString(36).slice(2)}`;

/** Clients opened by the current test: closed after it even when an assertion failed mid-way. */
const opened: Client[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
});

async function open(
  mode: string,
  extra: string[] = [],
  onLog?: () => void,
  config: { maxSkippedLines?: number } = {},
): Promise<Client> {
  const client = await connect(
    fixture('hostile-server.mjs', [mode, ...extra], { timeoutMs: 5000, graceMs: 500, ...config }),
    onLog ? { onLog } : {},
  );
  opened.push(client);
  return client;
}

async function closeClean(client: Client): Promise<void> {
  const report = await client.close();
  assert.equal(
    report.process?.activeProcesses,
    0,
    `want 0 active processes after close, got ${report.process?.activeProcesses}`,
  );
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  try {
    const value = await promise;
    assert.fail(`want a rejection, got ${JSON.stringify(value).slice(0, 200)}`);
  } catch (error) {
    assert.ok(isMcpError(error), `want McpError, got ${String(error)}`);
    return error;
  }
}

/**
 * Modes that poison the connection: every call in flight rejects, later calls are refused, close is clean.
 * Lines that are not MCP messages are skipped up to `maxSkippedLines` (test/client/stdout-noise.test.ts);
 * with 0 the first one fails the connection, which is what these tests push on.
 */
const FATAL: ReadonlyArray<readonly [string, string, readonly string[]]> = [
  ['random-bytes', 'random bytes on stdout', ['protocol']],
  ['truncated', 'a line cut inside a JSON value', ['protocol']],
  ['truncated-exit', 'half a line then exit', ['closed']],
  ['deep-array', 'a 10k-deep [[[…]]] line', ['protocol']],
  ['deep-object-message', 'a 10k-deep {"a":{"a":…}} line that is not JSON-RPC', ['protocol']],
  ['id-1e400', 'a response id of 1e400', ['protocol']],
  ['id-2pow64', 'a response id of 2**64', ['protocol']],
];

describe('hostile servers: connection-fatal garbage', () => {
  for (const [mode, what, kinds] of FATAL) {
    it(`${what}: calls in flight reject with McpError ${kinds.join('/')}, later calls are refused, 0 processes left`, async () => {
      const client = await open(mode, [], undefined, { maxSkippedLines: 0 });
      const first = client.callTool('echo', { text: unique('first') });
      const second = client.callTool('echo', { text: unique('second') });
      const [a, b] = await Promise.all([rejection(first), rejection(second)]);
      for (const error of [a, b]) {
        assert.ok(kinds.includes(error.kind), `want kind in ${kinds}, got ${error.kind}: ${error.message}`);
        assert.equal(error.delivery, 'unknown');
        assert.ok(error.message.length < 1000, 'the message stays bounded');
      }
      const later = await rejection(client.callTool('echo', { text: unique('later') }));
      assert.equal(later.kind, 'closed');
      assert.equal(later.delivery, 'not_sent');
      await closeClean(client);
    });
  }
});

describe('hostile servers: what must be ignored is ignored, and no call gets another call’s answer', () => {
  it('a 10k-deep result is delivered to its own call without crashing the client', async () => {
    const client = await open('deep-object-result');
    const result = (await client.callTool('echo', { text: unique('deep') })) as Record<string, unknown>;
    let depth = 0;
    for (let node: unknown = result; typeof node === 'object' && node !== null; depth++) {
      node = (node as Record<string, unknown>)['a'];
    }
    assert.equal(depth, 10_000);
    await closeClean(client);
  });

  it('a 10k-deep log notification neither crashes the client nor breaks the call', async () => {
    let logs = 0;
    const client = await open('deep-notification', [], () => logs++);
    const text = unique('deep-log');
    const pending = client.callTool('echo', { text }, { timeoutMs: 1000 });
    // The fixture never answers in this mode: the call times out; the client stays usable for ping.
    const error = await rejection(pending);
    assert.equal(error.kind, 'timeout');
    await client.request('ping');
    await closeClean(client);
  });

  it('duplicate answers: each call gets its own text; the duplicate reaches nobody', async () => {
    const client = await open('duplicate');
    for (let i = 0; i < 20; i++) {
      const texts = [unique('dup-a'), unique('dup-b'), unique('dup-c')];
      const results = await Promise.all(texts.map((text) => client.callTool('echo', { text })));
      assert.deepEqual(results.map(textOf), texts);
    }
    await closeClean(client);
  });

  it('answers to unknown ids (including the next ids the client will use) are dropped', async () => {
    const client = await open('unknown-ids');
    for (let i = 0; i < 20; i++) {
      const text = unique('unknown');
      assert.equal(textOf(await client.callTool('echo', { text })), text);
    }
    await closeClean(client);
  });

  it(`a flood of ${size(100_000, 100_000)} progress and as many log notifications: the call still gets its own answer`, async () => {
    let logs = 0;
    let progress = 0;
    const count = size(100_000, 100_000);
    const client = await open('flood', [String(count)], () => logs++);
    const text = unique('flood');
    const result = await client.callTool(
      'echo',
      { text },
      { timeoutMs: 20_000, onProgress: () => progress++ },
    );
    assert.equal(textOf(result), text);
    assert.equal(progress, count);
    assert.equal(logs, count);
    // The connection is still healthy afterwards.
    const again = unique('after-flood');
    assert.equal(textOf(await client.callTool('echo', { text: again })), again);
    await closeClean(client);
  });

  it('a response written one byte at a time (CRLF-terminated) arrives whole', async () => {
    const client = await open('one-byte');
    const text = unique('bytes-é-😀');
    assert.equal(textOf(await client.callTool('echo', { text })), text);
    await closeClean(client);
  });

  it('an answer with the id as a string ("1" for 1) is not taken; the right answer is', async () => {
    const client = await open('string-id');
    for (let i = 0; i < 5; i++) {
      const text = unique('string-id');
      assert.equal(textOf(await client.callTool('echo', { text })), text);
    }
    await closeClean(client);
  });

  it('only a string-typed id answer: the call times out (delivery unknown) instead of resolving', async () => {
    const client = await open('string-id-only');
    const error = await rejection(client.callTool('echo', { text: unique('only') }, { timeoutMs: 300 }));
    assert.equal(error.kind, 'timeout');
    assert.equal(error.delivery, 'unknown');
    await closeClean(client);
  });

  it('a null-id error and undeclared server requests are ignored or refused; the call gets its answer', async () => {
    const client = await open('null-id-and-request');
    const text = unique('null-id');
    assert.equal(textOf(await client.callTool('echo', { text })), text);
    await closeClean(client);
  });
});
