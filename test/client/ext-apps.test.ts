/**
 * MCP Apps against servers made with @modelcontextprotocol/ext-apps: test/fixtures/ext-apps-server.mjs (its
 * `registerAppTool` / `registerAppResource` on the official SDK v2) over stdio and Streamable HTTP at both
 * revisions, and the published example @modelcontextprotocol/server-system-monitor (a devDependency).
 * The app-only tool is kept apart and still callable, `_meta.ui.resourceUri` (or the deprecated
 * `_meta["ui/resourceUri"]`) is data, the `ui://` resource reads, and `tools --json` lists the app-only tool
 * under `excluded` with the app-only reason.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { openaiChatTools } from '../../src/agents/index.js';
import { type Client, connect, textOf, uiResourceUri } from '../../src/index.js';
import { APP_ONLY_REASON } from '../../src/protocol/apps-ui.js';
import { runMain } from '../cli/in-process.js';
import { ROOT } from './helpers.js';
import { type FixtureTarget, fixtureTarget } from './http-servers.js';

const FIXTURE = 'test/fixtures/ext-apps-server.mjs';
const RESOURCE = 'ui://get-time/mcp-app.html';

interface ToolsJson {
  tools: Array<{ name: string }>;
  appOnly: Array<{ name: string; _meta?: Record<string, unknown> }>;
  excluded: Array<{ name: string; reason: string; resourceUri?: string }>;
}

for (const transport of ['stdio', 'http'] as const) {
  describe(`an ext-apps server over ${transport}`, () => {
    let target: FixtureTarget;
    before(async () => {
      target = await fixtureTarget(FIXTURE, transport);
    });
    after(() => target.stop());

    for (const revision of ['2025-11-25', '2026-07-28'] as const) {
      describe(revision, () => {
        let client: Client;
        before(async () => {
          client = await connect({ ...target.config, protocolVersion: revision });
        });
        after(async () => {
          await client.close();
        });

        it('the app-only tool is apart and callable; every resourceUri is data; the ui:// resource reads', async () => {
          const list = await client.listToolsDetailed();
          assert.deepEqual(list.tools.map((t) => t.name).sort(), ['get-time', 'old-time']);
          assert.deepEqual(
            list.appOnly.map((t) => t.name),
            ['poll-time'],
          );
          assert.deepEqual(list.excluded, []);
          for (const tool of [...list.tools, ...list.appOnly]) assert.equal(uiResourceUri(tool), RESOURCE);
          // The deprecated key alone (old-time), as an older server writes it.
          const old = list.tools.find((t) => t.name === 'old-time');
          assert.equal(old?._meta?.['ui'], undefined);
          assert.deepEqual(
            openaiChatTools(await client.listTools())
              .tools.map((t) => t.function.name)
              .sort(),
            ['get-time', 'old-time'],
          );
          assert.equal(textOf((await client.callTool('poll-time')) as { content: [] }), 'polled');
          const view = await client.readResource(RESOURCE);
          assert.deepEqual(view.contents, [
            { uri: RESOURCE, mimeType: 'text/html;profile=mcp-app', text: '<!doctype html><p>clock</p>' },
          ]);
        });

        it('tools --json: the app-only tool under excluded, with the reason and its resourceUri', async () => {
          const { config } = target;
          const words = 'url' in config ? [config.url] : ['--', config.command, ...config.args];
          const run = await runMain(['tools', '--json', '--protocol', revision, ...words]);
          assert.equal(run.code, 0, run.stderr);
          const json = JSON.parse(run.stdout) as ToolsJson;
          assert.deepEqual(json.tools.map((t) => t.name).sort(), ['get-time', 'old-time']);
          assert.deepEqual(json.excluded, [
            { name: 'poll-time', reason: APP_ONLY_REASON, resourceUri: RESOURCE },
          ]);
          assert.deepEqual(json.appOnly[0]?._meta?.['ui'], { resourceUri: RESOURCE, visibility: ['app'] });
        });
      });
    }
  });
}

// A published ext-apps example with an app-only tool (`poll-system-stats`, `visibility: ["app"]`, no
// resourceUri). A devDependency: missing, the test fails, it does not skip.
const MONITOR = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-system-monitor/dist/index.js');
test('the published server-system-monitor example: poll-system-stats is app-only, callable, under excluded', async () => {
  const run = await runMain(['tools', '--json', '--', process.execPath, MONITOR, '--stdio']);
  assert.equal(run.code, 0, run.stderr);
  const json = JSON.parse(run.stdout) as ToolsJson;
  assert.deepEqual(
    json.tools.map((t) => t.name),
    ['get-system-info'],
  );
  assert.deepEqual(json.excluded, [{ name: 'poll-system-stats', reason: APP_ONLY_REASON }]);
  const client = await connect({ command: process.execPath, args: [MONITOR, '--stdio'] });
  try {
    const stats = await client.callTool('poll-system-stats');
    assert.equal(stats.isError, undefined);
    assert.match(textOf(stats as { content: [] }) ?? '', /"cpu"/);
    const [tool] = await client.listTools();
    assert.equal(uiResourceUri(tool), 'ui://system-monitor/mcp-app.html');
  } finally {
    await client.close();
  }
});
