/**
 * `run: autos-mcp login <url>` follows a refusal only when the refusal is OAuth's (a Bearer or DPoP
 * challenge on a 401, or a 403 naming its resource metadata or asking for more scope), never any 401/403:
 * a Basic challenge, a bare 401 or a firewall's 403 get no login advice. The errors are the ones the client
 * builds from real HTTP answers of a local server.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, test } from 'node:test';
import { loginHint } from '../../src/cli/login-hint.js';
import { connect, isMcpError } from '../../src/index.js';
import { listenLocal } from '../helpers/http-server.js';

const servers: http.Server[] = [];
after(() => {
  for (const server of servers) server.close();
});

/** The error `connect()` rejects with when the endpoint answers every POST with `status` and `headers`. */
async function refusal(status: number, headers: Record<string, string>, body = '') {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, headers).end(body));
  });
  servers.push(server);
  const url = (await listenLocal(server)).href;
  try {
    await connect({ url });
  } catch (error) {
    assert.ok(isMcpError(error), String(error));
    return { error, url };
  }
  assert.fail('expected a refusal');
}

const LOGIN = /^run: autos-mcp login http:\/\/127\.0\.0\.1:\d+\/mcp\n$/;

test('a 401 with a Bearer challenge naming its resource metadata: the login line', async () => {
  const { error, url } = await refusal(401, {
    'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"',
  });
  assert.match(loginHint(error, url), LOGIN);
});

test('a 401 with a bare Bearer challenge (metadata found at its well-known address): the login line', async () => {
  const { error, url } = await refusal(401, { 'www-authenticate': 'Bearer realm="mcp"' });
  assert.match(loginHint(error, url), LOGIN);
});

test('a 403 asking for more scope (step-up): the login line', async () => {
  const { error, url } = await refusal(403, {
    'www-authenticate': 'Bearer error="insufficient_scope", scope="mcp:write"',
  });
  assert.match(loginHint(error, url), LOGIN);
});

test('a 401 with a Basic challenge: no login line, a line on passing a token', async () => {
  const { error, url } = await refusal(401, { 'www-authenticate': 'Basic realm="corp"' });
  assert.equal(error.kind, 'auth_required');
  const hint = loginHint(error, url);
  assert.doesNotMatch(hint, /autos-mcp login/);
  assert.match(hint, /--header 'Authorization: …' or AUTOS_MCP_TOKEN/);
});

test('a 401 without any challenge: no login line', async () => {
  const { error, url } = await refusal(401, { 'content-type': 'text/plain' }, 'API key missing');
  assert.doesNotMatch(loginHint(error, url), /autos-mcp login/);
  assert.match(error.message, /HTTP 401 authorization required: API key missing$/);
});

test("a firewall's 403 with a text body: no hint at all, and the body's words in the message", async () => {
  const { error, url } = await refusal(
    403,
    { 'content-type': 'text/plain' },
    'Forbidden: your address is not on the allow list\n',
  );
  assert.equal(error.kind, 'forbidden');
  assert.equal(loginHint(error, url), '');
  assert.match(error.message, /HTTP 403 forbidden: Forbidden: your address is not on the allow list$/);
});

test('a 403 with a Bearer challenge that is neither step-up nor metadata (a bad Origin): no login line', async () => {
  const { error, url } = await refusal(403, { 'www-authenticate': 'Bearer error="invalid_request"' });
  assert.equal(loginHint(error, url), '');
});
