/**
 * The client over Streamable HTTP against the official SDK v2 server (examples/demo-server.mjs), answering
 * JSON and SSE, at both revisions and with `auto`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clearEraCache } from '../../src/client/lifecycle.js';
import { type CallToolResult, type Progress, withClient } from '../../src/index.js';
import { textOf } from './helpers.js';
import { type RunningServer, startDemoHttp } from './http-servers.js';

for (const mode of ['sse', 'json'] as const) {
  describe(`official SDK v2 server over Streamable HTTP answering ${mode}`, () => {
    let server: RunningServer;
    before(async () => {
      server = await startDemoHttp(mode === 'json');
    });
    after(() => server.stop());

    for (const protocolVersion of ['2025-11-25', '2026-07-28'] as const) {
      test(`${protocolVersion}: list, call, isError, progress, image`, async () => {
        await withClient({ url: server.url, protocolVersion }, async (client) => {
          assert.equal(client.protocolVersion, protocolVersion);
          assert.equal(client.transport, 'http');
          const tools = await client.listTools();
          assert.deepEqual(tools.map((t) => t.name).sort(), ['echo', 'fail', 'image', 'slow']);
          assert.equal(
            textOf((await client.callTool('echo', { text: 'over http' })) as CallToolResult),
            'over http',
          );
          const failed = await client.callTool('fail', { reason: 'nope' });
          assert.equal(failed.isError, true);
          const image = (await client.callTool('image')) as CallToolResult;
          assert.equal(image.content[0]?.type, 'image');
          const seen: Progress[] = [];
          await client.callTool('slow', { steps: 2, delayMs: 10 }, { onProgress: (p) => seen.push(p) });
          if (mode === 'sse')
            assert.deepEqual(
              seen.map((p) => p.progress),
              [1, 2],
            );
        });
      });
    }

    test('auto picks 2026-07-28 on this dual-era server', async () => {
      clearEraCache();
      await withClient({ url: server.url, protocolVersion: 'auto' }, async (client) => {
        assert.equal(client.protocolVersion, '2026-07-28');
        assert.equal(textOf((await client.callTool('echo', { text: 'auto' })) as CallToolResult), 'auto');
      });
    });
  });
}
