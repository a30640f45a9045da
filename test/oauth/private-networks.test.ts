/**
 * OAuth discovery stays out of private networks: a URL a server names (a 401's `resource_metadata`, the
 * metadata's `authorization_servers`, the authorization server's endpoints) is refused before any
 * connection when it points at a loopback, private, link-local, CGNAT, ULA or unspecified address, literal
 * or resolved, unless the MCP server is on that kind of network itself. Connections are counted on a real
 * loopback listener (a public MCP server is a name an injected resolver answers for), and a name only the
 * injected resolver knows proves that the connection goes to the address that was checked. A real protected
 * MCP server (the official SDK, on loopback) naming a link-local authorization server is refused at login.
 */
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Agent } from 'undici';
import type { AuthChallenge } from '../../src/errors/index.js';
import { connect } from '../../src/index.js';
import { discoverAuthorizationServer, discoverResource } from '../../src/oauth/discovery.js';
import { OAuthHttp } from '../../src/oauth/http.js';
import { createOAuth, memoryStore } from '../../src/oauth/index.js';
import { startProtectedMcpServer } from '../helpers/protected-mcp.js';

/** A public address (example.com's) for names that stand for the public internet; nothing connects to it. */
const PUBLIC_ADDRESS = '93.184.215.14';

/** A resolver from a table; `asked` records every name asked, in order. Unknown names fail as DNS does. */
function resolver(table: Record<string, string[]>): {
  resolve: (hostname: string) => Promise<LookupAddress[]>;
  asked: string[];
} {
  const asked: string[] = [];
  return {
    asked,
    resolve: async (hostname) => {
      asked.push(hostname);
      const addresses = table[hostname];
      if (addresses === undefined)
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
  };
}

/** A TCP listener on 127.0.0.1 that counts connections and drops each (a TLS handshake then fails). */
let listener: Server;
let port = 0;
let connections = 0;
before(async () => {
  listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
});
after(() => listener.close());

function challenge(resourceMetadata: string): AuthChallenge {
  return { scheme: 'Bearer', resourceMetadata };
}

/** Asserts a refusal: kind `config`, the URL named (origin + path), the address and its kind, no cause. */
function refusedFor(url: string, words: RegExp): (error: Error & { kind?: string }) => boolean {
  return (error) => {
    assert.equal(error.kind, 'config', error.message);
    assert.ok(
      error.message.startsWith(`refusing ${url}: `),
      `want the URL ${url} named, got: ${error.message}`,
    );
    assert.match(error.message, words);
    assert.match(error.message, /not on that kind of network/);
    return true;
  };
}

describe('from a public MCP server', () => {
  const { resolve } = resolver({ 'mcp.example.test': [PUBLIC_ADDRESS] });
  const endpoint = new URL('https://mcp.example.test/mcp');
  const http = (): OAuthHttp => new OAuthHttp({ server: endpoint, resolve });

  test('a resource_metadata URL on a private address, in any spelling, is refused with no connection', async () => {
    const cases: ReadonlyArray<readonly [string, string, RegExp]> = [
      ['https://10.0.0.1/prm', 'https://10.0.0.1/prm', /10\.0\.0\.1 is a private address/],
      ['https://192.168.1.1/prm', 'https://192.168.1.1/prm', /private address/],
      ['https://172.16.5.4/prm', 'https://172.16.5.4/prm', /private address/],
      [
        'https://169.254.169.254/latest/meta-data/',
        'https://169.254.169.254/latest/meta-data/',
        /169\.254\.169\.254 is a link-local address/,
      ],
      ['https://100.64.0.1/prm', 'https://100.64.0.1/prm', /carrier-grade NAT/],
      ['https://[fd00::1]/prm', 'https://[fd00::1]/prm', /\[fd00::1\] is a private address/],
      ['https://[fe80::1]/prm', 'https://[fe80::1]/prm', /link-local/],
      ['https://0.0.0.0/prm', 'https://0.0.0.0/prm', /unspecified/],
      ['https://[::]/prm', 'https://[::]/prm', /unspecified/],
      ['https://[::ffff:10.0.0.1]/prm', 'https://[::ffff:a00:1]/prm', /private address/],
      ['https://[::ffff:a00:1]/prm', 'https://[::ffff:a00:1]/prm', /private address/],
      [`https://127.0.0.1:${port}/prm`, `https://127.0.0.1:${port}/prm`, /loopback/],
      [`https://0x7f.1:${port}/prm`, `https://127.0.0.1:${port}/prm`, /loopback/],
      [`https://2130706433:${port}/prm`, `https://127.0.0.1:${port}/prm`, /loopback/],
      [`https://127.1:${port}/prm`, `https://127.0.0.1:${port}/prm`, /loopback/],
      [`https://[::ffff:127.0.0.1]:${port}/prm`, `https://[::ffff:7f00:1]:${port}/prm`, /loopback/],
      [`http://127.0.0.1:${port}/prm`, `http://127.0.0.1:${port}/prm`, /loopback/],
    ];
    for (const [given, named, words] of cases)
      await assert.rejects(discoverResource(http(), endpoint, challenge(given)), refusedFor(named, words));
    assert.equal(connections, 0);
  });

  test('a name that resolves to a private address is refused, before any connection', async () => {
    const names = resolver({
      'mcp.example.test': [PUBLIC_ADDRESS],
      'internal.example.test': ['127.0.0.1'],
      'mixed.example.test': [PUBLIC_ADDRESS, '10.0.0.5'],
      'mapped.example.test': ['::ffff:169.254.169.254'],
    });
    const guarded = new OAuthHttp({ server: endpoint, resolve: names.resolve });
    await assert.rejects(
      discoverResource(guarded, endpoint, challenge(`https://internal.example.test:${port}/prm`)),
      refusedFor(
        `https://internal.example.test:${port}/prm`,
        /internal\.example\.test resolves to 127\.0\.0\.1, which is a loopback address/,
      ),
    );
    await assert.rejects(
      discoverAuthorizationServer(guarded, 'https://mixed.example.test'),
      refusedFor(
        'https://mixed.example.test/.well-known/oauth-authorization-server',
        /resolves to 10\.0\.0\.5, which is a private address/,
      ),
    );
    await assert.rejects(
      discoverAuthorizationServer(guarded, 'https://mapped.example.test/tenant'),
      refusedFor('https://mapped.example.test/.well-known/oauth-authorization-server/tenant', /link-local/),
    );
    // The system resolver's answer for localhost, for a server whose name it cannot resolve (no home network).
    await assert.rejects(
      discoverResource(
        new OAuthHttp({ server: endpoint }),
        endpoint,
        challenge(`https://localhost:${port}/prm`),
      ),
      (error: Error & { kind?: string }) => error.kind === 'config' && /loopback address/.test(error.message),
    );
    assert.equal(connections, 0);
  });

  test("with the caller's dispatcher, literal and resolved private addresses are refused before it connects", async () => {
    const names = resolver({ 'mcp.example.test': [PUBLIC_ADDRESS], 'internal.example.test': ['127.0.0.1'] });
    const dispatcher = new Agent();
    try {
      const guarded = new OAuthHttp({ server: endpoint, dispatcher, resolve: names.resolve });
      for (const url of [`https://127.0.0.1:${port}/prm`, `https://internal.example.test:${port}/prm`])
        await assert.rejects(guarded.request(url), refusedFor(url, /loopback address/));
    } finally {
      await dispatcher.close();
    }
    assert.equal(connections, 0);
  });

  test('a login refuses the authorization server and the token endpoint a server names on private addresses', async () => {
    const seen: string[] = [];
    const documents: Record<string, unknown> = {
      'https://mcp.example.test/.well-known/oauth-protected-resource/mcp': {
        resource: 'https://mcp.example.test/mcp',
        authorization_servers: ['https://10.0.0.7'],
      },
      'https://mcp.example.test/prm-public-as': {
        resource: 'https://mcp.example.test/mcp',
        authorization_servers: ['https://as.example.test'],
      },
      'https://as.example.test/.well-known/oauth-authorization-server': {
        issuer: 'https://as.example.test',
        token_endpoint: 'https://169.254.169.254/token',
      },
    };
    const fetch = async (url: string): Promise<Response> => {
      seen.push(url);
      const body = documents[url];
      return body === undefined ? new Response('{}', { status: 404 }) : Response.json(body);
    };
    const names = resolver({ 'mcp.example.test': [PUBLIC_ADDRESS], 'as.example.test': [PUBLIC_ADDRESS] });
    const config = {
      url: endpoint.href,
      grant: 'client_credentials',
      clientId: 'c',
      clientSecret: 's-123456',
    } as const;
    const auth = createOAuth(
      { clientMetadataUrl: false, ...config },
      { store: memoryStore(), fetch, resolve: names.resolve },
    );
    await assert.rejects(
      auth.login({ challenge: undefined }),
      refusedFor(
        'https://10.0.0.7/.well-known/oauth-authorization-server',
        /10\.0\.0\.7 is a private address/,
      ),
    );
    assert.deepEqual(seen, ['https://mcp.example.test/.well-known/oauth-protected-resource/mcp']);
    seen.length = 0;
    await assert.rejects(
      auth.login({ challenge: challenge('https://mcp.example.test/prm-public-as') }),
      refusedFor('https://169.254.169.254/token', /link-local/),
    );
    assert.deepEqual(seen, [
      'https://mcp.example.test/prm-public-as',
      'https://as.example.test/.well-known/oauth-authorization-server',
    ]);
  });
});

describe('from an MCP server on the same kind of network', () => {
  test('a loopback server may name loopback, in every spelling, and the connection is made', async () => {
    const before = connections;
    const http = new OAuthHttp({ server: new URL('http://127.0.0.1:1/mcp') });
    const urls = [
      `https://127.0.0.1:${port}/prm`,
      `https://0x7f.1:${port}/prm`,
      `https://2130706433:${port}/prm`,
      `https://127.1:${port}/prm`,
    ];
    for (const url of urls)
      await assert.rejects(
        http.request(url),
        (error: Error & { kind?: string }) => error.kind === 'transport',
      );
    assert.equal(connections - before, urls.length);
  });

  test('a real protected MCP server on loopback that names a link-local authorization server: login refuses it', async () => {
    const mcp = await startProtectedMcpServer({ authorizationServer: 'https://169.254.169.254' });
    try {
      const auth = createOAuth({ url: mcp.url.href, clientId: 'c' }, { store: memoryStore() });
      const refused = await connect({ url: mcp.url.href }, { auth }).then(
        () => assert.fail('connect without a token succeeded'),
        (error: Error & { kind?: string; challenge?: AuthChallenge }) => error,
      );
      assert.equal(refused.kind, 'auth_required');
      await assert.rejects(
        auth.login({ challenge: refused.challenge, browser: false, prompt: () => assert.fail('no prompt') }),
        refusedFor(
          'https://169.254.169.254/.well-known/oauth-authorization-server',
          /169\.254\.169\.254 is a link-local address, and the MCP server 127\.0\.0\.1:\d+ is not/,
        ),
      );
    } finally {
      await mcp.close();
    }
  });

  test('the connection goes to the address that was checked: a name only the injected resolver knows', async () => {
    const names = resolver({ 'mcp.corp.test': ['127.0.0.2'], 'as.corp.test': ['127.0.0.1'] });
    const http = new OAuthHttp({ server: new URL('https://mcp.corp.test/mcp'), resolve: names.resolve });
    const before = connections;
    await assert.rejects(
      http.request(`https://as.corp.test:${port}/.well-known/oauth-authorization-server`),
      (error: Error & { kind?: string }) => error.kind === 'transport',
    );
    assert.equal(connections - before, 1);
    assert.deepEqual(names.asked, ['as.corp.test', 'mcp.corp.test']);
  });

  test('a server on 10.x may name a 192.168.x or ULA authorization server, not a loopback or link-local one', async () => {
    const seen: string[] = [];
    const fetch = async (url: string): Promise<Response> => {
      seen.push(url);
      return Response.json({});
    };
    const names = resolver({ 'mcp.corp.test': ['10.1.2.3'], 'as.corp.test': ['192.168.4.5', 'fd12::5'] });
    const http = new OAuthHttp({
      server: new URL('https://mcp.corp.test/mcp'),
      fetch,
      resolve: names.resolve,
    });
    await http.request('https://as.corp.test/.well-known/oauth-authorization-server');
    await http.request('https://172.20.0.1/token');
    for (const [url, words] of [
      ['https://127.0.0.1/token', /loopback/],
      ['https://169.254.169.254/token', /link-local/],
      ['https://100.64.0.1/token', /carrier-grade NAT/],
    ] as const)
      await assert.rejects(http.request(url), refusedFor(url, words));
    assert.deepEqual(seen, [
      'https://as.corp.test/.well-known/oauth-authorization-server',
      'https://172.20.0.1/token',
    ]);
  });

  test("with the caller's fetch, a name is resolved and checked first: one that does not resolve is not sent", async () => {
    const seen: string[] = [];
    const fetch = async (url: string): Promise<Response> => {
      seen.push(url);
      return Response.json({});
    };
    const names = resolver({ 'mcp.corp.test': ['10.1.2.3'] });
    const http = new OAuthHttp({
      server: new URL('https://mcp.corp.test/mcp'),
      fetch,
      resolve: names.resolve,
    });
    await assert.rejects(
      http.request('https://nowhere.corp.test/token'),
      (error: Error & { kind?: string; delivery?: string }) => {
        assert.equal(error.kind, 'transport');
        assert.equal(error.delivery, 'not_sent');
        assert.match(
          error.message,
          /resolving nowhere\.corp\.test for https:\/\/nowhere\.corp\.test\/token failed: ENOTFOUND/,
        );
        return true;
      },
    );
    assert.deepEqual(seen, []);
  });

  test('a URL the user configured (the enterprise IdP) is reached wherever it is', async () => {
    const seen: string[] = [];
    const fetch = async (url: string): Promise<Response> => {
      seen.push(url);
      return Response.json({});
    };
    const names = resolver({ 'mcp.example.test': [PUBLIC_ADDRESS] });
    const http = new OAuthHttp({
      server: new URL('https://mcp.example.test/mcp'),
      configured: ['https://10.9.9.9/idp/token'],
      fetch,
      resolve: names.resolve,
    });
    await http.request('https://10.9.9.9/idp/token');
    await assert.rejects(
      http.request('https://10.9.9.9/other'),
      refusedFor('https://10.9.9.9/other', /private/),
    );
    assert.deepEqual(seen, ['https://10.9.9.9/idp/token']);
  });
});
