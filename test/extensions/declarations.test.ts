/**
 * The extensions framework against the official SDK v2 server (@modelcontextprotocol/server 2.4.0) at both
 * revisions, over stdio and Streamable HTTP: turned-on extensions are declared in `capabilities.extensions`
 * (2026 on every request, 2025 in `initialize`) and the server sees them; nothing is declared when none is
 * on; the server's offered extensions are `client.serverExtensions`; a malformed id is refused before
 * anything starts. The declarations on the wire are checked against the official schemas.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TASKS_EXTENSION } from '../../src/extensions/index.js';
import { connect, isMcpError, type ServerConfig } from '../../src/index.js';
import { FIXTURES, textOf } from '../client/helpers.js';
import { type RunningServer, startServer } from '../client/http-servers.js';
import { scriptedPair } from '../helpers/memory-server.js';
import { schemaProblems } from '../helpers/protocol-schema.js';

const SDK_SERVER = path.join(FIXTURES, 'sdk-extensions-server.mjs');
const OFFERED = { 'com.example/offered': { level: 2 }, [TASKS_EXTENSION]: {} };
const ON = ['com.example/needed', TASKS_EXTENSION];
const stdio = (protocolVersion: '2025-11-25' | '2026-07-28' | 'auto'): ServerConfig => ({
  command: process.execPath,
  args: [SDK_SERVER],
  protocolVersion,
});

/** What the server saw: the `caps` tool's answer. */
async function seenCapabilities(config: ServerConfig, extensions?: string[]) {
  const client = await connect(config, extensions === undefined ? {} : { extensions });
  try {
    const seen = JSON.parse(textOf(await client.callTool('caps', {}))) as Record<string, unknown>;
    const offered = client.serverExtensions;
    let discovered: typeof offered | undefined;
    if (client.protocolVersion.startsWith('2026')) {
      await client.discover();
      discovered = client.serverExtensions;
    }
    return { seen, offered, discovered };
  } finally {
    await client.close();
  }
}

describe('against the SDK v2 server over stdio', () => {
  for (const revision of ['2025-11-25', '2026-07-28'] as const) {
    test(`${revision}: turned-on extensions are declared and seen; offered ones are serverExtensions`, async () => {
      const { seen, offered, discovered } = await seenCapabilities(stdio(revision), ON);
      assert.deepEqual(seen, { extensions: { 'com.example/needed': {}, [TASKS_EXTENSION]: {} } });
      if (revision === '2025-11-25') assert.deepEqual(offered, OFFERED);
      // Pinned 2026 sends no server/discover until asked: nothing is known before, all of it after.
      else {
        assert.deepEqual(offered, {});
        assert.deepEqual(discovered, OFFERED);
      }
    });

    test(`${revision}: with no extension on, nothing is declared`, async () => {
      const { seen } = await seenCapabilities(stdio(revision));
      assert.deepEqual(seen, {});
    });
  }

  test('auto: the probe’s server/discover gives serverExtensions at once', async () => {
    const client = await connect(stdio('auto'), { extensions: ON });
    try {
      assert.equal(client.protocolVersion, '2026-07-28');
      assert.deepEqual(client.serverExtensions, OFFERED);
    } finally {
      await client.close();
    }
  });
});

describe('against the SDK v2 server over Streamable HTTP', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer(SDK_SERVER, ['--http'], (line) => line.match(/listening (http:\/\/\S+)/)?.[1]);
  });
  after(() => server.stop());

  test('2026: declared on the request and seen by the server; serverExtensions from discover', async () => {
    const { seen, discovered } = await seenCapabilities(
      { url: server.url, protocolVersion: '2026-07-28' },
      ON,
    );
    assert.deepEqual(seen, { extensions: { 'com.example/needed': {}, [TASKS_EXTENSION]: {} } });
    assert.deepEqual(discovered, OFFERED);
  });

  test('2025: serverExtensions from initialize', async () => {
    const client = await connect({ url: server.url, protocolVersion: '2025-11-25' }, { extensions: ON });
    try {
      assert.deepEqual(client.serverExtensions, OFFERED);
    } finally {
      await client.close();
    }
  });
});

describe('on the wire (scripted peer), checked against the official schemas', () => {
  test('2026: every request carries the declaration in _meta clientCapabilities, valid ClientCapabilities', async () => {
    const { connection, server } = scriptedPair({
      onRequest: (request, peer) => peer.reply(request.id, { content: [] }),
    });
    const client = await connect({ protocolVersion: '2026-07-28' }, { connection, extensions: ON });
    try {
      await client.listTools();
      await client.callTool('echo', {});
    } finally {
      await client.close();
    }
    const requests = server.received.map((d) => d.message).filter((m) => 'method' in m && 'id' in m);
    assert.ok(requests.length >= 2);
    for (const request of requests) {
      const params = (request as { params?: Record<string, unknown> }).params ?? {};
      const capabilities = (params['_meta'] as Record<string, unknown>)[
        'io.modelcontextprotocol/clientCapabilities'
      ];
      assert.deepEqual(capabilities, { extensions: { 'com.example/needed': {}, [TASKS_EXTENSION]: {} } });
      assert.deepEqual(schemaProblems('2026-07-28', 'ClientCapabilities', capabilities), []);
      const definition = { 'tools/list': 'ListToolsRequest', 'tools/call': 'CallToolRequest' }[
        (request as { method: string }).method
      ];
      if (definition !== undefined) assert.deepEqual(schemaProblems('2026-07-28', definition, request), []);
    }
  });

  test('2025: initialize declares them once, a valid InitializeRequest; none declared when none is on', async () => {
    for (const extensions of [ON, undefined]) {
      const { connection, server } = scriptedPair();
      const client = await connect({}, { connection, ...(extensions ? { extensions } : {}) });
      await client.close();
      const [initialize] = server.sent('initialize');
      assert.deepEqual(schemaProblems('2025-11-25', 'InitializeRequest', initialize), []);
      const params = initialize !== undefined && 'params' in initialize ? initialize.params : undefined;
      const declared = params?.['capabilities'];
      assert.deepEqual(
        declared,
        extensions ? { extensions: { 'com.example/needed': {}, [TASKS_EXTENSION]: {} } } : {},
      );
    }
  });
});

test('a malformed extension id is config, before anything is started', async () => {
  // The command does not exist: a spawn would fail as `spawn`; the id is refused first.
  await assert.rejects(
    connect({ command: '/nonexistent/autos-mcp-never' }, { extensions: ['com.example/ok', 'bad id'] }),
    (error: unknown) =>
      isMcpError(error) &&
      error.kind === 'config' &&
      error.delivery === 'not_sent' &&
      error.message ===
        'extensions: "bad id" is not prefix/name (dot-separated labels of letters, digits and hyphens, a slash, then a name: e.g. io.modelcontextprotocol/tasks)',
  );
});
