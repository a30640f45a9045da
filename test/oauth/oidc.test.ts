/**
 * The OAuth module against a real authorization server (oidc-provider) and a real protected MCP server,
 * through the public API only (`connect` from autos-mcp, `oauth` and the stores from autos-mcp/oauth):
 * chromium signs in on the real login and consent pages, the callback reaches the library's own loopback
 * server, and every assertion is on what the user sees (results, errors, `status()`) or on what the
 * servers saw (test/helpers/oidc-provider.ts `events`, test/helpers/protected-mcp.ts `requests`).
 *
 * Both protocol revisions the MCP fixture serves are covered: 2026-07-28 (pinned) and the default
 * (2025-11-25). oidc-provider advertises DPoP (ES256), but the fixture MCP server takes Bearer tokens only
 * (its metadata says nothing of DPoP): with the default config the tokens must be Bearer ones.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { AnyMcpError } from '../../src/index.js';
import { type Client, connect, isMcpError } from '../../src/index.js';
import {
  type CredentialStore,
  createOAuth,
  type LoginOptions,
  memoryStore,
  type OAuth,
  type OAuthConfig,
} from '../../src/oauth/index.js';
import { approveInBrowser, type Browser, launchBrowser } from '../helpers/browser.js';
import { type TestClock, testClock } from '../helpers/clock.js';
import { listenLocal } from '../helpers/http-server.js';
import { must } from '../helpers/must.js';
import {
  type AuthorizationServer,
  type AuthorizationServerOptions,
  NATIVE_CLIENT,
  startAuthorizationServer,
} from '../helpers/oidc-provider.js';
import {
  type ProtectedMcpOptions,
  type ProtectedMcpServer,
  startProtectedMcpServer,
} from '../helpers/protected-mcp.js';

const REVISIONS = [
  { name: '2026-07-28', config: { protocolVersion: '2026-07-28' } },
  { name: 'default (2025-11-25)', config: {} },
] as const;

type Revision = (typeof REVISIONS)[number];

let browser: Browser;
const closers: (() => Promise<unknown>)[] = [];
/** `http://127.0.0.1:<port>`: where a tampering test sends the browser instead of the library. */
let catcher = '';

before(async () => {
  browser = await launchBrowser();
  const server = createServer((_req, res) => res.writeHead(200).end('caught'));
  catcher = (await listenLocal(server)).origin;
  closers.push(async () => {
    server.close();
    server.closeAllConnections();
  });
});
after(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  await browser?.close();
});

/** The AS, then the MCP server, then the MCP server's resource registered at the AS; closed in `after`. */
async function servers(
  asOptions: AuthorizationServerOptions = {},
  mcpOptions: Omit<ProtectedMcpOptions, 'authorizationServer'> = {},
): Promise<{ as: AuthorizationServer; mcp: ProtectedMcpServer }> {
  const as = await startAuthorizationServer(asOptions);
  closers.push(() => as.close());
  const mcp = await startProtectedMcpServer({ authorizationServer: as.issuer, ...mcpOptions });
  closers.push(() => mcp.close());
  as.addResource(mcp.resource);
  return { as, mcp };
}

interface Opener {
  /** The `openUrl` to hand to the library. */
  readonly openUrl: (url: string) => Promise<void>;
  /** Every authorization URL the library asked to open. */
  readonly opened: URL[];
  /** Every redirect the browser was sent to (before any tampering). */
  readonly landed: URL[];
  /** The status of each loopback callback answer. */
  readonly callbackStatus: number[];
  /**
   * Resolves once every `openUrl` has ended: its browser context closed, `landed` filled and its callback
   * GET answered. A login can end before that, on the browser's own callback.
   */
  settled(): Promise<unknown>;
}

/**
 * Plays the user: chromium approves on the real pages, and the browser's redirect reaches the library's
 * loopback callback. The helper resolves as that redirect starts; the redirect is also GET here, as a user
 * pasting it would (the library takes the first callback, both are the same), so that its answer can be
 * checked. That GET goes out after the browser context is closed, so it can come after the login ended:
 * on a port a stored registration brings back, a later login's callback server gets it and drops it
 * (another state).
 *
 * With `tamper`, the browser is sent elsewhere instead (the authorization URL's `redirect_uri` points at
 * `catcher`, which any loopback port matches for the native client), and only the tampered redirect
 * reaches the library. Playwright's routes do not see redirects, so this is the one way to make sure the
 * library never gets the genuine callback.
 */
function browserUser(tamper?: (redirect: URL) => void, login = 'user'): Opener {
  const opened: URL[] = [];
  const landed: URL[] = [];
  const callbackStatus: number[] = [];
  const pending: Promise<unknown>[] = [];
  return {
    opened,
    landed,
    callbackStatus,
    settled: () => Promise.all(pending),
    openUrl: (url) => {
      const run = approve(url);
      pending.push(run);
      return run;
    },
  };

  async function approve(url: string): Promise<void> {
    const authorization = new URL(url);
    opened.push(new URL(url));
    const callback = new URL(must(authorization.searchParams.get('redirect_uri'), 'a redirect_uri'));
    if (tamper !== undefined) authorization.searchParams.set('redirect_uri', `${catcher}/callback`);
    const redirect = await approveInBrowser(browser, authorization, { login });
    landed.push(new URL(redirect));
    if (tamper !== undefined) {
      assert.equal(`${redirect.origin}${redirect.pathname}`, `${catcher}/callback`);
      redirect.host = callback.host;
      tamper(redirect);
    }
    const answered = fetch(redirect).then(
      async (answer) => {
        await answer.arrayBuffer();
        callbackStatus.push(answer.status);
      },
      // The browser's own request came first and the callback server is already shut.
      () => callbackStatus.push(0),
    );
    await answered;
  }
}

function authorizer(
  mcp: ProtectedMcpServer,
  config: Omit<OAuthConfig, 'url'> = { clientId: NATIVE_CLIENT.client_id },
  opener: Opener = browserUser(),
  store: CredentialStore = memoryStore(),
  clock?: TestClock,
): OAuth {
  return createOAuth(
    { clientMetadataUrl: false, url: mcp.url.href, ...config },
    {
      store,
      openUrl: opener.openUrl,
      prompt: () => assert.fail('no prompt expected'),
      ...(clock !== undefined ? { clock } : {}),
    },
  );
}

/** The autos-mcp error `work` rejects with (a failure when it resolves or throws something else). */
async function failure(work: Promise<unknown>): Promise<AnyMcpError> {
  try {
    await work;
  } catch (error) {
    assert.ok(isMcpError(error), `want an autos-mcp error, got ${String(error)}`);
    return error;
  }
  return assert.fail('want a failure, got a result');
}

/**
 * The login-and-retry pattern: runs `work`; on `auth_required` / `forbidden` logs in with the error's
 * challenge and runs it once more. Resolves with the result and the error that asked for the login.
 */
async function withLogin<T>(
  auth: OAuth,
  work: () => Promise<T>,
  options: LoginOptions = {},
): Promise<{ result: T; refusal: AnyMcpError | undefined }> {
  try {
    return { result: await work(), refusal: undefined };
  } catch (error) {
    if (!isMcpError(error) || (error.kind !== 'auth_required' && error.kind !== 'forbidden')) throw error;
    await auth.login({ ...options, challenge: error.challenge });
    return { result: await work(), refusal: error };
  }
}

function textOf(result: unknown): string {
  const content = (result as { content?: { text?: unknown }[] }).content;
  const text = content?.[0]?.text;
  assert.equal(typeof text, 'string', `want a text result, got ${JSON.stringify(result)}`);
  return String(text);
}

async function open(mcp: ProtectedMcpServer, auth: OAuth, revision: Revision): Promise<Client> {
  const client = await connect({ url: mcp.url.href, ...revision.config }, { auth });
  closers.push(() => client.close());
  return client;
}

/** The stored token record of the (only) credential in `store`: read through the store's public API. */
async function storedToken(store: CredentialStore): Promise<Record<string, unknown>> {
  const keys = await store.keys('token ');
  assert.equal(keys.length, 1, `want one stored token, got ${keys.length}`);
  return must(await store.get(must(keys[0], 'a token key')), 'the stored token');
}

async function tokenEndpoint(as: AuthorizationServer): Promise<string> {
  const meta = (await (await fetch(as.discoveryUrl)).json()) as Record<string, unknown>;
  return String(must(meta['token_endpoint'], 'a token endpoint'));
}

/** Moves `clock` (the authorizer's) past the stored access token's expiry; no real time passes. */
async function untilExpired(auth: OAuth, clock: TestClock): Promise<void> {
  assert.equal((await auth.status()).expired, false);
  const expiresAt = Date.parse(must((await auth.status()).expiresAt, 'an expiry'));
  clock.advance(expiresAt - clock.now() + 1);
  assert.equal((await auth.status()).expired, true);
}

function scopesOf(params: URLSearchParams | undefined): string[] {
  return (params?.get('scope') ?? '').split(' ').filter(Boolean).sort();
}

for (const revision of REVISIONS) {
  describe(`OAuth against oidc-provider, protocol revision ${revision.name}`, () => {
    test('browser login on the real pages, then listTools and callTool through connect', async (t) => {
      const { as, mcp } = await servers();
      const user = browserUser();
      const store = memoryStore();
      const auth = authorizer(mcp, undefined, user, store);
      let client: Client | undefined;
      const started = Date.now();
      const { result: tools, refusal } = await withLogin(auth, async () => {
        client ??= await open(mcp, auth, revision);
        return client.listTools();
      });
      t.diagnostic(`login and first list: ${Date.now() - started} ms`);

      // The first attempt was refused with the server's challenge, which the login followed.
      assert.equal(refusal?.kind, 'auth_required');
      assert.equal(refusal?.status, 401);
      assert.equal(refusal?.challenge?.resourceMetadata, mcp.metadataUrl.href);
      assert.deepEqual(
        tools.map((tool) => tool.name),
        ['whoami'],
      );
      const answer = await must(client, 'a client').callTool('whoami');
      assert.equal(textOf(answer), 'sub=user scope=mcp:read mcp:write');

      // The authorization request: PKCE S256, the MCP resource, a state, the loopback redirect.
      assert.equal(as.events.authorizationRequests.length, 1);
      const request = must(as.events.authorizationRequests[0], 'an authorization request');
      assert.equal(request.get('response_type'), 'code');
      assert.equal(request.get('client_id'), NATIVE_CLIENT.client_id);
      assert.equal(request.get('code_challenge_method'), 'S256');
      assert.match(must(request.get('code_challenge'), 'a code_challenge'), /^[\w-]{43}$/);
      assert.equal(request.get('resource'), mcp.resource);
      const state = must(request.get('state'), 'a state');
      assert.ok(state.length >= 16, 'the state is not guessable');
      assert.match(
        must(request.get('redirect_uri'), 'a redirect_uri'),
        /^http:\/\/127\.0\.0\.1:\d+\/callback$/,
      );
      assert.deepEqual(scopesOf(request), ['mcp:read', 'mcp:write', 'offline_access']);
      await user.settled();
      assert.equal(must(user.landed[0], 'a redirect').searchParams.get('state'), state);
      // 200 when this GET came first, 404 or refused (0) when the browser's own redirect did.
      assert.equal(user.callbackStatus.length, 1);

      // The token request: one code exchange, with `resource`.
      assert.deepEqual(as.events.tokenRequestLog, [
        {
          grantType: 'authorization_code',
          ok: true,
          clientId: NATIVE_CLIENT.client_id,
          resource: mcp.resource,
        },
      ]);
      // Every request that reached the MCP server after the login carried the stored token.
      const token = String((await storedToken(store))['accessToken']);
      const after401 = mcp.requests.slice(mcp.requests.findIndex((r) => r.token !== undefined));
      assert.ok(after401.length >= 2, 'requests after the login');
      assert.ok(
        after401.every((r) => r.token === token && r.status >= 200 && r.status < 300),
        'every later request carried the token and was accepted',
      );

      const status = await auth.status();
      assert.equal(status.loggedIn, true);
      assert.equal(status.issuer, as.issuer);
      assert.equal(status.resource, mcp.resource);
      assert.equal(status.refreshable, true);
      assert.equal(status.tokenType, 'bearer');
    });

    test('refresh rotation: an expired token is refreshed once before sending, the rotated token is stored', async () => {
      const { as, mcp } = await servers();
      const store = memoryStore();
      const clock = testClock();
      const auth = authorizer(mcp, undefined, undefined, store, clock);
      await auth.login();
      const client = await open(mcp, auth, revision);
      await client.listTools();
      const before = await storedToken(store);
      assert.equal(typeof before['refreshToken'], 'string');

      await untilExpired(auth, clock);
      const seen = mcp.requests.length;
      assert.equal(textOf(await client.callTool('whoami')), 'sub=user scope=mcp:read mcp:write');

      assert.equal(as.events.refreshes, 1);
      assert.equal(as.events.refreshFailures, 0);
      const refresh = as.events.tokenRequestLog.filter((r) => r.grantType === 'refresh_token');
      assert.deepEqual(refresh, [
        { grantType: 'refresh_token', ok: true, clientId: NATIVE_CLIENT.client_id, resource: mcp.resource },
      ]);
      const afterToken = await storedToken(store);
      assert.notEqual(
        afterToken['refreshToken'],
        before['refreshToken'],
        'the rotated refresh token is stored',
      );
      assert.notEqual(afterToken['accessToken'], before['accessToken']);
      // Refreshed before sending: the expired token never went out again, nothing was refused.
      const later = mcp.requests.slice(seen);
      assert.ok(later.length >= 1, 'requests after the expiry');
      assert.ok(
        later.every((r) => r.token === afterToken['accessToken'] && r.status >= 200 && r.status < 300),
        'only the refreshed token was sent, and accepted',
      );
      const status = await auth.status();
      assert.equal(status.refreshable, true);
      assert.equal(status.expired, false);
    });

    test('invalid_grant: a refresh token rotated behind the library fails with auth_required, log in again', async () => {
      const { as, mcp } = await servers();
      const store = memoryStore();
      const clock = testClock();
      const auth = authorizer(mcp, undefined, undefined, store, clock);
      await auth.login();
      const client = await open(mcp, auth, revision);
      await client.listTools();

      // Someone else uses the refresh token: the library's copy is rotated out.
      const stolen = String((await storedToken(store))['refreshToken']);
      const response = await fetch(await tokenEndpoint(as), {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: stolen,
          client_id: NATIVE_CLIENT.client_id,
          resource: mcp.resource,
        }),
      });
      assert.equal(response.status, 200, await response.text());
      assert.equal(as.events.refreshes, 1);

      await untilExpired(auth, clock);
      const error = await failure(client.callTool('whoami'));
      assert.equal(error.kind, 'auth_required');
      assert.match(error.message, /log in again/);
      assert.match(error.message, /invalid_grant/);
      assert.equal(as.events.refreshFailures, 1);
      const status = await auth.status();
      assert.equal(status.loggedIn, false, 'the dead credential is dropped');

      // The login-and-retry pattern recovers.
      const { result } = await withLogin(auth, () => client.callTool('whoami'));
      assert.equal(textOf(result), 'sub=user scope=mcp:read mcp:write');
    });

    test('step-up: 403 insufficient_scope, login with the challenge asks for the union, the call succeeds', async () => {
      const { as, mcp } = await servers({}, { scopes: ['mcp:read'], toolScopes: { whoami: 'mcp:write' } });
      const user = browserUser();
      const auth = authorizer(mcp, undefined, user);
      await auth.login();
      assert.deepEqual(scopesOf(as.events.authorizationRequests[0]), ['mcp:read', 'offline_access']);
      const client = await open(mcp, auth, revision);
      await client.listTools();

      const { result, refusal } = await withLogin(auth, () => client.callTool('whoami'));
      assert.equal(refusal?.kind, 'forbidden');
      assert.equal(refusal?.status, 403);
      assert.equal(refusal?.challenge?.error, 'insufficient_scope');
      assert.equal(refusal?.challenge?.scope, 'mcp:write');
      assert.equal(as.events.authorizationRequests.length, 2);
      assert.deepEqual(scopesOf(as.events.authorizationRequests[1]), [
        'mcp:read',
        'mcp:write',
        'offline_access',
      ]);
      assert.equal(textOf(result), 'sub=user scope=mcp:read mcp:write');
    });

    test('step-up: a repeated 403 for scopes already asked for makes login throw forbidden, no new request', async () => {
      // mcp:admin is not a scope the authorization server grants for this resource.
      const { as, mcp } = await servers({}, { toolScopes: { whoami: 'mcp:admin' } });
      const user = browserUser();
      const auth = authorizer(mcp, undefined, user);
      await auth.login();
      const client = await open(mcp, auth, revision);
      await client.listTools();

      const first = await failure(client.callTool('whoami'));
      assert.equal(first.kind, 'forbidden');
      assert.equal(first.challenge?.scope, 'mcp:admin');
      await auth.login({ challenge: first.challenge });
      assert.equal(as.events.authorizationRequests.length, 2);
      assert.ok(scopesOf(as.events.authorizationRequests[1]).includes('mcp:admin'), 'mcp:admin asked for');

      const again = await failure(client.callTool('whoami'));
      assert.equal(again.kind, 'forbidden');
      assert.equal(again.challenge?.scope, 'mcp:admin');
      const refused = await failure(auth.login({ challenge: again.challenge }));
      assert.equal(refused.kind, 'forbidden');
      assert.match(refused.message, /already requested/);
      assert.equal(as.events.authorizationRequests.length, 2, 'no new authorization request');
      assert.equal(user.opened.length, 2, 'no browser opened');
    });

    test('device grant: the prompt shows the user code, approval by the hook, then calls work', async (t) => {
      const { as, mcp } = await servers();
      const prompts: { kind: string; userCode?: string; verificationUri?: string }[] = [];
      const approvals: Promise<void>[] = [];
      const auth = createOAuth(
        { url: mcp.url.href, clientId: NATIVE_CLIENT.client_id },
        { store: memoryStore(), openUrl: () => assert.fail('a device login opens no browser') },
      );
      const started = Date.now();
      const result = await auth.login({
        device: true,
        prompt: (prompt) => {
          prompts.push(prompt);
          if (prompt.kind === 'device') approvals.push(as.approveDevice(prompt.userCode));
        },
      });
      await Promise.all(approvals);
      t.diagnostic(`device login: ${Date.now() - started} ms`);
      assert.equal(prompts.length, 1);
      const prompt = must(prompts[0], 'a prompt');
      assert.equal(prompt.kind, 'device');
      assert.equal(prompt.verificationUri, `${as.issuer}/device`);
      assert.match(must(prompt.userCode, 'a user code'), /^[A-Z]{4}-?[A-Z]{4}$/);
      assert.equal(result.issuer, as.issuer);
      assert.equal(result.resource, mcp.resource);
      assert.equal(result.refreshable, true);
      assert.equal(as.events.deviceCodes, 1);
      assert.equal(as.events.deviceTokens, 1);
      assert.equal(as.events.authorizationRequests.length, 0);
      const device = as.events.tokenRequestLog.filter((r) => r.ok);
      assert.deepEqual(device, [
        {
          grantType: 'urn:ietf:params:oauth:grant-type:device_code',
          ok: true,
          clientId: NATIVE_CLIENT.client_id,
          resource: mcp.resource,
        },
      ]);

      const client = await open(mcp, auth, revision);
      assert.equal(textOf(await client.callTool('whoami')), 'sub=device-user scope=mcp:read mcp:write');
    });
  });
}

describe('OAuth against oidc-provider: client identity and callback checks', () => {
  const revision = REVISIONS[1];

  test('client ID metadata document: the https URL is the client_id, the browser login works', async () => {
    const { as, mcp } = await servers({ clientIdMetadataDocument: true });
    let clientId = '';
    const documents = createServer((req, res) => {
      if (req.url !== '/client.json') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          client_id: clientId,
          client_name: 'autos-mcp test',
          application_type: 'native',
          redirect_uris: ['http://127.0.0.1/callback'],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        }),
      );
    });
    const { port } = await listenLocal(documents);
    closers.push(async () => {
      documents.close();
      documents.closeAllConnections();
    });
    // The fixture fetches an https://127.0.0.1 client_id over plain http on the same port.
    clientId = `https://127.0.0.1:${port}/client.json`;
    const user = browserUser();
    const auth = authorizer(mcp, { clientMetadataUrl: clientId }, user);
    const result = await auth.login();
    assert.equal(result.issuer, as.issuer);
    const request = must(as.events.authorizationRequests[0], 'an authorization request');
    assert.equal(request.get('client_id'), clientId);
    assert.ok(as.events.metadataDocumentFetches.includes(clientId), 'the document was fetched');
    assert.equal(must(as.events.tokenRequestLog[0], 'a token request').clientId, clientId);
    assert.equal(as.events.registrations, 0);
    const client = await open(mcp, auth, revision);
    assert.equal(textOf(await client.callTool('whoami')), 'sub=user scope=mcp:read mcp:write');
  });

  test('dynamic registration: dcr registers once, a second login reuses it and its port; a callback left from the first is dropped', async () => {
    const { as, mcp } = await servers({ registration: true });
    const store = memoryStore();
    const user = browserUser();
    const first = authorizer(mcp, { dcr: true }, user, store);
    await first.login();
    await user.settled(); // the login ends on the browser's own callback, before `landed` has it
    assert.equal(as.events.registrations, 1);
    const registered = must(as.events.authorizationRequests[0], 'an authorization request').get('client_id');
    assert.ok(registered !== null && registered !== NATIVE_CLIENT.client_id, 'a registered client_id');
    const client = await open(mcp, first, revision);
    assert.equal(textOf(await client.callTool('whoami')), 'sub=user scope=mcp:read mcp:write');

    // Another authorizer on the same store, after a logout: the registration is reused, and with it the
    // redirect URI's port. The first login's callback reaches the second login's callback server there (a
    // tab of the first login reloaded; in CI, browserUser's own GET of it, late behind a slow browser):
    // it is not this login's, so it is dropped and the second login goes on to its own.
    assert.equal(await first.logout(), true);
    const earlier = must(user.landed[0], 'the first login callback');
    const next = browserUser();
    const second = authorizer(
      mcp,
      { dcr: true },
      {
        ...next,
        openUrl: async (url) => {
          const redirect = new URL(must(new URL(url).searchParams.get('redirect_uri'), 'a redirect_uri'));
          assert.equal(redirect.port, earlier.port, 'the registered port is reused');
          const stale = await fetch(earlier);
          assert.equal(stale.status, 400);
          assert.match(await stale.text(), /not for the login in progress/);
          await next.openUrl(url);
        },
      },
      store,
    );
    await second.login();
    assert.equal(as.events.registrations, 1);
    assert.equal(as.events.authorizationRequests.length, 2);
    assert.equal(must(as.events.authorizationRequests[1], 'a second request').get('client_id'), registered);
    assert.equal(as.events.codeExchanges, 2);
  });

  test('no clientId, no dcr: login fails with kind config naming the fix, nothing opened', async () => {
    const { as, mcp } = await servers({ registration: true });
    const user = browserUser();
    const auth = authorizer(mcp, {}, user);
    const error = await failure(auth.login());
    assert.equal(error.kind, 'config');
    assert.match(error.message, /clientId/);
    assert.match(error.message, /dcr: true/);
    assert.equal(user.opened.length, 0);
    assert.equal(as.events.registrations, 0);
    assert.equal(as.events.authorizationRequests.length, 0);
  });

  test('iss: the server advertises it; a callback with another iss is refused before any token request', async () => {
    const { as, mcp } = await servers();
    const meta = (await (await fetch(as.discoveryUrl)).json()) as Record<string, unknown>;
    assert.equal(meta['authorization_response_iss_parameter_supported'], true);
    const user = browserUser((redirect) => {
      assert.equal(redirect.searchParams.get('iss'), as.issuer);
      redirect.searchParams.set('iss', 'http://127.0.0.1:9/not-the-issuer');
    });
    const auth = authorizer(mcp, undefined, user);
    const error = await failure(auth.login());
    assert.equal(error.kind, 'auth_required');
    assert.match(error.message, /iss/);
    assert.equal(as.events.authorizationRequests.length, 1);
    assert.equal(as.events.tokenRequests, 0, 'no token request');
    await user.settled();
    assert.deepEqual(user.callbackStatus, [400]);
    assert.equal((await auth.status()).loggedIn, false);

    // Without iss at all it is refused too (the server said it always sends one).
    const stripped = browserUser((redirect) => redirect.searchParams.delete('iss'));
    const again = await failure(authorizer(mcp, undefined, stripped).login());
    assert.equal(again.kind, 'auth_required');
    assert.match(again.message, /iss/);
    assert.equal(as.events.tokenRequests, 0);
  });

  test('state: a callback with another state, or none, is dropped before any token request; the login waits on for its own', async () => {
    const { as, mcp } = await servers();
    const user = browserUser();
    const answers: number[] = [];
    let ended = false;
    const opener: Opener = {
      ...user,
      // Before the user approves, callbacks that are not this login's reach its callback server (a page or
      // a local process sending them, or a tab of another login); then the browser brings the real one.
      openUrl: async (url) => {
        const callback = new URL(must(new URL(url).searchParams.get('redirect_uri'), 'a redirect_uri'));
        const forged = [
          { code: 'forged-code', state: 'forged-state-value', iss: as.issuer },
          { code: 'forged-code', iss: as.issuer },
          { error: 'access_denied', state: 'forged-state-value', iss: as.issuer },
        ];
        for (const params of forged) {
          const answer = await fetch(`${callback.href}?${new URLSearchParams(params)}`);
          await answer.arrayBuffer();
          answers.push(answer.status);
        }
        assert.equal(ended, false, 'a forged callback ended the login');
        await user.openUrl(url);
      },
    };
    const login = authorizer(mcp, undefined, opener).login();
    login.then(
      () => (ended = true),
      () => (ended = true),
    );
    assert.equal((await login).issuer, as.issuer);
    assert.deepEqual(answers, [400, 400, 400]);
    assert.equal(as.events.authorizationRequests.length, 1);
    assert.equal(as.events.codeExchanges, 1, 'only the genuine code was exchanged');
    assert.equal(as.events.tokenRequests, 1);
  });
});
