// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders are literal text of config files here
/**
 * resolveServer: placeholders read from the environment only at connect (never in a listing), an unset
 * variable refused naming the variable and the entry and never a value, untrusted and disabled entries
 * refused, a project's stdio server started in its project, and the resolved config checked.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { isMcpError } from '../../src/errors/index.js';
import { type LoadedServers, loadServers, resolveServer } from '../../src/servers/index.js';
import { must } from '../helpers/must.js';
import { type Dirs, dirs } from './helpers.js';

let d: Dirs;
beforeEach(() => {
  d = dirs();
});
afterEach(() => d.cleanup());

const load = (): Promise<LoadedServers> =>
  loadServers({ cwd: d.proj, home: d.home, env: {}, platform: 'linux' });

function server(loaded: LoadedServers, name: string) {
  return must(Object.hasOwn(loaded.servers, name) ? loaded.servers[name] : undefined, `server ${name}`);
}

function configError(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    assert.ok(isMcpError(error), `want an McpError, got ${String(error)}`);
    assert.equal(error.kind, 'config');
    assert.equal(error.delivery, 'not_sent');
    return error;
  }
  assert.fail('want a config error, got none');
}

describe('placeholders', () => {
  test('${VAR}, ${VAR:-default} (unset or empty), ${env:VAR}, {env:VAR} (OpenCode), ${workspaceFolder}, ${userHome}', async () => {
    d.write(
      d.home,
      '.cursor/mcp.json',
      JSON.stringify({
        mcpServers: {
          s: {
            command: '${BIN}',
            args: [
              '--a=${A:-fallback}',
              '--b=${B:-fallback}',
              '${env:C}',
              '${userHome}/x',
              'lit$eral {env:C}',
            ],
            env: { TOKEN: 'Bearer ${SECRET}' },
          },
          h: { url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${SECRET}' } },
        },
      }),
    );
    d.write(
      d.home,
      '.config/opencode/opencode.json',
      JSON.stringify({ mcp: { o: { type: 'local', command: ['x', '{env:C}', '${C}'] } } }),
    );
    d.write(
      d.proj,
      '.vscode/mcp.json',
      JSON.stringify({ servers: { w: { command: 'node', args: ['${workspaceFolder}/s.mjs'] } } }),
    );
    const loaded = await load();
    const env = { BIN: 'srv', B: '', C: 'see', SECRET: 's3cret-value', HOST: 'h.example' };
    assert.doesNotMatch(
      JSON.stringify(loaded),
      /s3cret-value|h\.example/,
      'a listing never holds a resolved value',
    );
    assert.deepEqual(resolveServer(server(loaded, 's'), { env, home: d.home }), {
      command: 'srv',
      args: ['--a=fallback', '--b=fallback', 'see', `${d.home}/x`, 'lit$eral {env:C}'],
      env: { TOKEN: 'Bearer s3cret-value' },
    });
    assert.deepEqual(resolveServer(server(loaded, 'h'), { env }), {
      url: 'https://h.example/mcp',
      headers: { Authorization: 'Bearer s3cret-value' },
    });
    assert.deepEqual(resolveServer(server(loaded, 'o'), { env }), { command: 'x', args: ['see', 'see'] });
    const w = resolveServer(server(loaded, 'w'), { env, trustProject: true });
    assert.deepEqual(w, { command: 'node', args: [`${d.proj}/s.mjs`], cwd: d.proj });
  });

  test('an unset variable is a config error naming the variable and the entry, never a value', async () => {
    d.write(
      d.home,
      '.cursor/mcp.json',
      JSON.stringify({ mcpServers: { gh: { command: 'x', env: { A: '${SET_ONE}', B: '${MISSING_ONE}' } } } }),
    );
    const loaded = await load();
    const error = configError(() =>
      resolveServer(server(loaded, 'gh'), { env: { SET_ONE: 'the-set-secret' }, home: d.home }),
    );
    assert.equal(
      error.message,
      'the server "gh" (~/.cursor/mcp.json) needs the environment variable MISSING_ONE, which is not set',
    );
    assert.doesNotMatch(error.message, /the-set-secret/);
  });

  test('a resolved config that is not valid is a config error naming the entry and the field, not the value', async () => {
    d.write(
      d.home,
      '.cursor/mcp.json',
      JSON.stringify({ mcpServers: { web: { url: '${URL}' }, own: { command: 'x' } } }),
    );
    d.write(
      d.home,
      '.config/autos-mcp/servers.json',
      JSON.stringify({ mcpServers: { own: { command: 'x', bogus: 1 } } }),
    );
    const loaded = await load();
    const error = configError(() =>
      resolveServer(server(loaded, 'web'), { env: { URL: 'http://secret-host.example/mcp?k=v' } }),
    );
    assert.match(error.message, /^the server "web" /);
    assert.match(error.message, /plain http is only allowed on loopback/);
    assert.doesNotMatch(error.message, /k=v/, 'the query of a URL is never shown');
    assert.match(
      configError(() => resolveServer(server(loaded, 'own'), { env: {} })).message,
      /^the server "own" .*unknown key "bogus"/,
    );
  });
});

describe('trust and disabled', () => {
  test('a project entry, stdio or HTTP, is refused until trusted; --trust-project (trustProject) lets it through', async () => {
    d.write(
      d.proj,
      '.mcp.json',
      JSON.stringify({ mcpServers: { run: { command: 'node' }, web: { url: 'https://x.example/mcp' } } }),
    );
    d.write(
      d.home,
      '.cursor/mcp.json',
      JSON.stringify({ mcpServers: { web: { url: 'https://mine.example/mcp' } } }),
    );
    const loaded = await load();
    const run = configError(() => resolveServer(server(loaded, 'run'), { env: {}, cwd: d.proj }));
    assert.equal(
      run.message,
      'the server "run" comes from the project file .mcp.json, which is not trusted (a repository can ship any command in such a file): read it, then run autos-mcp servers trust .mcp.json (or pass --trust-project for one run)',
    );
    const web = configError(() =>
      resolveServer(server(loaded, 'web'), { env: {}, cwd: d.proj, home: d.home }),
    );
    assert.match(
      web.message,
      /which is not trusted .*; it hides the server of that name in .*\.cursor\/mcp\.json:/,
    );
    assert.deepEqual(resolveServer(server(loaded, 'run'), { env: {}, trustProject: true }), {
      command: 'node',
      cwd: d.proj,
    });
  });

  test('a project stdio entry starts in its project; a relative cwd is taken from there', async () => {
    d.write(
      d.proj,
      'autos-mcp.json',
      JSON.stringify({
        mcpServers: { rel: { command: 'node', cwd: 'tools' }, abs: { command: 'node', cwd: '/opt' } },
      }),
    );
    const loaded = await load();
    assert.deepEqual(resolveServer(server(loaded, 'rel'), { env: {}, trustProject: true }), {
      command: 'node',
      cwd: path.join(d.proj, 'tools'),
    });
    assert.deepEqual(resolveServer(server(loaded, 'abs'), { env: {}, trustProject: true }), {
      command: 'node',
      cwd: '/opt',
    });
  });

  test('a disabled entry is listed but refused', async () => {
    d.write(
      d.home,
      '.cursor/mcp.json',
      JSON.stringify({ mcpServers: { off: { command: 'x', disabled: true } } }),
    );
    const loaded = await load();
    assert.match(configError(() => resolveServer(server(loaded, 'off'))).message, /is disabled in its file/);
  });
});
