/**
 * The client over stdio against real MCP servers: the official SDK v2 server (examples/demo-server.mjs) in
 * both revisions and with `auto`, and @modelcontextprotocol/server-everything (SDK v1, 2025 only).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { clearEraCache } from '../../src/client/lifecycle.js';
import {
  type CallToolResult,
  connect,
  isInputRequired,
  type Progress,
  type StdioServerConfig,
  withClient,
} from '../../src/index.js';
import { alive } from '../helpers/proc.js';
import { demoServer, ROOT, textOf } from './helpers.js';

const everything: StdioServerConfig = {
  command: process.execPath,
  args: [path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};

for (const protocolVersion of ['2025-11-25', '2026-07-28'] as const) {
  describe(`official SDK v2 demo server over stdio at ${protocolVersion}`, () => {
    test('lists the four tools with their schemas as given', async () => {
      await withClient(demoServer({ protocolVersion }), async (client) => {
        assert.equal(client.protocolVersion, protocolVersion);
        const tools = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name).sort(), ['echo', 'fail', 'image', 'slow']);
        const slow = tools.find((t) => t.name === 'slow');
        assert.equal(slow?.inputSchema.type, 'object');
        assert.ok(slow?.inputSchema['properties'], 'properties kept');
      });
    });

    test('echo returns text and structuredContent; fail returns isError as a result', async () => {
      await withClient(demoServer({ protocolVersion }), async (client) => {
        const echo = (await client.callTool('echo', { text: 'hi' })) as CallToolResult;
        assert.equal(textOf(echo), 'hi');
        assert.deepEqual(echo.structuredContent, { text: 'hi' });
        const failed = await client.callTool('fail', { reason: 'because' });
        assert.equal(failed.isError, true);
        assert.match(textOf(failed as CallToolResult), /because/);
      });
    });

    test('slow reports progress to onProgress, in order', async () => {
      await withClient(demoServer({ protocolVersion }), async (client) => {
        const seen: Progress[] = [];
        const result = await client.callTool(
          'slow',
          { steps: 3, delayMs: 20 },
          { onProgress: (p) => seen.push(p) },
        );
        assert.match(textOf(result as CallToolResult), /done after 3 steps/);
        assert.deepEqual(
          seen.map((p) => [p.progress, p.total]),
          [
            [1, 3],
            [2, 3],
            [3, 3],
          ],
        );
      });
    });

    test('image returns a PNG content block', async () => {
      await withClient(demoServer({ protocolVersion }), async (client) => {
        const result = (await client.callTool('image')) as CallToolResult;
        const block = result.content[0];
        assert.equal(block?.type, 'image');
        assert.equal(block?.['mimeType'], 'image/png');
        assert.equal(Buffer.from(String(block?.['data']), 'base64').subarray(1, 4).toString('latin1'), 'PNG');
      });
    });
  });
}

describe('2026-07-28 specifics over stdio', () => {
  test('discover() returns supported versions, capabilities and instructions as data', async () => {
    await withClient(demoServer({ protocolVersion: '2026-07-28' }), async (client) => {
      const facts = await client.discover();
      assert.equal(facts.source, 'server/discover');
      assert.ok(facts.supportedVersions.includes('2026-07-28'), JSON.stringify(facts.supportedVersions));
      assert.ok('tools' in facts.capabilities);
      assert.match(facts.instructions ?? '', /Demo server/);
    });
  });

  test('every request carries _meta; MRTR without a handler returns input_required as data', async () => {
    await withClient(
      {
        command: process.execPath,
        args: [path.join(ROOT, 'test/fixtures/modern-server.mjs')],
        protocolVersion: '2026-07-28',
      },
      async (client) => {
        const result = await client.callTool('confirm', { what: 'delete' });
        assert.ok(isInputRequired(result));
        assert.equal(result.inputRequests?.['confirm']?.method, 'elicitation/create');
        assert.equal(result.requestState, '{"step":1, "opaque": "keep me"}');
        const received = JSON.parse(textOf((await client.callTool('received')) as CallToolResult)) as Array<{
          params: { _meta: Record<string, unknown> };
        }>;
        for (const request of received) {
          assert.equal(request.params._meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
          assert.deepEqual(request.params._meta['io.modelcontextprotocol/clientCapabilities'], {});
          assert.equal(
            (request.params._meta['io.modelcontextprotocol/clientInfo'] as { name: string }).name,
            'autos-mcp',
          );
        }
      },
    );
  });

  test('MRTR with onElicitation completes: new id, inputResponses, requestState echoed byte for byte', async () => {
    const asked: string[] = [];
    const client = await connect(
      {
        command: process.execPath,
        args: [path.join(ROOT, 'test/fixtures/modern-server.mjs')],
        protocolVersion: '2026-07-28',
      },
      {
        onElicitation: async (request) => {
          asked.push(request.message);
          return { action: 'accept', content: { ok: true } };
        },
      },
    );
    try {
      const result = (await client.callTool('confirm', { what: 'delete' })) as CallToolResult;
      assert.equal(textOf(result), 'accept:{"ok":true}:{"step":1, "opaque": "keep me"}');
      assert.deepEqual(asked, ['Confirm delete?']);
      const received = JSON.parse(textOf((await client.callTool('received')) as CallToolResult)) as Array<{
        id: number;
        method: string;
        params: Record<string, unknown> & { _meta: Record<string, unknown> };
      }>;
      const calls = received.filter((r) => r.params['name'] === 'confirm');
      assert.equal(calls.length, 2);
      assert.notEqual(calls[0]?.id, calls[1]?.id, 'the retry has a new id');
      assert.equal(calls[0]?.params['inputResponses'], undefined);
      assert.equal(calls[0]?.params['requestState'], undefined);
      assert.deepEqual(calls[1]?.params['arguments'], { what: 'delete' });
      assert.deepEqual(calls[1]?.params['_meta']['io.modelcontextprotocol/clientCapabilities'], {
        elicitation: { form: {} },
      });
      const other = received.find((r) => r.params['name'] === 'received');
      assert.equal(other?.params['requestState'], undefined, 'no state leaks into an unrelated request');
    } finally {
      await client.close();
    }
  });
  test("an MRTR handler's signal aborts when the call's signal does", async () => {
    const caller = new AbortController();
    let handlerSaw = false;
    const client = await connect(
      {
        command: process.execPath,
        args: [path.join(ROOT, 'test/fixtures/modern-server.mjs')],
        protocolVersion: '2026-07-28',
      },
      {
        onElicitation: (_request, context) =>
          new Promise((resolve) => {
            context.signal.addEventListener('abort', () => {
              handlerSaw = true;
              resolve({ action: 'cancel' });
            });
            caller.abort();
          }),
      },
    );
    try {
      await assert.rejects(client.callTool('confirm', { what: 'x' }, { signal: caller.signal }), {
        kind: 'cancelled',
      });
      assert.equal(handlerSaw, true, "want the handler's signal aborted with the call's");
    } finally {
      await client.close();
    }
  });
  test('listTools({ cache: true }) answers from a list still fresh per ttlMs; nothing is cached unless asked', async () => {
    await withClient(
      {
        command: process.execPath,
        args: [path.join(ROOT, 'test/fixtures/modern-server.mjs')],
        protocolVersion: '2026-07-28',
      },
      async (client) => {
        const first = await client.listToolsDetailed();
        assert.equal(first.fromCache, false);
        assert.equal(first.ttlMs, 60000);
        assert.equal(first.cacheScope, 'public');
        assert.equal((await client.listToolsDetailed({ cache: true })).fromCache, true);
        assert.equal((await client.listToolsDetailed()).fromCache, false, 'no cache unless asked');
        const received = JSON.parse(textOf((await client.callTool('received')) as CallToolResult)) as Array<{
          method: string;
        }>;
        assert.equal(received.filter((r) => r.method === 'tools/list').length, 2);
      },
    );
  });
});

describe('auto detection over stdio', () => {
  test('auto finds 2026-07-28 on the SDK v2 server with one process', async () => {
    clearEraCache();
    await withClient(demoServer({ protocolVersion: 'auto' }), async (client) => {
      assert.equal(client.protocolVersion, '2026-07-28');
      assert.equal(client.serverInfo?.name, 'autos-mcp-demo');
      const result = (await client.callTool('echo', { text: 'auto' })) as CallToolResult;
      assert.equal(textOf(result), 'auto');
    });
  });

  test('auto falls back to initialize on a legacy-only server, in the same process', async () => {
    clearEraCache();
    const client = await connect({ ...everything, protocolVersion: 'auto' });
    try {
      assert.equal(client.protocolVersion, '2025-11-25');
      const pid = client.pid;
      assert.ok(pid && alive(pid));
      assert.ok((await client.listTools()).some((t) => t.name === 'echo'));
      assert.equal(client.pid, pid, 'no second process');
    } finally {
      await client.close();
    }
  });
});

describe('@modelcontextprotocol/server-everything over stdio', () => {
  test('lists all tools (all pages) and calls echo and a failing call', async () => {
    await withClient(everything, async (client) => {
      assert.equal(client.protocolVersion, '2025-11-25');
      const tools = await client.listTools();
      assert.ok(tools.length >= 5, `got ${tools.length} tools`);
      const echo = (await client.callTool('echo', { message: 'everything' })) as CallToolResult;
      assert.match(textOf(echo), /everything/);
    });
  });

  test('resources and prompts through request()', async () => {
    await withClient(everything, async (client) => {
      const resources = await client.request('resources/list');
      assert.ok(Array.isArray(resources['resources']));
      const prompts = await client.request('prompts/list');
      assert.ok(Array.isArray(prompts['prompts']));
    });
  });
});
