/**
 * No secret ever reaches an output. Every OAuth flow runs for real (oidc-provider, the protected MCP
 * server, chromium on the login pages): browser and device logins, a refresh, a refresh refused with
 * invalid_grant, token and device requests refused for a wrong client secret, a token request with an
 * unregistered private key, a malformed key, a DPoP-bound token the MCP server refuses, dynamic registration, a tampered callback, config errors.
 *
 * The secrets are collected as they go by (a `fetch` of our own sees every request and response of the
 * library, the opener sees the authorization URL and the redirect, the stores and the MCP server hold the
 * rest), and every output is scanned for them: each thrown error's `message`, `String(error)`,
 * `JSON.stringify(error)`, `toJSON()`, `util.inspect(error)` and stack; `status()` and `login()` results;
 * everything written to process.stdout / process.stderr while the flows run; and the stdout/stderr of a
 * worker process run with `NODE_DEBUG=autos-mcp` across a refresh. Only the `prompt` channel, given
 * explicitly, is exempt (it is meant to show the user code).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { connect, isMcpError } from '../../src/index.js';
import {
  type CredentialStore,
  createOAuth,
  type LoginPrompt,
  memoryStore,
  type OAuth,
  type OAuthConfig,
  plaintextFileStore,
} from '../../src/oauth/index.js';
import { approveInBrowser, type Browser, launchBrowser } from '../helpers/browser.js';
import { testClock } from '../helpers/clock.js';
import { must } from '../helpers/must.js';
import {
  type AuthorizationServer,
  CONFIDENTIAL_CLIENT,
  NATIVE_CLIENT,
  startAuthorizationServer,
} from '../helpers/oidc-provider.js';
import { type ProtectedMcpServer, startProtectedMcpServer } from '../helpers/protected-mcp.js';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'race-worker.ts');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// --- what is secret, and where it was seen -------------------------------------------------------

/** secret value → what it is. Only values of 8 characters or more (no false alarms on short ones). */
const secrets = new Map<string, string>();
function plant(label: string, value: unknown): void {
  if (typeof value === 'string' && value.length >= 8) secrets.set(value, label);
}

/** Every output, with where it came from. */
const outputs: { where: string; text: string }[] = [];
function output(where: string, text: string): void {
  outputs.push({ where, text });
}

function outputError(where: string, error: unknown): void {
  assert.ok(isMcpError(error), `${where}: want an autos-mcp error, got ${inspect(error).slice(0, 300)}`);
  output(`${where}: message`, error.message);
  output(`${where}: String(error)`, String(error));
  output(`${where}: JSON.stringify(error)`, JSON.stringify(error));
  output(`${where}: toJSON()`, JSON.stringify(error.toJSON()));
  output(`${where}: util.inspect(error)`, inspect(error, { depth: 8 }));
  output(`${where}: stack`, String(error.stack));
  if (error.challenge !== undefined) output(`${where}: challenge`, JSON.stringify(error.challenge));
}

async function expectError(where: string, work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    outputError(where, error);
    return isMcpError(error) ? error.kind : 'not an McpError';
  }
  return assert.fail(`${where}: want an error, got a result`);
}

/** The form fields and JSON fields that carry secrets, in requests and responses. */
const SECRET_FIELDS: Readonly<Record<string, string>> = {
  access_token: 'access token',
  refresh_token: 'refresh token',
  id_token: 'id token',
  code: 'authorization code',
  code_verifier: 'code verifier',
  client_secret: 'client secret',
  client_assertion: 'client assertion',
  device_code: 'device code',
  registration_access_token: 'registration access token',
};

function plantFields(fields: Iterable<[string, unknown]>): void {
  for (const [name, value] of fields) {
    const label = SECRET_FIELDS[name];
    if (label !== undefined) plant(label, value);
  }
}

function plantJson(text: string): void {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null) plantFields(Object.entries(parsed));
  } catch {
    // not JSON
  }
}

/** The library's `fetch`: sees every request it makes to the authorization server, and every answer. */
async function watchingFetch(url: string, init: RequestInit): Promise<Response> {
  const body = init.body;
  if (body instanceof URLSearchParams) plantFields(body.entries());
  else if (typeof body === 'string') {
    plantFields(new URLSearchParams(body).entries());
    plantJson(body);
  }
  const authorization = new Headers(init.headers).get('authorization');
  if (authorization?.startsWith('Basic ')) {
    plant('client secret (Basic header)', authorization.slice(6));
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    plant('client secret (Basic)', decodeURIComponent(decoded.slice(decoded.indexOf(':') + 1)));
  }
  const response = await fetch(url, init);
  plantJson(await response.clone().text());
  return response;
}

async function plantStore(store: CredentialStore): Promise<void> {
  for (const key of await store.keys()) {
    const value = await store.get(key);
    plant('access token', value?.['accessToken']);
    plant('refresh token', value?.['refreshToken']);
    plant('client secret', value?.['clientSecret']);
    plant('registration access token', value?.['registrationAccessToken']);
    const jwk = value?.['privateJwk'] as Record<string, unknown> | undefined;
    plant('DPoP private key', jwk?.['d']);
  }
}

function plantPem(label: string, pem: string): void {
  plant(`${label} (PEM)`, pem);
  const body = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, '').replace(/\s+/g, '');
  plant(label, body);
  plant(label, body.slice(0, 40));
  plant(label, body.slice(-40));
}

// --- the servers, the browser, the opener ---------------------------------------------------------

let as: AuthorizationServer;
let mcp: ProtectedMcpServer;
let browser: Browser;
let dir: string;
const closers: (() => Promise<unknown>)[] = [];
const realStdout = process.stdout.write;
const realStderr = process.stderr.write;

function tap(stream: NodeJS.WriteStream, where: string, real: typeof process.stdout.write): void {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    output(where, typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    return (real as (...args: unknown[]) => boolean).call(stream, chunk, ...rest);
  };
  stream.write = write as typeof stream.write;
}

before(async () => {
  as = await startAuthorizationServer({ registration: true });
  mcp = await startProtectedMcpServer({ authorizationServer: as.issuer });
  as.addResource(mcp.resource);
  browser = await launchBrowser();
  dir = await mkdtemp(path.join(tmpdir(), 'autos-mcp-secrets-'));
  tap(process.stdout, 'process.stdout', realStdout);
  tap(process.stderr, 'process.stderr', realStderr);
});
after(async () => {
  process.stdout.write = realStdout;
  process.stderr.write = realStderr;
  for (const close of closers.reverse()) await close().catch(() => {});
  await browser?.close();
  await mcp?.close();
  await as?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/**
 * Plays the user in chromium. The browser's own redirect reaches the library's callback; the redirect is
 * GET here too (the library takes the first). With `tamper`, the browser is sent to a port nobody serves
 * and only the tampered redirect reaches the library (Playwright's routes do not see redirects).
 */
function openUrl(tamper?: (redirect: URL) => void): (url: string) => Promise<void> {
  return async (url) => {
    const authorization = new URL(url);
    plant('state', authorization.searchParams.get('state'));
    plant('code challenge', authorization.searchParams.get('code_challenge'));
    plant('authorization URL query', authorization.search.slice(1));
    const callback = new URL(must(authorization.searchParams.get('redirect_uri'), 'a redirect_uri'));
    if (tamper !== undefined) authorization.searchParams.set('redirect_uri', 'http://127.0.0.1:9/callback');
    const redirect = await approveInBrowser(browser, authorization);
    plant('authorization code', redirect.searchParams.get('code'));
    if (tamper !== undefined) {
      redirect.host = callback.host;
      tamper(redirect);
    }
    await fetch(redirect).then(
      (answer) => answer.arrayBuffer(),
      () => undefined, // the browser's own redirect came first: the callback server is shut
    );
  };
}

/** Shows the device code to the "user" (the exempt channel) and approves it. */
function approving(): { prompt: (prompt: LoginPrompt) => void; approved: Promise<void>[] } {
  const approved: Promise<void>[] = [];
  return {
    approved,
    prompt: (prompt) => {
      if (prompt.kind === 'device') approved.push(as.approveDevice(prompt.userCode));
    },
  };
}

/** The clock of every authorizer here: tokens expire when a test moves it (`untilExpired`). */
const clock = testClock();

function authorizer(
  config: Omit<OAuthConfig, 'url'>,
  store: CredentialStore,
  tamper?: (redirect: URL) => void,
): OAuth {
  return createOAuth(
    { clientMetadataUrl: false, url: mcp.url.href, ...config },
    {
      store,
      clock,
      openUrl: openUrl(tamper),
      fetch: watchingFetch,
      prompt: () => assert.fail('no prompt expected'),
    },
  );
}

async function outputStatus(where: string, auth: OAuth): Promise<void> {
  output(`${where}: status()`, JSON.stringify(await auth.status()));
  output(`${where}: status() inspected`, inspect(await auth.status()));
}

async function whoami(auth: OAuth): Promise<string> {
  const client = await connect({ url: mcp.url.href }, { auth });
  try {
    const result = (await client.callTool('whoami')) as { content?: { text?: unknown }[] };
    return String(result.content?.[0]?.text);
  } finally {
    await client.close();
  }
}

/** Moves the clock past the stored access token's expiry; resolves the time it moved to (epoch ms). */
async function untilExpired(auth: OAuth): Promise<number> {
  const expiry = Date.parse(must((await auth.status()).expiresAt, 'an expiry')) + 1000;
  clock.advance(expiry - clock.now());
  assert.equal((await auth.status()).expired, true);
  return expiry;
}

/** Labels matched only whole: texts that hold public parts too (a query, a Basic header of an id). */
const WHOLE_ONLY = new Set([
  'authorization URL query',
  'client secret (Basic header)',
  // Its start and end are the public PEM armour; the base64 body is planted on its own.
  'private key (PEM)',
]);
const PIECE = 12;

/**
 * What is looked for of a secret: the whole of it, and for a long random one three pieces (start, middle,
 * end) of 12 characters, so that a token cut short in a message is caught too.
 */
function needles(secret: string, label: string): string[] {
  if (WHOLE_ONLY.has(label) || secret.length < 2 * PIECE) return [secret];
  const middle = Math.floor((secret.length - PIECE) / 2);
  return [secret.slice(0, PIECE), secret.slice(middle, middle + PIECE), secret.slice(-PIECE)];
}

/** Fails naming the output and the kind of secret (never printing the secret itself). */
function assertClean(): void {
  const leaks: string[] = [];
  for (const { where, text } of outputs) {
    for (const [secret, label] of secrets)
      if (needles(secret, label).some((needle) => text.includes(needle))) leaks.push(`${label} in ${where}`);
    if (/code_challenge=|[?&]state=|code_verifier/.test(text))
      leaks.push(`authorization URL query in ${where}`);
  }
  assert.deepEqual([...new Set(leaks)], []);
}

// --- the flows -----------------------------------------------------------------------------------

describe('OAuth secrets never reach an output', () => {
  const bearer = { clientId: NATIVE_CLIENT.client_id } as const;
  const store = memoryStore();

  test('browser login, calls, status', async () => {
    const auth = authorizer(bearer, store);
    // The 401 that asks for the login.
    await expectError('connect before login', connect({ url: mcp.url.href }, { auth }));
    output('browser login: login()', JSON.stringify(await auth.login()));
    assert.equal(await whoami(auth), 'sub=user scope=mcp:read mcp:write');
    await outputStatus('browser login', auth);
    await plantStore(store);
    assertClean();
  });

  test('refresh, then a refresh refused with invalid_grant', async () => {
    const auth = authorizer(bearer, store);
    await untilExpired(auth);
    assert.equal(await whoami(auth), 'sub=user scope=mcp:read mcp:write');
    assert.ok(as.events.refreshes >= 1, 'refreshed');
    await plantStore(store);
    await outputStatus('after refresh', auth);

    // Rotate the refresh token behind the library's back, then let the access token expire.
    const key = must((await store.keys('token '))[0], 'a token key');
    const stolen = String(must(await store.get(key), 'a token')['refreshToken']);
    const meta = (await (await fetch(as.discoveryUrl)).json()) as Record<string, string>;
    await watchingFetch(must(meta['token_endpoint'], 'a token endpoint'), {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: stolen,
        client_id: NATIVE_CLIENT.client_id,
        resource: mcp.resource,
      }),
    });
    await untilExpired(auth);
    const failures = as.events.refreshFailures;
    assert.equal(await expectError('invalid_grant refresh', whoami(auth)), 'auth_required');
    assert.equal(as.events.refreshFailures, failures + 1);
    await outputStatus('after invalid_grant', auth);
    assertClean();
  });

  test('device login (Bearer), and a DPoP-bound one the MCP server refuses', async () => {
    const device = approving();
    const auth = authorizer(bearer, memoryStore());
    output(
      'device login: login()',
      JSON.stringify(await auth.login({ device: true, prompt: device.prompt })),
    );
    await Promise.all(device.approved);
    assert.equal(await whoami(auth), 'sub=device-user scope=mcp:read mcp:write');
    await outputStatus('device login', auth);

    // DPoP forced on: the token is DPoP-bound, and the fixture MCP server (Bearer only) refuses it.
    const dpopStore = memoryStore();
    const dpop = authorizer({ clientId: NATIVE_CLIENT.client_id, dpop: true }, dpopStore);
    const approval = approving();
    output(
      'dpop login: login()',
      JSON.stringify(await dpop.login({ device: true, prompt: approval.prompt })),
    );
    await Promise.all(approval.approved);
    assert.equal((await dpop.status()).tokenType, 'dpop');
    await plantStore(dpopStore);
    assert.equal(await expectError('dpop call', whoami(dpop)), 'auth_required');
    await plantStore(dpopStore);
    for (const token of mcp.tokensSeen) plant('access token', token);
    await outputStatus('dpop', dpop);
    assertClean();
  });

  test('requests refused for a wrong client secret, and for an unregistered or malformed private key', async () => {
    // The confidential client is a web client (exact redirect URIs): its failed requests are a
    // client_credentials token request and a device authorization request, where the client
    // authenticates before anything else is looked at.
    plant('client secret', CONFIDENTIAL_CLIENT.client_secret);
    const wrong = 'wrong-client-secret-4d9f1c7e2b';
    plant('client secret', wrong);
    const confidential = { clientId: CONFIDENTIAL_CLIENT.client_id, clientSecret: wrong } as const;
    const tokenRequests = as.events.tokenRequests;
    const secretAuth = authorizer({ ...confidential, grant: 'client_credentials' }, memoryStore());
    assert.equal(await expectError('wrong client secret (token)', secretAuth.login()), 'auth_required');
    assert.equal(as.events.tokenRequests, tokenRequests + 1, 'the token request was made');
    await outputStatus('wrong client secret', secretAuth);
    const deviceAuth = authorizer(confidential, memoryStore());
    assert.equal(
      await expectError('wrong client secret (device)', deviceAuth.login({ device: true, prompt: () => {} })),
      'auth_required',
    );

    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = String(privateKey.export({ format: 'pem', type: 'pkcs8' }));
    plantPem('private key', pem);
    const keyAuth = authorizer(
      {
        clientId: CONFIDENTIAL_CLIENT.client_id,
        privateKey: pem,
        signingAlgorithm: 'ES256',
        grant: 'client_credentials',
      },
      memoryStore(),
    );
    assert.equal(await expectError('unregistered private key', keyAuth.login()), 'auth_required');
    assert.equal(as.events.tokenRequests, tokenRequests + 2, 'the private_key_jwt token request was made');

    // A key that is not one: refused without echoing it.
    const material = Buffer.from('not-a-key-but-secret-material-7b3e').toString('base64');
    const garbage = `-----BEGIN PRIVATE KEY-----\n${material}\n-----END PRIVATE KEY-----\n`;
    plantPem('private key', garbage);
    const badKey = authorizer(
      { clientId: CONFIDENTIAL_CLIENT.client_id, privateKey: garbage, grant: 'client_credentials' },
      memoryStore(),
    );
    assert.equal(await expectError('malformed private key', badKey.login()), 'config');
    assertClean();
  });

  test('dynamic registration, a tampered callback, config errors', async () => {
    const dcrStore = memoryStore();
    const dcr = authorizer({ dcr: true }, dcrStore);
    output('dcr: login()', JSON.stringify(await dcr.login()));
    assert.equal(await whoami(dcr), 'sub=user scope=mcp:read mcp:write');
    await plantStore(dcrStore);
    await outputStatus('dcr', dcr);

    const tampered = authorizer(bearer, memoryStore(), (redirect) =>
      redirect.searchParams.set('iss', 'http://127.0.0.1:9/other-issuer'),
    );
    assert.equal(await expectError('wrong iss', tampered.login()), 'auth_required');

    const secret = 'config-secret-never-echoed-93ab1f';
    plant('client secret', secret);
    try {
      createOAuth(
        { clientMetadataUrl: false, url: mcp.url.href, clientSecret: secret },
        { store: memoryStore() },
      );
      assert.fail('want a config error');
    } catch (error) {
      outputError('clientSecret without clientId', error);
    }
    try {
      createOAuth({ url: mcp.url.href, clientId: 'x', privateKey: secret }, { store: memoryStore() });
      assert.fail('want a config error');
    } catch (error) {
      outputError('privateKey not a PEM', error);
    }
    assertClean();
  });

  test('NODE_DEBUG=autos-mcp in a worker across a refresh logs no secret', async () => {
    const shared = plaintextFileStore('debug', { dir });
    const auth = authorizer(bearer, shared);
    await auth.login();
    await plantStore(shared);
    const expiry = await untilExpired(auth);

    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, dir, 'debug', mcp.url.href, '2'], {
      cwd: ROOT,
      env: { ...process.env, NODE_DEBUG: 'autos-mcp' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('"ready"') && child.stdin.writable) child.stdin.write(`go ${expiry}\n`);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0, stderr.slice(-2000));
    assert.match(stdout, /"ok":true/);
    assert.match(stderr, /AUTOS-MCP \d+:/, 'the debug log was on');
    output('worker stdout', stdout);
    output('worker stderr (NODE_DEBUG)', stderr);
    await plantStore(shared);
    for (const token of mcp.tokensSeen) plant('access token', token);
    assertClean();
  });

  test('every kind of secret was collected, and none was in any output', () => {
    const labels = new Set(secrets.values());
    for (const label of [
      'access token',
      'refresh token',
      'authorization code',
      'code verifier',
      'client secret',
      'device code',
      'private key',
      'DPoP private key',
      'state',
      'code challenge',
      'authorization URL query',
      'registration access token',
    ])
      assert.ok(labels.has(label), `collected no ${label}`);
    assert.ok(
      outputs.some((o) => o.where.startsWith('process.std')),
      'the stdout/stderr tap saw something (at least the test reporter)',
    );
    assertClean();
  });
});
