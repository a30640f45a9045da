// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders are literal text of config files here
/**
 * loadServers against real files of every client's format, written by each test in a throwaway home and
 * project: entry mapping, precedence and shadowing, comments where the client allows them, problems with
 * file and line (and the other files still loading), the bounds, the git-root walk and the per-OS paths.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import {
  type LoadedServers,
  loadServers,
  MAX_CONFIG_BYTES,
  MAX_ENTRIES_PER_FILE,
} from '../../src/servers/index.js';
import { userSources } from '../../src/servers/sources.js';
import { must } from '../helpers/must.js';
import { type Dirs, dirs } from './helpers.js';

let d: Dirs;
beforeEach(() => {
  d = dirs();
});
afterEach(() => d.cleanup());

const load = (extra: Parameters<typeof loadServers>[0] = {}): Promise<LoadedServers> =>
  loadServers({ cwd: d.proj, home: d.home, env: {}, platform: 'linux', ...extra });

function server(loaded: LoadedServers, name: string) {
  return must(Object.hasOwn(loaded.servers, name) ? loaded.servers[name] : undefined, `server ${name}`);
}

describe('every format', () => {
  test('each client file is read with its own shape, scope and origin', async () => {
    const { home, proj } = d;
    d.write(
      proj,
      'autos-mcp.json',
      '{ // own file: JSONC\n "mcpServers": { "own": { "command": "node", "args": ["s.mjs"], "timeoutMs": 5000, "tools": { "deny": ["rm*"] }, }, }, }',
    );
    d.write(
      proj,
      '.mcp.json',
      JSON.stringify({
        mcpServers: {
          cc: { command: 'npx', args: ['-y', 'x', '${TOKEN:-none}'], env: { K: '${KEY}' } },
          cchttp: {
            type: 'http',
            url: 'https://cc.example/mcp',
            headers: { Authorization: 'Bearer ${API}' },
          },
        },
      }),
    );
    d.write(
      proj,
      '.cursor/mcp.json',
      JSON.stringify({ mcpServers: { cursorp: { url: 'https://cursor.example/mcp' } } }),
    );
    d.write(
      proj,
      '.vscode/mcp.json',
      '{\n  // VS Code allows comments\n  "servers": { "vsc": { "type": "stdio", "command": "uvx", "args": ["srv"], }, },\n  "inputs": [],\n}',
    );
    d.write(
      proj,
      '.codex/config.toml',
      '[mcp_servers.codexp]\ncommand = "npx"\nargs = ["-y", "c"]\nenv_vars = ["PASS"]\nenabled_tools = ["read"]\ndisabled_tools = ["write"]\ntool_timeout_sec = 2\n',
    );
    d.write(
      proj,
      'opencode.jsonc',
      '{ "mcp": { "oclocal": { "type": "local", "command": ["bun", "x", "srv"], "environment": { "T": "{env:OC}" }, }, }, }',
    );
    d.write(
      proj,
      'opencode.json',
      JSON.stringify({
        mcp: { ocremote: { type: 'remote', url: 'https://oc.example/mcp', enabled: false } },
      }),
    );
    d.write(
      home,
      '.config/autos-mcp/servers.json',
      JSON.stringify({ mcpServers: { ownuser: { url: 'https://own.example/mcp' } } }),
    );
    d.write(
      home,
      '.claude.json',
      JSON.stringify({
        numStartups: 3,
        mcpServers: { ccuser: { type: 'stdio', command: 'a' } },
        projects: {
          [proj]: { mcpServers: { cclocal: { command: 'b' } } },
          '/elsewhere': { mcpServers: { other: { command: 'c' } } },
        },
      }),
    );
    d.write(
      home,
      '.config/Claude/claude_desktop_config.json',
      JSON.stringify({ mcpServers: { desktop: { command: 'd', env: { A: '1' } } } }),
    );
    d.write(
      home,
      '.cursor/mcp.json',
      '{ "mcpServers": { /* Cursor is lenient */ "cursoru": { "command": "e" } } }',
    );
    d.write(
      home,
      '.config/Code/User/mcp.json',
      JSON.stringify({ servers: { vscu: { type: 'http', url: 'https://vscu.example/mcp' } } }),
    );
    d.write(
      home,
      '.codeium/windsurf/mcp_config.json',
      JSON.stringify({ mcpServers: { wind: { serverUrl: 'https://wind.example/mcp', disabled: true } } }),
    );
    d.write(
      home,
      '.codex/config.toml',
      '# user codex\n[mcp_servers.codexu]\nurl = "https://codex.example/mcp"\nbearer_token_env_var = "CODEX_TOKEN"\nenv_http_headers = { "X-Key" = "XKEY" }\nstartup_timeout_sec = 3\n',
    );
    d.write(
      home,
      '.config/opencode/opencode.json',
      JSON.stringify({ mcp: { ocuser: { type: 'local', command: ['f', '--flag'] } } }),
    );

    const loaded = await load();
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(Object.keys(loaded.servers), [
      'own',
      'cc',
      'cchttp',
      'cursorp',
      'vsc',
      'codexp',
      'oclocal',
      'ocremote',
      'ownuser',
      'cclocal',
      'ccuser',
      'desktop',
      'cursoru',
      'vscu',
      'wind',
      'codexu',
      'ocuser',
    ]);
    assert.deepEqual(server(loaded, 'own').config, {
      timeoutMs: 5000,
      tools: { deny: ['rm*'] },
      command: 'node',
      args: ['s.mjs'],
    });
    assert.deepEqual(server(loaded, 'cc').config, {
      command: 'npx',
      args: ['-y', 'x', '${TOKEN:-none}'],
      env: { K: '${KEY}' },
    });
    assert.deepEqual(server(loaded, 'cc').variables, ['TOKEN', 'KEY']);
    assert.equal(server(loaded, 'cc').scope, 'project');
    assert.equal(server(loaded, 'cc').trusted, false);
    assert.deepEqual(server(loaded, 'cc').origin, {
      file: path.join(proj, '.mcp.json'),
      format: 'claude-code',
      project: proj,
    });
    assert.deepEqual(server(loaded, 'cchttp').config, {
      url: 'https://cc.example/mcp',
      headers: { Authorization: 'Bearer ${API}' },
    });
    assert.equal(server(loaded, 'cursorp').transport, 'http');
    assert.deepEqual(server(loaded, 'vsc').config, { command: 'uvx', args: ['srv'] });
    assert.equal(server(loaded, 'vsc').origin.format, 'vscode');
    assert.deepEqual(server(loaded, 'codexp').config, {
      tools: { allow: ['read'], deny: ['write'] },
      timeoutMs: 2000,
      command: 'npx',
      args: ['-y', 'c'],
      env: { PASS: '${PASS}' },
    });
    assert.deepEqual(server(loaded, 'oclocal').config, {
      command: 'bun',
      args: ['x', 'srv'],
      env: { T: '{env:OC}' },
    });
    assert.deepEqual(server(loaded, 'oclocal').variables, ['OC']);
    assert.equal(server(loaded, 'ocremote').disabled, true);
    assert.equal(server(loaded, 'ownuser').scope, 'user');
    assert.equal(server(loaded, 'ownuser').trusted, true);
    assert.deepEqual(server(loaded, 'cclocal').origin, {
      file: path.join(home, '.claude.json'),
      format: 'claude-code',
      section: `projects[${JSON.stringify(proj)}]`,
      project: proj,
    });
    assert.equal(
      Object.hasOwn(loaded.servers, 'other'),
      false,
      'another project of ~/.claude.json is not read',
    );
    assert.deepEqual(server(loaded, 'desktop').config, { command: 'd', env: { A: '1' } });
    assert.equal(server(loaded, 'desktop').origin.format, 'claude-desktop');
    assert.equal(server(loaded, 'cursoru').origin.format, 'cursor');
    assert.equal(server(loaded, 'vscu').transport, 'http');
    assert.deepEqual(server(loaded, 'wind').config, { url: 'https://wind.example/mcp' });
    assert.equal(server(loaded, 'wind').disabled, true);
    assert.deepEqual(server(loaded, 'codexu').config, {
      connectTimeoutMs: 3000,
      url: 'https://codex.example/mcp',
      headers: { 'X-Key': '${XKEY}' },
      authToken: '${CODEX_TOKEN}',
    });
    assert.deepEqual(server(loaded, 'ocuser').config, { command: 'f', args: ['--flag'] });
    assert.equal(loaded.files.length, 15);
    assert.ok(loaded.files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256)));
  });

  test('the first definition of a name wins; the others are reported as shadowed, in order', async () => {
    const own = d.write(
      d.proj,
      'autos-mcp.json',
      JSON.stringify({ mcpServers: { dup: { command: 'first' } } }),
    );
    const cc = d.write(d.proj, '.mcp.json', JSON.stringify({ mcpServers: { dup: { command: 'second' } } }));
    const cursor = d.write(
      d.home,
      '.cursor/mcp.json',
      JSON.stringify({ mcpServers: { dup: { url: 'https://third.example/mcp' } } }),
    );
    const loaded = await load();
    const dup = server(loaded, 'dup');
    assert.deepEqual(dup.config, { command: 'first' });
    assert.deepEqual(
      dup.shadowed?.map((o) => o.file),
      [cc, cursor],
    );
    assert.deepEqual(
      loaded.shadowed.map((s) => [s.name, s.origin.file, s.scope, s.by.file]),
      [
        ['dup', cc, 'project', own],
        ['dup', cursor, 'user', own],
      ],
    );
  });

  test('a project file in the home directory is read once, as the user file it is', async () => {
    d.write(d.home, '.cursor/mcp.json', JSON.stringify({ mcpServers: { c: { command: 'x' } } }));
    const loaded = await load({ cwd: d.home });
    assert.equal(server(loaded, 'c').scope, 'user');
    assert.equal(loaded.files.length, 1);
  });
});

describe('problems', () => {
  test('a malformed file is a problem with its line; the other files still load', async () => {
    const bad = d.write(
      d.proj,
      '.mcp.json',
      '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}',
    );
    d.write(d.home, '.cursor/mcp.json', JSON.stringify({ mcpServers: { ok: { command: 'y' } } }));
    const loaded = await load();
    assert.deepEqual(loaded.problems, [
      { file: bad, line: 4, message: 'the file is not valid JSON (CommaExpected)' },
    ]);
    assert.deepEqual(Object.keys(loaded.servers), ['ok']);
  });

  test('comments and trailing commas are refused where the client refuses them (Claude Code), with the line', async () => {
    const file = d.write(
      d.proj,
      '.mcp.json',
      '{\n  "mcpServers": {\n    // a comment\n    "a": { "command": "x" }\n  }\n}',
    );
    const loaded = await load();
    assert.equal(loaded.problems[0]?.file, file);
    assert.equal(loaded.problems[0]?.line, 3);
    assert.match(loaded.problems[0]?.message ?? '', /not valid JSON \(InvalidCommentToken\)/);
    const trailing = d.write(
      d.home,
      '.codeium/windsurf/mcp_config.json',
      '{ "mcpServers": { "w": { "command": "x" }, }\n}',
    );
    const again = await load({ only: trailing });
    assert.match(again.problems[0]?.message ?? '', /not valid JSON/);
  });

  test('a malformed TOML file is a problem with its line, never the parser message (it quotes the file)', async () => {
    const file = d.write(
      d.proj,
      '.codex/config.toml',
      '[mcp_servers.a]\ncommand = "x"\nenv = { SECRET = "hunter2", = 1 }\nargs = []\n',
    );
    const loaded = await load();
    assert.deepEqual(loaded.problems, [{ file, line: 3, message: 'the file is not valid TOML' }]);
    assert.doesNotMatch(JSON.stringify(loaded), /hunter2/);
  });

  test('the deprecated SSE type, a VS Code ${input:…}, an env file and unknown placeholders are problems naming the entry', async () => {
    const file = d.write(
      d.proj,
      '.vscode/mcp.json',
      JSON.stringify({
        servers: {
          sse: { type: 'sse', url: 'https://old.example/sse' },
          prompt: { command: 'x', env: { TOKEN: '${input:token}' } },
          envfile: { command: 'x', envFile: '${workspaceFolder}/.env' },
          strange: { command: 'x', args: ['${command:pick}'] },
          open: { command: 'x', args: ['${UNCLOSED'] },
          fine: { command: 'x', args: ['${workspaceFolder}/s.js'] },
        },
      }),
    );
    const loaded = await load();
    const byEntry = Object.fromEntries(loaded.problems.map((p) => [p.entry, p.message]));
    assert.ok(loaded.problems.every((p) => p.file === file));
    assert.match(byEntry['sse'] ?? '', /deprecated HTTP\+SSE transport/);
    assert.match(byEntry['prompt'] ?? '', /^env\.TOKEN: it asks for a VS Code input/);
    assert.match(byEntry['envfile'] ?? '', /env file \(envFile\)/);
    assert.match(
      byEntry['strange'] ?? '',
      /^args\[0\]: the placeholder \$\{command:pick\} is not one autos-mcp knows/,
    );
    assert.match(byEntry['open'] ?? '', /not closed/);
    assert.deepEqual(Object.keys(loaded.servers), ['fine']);
  });

  test('OpenCode {file:…} is a problem; other entry shapes that make no server are too', async () => {
    d.write(
      d.proj,
      'opencode.json',
      JSON.stringify({
        mcp: {
          f: { type: 'local', command: ['x'], environment: { K: '{file:~/.secret}' } },
          noarray: { type: 'local', command: 'x y' },
          both: { type: 'remote' },
        },
      }),
    );
    d.write(
      d.proj,
      '.mcp.json',
      JSON.stringify({
        mcpServers: {
          both: { command: 'x', url: 'https://x.example/' },
          none: {},
          num: 3,
          badenv: { command: 'x', env: { A: 1 } },
        },
      }),
    );
    const loaded = await load();
    const byEntry = Object.fromEntries(loaded.problems.map((p) => [p.entry, p.message]));
    assert.match(byEntry['f'] ?? '', /reads a file \(\{file:…\}\)/);
    assert.match(byEntry['noarray'] ?? '', /command must be an array of strings/);
    assert.match(byEntry['none'] ?? '', /neither a command nor a url/);
    assert.match(byEntry['num'] ?? '', /must be an object \(got a number\)/);
    assert.match(byEntry['badenv'] ?? '', /env must be an object of strings \(one value is a number\)/);
    assert.deepEqual(Object.keys(loaded.servers), [], 'no entry is guessed at');
    assert.doesNotMatch(JSON.stringify(loaded.problems), /\.secret/, 'a problem never quotes a value');
  });

  test('names with a dot (NAME.TOOL would be ambiguous), controls or a leading dash are problems', async () => {
    d.write(
      d.proj,
      '.mcp.json',
      JSON.stringify({
        mcpServers: {
          'a.b': { command: 'x' },
          '\u001b[31mred': { command: 'x' },
          '-rm': { command: 'x' },
          'Brave Search': { command: 'x' },
          ['n'.repeat(101)]: { command: 'x' },
          'ok_1-@': { command: 'x' },
        },
      }),
    );
    const loaded = await load();
    assert.deepEqual(Object.keys(loaded.servers), ['Brave Search', 'ok_1-@']);
    const messages = loaded.problems.map((p) => p.message);
    assert.match(messages[0] ?? '', /holds a dot, which would make NAME\.TOOL ambiguous/);
    assert.equal(messages.length, 4);
    assert.ok(messages.includes('the name is longer than 100 characters'));
  });

  test('a file larger than the bound is not read (a problem); the others load', async () => {
    const big = d.write(d.proj, '.mcp.json', `{"mcpServers":{}, "pad": "${'x'.repeat(MAX_CONFIG_BYTES)}"}`);
    d.write(d.home, '.cursor/mcp.json', JSON.stringify({ mcpServers: { ok: { command: 'y' } } }));
    const loaded = await load();
    assert.deepEqual(loaded.problems, [
      { file: big, message: `the file is larger than ${MAX_CONFIG_BYTES} bytes; it was not read` },
    ]);
    assert.deepEqual(Object.keys(loaded.servers), ['ok']);
  });

  test(`more than ${MAX_ENTRIES_PER_FILE} entries in one file: the rest are left out, with a problem`, async () => {
    const entries = Object.fromEntries(
      Array.from({ length: MAX_ENTRIES_PER_FILE + 5 }, (_, i) => [`s${i}`, { command: 'x' }]),
    );
    d.write(d.proj, '.mcp.json', JSON.stringify({ mcpServers: entries }));
    const loaded = await load();
    assert.equal(Object.keys(loaded.servers).length, MAX_ENTRIES_PER_FILE);
    assert.match(loaded.problems[0]?.message ?? '', /more than 1000 servers/);
  });

  test('a directory where a file is expected, and a list that is not an object, are problems', async () => {
    mkdirSync(path.join(d.proj, '.mcp.json'));
    d.write(d.proj, 'autos-mcp.json', JSON.stringify({ mcpServers: [] }));
    const loaded = await load();
    assert.deepEqual(
      loaded.problems.map((p) => p.message),
      ['mcpServers must be an object of servers by name', 'the file is not a regular file'],
    );
  });
});

describe('where files are found', () => {
  test('from a subdirectory, the files of each directory up to the git root are read, the nearest first', async () => {
    const sub = path.join(d.proj, 'packages', 'app');
    d.write(
      sub,
      '.mcp.json',
      JSON.stringify({ mcpServers: { near: { command: 'x' }, both: { command: 'near' } } }),
    );
    d.write(
      d.proj,
      '.mcp.json',
      JSON.stringify({ mcpServers: { root: { command: 'x' }, both: { command: 'root' } } }),
    );
    // Above the repository root: never read.
    d.write(path.dirname(d.proj), '.mcp.json', JSON.stringify({ mcpServers: { above: { command: 'x' } } }));
    const loaded = await load({ cwd: sub });
    assert.deepEqual(Object.keys(loaded.servers), ['near', 'both', 'root']);
    assert.deepEqual(server(loaded, 'both').config, { command: 'near' });
    assert.equal(server(loaded, 'root').origin.project, d.proj);
  });

  test('outside a git repository only the working directory itself is read', async () => {
    const plain = path.join(path.dirname(d.proj), 'plain', 'sub');
    d.write(plain, '.mcp.json', JSON.stringify({ mcpServers: { here: { command: 'x' } } }));
    d.write(path.dirname(plain), '.mcp.json', JSON.stringify({ mcpServers: { parent: { command: 'x' } } }));
    const loaded = await load({ cwd: plain });
    assert.deepEqual(Object.keys(loaded.servers), ['here']);
  });

  test('only: that one file, its format from its name; a user path keeps its user scope', async () => {
    d.write(d.proj, '.mcp.json', JSON.stringify({ mcpServers: { skipped: { command: 'x' } } }));
    const toml = d.write(d.proj, 'elsewhere/servers.toml', '[mcp_servers.t]\ncommand = "x"\n');
    const generic = d.write(
      d.proj,
      'my-servers.json',
      '{ "mcpServers": { "g": { "command": "x", "timeoutMs": 100 } } // jsonc\n}',
    );
    const user = d.write(d.home, '.cursor/mcp.json', JSON.stringify({ mcpServers: { u: { command: 'x' } } }));
    const loaded = await load({ only: ['elsewhere/servers.toml', generic, user] });
    assert.deepEqual(Object.keys(loaded.servers), ['t', 'g', 'u']);
    assert.deepEqual(
      loaded.files.map((f) => [f.file, f.format, f.scope]),
      [
        [toml, 'codex', 'project'],
        [generic, 'autos-mcp', 'project'],
        [user, 'cursor', 'user'],
      ],
    );
  });

  test('user paths per OS: Linux (XDG), macOS, Windows (APPDATA), CODEX_HOME', () => {
    const linux = userSources({
      home: '/h',
      env: { XDG_CONFIG_HOME: '/x', CODEX_HOME: '/c' },
      platform: 'linux',
    });
    assert.deepEqual(
      linux.map((s) => s.file),
      [
        '/x/autos-mcp/servers.json',
        '/h/.claude.json',
        '/x/Claude/claude_desktop_config.json',
        '/h/.cursor/mcp.json',
        '/x/Code/User/mcp.json',
        '/h/.codeium/windsurf/mcp_config.json',
        '/c/config.toml',
        '/x/opencode/opencode.jsonc',
        '/x/opencode/opencode.json',
      ],
    );
    const mac = userSources({ home: '/Users/u', env: {}, platform: 'darwin' }).map((s) => s.file);
    assert.ok(mac.includes('/Users/u/Library/Application Support/Claude/claude_desktop_config.json'));
    assert.ok(mac.includes('/Users/u/Library/Application Support/Code/User/mcp.json'));
    assert.ok(mac.includes('/Users/u/Library/Application Support/autos-mcp/servers.json'));
    assert.ok(mac.includes('/Users/u/.codex/config.toml'));
    const win = userSources({
      home: 'C:\\Users\\u',
      env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' },
      platform: 'win32',
    }).map((s) => s.file);
    assert.ok(win.includes('C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json'));
    assert.ok(win.includes('C:\\Users\\u\\AppData\\Roaming\\Code\\User\\mcp.json'));
    assert.ok(win.includes('C:\\Users\\u\\AppData\\Roaming\\autos-mcp\\servers.json'));
    assert.ok(win.includes('C:\\Users\\u\\.codeium\\windsurf\\mcp_config.json'));
  });
});
