/**
 * A client pinned to a revision the server does not speak gets an `unsupported_version` error that says
 * so and names what works (`auto` or the other revision), instead of the raw answer: pinned 2026-07-28
 * against 2025-only servers over Streamable HTTP (the official SDK v1's server-everything, and an SDK v2
 * server in 2025 mode answer `HTTP 400 … Server not initialized`), and pinned 2025-11-25 against an SDK
 * v2 server that rejects 2025 traffic (-32022, over HTTP and stdio) or a server without `initialize`.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { UnsupportedProtocolVersionError } from '../../src/errors/index.js';
import { type CallToolResult, isMcpError, type ServerConfig, withClient } from '../../src/index.js';
import { ROOT, textOf } from './helpers.js';
import { freePort, type RunningServer, startServer } from './http-servers.js';

const ONE_ERA = path.join(ROOT, 'test/fixtures/one-era-server.mjs');
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const listening = (line: string) => line.match(/listening (http:\/\/\S+)/)?.[1];

async function failure(config: ServerConfig, run: 'tools' | 'discover' = 'tools') {
  try {
    await withClient(config, async (client) => {
      if (run === 'tools') await client.listTools();
      else await client.discover();
    });
  } catch (error) {
    assert.ok(isMcpError(error), String(error));
    return error;
  }
  assert.fail('expected the connection or the request to fail');
}

function assertPinRefused(error: unknown, pinned: string, other: string) {
  assert.ok(isMcpError(error));
  assert.equal(error.kind, 'unsupported_version', error.message);
  assert.ok(error instanceof UnsupportedProtocolVersionError);
  assert.equal(error.requested, pinned);
  assert.ok(error.message.includes(`does not support protocol version ${pinned}`), error.message);
  assert.ok(
    error.message.includes(`The client is pinned to ${pinned}: use protocol version 'auto' or '${other}'`),
    error.message,
  );
  assert.match(error.message, /--protocol on the command line/);
}

describe('pinned to 2026-07-28, a 2025-only server over Streamable HTTP', () => {
  let everything: RunningServer;
  let legacyV2: RunningServer;
  before(async () => {
    const port = await freePort();
    everything = await startServer(
      EVERYTHING,
      ['streamableHttp'],
      (line) => (/listening on port/.test(line) ? `http://127.0.0.1:${port}/mcp` : undefined),
      { PORT: String(port) },
    );
    legacyV2 = await startServer(ONE_ERA, ['--era', 'legacy', '--http'], listening);
  });
  after(async () => {
    await everything.stop();
    await legacyV2.stop();
  });

  test('official SDK v1 (server-everything): the HTTP 400 becomes unsupported_version, naming auto and 2025-11-25', async () => {
    const error = await failure({ url: everything.url, protocolVersion: '2026-07-28' });
    assertPinRefused(error, '2026-07-28', '2025-11-25');
    assert.equal(error.status, 400);
    assert.equal(error.delivery, 'delivered');
    // The server's own words stay in the message.
    assert.match(error.message, /answered tools\/list with HTTP 400 \(.*not initialized/i);
  });

  test('official SDK v2 server in 2025 mode: the same, for discover() too', async () => {
    assertPinRefused(
      await failure({ url: legacyV2.url, protocolVersion: '2026-07-28' }),
      '2026-07-28',
      '2025-11-25',
    );
    const error = await failure({ url: legacyV2.url, protocolVersion: '2026-07-28' }, 'discover');
    assertPinRefused(error, '2026-07-28', '2025-11-25');
    assert.match(error.message, /answered server\/discover with HTTP 400/);
  });

  test('the advice works: auto and 2025-11-25 reach the same server', async () => {
    for (const protocolVersion of ['auto', '2025-11-25'] as const) {
      await withClient({ url: legacyV2.url, protocolVersion }, async (client) => {
        assert.equal(client.protocolVersion, '2025-11-25');
        assert.equal(textOf((await client.callTool('echo', { text: 'ok' })) as CallToolResult), 'ok');
      });
    }
  });
});

describe('pinned to 2026-07-28, a 2025 stdio server that exits at a request before initialize', () => {
  // As servers built on Rust's rmcp do: anything but initialize first ends the process.
  const script = `require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
    const m = JSON.parse(line);
    if (m.method !== 'initialize') { process.stderr.write('expected initialize request\\n'); process.exit(1); }
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25',
      capabilities: { tools: {} }, serverInfo: { name: 'strict', version: '1' } } }) + '\\n');
    process.stdin.once('data', () => {});
  });`;
  const strict = { command: process.execPath, args: ['-e', script] };

  test('the closed error keeps its exit and stderr, and adds the advice', async () => {
    const error = await failure({ ...strict, protocolVersion: '2026-07-28' });
    assert.equal(error.kind, 'closed', error.message);
    assert.match(
      error.message,
      /exited .*with code 1\. A server of 2025 may end at a request that does not follow initialize/,
    );
    assert.ok(
      error.message.endsWith(
        "The client is pinned to 2026-07-28: use protocol version 'auto' or '2025-11-25' (protocolVersion in the config, --protocol on the command line)",
      ),
      error.message,
    );
    assert.match(error.stderrTail ?? '', /expected initialize request/);
  });

  test('pinned to 2025-11-25, as advised, it works', async () => {
    await withClient({ ...strict, protocolVersion: '2025-11-25' }, async (client) => {
      assert.equal(client.protocolVersion, '2025-11-25');
    });
  });
});

describe('pinned to 2025-11-25, a server that speaks 2026-07-28 only', () => {
  let modernV2: RunningServer;
  before(async () => {
    modernV2 = await startServer(ONE_ERA, ['--era', 'modern', '--http'], listening);
  });
  after(() => modernV2.stop());

  test('official SDK v2 over HTTP: the -32022 refusal names 2026-07-28 and auto', async () => {
    const error = await failure({ url: modernV2.url, protocolVersion: '2025-11-25' });
    assertPinRefused(error, '2025-11-25', '2026-07-28');
    assert.ok(error instanceof UnsupportedProtocolVersionError);
    assert.deepEqual(error.supported, ['2026-07-28']);
    assert.match(error.message, /it offers 2026-07-28\./);
  });

  test('official SDK v2 over stdio: the same', async () => {
    const error = await failure({
      command: process.execPath,
      args: [ONE_ERA, '--era', 'modern'],
      protocolVersion: '2025-11-25',
    });
    assertPinRefused(error, '2025-11-25', '2026-07-28');
  });

  test('a server without initialize (-32601) over stdio: the same advice', async () => {
    const script = `require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
      const m = JSON.parse(line);
      if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } }) + '\\n');
    });`;
    const error = await failure({ command: process.execPath, args: ['-e', script] });
    assertPinRefused(error, '2025-11-25', '2026-07-28');
    assert.match(error.message, /answered initialize with JSON-RPC error -32601/);
  });

  test('a -32022 with a hostile version list: at most 8 versions of 40 characters each are kept', async () => {
    const script = `require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
      const m = JSON.parse(line);
      const supported = Array.from({ length: 5000 }, (_, i) => String(i).padStart(1000, 'v'));
      if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32022, message: 'no', data: { supported } } }) + '\\n');
    });`;
    const error = await failure({ command: process.execPath, args: ['-e', script] });
    assert.ok(error instanceof UnsupportedProtocolVersionError);
    assert.equal(error.supported.length, 8);
    assert.ok(error.supported.every((v) => v.length === 40));
    assert.ok(error.message.length < 1000, `${error.message.length} characters`);
    assert.doesNotMatch(
      error.message,
      /use protocol version/,
      'no advice: none of them is a revision this client speaks',
    );
  });

  test('auto keeps working against it, with no advice needed', async () => {
    await withClient({ url: modernV2.url, protocolVersion: 'auto' }, async (client) => {
      assert.equal(client.protocolVersion, '2026-07-28');
      assert.equal(textOf((await client.callTool('echo', { text: 'ok' })) as CallToolResult), 'ok');
    });
  });
});
