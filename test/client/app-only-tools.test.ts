/**
 * MCP Apps (`io.modelcontextprotocol/ui`) for a client without a UI: a tool whose `_meta.ui.visibility`
 * leaves out `"model"` is app-only. Against the fixture `app-tools.mjs` (a model tool, an app-only tool,
 * a `["model", "app"]` tool and malformed or oversized `_meta.ui` values): the pure rule and its bounds,
 * `listToolsDetailed()` (`appOnly`, not `excluded`), every model-facing output (OpenAI, Anthropic, AI SDK
 * definitions; `types` and `types --tree`; the catalog's search and list), `tools --json`, and that the
 * app-only tool is still called by name (client, catalog, CLI) and reaches the server.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { aiTools } from '../../src/agents/ai/index.js';
import {
  anthropicTools,
  openaiChatTools,
  openaiResponsesTools,
  runOpenAIChatToolCall,
} from '../../src/agents/index.js';
import { catalog } from '../../src/catalog/index.js';
import {
  type Client,
  connect,
  isAppOnly,
  isErrorKind,
  isMcpError,
  type Tool,
  toolVisibility,
  uiResourceUri,
} from '../../src/index.js';
import { APP_ONLY_REASON } from '../../src/protocol/apps-ui.js';
import { runMain } from '../cli/in-process.js';
import { fixture, textOf } from './helpers.js';

const MODEL_NAMES = [
  'show_chart',
  'ui_array',
  'ui_null',
  'ui_numbers',
  'ui_string',
  'ui_too_long',
  'ui_too_many',
  'weather',
];
const withUi = (ui: unknown) => ({ name: 't', inputSchema: { type: 'object' }, _meta: { ui } });

let dir = '';
let client: Client;
const log = () =>
  existsSync(path.join(dir, 'calls.log')) ? readFileSync(path.join(dir, 'calls.log'), 'utf8') : '';
const server = () => fixture('app-tools.mjs', [], { env: { APPS_LOG: path.join(dir, 'calls.log') } });
const argv = () => ['--', process.execPath, ...(server().args ?? [])];

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-apps-'));
  client = await connect(server());
});
after(async () => {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('isAppOnly (the one rule)', () => {
  test('a visibility without "model" is app-only; with it, or none given, the tool is for models', () => {
    assert.equal(isAppOnly(withUi({ visibility: ['app'] })), true);
    assert.equal(isAppOnly(withUi({ visibility: [] })), true);
    assert.equal(isAppOnly(withUi({ visibility: ['model', 'app'] })), false);
    assert.equal(isAppOnly(withUi({ resourceUri: 'ui://x' })), false);
    assert.equal(isAppOnly({ name: 't', inputSchema: { type: 'object' } }), false);
  });

  test('anything but a bounded array of short strings is "not given" (visible to models)', () => {
    for (const ui of [
      null,
      ['app'],
      'app',
      { visibility: 'app' },
      { visibility: [1] },
      { visibility: null },
    ]) {
      assert.equal(isAppOnly(withUi(ui)), false, JSON.stringify(ui));
    }
    assert.deepEqual(toolVisibility(withUi({ visibility: Array(8).fill('app') })), Array(8).fill('app'));
    assert.equal(toolVisibility(withUi({ visibility: Array(9).fill('app') })), undefined);
    assert.deepEqual(toolVisibility(withUi({ visibility: ['a'.repeat(64)] })), ['a'.repeat(64)]);
    assert.equal(toolVisibility(withUi({ visibility: ['a'.repeat(65)] })), undefined);
    for (const odd of [null, 'x', 1, [], { _meta: null }, { _meta: [] }, { _meta: { ui: 1 } }])
      assert.equal(isAppOnly(odd), false);
  });

  test('uiResourceUri reads a bounded string only', () => {
    assert.equal(uiResourceUri(withUi({ resourceUri: 'ui://a/b.html' })), 'ui://a/b.html');
    assert.equal(uiResourceUri(withUi({ resourceUri: 7 })), undefined);
    assert.equal(uiResourceUri(withUi({ resourceUri: `ui://${'x'.repeat(2048)}` })), undefined);
    // The deprecated flat key of older servers, when `_meta.ui.resourceUri` is not given; bounded the same.
    const legacy = (uri: unknown, ui?: unknown) => ({ name: 't', _meta: { 'ui/resourceUri': uri, ui } });
    assert.equal(uiResourceUri(legacy('ui://old/app.html')), 'ui://old/app.html');
    assert.equal(
      uiResourceUri(legacy('ui://old/app.html', { resourceUri: 'ui://new/app.html' })),
      'ui://new/app.html',
    );
    assert.equal(uiResourceUri(legacy(`ui://${'x'.repeat(2048)}`)), undefined);
    assert.equal(uiResourceUri(legacy(['ui://old/app.html'])), undefined);
  });
});

describe('the client keeps app-only tools apart', () => {
  test('listToolsDetailed: app-only in appOnly (with its resourceUri), not in tools, not excluded', async () => {
    const list = await client.listToolsDetailed();
    assert.deepEqual(list.tools.map((t) => t.name).sort(), MODEL_NAMES);
    assert.deepEqual(
      list.appOnly.map((t) => t.name),
      ['refresh_chart'],
    );
    assert.deepEqual(list.excluded, []);
    assert.equal(uiResourceUri(list.appOnly[0]), 'ui://charts/weather.html');
    assert.equal(uiResourceUri(list.tools.find((t) => t.name === 'show_chart')), 'ui://charts/weather.html');
    assert.equal(Object.hasOwn(list.digests, 'refresh_chart'), false, 'digests are of the model list');
    assert.deepEqual((await client.listTools()).map((t) => t.name).sort(), MODEL_NAMES);
  });

  test('callTool of the app-only tool reaches the server, also with validateArguments', async () => {
    const result = await client.callTool('refresh_chart', { city: 'Oslo' });
    assert.equal(textOf(result as { content: [] }), 'refresh_chart ran');
    const checked = await client.callTool('refresh_chart', { city: 'Oslo' }, { validateArguments: true });
    assert.equal(textOf(checked as { content: [] }), 'refresh_chart ran');
    assert.match(log(), /^call refresh_chart\ncall refresh_chart\n/m);
  });
});

describe('the config still rules an app-only tool', () => {
  test('a denied app-only tool is excluded and refused before anything is sent', async () => {
    const denied = await connect({ ...server(), tools: { deny: ['refresh_chart'] } });
    try {
      const list = await denied.listToolsDetailed();
      assert.deepEqual(list.appOnly, []);
      assert.deepEqual(
        list.excluded.map((e) => e.name),
        ['refresh_chart'],
      );
      const calls = log();
      await assert.rejects(denied.callTool('refresh_chart'), (e) => isErrorKind(e, 'invalid_tool'));
      assert.equal(log(), calls, 'nothing reached the server');
    } finally {
      await denied.close();
    }
  });
});

describe('model-facing outputs leave app-only tools out', () => {
  test('OpenAI, Anthropic and AI SDK definitions from the client', async () => {
    const chat = await openaiChatTools(await client.listTools());
    assert.deepEqual(chat.tools.map((t) => t.function.name).sort(), MODEL_NAMES);
    const responses = await openaiResponsesTools(await client.listTools());
    assert.deepEqual(responses.tools.map((t) => t.name).sort(), MODEL_NAMES);
    const anthropic = await anthropicTools(await client.listTools());
    assert.deepEqual(anthropic.tools.map((t) => t.name).sort(), MODEL_NAMES);
    const ai = await aiTools(client);
    assert.deepEqual(Object.keys(ai.tools).sort(), MODEL_NAMES);
  });

  test('a model that names the app-only tool anyway is refused; nothing reaches the server', async () => {
    const { names } = openaiChatTools(await client.listTools());
    const calls = log();
    await assert.rejects(
      runOpenAIChatToolCall(client, names, {
        id: 'c1',
        function: { name: 'refresh_chart', arguments: '{}' },
      }),
      (e) => isMcpError(e) && /not among the tools it was given/.test(e.message),
    );
    assert.equal(log(), calls);
  });

  test('a list from elsewhere that holds an app-only tool: left out with an issue', async () => {
    const raw: Tool[] = [
      { name: 'weather', inputSchema: { type: 'object' } },
      withUi({ visibility: ['app'] }) as Tool,
    ];
    const out = openaiChatTools(raw);
    assert.deepEqual(
      out.tools.map((t) => t.function.name),
      ['weather'],
    );
    const issue = out.issues.find((i) => i.tool === 't');
    assert.equal(issue?.action, 'left_out');
    assert.match(issue?.problem ?? '', /app-only/);
  });

  test('the catalog: not in search or list, not described, still called by ref', async () => {
    const servers = catalog({ apps: server() });
    try {
      const found = await servers.search('chart refresh', { limit: 20 });
      assert.deepEqual(found.problems, []);
      assert.ok(found.results.length > 0);
      assert.ok(!found.results.some((h) => h.ref === 'apps.refresh_chart'));
      const all = await servers.list();
      assert.deepEqual(all.results.map((h) => h.tool).sort(), MODEL_NAMES);
      await assert.rejects(servers.describe('apps.refresh_chart'));
      const before = log().split('\n').length;
      const result = await servers.call('apps.refresh_chart', { city: 'Oslo' });
      assert.equal(textOf(result as { content: [] }), 'refresh_chart ran');
      assert.equal(log().split('\n').length, before + 1);
    } finally {
      await servers.close();
    }
  });
});

describe('the CLI', () => {
  test('tools --json has appOnly apart; tools names it app-only', async () => {
    const json = await runMain(['tools', '--json', ...argv()]);
    assert.equal(json.code, 0, json.stderr);
    const list = JSON.parse(json.stdout) as {
      tools: Tool[];
      appOnly: Tool[];
      excluded: Array<{ name: string }>;
    };
    assert.deepEqual(list.tools.map((t) => t.name).sort(), MODEL_NAMES);
    assert.deepEqual(
      list.appOnly.map((t) => t.name),
      ['refresh_chart'],
    );
    assert.equal(list.appOnly[0]?._meta?.['ui'] !== undefined, true);
    // Also under `excluded`, with the app-only reason and its UI resource.
    assert.deepEqual(
      list.excluded.filter((e) => e.name === 'refresh_chart'),
      [{ name: 'refresh_chart', reason: APP_ONLY_REASON, resourceUri: 'ui://charts/weather.html' }],
    );
    const text = await runMain(['tools', ...argv()]);
    assert.match(text.stdout, /^\(app-only\) refresh_chart: callable by name, never offered to a model$/m);
  });

  test('types and types --tree type no app-only tool', async () => {
    const module = await runMain(['types', ...argv()]);
    assert.equal(module.code, 0, module.stderr);
    assert.match(module.stdout, /weather/);
    assert.doesNotMatch(module.stdout, /refresh_chart|refreshChart|RefreshChart/);
    const json = await runMain(['types', '--json', ...argv()]);
    assert.equal(json.code, 0, json.stderr);
    const document = JSON.parse(json.stdout) as { tools: string[]; appOnly: string[] };
    assert.deepEqual(document.tools.sort(), MODEL_NAMES);
    assert.deepEqual(document.appOnly, ['refresh_chart']);
    const folder = path.join(dir, 'tree');
    const tree = await runMain(['types', '--tree', folder, '--name', 'apps', ...argv()]);
    assert.equal(tree.code, 0, tree.stderr);
    const files = readdirSync(folder, { recursive: true }).map(String);
    assert.ok(
      files.some((f) => f.includes('weather')),
      files.join(','),
    );
    assert.ok(!files.some((f) => /refresh/i.test(f)), files.join(','));
    for (const f of files.filter((name) => name.endsWith('.ts')))
      assert.doesNotMatch(readFileSync(path.join(folder, f), 'utf8'), /refresh_chart/);
  });

  test('call of the app-only tool by name reaches the server', async () => {
    const run = await runMain(['call', 'refresh_chart', 'city=Oslo', ...argv()]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /refresh_chart ran/);
  });
});
