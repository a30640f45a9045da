/**
 * A dynamic registration the authorization server forgot: oidc-provider with its in-memory adapter,
 * restarted between two logins (same issuer, same port), as the official SDK's example server and fastmcp's
 * OAuth proxy forget theirs. With RFC 7592 management the library reads the stored registration before the
 * browser opens, drops it on 401 and registers anew; without it, the login that waits on the server's
 * `invalid_client` page ends at its deadline with a message that says how to drop the registration, and
 * `forgetRegistration()` does.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connect, isMcpError } from '../../src/index.js';
import {
  type CredentialStore,
  createOAuth,
  type LoginPrompt,
  memoryStore,
  type OAuth,
} from '../../src/oauth/index.js';
import { approveInBrowser, type Browser, launchBrowser } from '../helpers/browser.js';
import { must } from '../helpers/must.js';
import {
  type AuthorizationServer,
  type AuthorizationServerOptions,
  startAuthorizationServer,
} from '../helpers/oidc-provider.js';
import { type ProtectedMcpServer, startProtectedMcpServer } from '../helpers/protected-mcp.js';

let browser: Browser;
const closers: (() => Promise<unknown>)[] = [];
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  await browser?.close();
});

async function servers(
  options: AuthorizationServerOptions,
): Promise<{ as: AuthorizationServer; mcp: ProtectedMcpServer }> {
  const as = await startAuthorizationServer({ registration: true, ...options });
  closers.push(() => as.close());
  const mcp = await startProtectedMcpServer({ authorizationServer: as.issuer });
  closers.push(() => mcp.close());
  as.addResource(mcp.resource);
  return { as, mcp };
}

/** The callback requests `approve` made that may still be on their way. */
const callbacks = new Set<Promise<unknown>>();

/**
 * The user in chromium: signs in and approves, and the redirect reaches the library's callback (the
 * browser's own request to it may come first; the login ends on whichever does).
 */
async function approve(url: string): Promise<void> {
  const redirect = await approveInBrowser(browser, url);
  const answered = fetch(redirect).then(
    (answer) => answer.arrayBuffer(),
    () => {}, // the browser's own request came first and the callback server is shut
  );
  callbacks.add(answered);
  await answered;
  callbacks.delete(answered);
}

/**
 * Ends one login's user: its own callback requests answered, and the browser gone with any request it
 * still had on the way. A login on a stored registration listens on the port that registration names, the
 * previous login's: a late request from the previous login's browser would land there and be refused as
 * a callback whose state does not match this login.
 */
async function settled(): Promise<void> {
  await Promise.all(callbacks);
  await browser.close();
  browser = await launchBrowser();
}

function authorizer(mcp: ProtectedMcpServer, store: CredentialStore, openUrl = approve): OAuth {
  return createOAuth(
    { clientMetadataUrl: false, url: mcp.url.href, dcr: true },
    { store, openUrl, prompt: () => assert.fail('no prompt') },
  );
}

async function whoami(mcp: ProtectedMcpServer, auth: OAuth): Promise<unknown> {
  const client = await connect({ url: mcp.url.href }, { auth });
  try {
    return (await client.callTool('whoami')).content;
  } finally {
    await client.close();
  }
}

test('RFC 7592: a registration forgotten in a restart is found out before the browser opens, and replaced', async () => {
  const { as, mcp } = await servers({ registrationManagement: true });
  const store = memoryStore();
  await authorizer(mcp, store).login();
  await settled();
  const first = must(as.events.authorizationRequests[0], 'a first authorization').get('client_id');
  assert.equal(as.events.registrations, 1);
  assert.deepEqual(as.events.registrationReads, [], 'a fresh registration is not read back');

  await as.restart();
  const opened: string[] = [];
  const started = performance.now();
  const auth = authorizer(mcp, store, async (url) => {
    opened.push(new URL(url).searchParams.get('client_id') ?? '');
    await approve(url);
  });
  await auth.login({ timeoutMs: 30_000 });
  const took = performance.now() - started;
  await settled();
  // One read, answered 401 (RFC 7592 §2.1: the server does not know the client), then a new registration.
  assert.deepEqual(as.events.registrationReads, [401]);
  assert.equal(as.events.registrations, 2);
  assert.equal(opened.length, 1, 'the browser opened once');
  assert.notEqual(opened[0], first, 'with the new registration, not the forgotten one');
  assert.ok(took < 25_000, `the login ended without waiting out a deadline (${Math.round(took)} ms)`);
  assert.deepEqual(await whoami(mcp, auth), [{ type: 'text', text: 'sub=user scope=mcp:read mcp:write' }]);

  // A registration the server still knows is read (200) and used as it is.
  await authorizer(mcp, store).login();
  await settled();
  assert.deepEqual(as.events.registrationReads, [401, 200]);
  assert.equal(as.events.registrations, 2);
});

test('without RFC 7592: the login times out with a hint, forgetRegistration() drops it, the next login works', async () => {
  const { as, mcp } = await servers({ registrationManagement: false });
  const store = memoryStore();
  await authorizer(mcp, store).login();
  await settled();
  assert.equal(as.events.registrations, 1);

  await as.restart();
  // The browser lands on the server's error page and never comes back, as a user's would.
  const pages: string[] = [];
  const stuck = authorizer(mcp, store, async (url) => {
    pages.push(await (await fetch(url)).text());
  });
  const started = performance.now();
  const error = await stuck.login({ timeoutMs: 1500 }).then(
    () => assert.fail('want a timeout'),
    (e: unknown) => e,
  );
  const took = performance.now() - started;
  assert.ok(isMcpError(error), `want an autos-mcp error, got ${String(error)}`);
  assert.equal(error.kind, 'timeout', error.message);
  assert.match(error.message, /may have forgotten the client autos-mcp registered/);
  assert.match(error.message, /drop it with auth\.forgetRegistration\(\) and log in again/);
  assert.ok(took < 10_000, `the login kept its 1.5 s deadline (${Math.round(took)} ms)`);
  assert.match(must(pages[0], 'the page the browser showed'), /invalid_client/);
  assert.deepEqual(as.events.registrationReads, [], 'nothing to read without a registration_client_uri');

  // The way out: the registration is dropped (the tokens of the first login stay), and a login registers anew.
  const auth = authorizer(mcp, store);
  assert.equal(await auth.forgetRegistration(), true);
  assert.equal(await auth.forgetRegistration(), false, 'nothing left to forget');
  await auth.login();
  await settled();
  assert.equal(as.events.registrations, 2);
  assert.deepEqual(await whoami(mcp, auth), [{ type: 'text', text: 'sub=user scope=mcp:read mcp:write' }]);
});

test('device login: a forgotten registration is refused at once (invalid_client) and dropped; the next login registers anew', async () => {
  const { as, mcp } = await servers({ registrationManagement: false });
  const approving = (prompt: LoginPrompt): void => {
    if (prompt.kind === 'device') void as.approveDevice(prompt.userCode);
  };
  const auth = createOAuth(
    { clientMetadataUrl: false, url: mcp.url.href, dcr: true },
    { store: memoryStore(), prompt: approving },
  );
  await auth.login({ device: true });
  assert.equal(as.events.registrations, 1);

  await as.restart();
  const error = await auth.login({ device: true }).then(
    () => assert.fail('want invalid_client'),
    (e: unknown) => e,
  );
  assert.ok(isMcpError(error), `want an autos-mcp error, got ${String(error)}`);
  assert.equal(error.kind, 'auth_required');
  assert.match(error.message, /\(invalid_client\)/);
  assert.equal(as.events.deviceCodes, 1, 'no device code for the forgotten client');

  await auth.login({ device: true });
  assert.equal(as.events.registrations, 2);
  assert.deepEqual(await whoami(mcp, auth), [
    { type: 'text', text: 'sub=device-user scope=mcp:read mcp:write' },
  ]);
});
