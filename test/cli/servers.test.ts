// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders are literal text of config files here
/**
 * Configured servers through `main(argv, io)` (in this process; the demo server is the built binary) in a throwaway HOME and
 * project: `servers` and `servers --json`, a configured name as the target of tools, call (NAME.TOOL) and
 * discover against the demo server and @modelcontextprotocol/server-everything, project trust (refused,
 * --trust-project, `servers trust`, refused again after an edit), `--config FILE`, placeholders at connect,
 * and terminal safety of names from a file.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { builtBin } from '../helpers/built-package.js';
import { type Dirs, dirs } from '../servers/helpers.js';
import { runMain } from './in-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The binary built from the current sources, once per test run (test/helpers/built-package.ts). */
const BIN = await builtBin();
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const DEMO = { command: process.execPath, args: [BIN, 'demo-server'] };

let d: Dirs;
beforeEach(() => {
  d = dirs();
});
afterEach(() => d.cleanup());

/** Runs the CLI in this process, in a throwaway HOME with no config-directory variables of this machine. */
async function cli(args: string[], env: Record<string, string> = {}, cwd = d.proj) {
  const unset = Object.fromEntries(
    ['XDG_CONFIG_HOME', 'APPDATA', 'CODEX_HOME', 'AUTOS_MCP_TOKEN'].map((key) => [key, undefined]),
  );
  return runMain(args, { cwd: cwd, env: { ...unset, HOME: d.home, ...env } });
}

describe('autos-mcp servers', () => {
  test('lists each server with transport, scope, trust and origin; problems on stderr; --json is the data', async () => {
    d.write(
      d.proj,
      '.mcp.json',
      JSON.stringify({ mcpServers: { demo: DEMO, old: { type: 'sse', url: 'https://o.example/sse' } } }),
    );
    d.write(
      d.home,
      '.cursor/mcp.json',
      JSON.stringify({
        mcpServers: { demo: { url: 'https://mine.example/mcp' }, web: { url: 'https://w.example/mcp' } },
      }),
    );
    const run = await cli(['servers']);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split('\n');
    assert.match(lines[0] ?? '', /^demo +stdio +project +not trusted +\.mcp\.json \(claude-code\)$/);
    assert.match(lines[1] ?? '', /^web +http +user +trusted +~\/\.cursor\/mcp\.json \(cursor\)$/);
    assert.match(run.stdout, /^shadowed: demo in ~\/\.cursor\/mcp\.json, by \.mcp\.json$/m);
    assert.match(
      run.stderr,
      /^problem: \.mcp\.json: server "old": it uses the deprecated HTTP\+SSE transport/m,
    );
    const json = await cli(['servers', '--json']);
    const data = JSON.parse(json.stdout) as {
      servers: Record<string, { scope: string }>;
      shadowed: unknown[];
      problems: unknown[];
    };
    assert.deepEqual(Object.keys(data.servers), ['demo', 'web']);
    assert.equal(data.shadowed.length, 1);
    assert.equal(data.problems.length, 1);
  });

  test('names and messages from a file are sanitized for the terminal', async () => {
    d.write(
      d.home,
      '.cursor/mcp.json',
      JSON.stringify({
        mcpServers: {
          '\u001b]0;pwned\u0007evil': { command: 'x' },
          ok: { type: '\u001b[2Jx', command: 'x' },
        },
      }),
    );
    const run = await cli(['servers']);
    assert.equal(run.code, 0);
    assert.doesNotMatch(run.stdout + run.stderr, /[\u001b\u0007]/);
    assert.match(run.stderr, /problem: ~\/\.cursor\/mcp\.json: server "evil": the name is not usable/);
  });
});

describe('a configured name as the target', () => {
  test('a user file: tools NAME, call NAME.TOOL (JSON and key=value), discover NAME, call NAME.TOOL --help', async () => {
    d.write(d.home, '.cursor/mcp.json', JSON.stringify({ mcpServers: { demo: DEMO } }));
    const tools = await cli(['tools', 'demo']);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /^echo\(text\)$/m);
    const call = await cli(['call', 'demo.echo', '{"text":"from the config"}']);
    assert.equal(call.code, 0, call.stderr);
    assert.equal(call.stdout, 'from the config\n');
    const pairs = await cli(['call', 'demo.echo', 'text=0012']);
    assert.equal(pairs.code, 0, pairs.stderr);
    assert.equal(pairs.stdout, '0012\n');
    const discover = await cli(['discover', 'demo', '--json']);
    assert.equal(discover.code, 0, discover.stderr);
    assert.equal(
      (JSON.parse(discover.stdout) as { serverInfo: { name: string } }).serverInfo.name,
      'autos-mcp-demo',
    );
    const help = await cli(['call', 'demo.slow', '--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /steps/);
  });

  test('hints echo the NAME.TOOL form typed: the call line of --help, and an unknown tool', async () => {
    d.write(d.home, '.cursor/mcp.json', JSON.stringify({ mcpServers: { demo: DEMO } }));
    const help = await cli(['call', 'demo.echo', '--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Call it: autos-mcp call demo\.echo '\{"text":"…"\}'$/m);
    assert.doesNotMatch(help.stdout, /<target>/);
    const unknown = await cli(['call', 'demo.ecoh', 'text=x']);
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /did you mean: echo\? \(its tools: echo, slow, image, [^)]*\)\n$/);
  });

  test('@modelcontextprotocol/server-everything from a Claude Desktop file, with an env placeholder', async () => {
    d.write(
      d.home,
      '.config/Claude/claude_desktop_config.json',
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, '${MODE}'] } },
      }),
    );
    const run = await cli(['call', 'everything.echo', 'message=hi there'], { MODE: 'stdio' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Echo: hi there/);
    const unset = await cli(['tools', 'everything']);
    assert.equal(unset.code, 2);
    assert.match(
      unset.stderr,
      /the server "everything" \(~\/\.config\/Claude\/claude_desktop_config\.json\) needs the environment variable MODE, which is not set/,
    );
  });

  test('a project stdio server is refused until trusted, runs with --trust-project, after servers trust, and is refused again once the file changes', async () => {
    const file = d.write(d.proj, '.mcp.json', JSON.stringify({ mcpServers: { demo: DEMO } }));
    const refused = await cli(['call', 'demo.echo', 'text=hi']);
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /error \[config\]: the server "demo" comes from the project file \.mcp\.json, which is not trusted .*: read it, then run autos-mcp servers trust \.mcp\.json \(or pass --trust-project for one run\)/,
    );
    assert.equal(refused.stdout, '');
    const once = await cli(['call', 'demo.echo', 'text=once', '--trust-project']);
    assert.equal(once.code, 0, once.stderr);
    assert.equal(once.stdout, 'once\n');
    assert.equal((await cli(['tools', 'demo'])).code, 2, '--trust-project is for one run');
    const trust = await cli(['servers', 'trust']);
    assert.equal(trust.code, 0, trust.stderr);
    assert.match(trust.stdout, /^trusted: \.mcp\.json \(sha256 [0-9a-f]{16}…\)$|^trusted: .*\.mcp\.json/m);
    const after = await cli(['call', 'demo.echo', 'text=trusted']);
    assert.equal(after.code, 0, after.stderr);
    assert.equal(after.stdout, 'trusted\n');
    writeFileSync(
      file,
      JSON.stringify({ mcpServers: { demo: { ...DEMO, args: [...DEMO.args, '--extra'] } } }),
    );
    const changed = await cli(['tools', 'demo']);
    assert.equal(changed.code, 2);
    assert.match(changed.stderr, /which changed since you trusted it/);
    assert.equal((await cli(['servers', 'trust', '.mcp.json'])).code, 0);
    assert.equal((await cli(['servers', 'untrust', '.mcp.json'])).code, 0);
    assert.equal((await cli(['tools', 'demo'])).code, 2);
  });

  test('a project HTTP entry needs trust too (it may send your variables to a URL the repository chose)', async () => {
    d.write(
      d.proj,
      'opencode.json',
      JSON.stringify({
        mcp: {
          web: {
            type: 'remote',
            url: 'http://127.0.0.1:9/mcp',
            headers: { Authorization: 'Bearer {env:MY_TOKEN}' },
          },
        },
      }),
    );
    const run = await cli(['tools', 'web'], { MY_TOKEN: 'tok-should-not-leave' });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /comes from the project file opencode\.json, which is not trusted/);
  });

  test('--config FILE reads that one file only (a file outside the user locations needs trust)', async () => {
    d.write(d.home, '.cursor/mcp.json', JSON.stringify({ mcpServers: { other: DEMO } }));
    const file = d.write(
      d.proj,
      'conf/servers.toml',
      `[mcp_servers.tomldemo]\ncommand = ${JSON.stringify(DEMO.command)}\nargs = ${JSON.stringify(DEMO.args)}\n`,
    );
    const list = await cli(['servers', '--json', '--config', file]);
    assert.deepEqual(Object.keys((JSON.parse(list.stdout) as { servers: object }).servers), ['tomldemo']);
    const run = await cli(['call', 'tomldemo.echo', 'text=toml', '--config', file, '--trust-project']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'toml\n');
    assert.equal((await cli(['tools', 'other', '--config', file])).code, 2);
  });

  test('an unknown name, an entry with a problem, --config with a -- target: exit 2 before anything starts', async () => {
    d.write(
      d.home,
      '.cursor/mcp.json',
      JSON.stringify({ mcpServers: { demo: DEMO, old: { type: 'sse', url: 'https://o.example/sse' } } }),
    );
    const unknown = await cli(['call', 'nosuch.echo', 'text=x']);
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /no server named "nosuch" in the config files found \(configured: demo; autos-mcp servers lists them\)/,
    );
    const problem = await cli(['tools', 'old']);
    assert.equal(problem.code, 2);
    assert.match(
      problem.stderr,
      /the server "old" in ~\/\.cursor\/mcp\.json cannot be used: it uses the deprecated HTTP\+SSE transport/,
    );
    const mixed = await cli(['tools', '--config', 'x.json', '--', process.execPath, BIN, 'demo-server']);
    assert.equal(mixed.code, 2);
    assert.match(mixed.stderr, /--config goes with a configured server as the target/);
    // A server command typed without -- still gets that advice, not "no server named".
    assert.match((await cli(['tools', 'node', 'server.mjs'])).stderr, /looks like a server command/);
  });
});
