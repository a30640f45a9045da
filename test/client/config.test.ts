/** normalizeConfig: plain data only, clear config errors, defaults, and no side effects. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inspect } from 'node:util';
import { normalizeConfig } from '../../src/config/index.js';
import {
  callToolOnce,
  connect,
  isErrorKind,
  isMcpError,
  type ServerConfig,
  withClient,
} from '../../src/index.js';
import { buildChildEnv } from '../../src/transport/stdio/index.js';
import { spawnServer } from '../../src/transport/stdio/spawn.js';

function refused(config: unknown, pattern: RegExp): void {
  assert.throws(
    () => normalizeConfig(config as ServerConfig),
    (error: unknown) => isErrorKind(error, 'config') && pattern.test(error.message),
    `want a config error matching ${pattern}`,
  );
}

test('a stdio config gets defaults and keeps the command whole (never split on spaces)', () => {
  const config = normalizeConfig({ command: '/opt/My Server/bin/server', args: ['--flag', 'a b'] });
  assert.equal(config.transport, 'stdio');
  if (config.transport !== 'stdio') return;
  assert.equal(config.stdio.command, '/opt/My Server/bin/server');
  assert.deepEqual(config.stdio.args, ['--flag', 'a b']);
  assert.equal(config.timeoutMs, 60_000);
  assert.equal(config.maxMessageBytes, 16 * 1024 * 1024);
  assert.equal(config.protocolVersion, '2025-11-25');
  assert.equal(config.stdio.stderr, 'capture');
  assert.equal(config.clientInfo.name, 'autos-mcp');
  // Named by what was typed: the program's base name and its first path-like argument (none here).
  assert.equal(config.target, 'server');
});

test('an HTTP config: loopback http allowed, remote http refused, https fine', () => {
  assert.equal(normalizeConfig({ url: 'http://127.0.0.1:3000/mcp' }).transport, 'http');
  assert.equal(normalizeConfig({ url: 'http://localhost:3000/mcp' }).transport, 'http');
  assert.equal(normalizeConfig({ url: 'https://example.com/mcp' }).target, 'https://example.com/mcp');
  refused({ url: 'http://example.com/mcp' }, /loopback/);
  refused({ url: 'ftp://example.com/mcp' }, /http/);
});

test('functions, class instances and unknown keys are refused; handlers belong in options', () => {
  refused({ command: 'x', onElicitation: () => {} }, /function/);
  refused({ command: 'x', env: new Map() }, /Map/);
  refused({ command: 'x', comand: 'typo' }, /unknown key "comand"/);
  refused({ command: 'x', url: 'https://a' }, /exactly one/);
  refused({}, /exactly one/);
  refused(null, /expected an object/);
});

test('bad values name the key', () => {
  refused({ command: '' }, /command/);
  refused({ command: 'x', args: ['ok', 1] }, /args/);
  refused({ command: 'x', timeoutMs: -1 }, /timeoutMs/);
  refused({ command: 'x', timeoutMs: Number.NaN }, /finite|timeoutMs/);
  refused({ command: 'x', protocolVersion: '2024-11-05' }, /protocolVersion/);
  refused({ command: 'x', env: { A: 1 } }, /env\.A/);
  refused({ command: 'x', stderr: 'pipe' }, /stderr/);
  refused({ url: 'https://a/mcp', headers: { 'Mcp-Session-Id': 'x' } }, /Mcp-Session-Id/i);
  refused({ url: 'https://a/mcp', authToken: 't', headers: { Authorization: 'Bearer x' } }, /Authorization/i);
});

test('a config error never echoes a secret value', () => {
  try {
    normalizeConfig({ url: 'https://user:hunter2-secret@example.com/mcp' });
    assert.fail('want a config error');
  } catch (error) {
    assert.ok(isErrorKind(error, 'config'));
    assert.doesNotMatch(error.message, /hunter2/);
  }
});

test('undefined optional fields count as not set', () => {
  const config = normalizeConfig({ url: 'https://a.example/mcp', authToken: undefined, headers: undefined });
  assert.equal(config.transport, 'http');
});

const SECRET = 'hunter2-qxsecretvalue';

/** Every way an error is shown: message, String(), util.inspect (with hidden fields), toJSON(). */
function shown(error: unknown): string {
  assert.ok(isMcpError(error), `want an McpError, got ${String(error)}`);
  return [
    error.message,
    String(error),
    inspect(error, { depth: 10, showHidden: true }),
    JSON.stringify(error.toJSON()),
  ].join('\n');
}

/** Refused as a config error (not_sent, no cause) matching `pattern`, showing no `SECRET` anywhere. */
function refusedQuietly(config: unknown, pattern: RegExp): void {
  assert.throws(
    () => normalizeConfig(config as ServerConfig),
    (error: unknown) => {
      assert.ok(isErrorKind(error, 'config'), `want a config error, got ${String(error)}`);
      assert.equal(error.delivery, 'not_sent');
      assert.equal(error.cause, undefined);
      assert.match(error.message, pattern);
      assert.doesNotMatch(shown(error), /hunter2|qxsecret/);
      return true;
    },
  );
}

test('env: a name with "=" or NUL, or empty, and a value with NUL are refused without the value', () => {
  refusedQuietly({ command: 'x', env: { [`TOKEN=${SECRET}`]: 'v' } }, /env variable name "TOKEN" .*"="/);
  refusedQuietly({ command: 'x', env: { [`=${SECRET}`]: 'v' } }, /starts with "="/);
  refusedQuietly({ command: 'x', env: { [`A\0${SECRET}`]: 'v' } }, /NUL/);
  refusedQuietly({ command: 'x', env: { '': SECRET } }, /empty/);
  refusedQuietly({ command: 'x', env: { API_KEY: `${SECRET}\0` } }, /env\.API_KEY holds a NUL byte/);
  refusedQuietly({ command: 'x', env: { API_KEY: { nested: SECRET } } }, /env\.API_KEY must be a string/);
  refusedQuietly({ command: 'x', cwd: `/tmp/${SECRET}\0` }, /cwd contains a NUL/);
  // Newlines, Unicode and odd names are fine in the environment.
  const config = normalizeConfig({ command: 'x', env: { 'my var é': 'a\nb', __proto__x: '' } });
  assert.equal(config.transport === 'stdio' && config.stdio.env['my var é'], 'a\nb');
});

test('authToken: CR/LF, control, space and non-ASCII characters are refused, saying what and where', () => {
  refusedQuietly(
    { url: 'https://a.example/mcp', authToken: `${SECRET}\n` },
    /line break .* at its end .*trim/,
  );
  refusedQuietly({ url: 'https://a.example/mcp', authToken: `${SECRET}\r\n` }, /line break .* at its end/);
  refusedQuietly({ url: 'https://a.example/mcp', authToken: `Bearer ${SECRET}` }, /a space at position 6/);
  refusedQuietly({ url: 'https://a.example/mcp', authToken: `${SECRET}\0x` }, /NUL/);
  refusedQuietly({ url: 'https://a.example/mcp', authToken: `${SECRET}é` }, /non-ASCII/);
  refusedQuietly({ url: 'https://a.example/mcp', authToken: `\t${SECRET}` }, /TAB at its start/);
  refusedQuietly({ url: 'https://a.example/mcp', authToken: '' }, /non-empty/);
  refusedQuietly({ url: 'https://a.example/mcp', authToken: [SECRET] }, /authToken must be a string/);
  const ok = normalizeConfig({ url: 'https://a.example/mcp', authToken: 'abc.DEF-123_~+/=' });
  assert.equal(ok.transport === 'http' && ok.http.authToken, 'abc.DEF-123_~+/=');
});

test('headers: CR/LF/NUL/non-ASCII values and invalid names are refused, naming the header only', () => {
  const url = 'https://a.example/mcp';
  refusedQuietly({ url, headers: { 'X-Api-Key': `${SECRET}\r\nX-Evil: 1` } }, /X-Api-Key .*line break/);
  refusedQuietly({ url, headers: { 'X-Api-Key': `${SECRET}\0` } }, /X-Api-Key .*NUL/);
  refusedQuietly({ url, headers: { 'X-Api-Key': `${SECRET}\u2028` } }, /X-Api-Key .*non-ASCII/);
  refusedQuietly({ url, headers: { [`X-Api-Key: ${SECRET}`]: SECRET } }, /"X-Api-Key" is followed by ":"/);
  refusedQuietly({ url, headers: { [`X-Api-Key\r\n${SECRET}`]: SECRET } }, /"X-Api-Key" .*line break/);
  refusedQuietly({ url, headers: { '': SECRET } }, /empty/);
  refusedQuietly({ url, headers: { 'X-Api-Key': 5 } }, /headers\.X-Api-Key must be a string/);
  const ok = normalizeConfig({ url, headers: { 'X-Api-Key': 'a b\tc' } });
  assert.deepEqual(ok.transport === 'http' && ok.http.headers, { 'X-Api-Key': 'a b\tc' });
});

test('proxy: parsed up front, http(s) only; messages name at most its scheme, never its credentials', () => {
  const url = 'https://a.example/mcp';
  refusedQuietly({ url, proxy: `http://user:${SECRET}@` }, /proxy is not a valid absolute URL/);
  refusedQuietly({ url, proxy: `http://user:${SECRET}@[::1` }, /proxy is not a valid absolute URL/);
  refusedQuietly(
    { url, proxy: `socks5://user:${SECRET}@127.0.0.1:1080` },
    /http: or https: URL, not socks5:/,
  );
  refusedQuietly({ url, proxy: `http://user:${SECRET}@127.0.0.1:8080/\n` }, /control character/);
  refusedQuietly({ url, proxy: SECRET }, /not a valid absolute URL/);
  refusedQuietly({ url, proxy: 8080 }, /proxy must be a string/);
  // A proxy with credentials is fine, and kept exactly as given.
  const ok = normalizeConfig({ url, proxy: `http://user:${SECRET}@127.0.0.1:8080` });
  assert.equal(ok.transport === 'http' && ok.http.proxy, `http://user:${SECRET}@127.0.0.1:8080`);
});

test('url: credentials, bad schemes and unparsable URLs are refused without userinfo, query or cause', () => {
  refusedQuietly({ url: `https://user:${SECRET}@a.example/mcp` }, /credentials/);
  refusedQuietly({ url: `https://exa mple.com/mcp?token=${SECRET}` }, /not a valid absolute URL/);
  refusedQuietly({ url: `http://a.example/mcp?token=${SECRET}` }, /loopback/);
  refusedQuietly({ url: `https://a.example/mcp?token=${SECRET}\n` }, /control character/);
});

test('ca must look like PEM certificates; a path or a private key is refused without echoing it', () => {
  const url = 'https://a.example/mcp';
  refusedQuietly({ url, ca: [`/etc/ssl/${SECRET}.pem`] }, /ca\[0\] does not look like PEM/);
  refusedQuietly(
    { url, ca: [`-----BEGIN PRIVATE KEY-----\n${SECRET}\n-----END PRIVATE KEY-----\n`] },
    /ca\[0\] holds a private key/,
  );
  refusedQuietly({ url, ca: 'x' }, /array of PEM/);
  const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
  const ok = normalizeConfig({ url, ca: [pem] });
  assert.deepEqual(ok.transport === 'http' && ok.http.ca, [pem]);
});

test('clientInfo: known fields only, strings without control characters, websiteUrl http(s)', () => {
  const url = 'https://a.example/mcp';
  refusedQuietly({ url, clientInfo: { name: 'n', version: 'v', icons: [] } }, /clientInfo\.icons/);
  refusedQuietly({ url, clientInfo: { name: 'n\0', version: 'v' } }, /clientInfo\.name .*control/);
  refusedQuietly({ url, clientInfo: { name: 'n', version: 'v', websiteUrl: 'javascript:x' } }, /websiteUrl/);
  refusedQuietly({ url, clientInfo: { name: 'n', version: 1 } }, /name and version/);
  const info = {
    name: 'n',
    version: '1',
    title: 'T',
    description: 'two\nlines',
    websiteUrl: 'https://x.example',
  };
  assert.deepEqual(normalizeConfig({ url, clientInfo: info }).clientInfo, info);
});

test('timeoutMs: Infinity (no deadline) and values past 2^31-1 are allowed; 0, negatives, NaN, strings are not', () => {
  for (const ok of [Number.POSITIVE_INFINITY, 2 ** 31, 1e12, 1.5]) {
    assert.equal(normalizeConfig({ command: 'x', timeoutMs: ok }).timeoutMs, ok);
  }
  for (const bad of [0, -1, Number.NaN, Number.NEGATIVE_INFINITY, '1000', null]) {
    refusedQuietly({ command: 'x', timeoutMs: bad }, /timeoutMs/);
  }
  refusedQuietly({ command: 'x', graceMs: Number.POSITIVE_INFINITY }, /graceMs/);
  refusedQuietly({ command: 'x', graceMs: 0 }, /graceMs/);
  const config = normalizeConfig({ command: 'x', graceMs: 250.5 });
  assert.equal(config.transport === 'stdio' && config.stdio.graceMs, 250.5);
});

test('input that is not a config at all, or throws when read, is a config error', () => {
  const throwing = Object.defineProperty({ command: 'x' }, 'env', {
    enumerable: true,
    get: () => {
      throw new Error(`getter ${SECRET}`);
    },
  });
  const trap = new Proxy(
    { command: 'x' },
    {
      ownKeys: () => {
        throw new Error(`trap ${SECRET}`);
      },
    },
  );
  const revocable = Proxy.revocable({ command: 'x' }, {});
  revocable.revoke();
  for (const config of [
    undefined,
    null,
    'node server.js',
    42,
    [],
    ['node'],
    throwing,
    trap,
    revocable.proxy,
  ]) {
    refusedQuietly(config, /invalid server config/);
  }
});

test('connect, callTool and withClient reject a bad config as config / not_sent, starting nothing', async () => {
  const bad: unknown[] = [
    undefined,
    'node server.js',
    [{ command: 'node' }],
    { command: 'node', env: { [`TOKEN=${SECRET}`]: 'x' } },
    { command: 'node', env: { TOKEN: `${SECRET}\0` } },
    { url: 'https://127.0.0.1:9/mcp', authToken: `${SECRET}\n` },
    { url: 'https://127.0.0.1:9/mcp', proxy: `http://user:${SECRET}@` },
    Object.defineProperty({ command: 'node' }, 'args', {
      enumerable: true,
      get: () => {
        throw new TypeError(SECRET);
      },
    }),
  ];
  for (const config of bad) {
    let ran = false;
    const attempts = [
      connect(config as ServerConfig),
      callToolOnce(config as ServerConfig, 'echo'),
      withClient(config as ServerConfig, () => {
        ran = true;
      }),
    ];
    for (const attempt of attempts) {
      const error = await attempt.then(
        () => assert.fail('want a rejection'),
        (e: unknown) => e,
      );
      assert.ok(isErrorKind(error, 'config'), `want a config error, got ${String(error)}`);
      assert.equal(error.delivery, 'not_sent');
      assert.doesNotMatch(shown(error), /hunter2|qxsecret/);
    }
    assert.equal(ran, false);
  }
});

test('past normalizeConfig, the child env and spawn still refuse bad values as config errors without them', async () => {
  assert.throws(
    () => buildChildEnv({}, { [`TOKEN=${SECRET}`]: 'x' }, 'linux'),
    (error: unknown) => isErrorKind(error, 'config') && !/qxsecret/.test(shown(error)),
  );
  assert.throws(
    () => buildChildEnv({}, { TOKEN: `${SECRET}\0` }, 'linux'),
    (error: unknown) => isErrorKind(error, 'config') && !/qxsecret/.test(shown(error)),
  );
  // Node's spawn throws a TypeError quoting the argument; it becomes a config error naming only its code.
  const error = await spawnServer({
    command: process.execPath,
    args: [`--token=${SECRET}\0`],
    env: {},
    stderr: 'ignore',
    maxMessageBytes: 1024,
  }).then(
    (child) => {
      child.kill();
      assert.fail('want a rejection');
    },
    (e: unknown) => e,
  );
  assert.ok(isErrorKind(error, 'config'), `want a config error, got ${String(error)}`);
  assert.equal(error.cause, undefined);
  assert.match(error.message, /ERR_INVALID_ARG_VALUE/);
  assert.doesNotMatch(shown(error), /hunter2|qxsecret/);
});
