/**
 * Credentials are keyed by the authorization server's issuer and the resource, so a second server entry
 * for the same resource (another URL form of the same endpoint) uses the stored token instead of asking
 * for a login: real oidc-provider, real MCP server, one shared store.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { connect, isMcpError } from '../../src/index.js';
import { createOAuth, memoryStore } from '../../src/oauth/index.js';
import { startAuthorizationServer } from '../helpers/oidc-provider.js';
import { startProtectedMcpServer } from '../helpers/protected-mcp.js';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

test('a second entry for the same issuer and resource adopts the stored token: no second login', async () => {
  const as = await startAuthorizationServer();
  cleanups.push(() => as.close());
  const mcp = await startProtectedMcpServer({ authorizationServer: as.issuer });
  cleanups.push(() => mcp.close());
  as.addResource(mcp.resource);
  const store = memoryStore();

  const first = createOAuth({ url: mcp.url.href, clientId: 'native-client' }, { store });
  const approvals: Promise<void>[] = [];
  await first.login({
    device: true,
    prompt: (prompt) => {
      if (prompt.kind === 'device') approvals.push(as.approveDevice(prompt.userCode));
    },
  });
  await Promise.all(approvals);
  const tokenRequests = as.events.tokenRequests;

  // The same endpoint named another way (a query the server ignores): another entry, same resource.
  const other = new URL(mcp.url);
  other.searchParams.set('profile', 'second');
  const second = createOAuth({ url: other.href, clientId: 'native-client' }, { store });
  assert.equal((await second.status()).loggedIn, false, 'nothing bound to this entry yet');
  const client = await connect({ url: other.href }, { auth: second }).catch((error: unknown) => {
    if (isMcpError(error)) assert.fail(`no login should be needed: ${error.kind}: ${error.message}`);
    throw error;
  });
  const tools = await client.listTools();
  await client.close();
  assert.deepEqual(
    tools.map((tool) => tool.name),
    ['whoami'],
  );
  assert.equal(as.events.tokenRequests, tokenRequests, 'no token request: the stored token was adopted');
  const status = await second.status();
  assert.equal(status.loggedIn, true);
  assert.equal(status.issuer, as.issuer);
});
