/**
 * The OAuth test fixtures, proved with raw HTTP only (no library code): the real authorization server
 * (oidc-provider), the protected MCP server in front of it, and chromium signing in on the real pages.
 * Covers discovery, authorization code + PKCE + `resource` through the browser, the JWT accepted by the MCP
 * server, refresh token rotation, the device flow (by hook and by browser), and client ID metadata documents.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { approveInBrowser, type Browser, launchBrowser } from '../helpers/browser.js';
import { listenLocal } from '../helpers/http-server.js';
import { must } from '../helpers/must.js';
import {
  type AuthorizationServer,
  NATIVE_CLIENT,
  startAuthorizationServer,
} from '../helpers/oidc-provider.js';
import { type ProtectedMcpServer, startProtectedMcpServer } from '../helpers/protected-mcp.js';

interface TokenResponse {
  access_token?: string;
  refresh_token?: string;
  token_type?: string;
  scope?: string;
  error?: string;
}

const SCOPE = 'openid offline_access mcp:read mcp:write';

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(must(jwt.split('.')[1], 'a JWT payload'), 'base64url').toString('utf8'));
}

async function post(
  url: string,
  form: Record<string, string>,
): Promise<{ status: number; body: TokenResponse }> {
  const response = await fetch(url, { method: 'POST', body: new URLSearchParams(form) });
  return { status: response.status, body: (await response.json()) as TokenResponse };
}

/** A POST initialize to the MCP endpoint, with or without a bearer token. */
function initialize(mcp: ProtectedMcpServer, token?: string): Promise<Response> {
  return fetch(mcp.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });
}

/** tools/call whoami over the stateless 2025 leg; answers the tool's text (from JSON or an SSE event). */
async function whoami(mcp: ProtectedMcpServer, token: string): Promise<{ status: number; text: string }> {
  const response = await fetch(mcp.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'whoami', arguments: {} },
    }),
  });
  const raw = await response.text();
  const data = raw.includes('data:')
    ? raw
        .split('\n')
        .find((l) => l.startsWith('data:'))
        ?.slice(5)
    : raw;
  if (response.status !== 200) return { status: response.status, text: raw };
  const message = JSON.parse(must(data, 'a JSON-RPC answer')) as {
    result?: { content?: { text?: string }[] };
  };
  return { status: response.status, text: must(message.result?.content?.[0]?.text, 'whoami text') };
}

describe('OAuth fixtures: oidc-provider, protected MCP server, chromium', () => {
  let as: AuthorizationServer;
  let mcp: ProtectedMcpServer;
  let browser: Browser;
  let discovery: Record<string, unknown>;
  const callbacks: URL[] = [];
  const callbackServer = createServer((req, res) => {
    callbacks.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>done</title>you can close this page');
  });
  let redirectUri: string;

  before(async () => {
    as = await startAuthorizationServer({ clientIdMetadataDocument: true });
    mcp = await startProtectedMcpServer({ authorizationServer: as.issuer });
    as.addResource(mcp.resource);
    const { port } = await listenLocal(callbackServer);
    redirectUri = `http://127.0.0.1:${port}/callback`; // registered without a port: any port matches
    discovery = (await (await fetch(as.discoveryUrl)).json()) as Record<string, unknown>;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await mcp?.close();
    await as?.close();
    callbackServer.close();
    callbackServer.closeAllConnections();
  });

  /** The whole browser flow for `clientId`; resolves with the token response. */
  async function authorize(clientId: string, login: string): Promise<TokenResponse> {
    const { verifier, challenge } = pkce();
    const state = randomBytes(8).toString('hex');
    const auth = new URL(String(discovery['authorization_endpoint']));
    auth.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: SCOPE,
      resource: mcp.resource,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
      prompt: 'consent',
    }).toString();
    const landed = await approveInBrowser(browser, auth, { login });
    assert.equal(`${landed.origin}${landed.pathname}`, redirectUri);
    assert.equal(landed.searchParams.get('state'), state);
    assert.equal(landed.searchParams.get('iss'), as.issuer);
    const code = must(landed.searchParams.get('code'), `a code in ${landed.href}`);
    const { status, body } = await post(String(discovery['token_endpoint']), {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: clientId,
      resource: mcp.resource,
    });
    assert.equal(status, 200, JSON.stringify(body));
    return body;
  }

  test('discovery advertises S256, the iss parameter, the device endpoint and CIMD', () => {
    assert.deepEqual(discovery['code_challenge_methods_supported'], ['S256']);
    assert.equal(discovery['authorization_response_iss_parameter_supported'], true);
    assert.equal(discovery['device_authorization_endpoint'], `${as.issuer}/device/auth`);
    assert.equal(discovery['client_id_metadata_document_supported'], true);
    assert.equal(discovery['issuer'], as.issuer);
  });

  test('RFC 8414 metadata path serves the same document', async () => {
    const rfc8414 = await (await fetch(`${as.issuer}/.well-known/oauth-authorization-server`)).json();
    assert.deepEqual(rfc8414, discovery);
  });

  test('the MCP server refuses without a token and serves its resource metadata', async () => {
    const bare = await initialize(mcp);
    assert.equal(bare.status, 401);
    assert.equal(bare.headers.get('www-authenticate'), `Bearer resource_metadata="${mcp.metadataUrl.href}"`);
    const bogus = await initialize(mcp, 'not.a.jwt');
    assert.equal(bogus.status, 401);
    assert.match(must(bogus.headers.get('www-authenticate'), 'a challenge'), /^Bearer error="invalid_token"/);
    const prm = await (await fetch(mcp.metadataUrl)).json();
    assert.deepEqual(prm, {
      resource: mcp.url.href,
      authorization_servers: [as.issuer],
      scopes_supported: ['mcp:read', 'mcp:write'],
      bearer_methods_supported: ['header'],
    });
  });

  let refreshToken = '';
  test('authorization code + PKCE + resource through chromium gives a JWT the MCP server accepts', async (t) => {
    const started = Date.now();
    const tokens = await authorize(NATIVE_CLIENT.client_id, 'alice');
    const ms = Date.now() - started;
    const accessToken = must(tokens.access_token, 'an access token');
    refreshToken = must(tokens.refresh_token, 'a refresh token');
    const claims = claimsOf(accessToken);
    assert.equal(claims['aud'], mcp.resource);
    assert.equal(claims['iss'], as.issuer);
    assert.equal(claims['sub'], 'alice');
    assert.equal(claims['scope'], 'mcp:read mcp:write');
    assert.equal((await initialize(mcp, accessToken)).status, 200);
    assert.deepEqual(await whoami(mcp, accessToken), {
      status: 200,
      text: 'sub=alice scope=mcp:read mcp:write',
    });
    assert.equal(as.events.codeExchanges, 1);
    assert.equal(
      must(as.events.authorizationRequests[0], 'an authorization request').get('resource'),
      mcp.resource,
    );
    t.diagnostic(`browser authorization flow: ${ms} ms`);
  });

  test('refresh rotates: the new token works, the old one is refused', async () => {
    const tokenEndpoint = String(discovery['token_endpoint']);
    const first = await post(tokenEndpoint, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: NATIVE_CLIENT.client_id,
      resource: mcp.resource,
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const rotated = must(first.body.refresh_token, 'a rotated refresh token');
    assert.notEqual(rotated, refreshToken);
    const accessToken = must(first.body.access_token, 'an access token');
    assert.equal(claimsOf(accessToken)['aud'], mcp.resource);
    assert.deepEqual(await whoami(mcp, accessToken), {
      status: 200,
      text: 'sub=alice scope=mcp:read mcp:write',
    });
    assert.equal(as.events.refreshes, 1);

    const reused = await post(tokenEndpoint, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: NATIVE_CLIENT.client_id,
      resource: mcp.resource,
    });
    assert.equal(reused.status, 400);
    assert.equal(reused.body.error, 'invalid_grant');
    assert.equal(as.events.refreshFailures, 1);
  });

  test('a token for another resource is refused; a tool needing another scope gets 403', async () => {
    const other = await startProtectedMcpServer({
      authorizationServer: as.issuer,
      toolScopes: { whoami: 'mcp:write' },
    });
    try {
      as.addResource(other.resource);
      const { challenge, verifier } = pkce();
      const auth = new URL(String(discovery['authorization_endpoint']));
      auth.search = new URLSearchParams({
        response_type: 'code',
        client_id: NATIVE_CLIENT.client_id,
        redirect_uri: redirectUri,
        scope: 'mcp:read',
        resource: other.resource,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).toString();
      const landed = await approveInBrowser(browser, auth);
      const { body } = await post(String(discovery['token_endpoint']), {
        grant_type: 'authorization_code',
        code: must(landed.searchParams.get('code'), 'a code'),
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: NATIVE_CLIENT.client_id,
        resource: other.resource,
      });
      const token = must(body.access_token, 'an access token');
      assert.equal((await initialize(other, token)).status, 200);
      const stepUp = await fetch(other.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'whoami' } }),
      });
      assert.equal(stepUp.status, 403);
      assert.equal(
        stepUp.headers.get('www-authenticate'),
        `Bearer error="insufficient_scope", scope="mcp:write", resource_metadata="${other.metadataUrl.href}"`,
      );
      const refused = await initialize(mcp, token);
      assert.equal(refused.status, 401);
      assert.match(must(refused.headers.get('www-authenticate'), 'a challenge'), /error="invalid_token"/);
    } finally {
      await other.close();
    }
  });

  async function deviceAuthorization(): Promise<{
    device_code: string;
    user_code: string;
    complete: string;
  }> {
    const response = await fetch(String(discovery['device_authorization_endpoint']), {
      method: 'POST',
      body: new URLSearchParams({ client_id: NATIVE_CLIENT.client_id, scope: SCOPE, resource: mcp.resource }),
    });
    const body = (await response.json()) as Record<string, string>;
    assert.equal(response.status, 200, JSON.stringify(body));
    return {
      device_code: must(body['device_code'], 'a device code'),
      user_code: must(body['user_code'], 'a user code'),
      complete: must(body['verification_uri_complete'], 'verification_uri_complete'),
    };
  }

  function pollDevice(deviceCode: string) {
    return post(String(discovery['token_endpoint']), {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: deviceCode,
      client_id: NATIVE_CLIENT.client_id,
      resource: mcp.resource,
    });
  }

  test('device flow: pending, then approved by the test hook, then a token', async () => {
    const device = await deviceAuthorization();
    const pending = await pollDevice(device.device_code);
    assert.equal(pending.body.error, 'authorization_pending');
    await as.approveDevice(device.user_code, 'dora');
    const done = await pollDevice(device.device_code);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const token = must(done.body.access_token, 'an access token');
    assert.equal(claimsOf(token)['sub'], 'dora');
    assert.ok(done.body.refresh_token);
    assert.deepEqual(await whoami(mcp, token), { status: 200, text: 'sub=dora scope=mcp:read mcp:write' });
  });

  test('device flow: approved in chromium on the verification pages', async () => {
    const device = await deviceAuthorization();
    const landed = await approveInBrowser(browser, device.complete, { login: 'bob' });
    assert.equal(landed.origin, as.issuer);
    const done = await pollDevice(device.device_code);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(claimsOf(must(done.body.access_token, 'an access token'))['sub'], 'bob');
    assert.ok(as.events.deviceCodes >= 2);
  });

  test('accessTokenTtl makes tokens expire: the MCP server then answers 401 invalid_token', async () => {
    // A minute's lifetime, then the MCP server's clock moves past it: a 1 s lifetime waited out in real time
    // could end before the first request on a busy machine.
    const shortLived = await startAuthorizationServer({ accessTokenTtl: 60 });
    const server = await startProtectedMcpServer({ authorizationServer: shortLived.issuer });
    try {
      shortLived.addResource(server.resource);
      const meta = (await (await fetch(shortLived.discoveryUrl)).json()) as Record<string, string>;
      const started = await post(must(meta['device_authorization_endpoint'], 'a device endpoint'), {
        client_id: NATIVE_CLIENT.client_id,
        scope: 'mcp:read',
        resource: server.resource,
      });
      const body = started.body as Record<string, string>;
      await shortLived.approveDevice(must(body['user_code'], 'a user code'));
      const { body: tokens } = await post(must(meta['token_endpoint'], 'a token endpoint'), {
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: must(body['device_code'], 'a device code'),
        client_id: NATIVE_CLIENT.client_id,
        resource: server.resource,
      });
      const token = must(tokens.access_token, 'an access token');
      assert.equal(tokens.refresh_token, undefined); // no offline_access asked for
      assert.equal((await initialize(server, token)).status, 200);
      server.advanceClock(61_000);
      const expired = await initialize(server, token);
      assert.equal(expired.status, 401);
      assert.match(must(expired.headers.get('www-authenticate'), 'a challenge'), /error="invalid_token"/);
    } finally {
      await server.close();
      await shortLived.close();
    }
  });

  test('registration: true turns on dynamic client registration for a public native client', async () => {
    const withRegistration = await startAuthorizationServer({ registration: true });
    try {
      const meta = (await (await fetch(withRegistration.discoveryUrl)).json()) as Record<string, string>;
      const endpoint = must(meta['registration_endpoint'], 'a registration endpoint');
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          application_type: 'native',
          redirect_uris: ['http://127.0.0.1/callback'],
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
        }),
      });
      const client = (await response.json()) as Record<string, unknown>;
      assert.equal(response.status, 201, JSON.stringify(client));
      assert.equal(typeof client['client_id'], 'string');
      assert.equal(client['client_secret'], undefined);
      assert.equal(withRegistration.events.registrations, 1);
      assert.equal(discovery['registration_endpoint'], undefined); // off by default
    } finally {
      await withRegistration.close();
    }
  });

  test('a client ID metadata document on loopback (https-named, served over http) is accepted', async () => {
    const documents = createServer((req, res) => {
      if (req.url !== '/client.json') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(metadata));
    });
    const { port } = await listenLocal(documents);
    const clientId = `https://127.0.0.1:${port}/client.json`;
    const metadata = {
      client_id: clientId,
      client_name: 'CIMD test client',
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
    try {
      const tokens = await authorize(clientId, 'carol');
      assert.equal(claimsOf(must(tokens.access_token, 'an access token'))['client_id'], clientId);
      assert.ok(as.events.metadataDocumentFetches.includes(clientId));
    } finally {
      documents.close();
      documents.closeAllConnections();
    }
  });
});
