/**
 * Discovery, scopes, config and the OAuth HTTP rules, against small real HTTP servers: the well-known URL
 * orders of RFC 9728 and RFC 8414 / OIDC, exact issuer and resource checks, https-or-loopback, no
 * redirects followed, bounded bodies, and config errors that never echo a secret.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { after, describe, test } from 'node:test';
import { checkConfig } from '../../src/oauth/config.js';
import {
  discoverAuthorizationServer,
  discoverResource,
  metadataCandidates,
  resourceMatches,
  resourceMetadataCandidates,
} from '../../src/oauth/discovery.js';
import { MAX_OAUTH_BODY_BYTES, OAuthHttp } from '../../src/oauth/http.js';
import { chooseScopes, covered } from '../../src/oauth/scopes.js';
import { listenLocal } from '../helpers/http-server.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const servers: Array<{ close(): void }> = [];
after(() => {
  for (const server of servers) server.close();
});

/** A loopback server; `seen` records every path asked for, in order. */
async function serve(handler: Handler): Promise<{ origin: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    handler(req, res);
  });
  servers.push(server);
  const url = await listenLocal(server);
  return { origin: url.origin, seen };
}

/** The OAuth HTTP of an MCP server on loopback: it may reach the loopback test servers. */
function loopbackHttp(): OAuthHttp {
  return new OAuthHttp({ server: new URL('http://127.0.0.1/mcp') });
}

function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

describe('well-known URL orders', () => {
  test('PRM: the challenge URL alone when given, else path-inserted then root', () => {
    const endpoint = new URL('https://h.example/api/mcp');
    assert.deepEqual(
      resourceMetadataCandidates(endpoint, {
        scheme: 'Bearer',
        resourceMetadata: 'https://h.example/prm',
      }).map(String),
      ['https://h.example/prm'],
    );
    assert.deepEqual(resourceMetadataCandidates(endpoint, undefined).map(String), [
      'https://h.example/.well-known/oauth-protected-resource/api/mcp',
      'https://h.example/.well-known/oauth-protected-resource',
    ]);
  });

  test('AS metadata: RFC 8414 first, then the two OIDC forms for a path issuer', () => {
    assert.deepEqual(metadataCandidates('https://a.example/tenant1').map(String), [
      'https://a.example/.well-known/oauth-authorization-server/tenant1',
      'https://a.example/.well-known/openid-configuration/tenant1',
      'https://a.example/tenant1/.well-known/openid-configuration',
    ]);
    assert.deepEqual(metadataCandidates('https://a.example').map(String), [
      'https://a.example/.well-known/oauth-authorization-server',
      'https://a.example/.well-known/openid-configuration',
    ]);
  });

  test('a PRM resource must be this server: same origin, a path prefix at a segment boundary', () => {
    const endpoint = new URL('https://h.example/api/mcp');
    assert.equal(resourceMatches('https://h.example/api/mcp', endpoint), true);
    assert.equal(resourceMatches('https://h.example', endpoint), true);
    assert.equal(resourceMatches('https://h.example/api', endpoint), true);
    assert.equal(resourceMatches('https://h.example/ap', endpoint), false);
    assert.equal(resourceMatches('https://evil.example.com/api/mcp', endpoint), false);
    assert.equal(resourceMatches('https://h.example/api/mcp#x', endpoint), false);
  });
});

describe('discovery against a live server', () => {
  test('falls from the path PRM to the root PRM, and rejects a resource for another server', async () => {
    const { origin, seen } = await serve((req, res) => {
      if (req.url === '/.well-known/oauth-protected-resource')
        json(res, { resource: 'https://evil.example.com/mcp', authorization_servers: ['https://a.example'] });
      else json(res, { error: 'not_found' }, 404);
    });
    await assert.rejects(
      discoverResource(loopbackHttp(), new URL(`${origin}/mcp`), undefined),
      (error: Error) => {
        assert.match(error.message, /names another resource/);
        return true;
      },
    );
    assert.deepEqual(seen, [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]);
  });

  test('the issuer must be identical: a trailing slash is another issuer, and no later URL is tried', async () => {
    let issuer = '';
    const { origin, seen } = await serve((_req, res) => json(res, { issuer: `${issuer}/` }));
    issuer = origin;
    await assert.rejects(discoverAuthorizationServer(loopbackHttp(), origin), /names another issuer/);
    assert.deepEqual(seen, ['/.well-known/oauth-authorization-server']);
  });

  test('OIDC metadata is used when the RFC 8414 URL is missing', async () => {
    let issuer = '';
    const { origin, seen } = await serve((req, res) => {
      if (req.url === '/.well-known/openid-configuration')
        json(res, { issuer, authorization_endpoint: `${issuer}/a` });
      else json(res, {}, 404);
    });
    issuer = origin;
    const found = await discoverAuthorizationServer(loopbackHttp(), origin);
    assert.equal(found.issuer, origin);
    assert.deepEqual(seen, ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']);
  });
});

describe('the OAuth HTTP rules', () => {
  test('plain http is refused off loopback, before any request', async () => {
    await assert.rejects(
      loopbackHttp().request('http://auth.example.com/token'),
      (error: { kind?: string }) => {
        assert.equal(error.kind, 'config');
        return true;
      },
    );
  });

  test('a redirect is handed back, never followed', async () => {
    const { origin, seen } = await serve((req, res) => {
      if (req.url === '/start') res.writeHead(302, { location: '/elsewhere' }).end();
      else json(res, {});
    });
    const response = await loopbackHttp().request(`${origin}/start`);
    assert.equal(response.status, 302);
    assert.deepEqual(seen, ['/start']);
  });

  test('a body over the bound is cut off with too_large, declared or streamed', async () => {
    const big = Buffer.alloc(MAX_OAUTH_BODY_BYTES + 1, 0x20);
    const { origin } = await serve((req, res) => {
      if (req.url === '/declared') res.writeHead(200, { 'content-length': String(big.length) }).end(big);
      else {
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < 64; i++) res.write(Buffer.alloc(MAX_OAUTH_BODY_BYTES / 32, 0x20));
        res.end();
      }
    });
    for (const path of ['/declared', '/streamed'])
      await assert.rejects(loopbackHttp().request(`${origin}${path}`), (error: { kind?: string }) => {
        assert.equal(error.kind, 'too_large');
        return true;
      });
  });
});

describe('scopes', () => {
  test('challenge first, then scopes_supported, else none; offline_access only where the AS lists it', () => {
    const base = {
      configured: undefined,
      previous: undefined,
      serverSupported: undefined,
      wantsRefresh: true,
    };
    assert.equal(
      chooseScopes({ ...base, challenge: 'mcp:basic', resourceSupported: ['a', 'b'] }),
      'mcp:basic',
    );
    assert.equal(chooseScopes({ ...base, challenge: undefined, resourceSupported: ['a', 'b'] }), 'a b');
    assert.equal(chooseScopes({ ...base, challenge: undefined, resourceSupported: undefined }), undefined);
    assert.equal(
      chooseScopes({
        ...base,
        challenge: 'x',
        resourceSupported: undefined,
        serverSupported: ['offline_access'],
      }),
      'x offline_access',
    );
    assert.equal(
      chooseScopes({
        ...base,
        challenge: 'x',
        resourceSupported: undefined,
        serverSupported: ['offline_access'],
        wantsRefresh: false,
      }),
      'x',
    );
  });

  test('a step-up asks for the union; challenged scopes already asked for count as covered', () => {
    assert.equal(
      chooseScopes({
        configured: undefined,
        challenge: 'mcp:write',
        resourceSupported: ['mcp:profile'],
        previous: 'mcp:basic',
        serverSupported: undefined,
        wantsRefresh: false,
      }),
      'mcp:basic mcp:write',
    );
    assert.equal(covered('mcp:write', 'mcp:basic mcp:write'), true);
    assert.equal(covered('mcp:admin', 'mcp:basic'), false);
    assert.equal(covered(undefined, 'mcp:basic'), false);
  });
});

describe('config', () => {
  test('errors name the field, never the value', () => {
    const secret = 'sk-live-PLANTED-0123456789abcdef';
    const cases: Array<Record<string, unknown>> = [
      { url: 'http://remote.example.com/mcp', clientId: 'c', clientSecret: secret },
      { url: 'https://h.example/mcp', clientSecret: secret },
      { url: 'https://h.example/mcp', privateKey: secret },
      { url: 'https://h.example/mcp', grant: 'jwt_bearer', clientId: secret },
      { url: 'https://h.example/mcp', clientMetadataUrl: `http://h.example/${secret}` },
      { url: 'https://h.example/mcp', [secret]: 1 },
    ];
    for (const config of cases) {
      assert.throws(
        () => checkConfig(config as never),
        (error: Error & { kind?: string }) => {
          assert.equal(error.kind, 'config');
          assert.ok(!error.message.includes(secret), error.message);
          return true;
        },
      );
    }
  });

  test('defaults: the authorization code grant, a loopback callback on a system-chosen port', () => {
    const checked = checkConfig({ url: 'https://h.example/mcp' });
    assert.equal(checked.grant, 'authorization_code');
    assert.equal(checked.redirectHost, '127.0.0.1');
    assert.equal(checked.redirectPort, 0);
  });
});
