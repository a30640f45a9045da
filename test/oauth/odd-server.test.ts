/**
 * What an odd or hostile authorization server can make a login do, against a small real one on loopback
 * (its answers are the field's worst: escape sequences in the device prompt, `expires_in: 1e308`, a poll
 * `interval` of 1e9): the default prompt prints what a terminal shows as written, a lifetime is clamped
 * and survives the store, and no wait runs past the login's deadline. And what of a registration answer is
 * kept for RFC 7592: a registration access token is only ever sent to the registration endpoint's origin.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { isMcpError } from '../../src/index.js';
import { createOAuth, memoryStore, plaintextFileStore } from '../../src/oauth/index.js';
import { managementOf } from '../../src/oauth/registration-check.js';
import { MAX_TOKEN_LIFETIME_S, tokenLifetime } from '../../src/oauth/tokens.js';
import { testClock } from '../helpers/clock.js';
import { listenLocal, readBody } from '../helpers/http-server.js';
import { must } from '../helpers/must.js';

interface OddServer {
  /** The MCP endpoint (`<origin>/mcp`); the origin is the issuer. */
  readonly url: URL;
  /** Token endpoint POSTs, by grant type. */
  readonly grants: string[];
}

const closers: (() => void)[] = [];
after(() => {
  for (const close of closers) close();
});

function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * One loopback server that is the MCP server's resource metadata and its authorization server:
 * `device` is the device authorization answer, `token` the token endpoint's (status and body).
 */
async function oddServer(answers: {
  device?: Record<string, unknown>;
  token: () => { status: number; body: Record<string, unknown> };
}): Promise<OddServer> {
  const grants: string[] = [];
  let origin = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/.well-known/oauth-protected-resource/mcp')
      return json(res, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (path === '/.well-known/oauth-authorization-server')
      return json(res, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        device_authorization_endpoint: `${origin}/device`,
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
        grant_types_supported: ['client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'],
      });
    if (path === '/device' && answers.device !== undefined) return json(res, answers.device);
    if (path === '/token')
      return void readBody(req).then((body) => {
        grants.push(new URLSearchParams(body).get('grant_type') ?? '');
        const answer = answers.token();
        json(res, answer.body, answer.status);
      });
    json(res, { error: 'not_found' }, 404);
  });
  const url = await listenLocal(server);
  origin = url.origin;
  closers.push(() => {
    server.close();
    server.closeAllConnections();
  });
  return { url, grants };
}

const token = (extra: Record<string, unknown> = {}) => ({
  status: 200,
  body: { access_token: 'odd-access-token-0123456789', token_type: 'Bearer', ...extra },
});

describe('a device prompt with hostile text', () => {
  test('the default prompt writes the URL and the code without escape, control or bidi characters', async () => {
    const server = await oddServer({
      device: {
        device_code: 'device-code-0123456789',
        // An OSC 8 link, a title change, a screen clear and a cursor home, a right-to-left override.
        verification_uri:
          'https://example.com/device\u001b]8;;https://evil.example/\u0007\u001b]0;owned\u0007\u001b[2J\u001b[H\u202e',
        // Concealed text, a carriage return and a backspace, a C1 CSI.
        user_code: '\u001b[8mWDJB-MJHT\r\u0008\u009b31m',
        expires_in: 600,
        interval: 1,
      },
      token: () => token({ expires_in: 3600 }),
    });
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      await createOAuth({ url: server.url.href, clientId: 'odd-client' }).login({ device: true });
    } finally {
      process.stderr.write = write;
    }
    assert.deepEqual(written, ['To log in, open https://example.com/device and enter the code WDJB-MJHT\n']);
  });
});

describe('token lifetimes', () => {
  test('expires_in: 1e308 is clamped to a year, and read back from a file store as not expired', async () => {
    const server = await oddServer({ token: () => token({ expires_in: 1e308 }) });
    const dir = await mkdtemp(join(tmpdir(), 'autos-mcp-lifetime-'));
    try {
      const config = {
        url: server.url.href,
        grant: 'client_credentials',
        clientId: 'odd-client',
        clientSecret: 'odd-client-secret-0123456789',
      } as const;
      const before = Date.now();
      const result = await createOAuth(
        { clientMetadataUrl: false, ...config },
        { store: plaintextFileStore('odd', { dir }) },
      ).login();
      const year = MAX_TOKEN_LIFETIME_S * 1000;
      const expiresAt = Date.parse(result.expiresAt ?? '');
      assert.ok(
        expiresAt >= before + year && expiresAt <= Date.now() + year,
        `want an expiry a year from now, got ${result.expiresAt}`,
      );

      // Another process on the same store: the token is valid and sent as it is, with no token request.
      const later = createOAuth(
        { clientMetadataUrl: false, ...config },
        { store: plaintextFileStore('odd', { dir }) },
      );
      const status = await later.status();
      assert.equal(status.expired, false);
      assert.equal(status.expiresAt, result.expiresAt);
      const sent = await later.authorization({ url: server.url, method: 'POST' });
      assert.equal(sent, 'Bearer odd-access-token-0123456789');
      assert.deepEqual(server.grants, ['client_credentials']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a token an older version stored with expiresAt null is read as having no expiry, not as expired', async () => {
    const server = await oddServer({ token: () => token({ expires_in: 3600 }) });
    const store = memoryStore();
    const config = {
      url: server.url.href,
      grant: 'client_credentials',
      clientId: 'odd-client',
      clientSecret: 'odd-client-secret-0123456789',
    } as const;
    await createOAuth({ clientMetadataUrl: false, ...config }, { store }).login();
    const [key] = await store.keys('token ');
    const stored = must(await store.get(must(key, 'a token key')), 'the stored token');
    // What JSON made of `expiresAt: Infinity` (expires_in 1e308) before lifetimes were clamped.
    await store.set(must(key, 'a token key'), { ...stored, expiresAt: null, lifetime: 1e308 });
    const later = createOAuth({ clientMetadataUrl: false, ...config }, { store });
    const status = await later.status();
    assert.equal(status.expired, false);
    assert.equal(status.expiresAt, undefined);
    assert.equal(
      await later.authorization({ url: server.url, method: 'POST' }),
      'Bearer odd-access-token-0123456789',
    );
    assert.deepEqual(server.grants, ['client_credentials'], 'no second token request');
  });

  test('a memory store keeps the clamped expiry too, and login() reports it', async () => {
    const server = await oddServer({ token: () => token({ expires_in: 1e308 }) });
    const auth = createOAuth(
      { url: server.url.href, grant: 'client_credentials', clientId: 'c', clientSecret: 'odd-secret-012345' },
      { store: memoryStore() },
    );
    const result = await auth.login();
    assert.equal(typeof result.expiresAt, 'string');
    assert.equal((await auth.status()).expired, false);
  });

  test('a negative, zero, NaN, infinite or non-number expires_in is no expiry; a huge one is a year', () => {
    for (const odd of [-1, 0, Number.NaN, Number.POSITIVE_INFINITY, '3600', null, undefined])
      assert.equal(tokenLifetime(odd), undefined, `expires_in ${String(odd)}`);
    assert.equal(tokenLifetime(3600), 3600);
    assert.equal(tokenLifetime(1e308), MAX_TOKEN_LIFETIME_S);
  });
});

describe('the device poll interval', () => {
  test('interval: 1e9 never sleeps past the login deadline: timeoutMs 300 fails in well under a second', {
    timeout: 10_000,
  }, async () => {
    const server = await oddServer({
      device: {
        device_code: 'device-code-0123456789',
        verification_uri: 'https://example.com/device',
        user_code: 'WDJB-MJHT',
        expires_in: 600,
        interval: 1e9,
      },
      token: () => ({ status: 400, body: { error: 'authorization_pending' } }),
    });
    const started = performance.now();
    const error = await createOAuth({ url: server.url.href, clientId: 'odd-client' })
      .login({ device: true, timeoutMs: 300, prompt: () => {} })
      .then(
        () => assert.fail('want a timeout'),
        (e: unknown) => e,
      );
    const took = performance.now() - started;
    assert.ok(isMcpError(error), `want an autos-mcp error, got ${String(error)}`);
    assert.equal(error.kind, 'timeout');
    assert.match(error.message, /not approved within 300 ms/);
    assert.ok(took < 2000, `want the deadline kept (300 ms), took ${Math.round(took)} ms`);
  });

  test('polls at the interval, 5 s slower after slow_down, and stops at the device code expiry (on the clock)', async () => {
    const answers = ['slow_down', 'authorization_pending'];
    const server = await oddServer({
      device: {
        device_code: 'device-code-0123456789',
        verification_uri: 'https://example.com/device',
        user_code: 'WDJB-MJHT',
        expires_in: 30,
        interval: 5,
      },
      token: () => ({ status: 400, body: { error: answers.shift() ?? 'authorization_pending' } }),
    });
    const clock = testClock();
    const started = clock.now();
    const error = await createOAuth({ url: server.url.href, clientId: 'odd-client' }, { clock })
      .login({ device: true, prompt: () => {} })
      .then(
        () => assert.fail('want a timeout'),
        (e: unknown) => e,
      );
    assert.ok(isMcpError(error), `want an autos-mcp error, got ${String(error)}`);
    assert.equal(error.kind, 'timeout');
    assert.match(error.message, /device code expired before the login was approved/);
    // 5 s, slow_down: 10 s, 10 s, then only the 5 s left of the code's 30 s.
    assert.deepEqual(clock.sleeps, [5000, 10_000, 10_000, 5000]);
    assert.equal(clock.now() - started, 30_000);
    assert.equal(server.grants.length, 3, 'no poll after the code expired');
  });

  test('a login timeout shorter than the device code ends the polling at the timeout (on the clock)', async () => {
    const server = await oddServer({
      device: {
        device_code: 'device-code-0123456789',
        verification_uri: 'https://example.com/device',
        user_code: 'WDJB-MJHT',
        expires_in: 600,
        interval: 2,
      },
      token: () => ({ status: 400, body: { error: 'authorization_pending' } }),
    });
    const clock = testClock();
    const error = await createOAuth({ url: server.url.href, clientId: 'odd-client' }, { clock })
      .login({ device: true, timeoutMs: 7000, prompt: () => {} })
      .then(
        () => assert.fail('want a timeout'),
        (e: unknown) => e,
      );
    assert.ok(isMcpError(error), `want an autos-mcp error, got ${String(error)}`);
    assert.equal(error.kind, 'timeout');
    assert.match(error.message, /not approved within 7 s/);
    assert.deepEqual(clock.sleeps, [2000, 2000, 2000, 1000]);
  });
});

describe('the RFC 7592 fields kept from a registration answer', () => {
  test('kept only with both fields and a URI on the registration endpoint origin (the token goes nowhere else)', () => {
    const endpoint = 'https://as.example.com/register';
    const token = 'registration-access-token-0123456789';
    assert.deepEqual(
      managementOf(
        { registration_client_uri: 'https://as.example.com/register/abc', registration_access_token: token },
        endpoint,
      ),
      { registrationClientUri: 'https://as.example.com/register/abc', registrationAccessToken: token },
    );
    for (const uri of [
      'https://elsewhere.example.com/register/abc',
      'https://as.example.com:8443/register/abc',
      'http://as.example.com/register/abc',
      'not a url',
    ])
      assert.deepEqual(
        managementOf({ registration_client_uri: uri, registration_access_token: token }, endpoint),
        {},
        uri,
      );
    assert.deepEqual(
      managementOf({ registration_client_uri: 'https://as.example.com/register/abc' }, endpoint),
      {},
    );
    assert.deepEqual(
      managementOf(
        { registration_client_uri: 'https://as.example.com/r', registration_access_token: '' },
        endpoint,
      ),
      {},
    );
  });
});
