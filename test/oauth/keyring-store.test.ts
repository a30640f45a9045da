/**
 * OAuth with a store name keeps its credentials in the OS credential store (a real gnome-keyring in a
 * private D-Bus session): a login through chromium and the real oidc-provider pages, then a fresh
 * authorizer on the same name finds the token there. Nothing is written to the user's config directory.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runInKeyringSession, workerJson } from '../helpers/keyring-session.js';
import { startAuthorizationServer } from '../helpers/oidc-provider.js';
import { startProtectedMcpServer } from '../helpers/protected-mcp.js';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'keyring-login-worker.ts');
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

test('a named store is the OS credential store: login there, found again by a fresh authorizer', async () => {
  const as = await startAuthorizationServer();
  cleanups.push(() => as.close());
  const mcp = await startProtectedMcpServer({ authorizationServer: as.issuer });
  cleanups.push(() => mcp.close());
  as.addResource(mcp.resource);
  const config = mkdtempSync(path.join(tmpdir(), 'autos-mcp-config-'));
  cleanups.push(() => rmSync(config, { recursive: true, force: true }));

  const result = await runInKeyringSession(WORKER, [mcp.url.href], {
    env: { XDG_CONFIG_HOME: config },
    timeoutMs: 90_000,
  });
  const report = workerJson<{ tools: string[]; store: string; loggedIn: boolean; keys: string[] }>(result);
  assert.deepEqual(report.tools, ['whoami']);
  assert.equal(report.loggedIn, true);
  assert.match(report.store, /Secret Service.*autos-mcp\/oauth\.kr-test/);
  assert.ok(
    report.keys.some((key) => key.startsWith('token ')),
    `a token record in the OS store: ${report.keys.join(', ')}`,
  );
  assert.ok(
    report.keys.some((key) => key.startsWith('server ')),
    'the endpoint binding too',
  );
  // Only lock files in the (temporary) config directory: no plaintext credential file.
  const files = readdirSync(path.join(config, 'autos-mcp'), { recursive: true }).map(String);
  assert.ok(
    files.every((file) => file === 'locks' || file.startsWith('locks')),
    files.join(', '),
  );
  const token = (mcp.tokensSeen.at(-1) ?? '').slice(0, 40);
  assert.ok(token.length > 20, 'the MCP server saw a token');
  assert.ok(!result.stdout.includes(token) && !result.stderr.includes(token), 'no token in the output');
});
