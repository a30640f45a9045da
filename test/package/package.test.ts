/**
 * The package as published: the export list is deliberate (snapshot), the version constant matches
 * package.json, and the packed tarball installs with --omit=dev and works from a clean project.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as ai from '../../src/agents/ai/index.js';
import * as tools from '../../src/agents/index.js';
import * as catalogEntry from '../../src/catalog/index.js';
import * as diagnostics from '../../src/diagnostics/index.js';
import * as api from '../../src/index.js';
import * as servers from '../../src/servers/index.js';
import * as transport from '../../src/transport/index.js';
import { PACKAGE_VERSION } from '../../src/version.js';
import { installPacked } from '../helpers/package-build.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

test('the public export list is exactly this (additions are deliberate)', () => {
  assert.deepEqual(Object.keys(api).sort(), [
    'Client',
    'ERROR_KINDS',
    'McpError',
    'SKILLS_EXTENSION',
    'Session',
    'TASKS_EXTENSION',
    'callToolOnce',
    'connect',
    'isAppOnly',
    'isErrorKind',
    'isInputRequired',
    'isMcpError',
    'session',
    'structuredOf',
    'textOf',
    'toolDigest',
    'toolVisibility',
    'uiResourceUri',
    'withClient',
  ]);
});

test('autos-mcp/transport and autos-mcp/diagnostics export exactly these', () => {
  assert.deepEqual(Object.keys(transport).sort(), ['createMemoryPair']);
  assert.deepEqual(Object.keys(diagnostics).sort(), ['diagnosticsChannels', 'subscribeDiagnostics']);
});

test('autos-mcp/catalog exports exactly these', () => {
  assert.deepEqual(Object.keys(catalogEntry).sort(), ['catalog']);
});

test('every public entry in package.json exports is bundled and typed from its source entry', () => {
  const exportsMap = (pkg as unknown as { exports: Record<string, unknown> }).exports;
  const bundle = readFileSync(path.join(ROOT, 'scripts/bundle.mjs'), 'utf8');
  for (const [subpath, target] of Object.entries(exportsMap)) {
    if (subpath === './package.json') continue;
    const { types, default: js } = target as { types: string; default: string };
    const name = path.basename(js, '.js');
    const source = `src/${types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts')}`;
    assert.ok(bundle.includes(`${name}: '${source}'`), `scripts/bundle.mjs builds ${name} from ${source}`);
  }
  assert.ok('./transport' in exportsMap && './diagnostics' in exportsMap);
});

test('autos-mcp/tools and autos-mcp/ai export exactly these; only autos-mcp/ai imports the ai package', () => {
  assert.deepEqual(Object.keys(tools).sort(), [
    'MAX_SCHEMA_DEPTH',
    'MAX_SCHEMA_NODES',
    'NAMESPACE_SEPARATOR',
    'TOOL_NAME_RULE',
    'anthropicTools',
    'collectTools',
    'openaiChatTools',
    'openaiResponsesTools',
    'resolveToolName',
    'runAnthropicToolUse',
    'runOpenAIChatToolCall',
    'runOpenAIResponsesToolCall',
  ]);
  assert.deepEqual(Object.keys(ai).sort(), ['aiTools']);
  const agents = path.join(ROOT, 'src/agents');
  const importsAi = readdirSync(agents, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.startsWith(`ai${path.sep}`))
    .filter((f) => /from '(ai|@ai-sdk\/[^']*)'/.test(readFileSync(path.join(agents, f), 'utf8')));
  assert.deepEqual(importsAi, [], 'the plain formats import no framework');
});

test('autos-mcp/servers exports exactly these', () => {
  assert.deepEqual(Object.keys(servers).sort(), [
    'MAX_CLAUDE_USER_BYTES',
    'MAX_CONFIG_BYTES',
    'MAX_ENTRIES_PER_FILE',
    'loadServers',
    'pinsFile',
    'resolveServer',
    'savePins',
    'storedPins',
    'trustFile',
    'trustRecordsFile',
    'untrustFile',
  ]);
});

test('PACKAGE_VERSION equals package.json version; engines allow Node 20.18', () => {
  assert.equal(PACKAGE_VERSION, pkg.version);
  assert.equal(pkg.engines.node, '>=20.18');
  // Each one's reason is in the README (claims.test.ts checks each is named there).
  assert.deepEqual(Object.keys(pkg.dependencies), [
    '@jitl/quickjs-wasmfile-release-sync',
    '@napi-rs/keyring',
    'jsonc-parser',
    'oauth4webapi',
    'quickjs-emscripten-core',
    'smol-toml',
    'sucrase',
    'undici',
  ]);
});

test('the peer dependencies are these, each optional and kept out of the bundle', () => {
  assert.deepEqual(Object.keys(pkg.peerDependencies).sort(), [
    '@cfworker/json-schema',
    '@opentelemetry/api',
    'ai',
    'json-schema-to-typescript',
  ]);
  const bundler = readFileSync(path.join(ROOT, 'scripts/bundle.mjs'), 'utf8');
  for (const name of Object.keys(pkg.peerDependencies)) {
    assert.equal(pkg.peerDependenciesMeta[name]?.optional, true, `${name} is optional`);
    // json-schema-to-typescript is imported by a name held in a variable (codegen/compiler.ts): esbuild leaves it.
    if (name !== 'json-schema-to-typescript') assert.ok(bundler.includes(`'${name}'`), `${name} is external`);
  }
});

test('the packed tarball installs without dev dependencies and its entry and bin work', {
  timeout: 180_000,
}, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-pack-'));
  try {
    // The run's build and pack (made once, from a private copy of the sources), not a rebuild of the
    // repository's dist/ under the tests that run it.
    const { tarball } = installPacked(dir);
    const script = `
      import { callToolOnce } from 'autos-mcp';
      import { createMemoryPair } from 'autos-mcp/transport';
      import { diagnosticsChannels } from 'autos-mcp/diagnostics';
      import { catalog } from 'autos-mcp/catalog';
      const pair = createMemoryPair();
      const echo = { command: process.execPath, args: [${JSON.stringify(path.join(ROOT, 'test/fixtures/echo-server.mjs'))}] };
      const r = await callToolOnce(echo, 'echo', { text: 'packed' });
      const servers = catalog({ echo });
      const found = await servers.search('echo text');
      await servers.close();
      console.log(typeof pair.client.send, typeof diagnosticsChannels.requestStart, r.content[0].text, found.results[0].ref);`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(out.trim(), 'function string packed echo.echo');
    // The subpath exports load from the installed package; the keyring helper finds its binding there
    // (no D-Bus in this child: a clear "not available" error, not a missing module).
    const modules = `
      import { createOAuth } from 'autos-mcp/oauth';
      import { openSettings } from 'autos-mcp/settings';
      import { prepare } from 'autos-mcp/content';
      import { openaiChatTools } from 'autos-mcp/tools';
      const memory = openSettings({ backend: 'memory' });
      await memory.save('x', { env: { K: 'v' } });
      const auth = createOAuth({ url: 'https://example.com/mcp' });
      const prepared = await prepare({ content: [{ type: 'text', text: 't' }] });
      const keyring = await openSettings().list().then(() => 'listed', (e) => e.kind + ': ' + (/not available/.test(e.message) ? 'not available' : e.message));
      console.log(typeof auth.login, openaiChatTools([{ name: 'a.b', inputSchema: { type: 'object' } }]).tools.length, (await memory.load('x')).env.K, prepared.content.length, keyring);`;
    const loaded = execFileSync(process.execPath, ['--input-type=module', '-e', modules], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/autos-mcp-test-bus' },
    });
    assert.equal(loaded.trim(), 'function 1 v 1 config: not available');
    // autos-mcp/servers reads a JSONC and a TOML file with the parsers installed as dependencies.
    writeFileSync(
      path.join(dir, 'autos-mcp.json'),
      '{ "mcpServers": { "j": { "command": "x" }, }, } // jsonc',
    );
    writeFileSync(path.join(dir, 'c.toml'), '[mcp_servers.t]\nurl = "https://example.com/mcp"\n');
    const read = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { loadServers } from 'autos-mcp/servers';
        const r = await loadServers({ only: ['autos-mcp.json', 'c.toml'], home: ${JSON.stringify(dir)}, env: {} });
        console.log(Object.keys(r.servers).join(','), r.problems.length);`,
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(read.trim(), 'j,t 0');
    const help = execFileSync(path.join(dir, 'node_modules/.bin/autos-mcp'), ['--help'], {
      encoding: 'utf8',
    });
    assert.match(help, /autos-mcp tools/);
    const packed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
    assert.doesNotMatch(
      packed,
      /package\/(test|bench|src|node_modules)\//,
      'only dist, docs and metadata are packed',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
