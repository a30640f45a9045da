/**
 * The authorization seam over real `node:http` servers: an `Authorizer` is asked before every request,
 * told about each 401/403 with the parsed challenge, and may have that one request sent once more; an
 * injected undici dispatcher carries the requests and is left open on close.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Agent, type Dispatcher } from 'undici';
import { connect, isMcpError, McpError } from '../../../src/index.js';
import type { Authorizer, AuthRefusal } from '../../../src/transport/index.js';
import { must } from '../../helpers/must.js';
import { json, type Recorded, result, serversClosedAfter } from './test-server.js';

const server = serversClosedAfter();

/** A 2025-11-25 server over JSON that accepts only the tokens in `accepted`, else answers 401 with a challenge. */
function guarded(
  accepted: Set<string>,
  challenge = 'Bearer resource_metadata="https://as.example/prm", scope="read"',
) {
  return server((req: Recorded, res) => {
    const auth = req.headers['authorization'];
    if (typeof auth !== 'string' || !accepted.has(auth)) {
      res.writeHead(401, { 'www-authenticate': challenge });
      res.end();
      return;
    }
    if (req.method === 'DELETE' || req.json?.['id'] === undefined) {
      res.writeHead(202);
      res.end();
      return;
    }
    const method = req.json['method'];
    if (method === 'initialize') {
      json(
        res,
        200,
        result(req.json['id'], {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'g', version: '1' },
        }),
        { 'mcp-session-id': 's-1' },
      );
      return;
    }
    json(res, 200, result(req.json['id'], { tools: [] }));
  });
}

describe('Authorizer', () => {
  it('is asked before every request, asynchronously, and its value is what the server sees', async () => {
    let n = 0;
    const accepted = new Set(['Bearer t1', 'Bearer t2', 'Bearer t3', 'Bearer t4']);
    const s = await guarded(accepted);
    const auth: Authorizer = {
      authorization: async ({ method, url }) => {
        assert.equal(url.pathname, '/mcp');
        assert.ok(['POST', 'GET', 'DELETE'].includes(method));
        return `Bearer t${++n}`;
      },
    };
    const client = await connect({ url: s.url.href }, { auth });
    await client.listTools();
    await client.close();
    const seen = s.requests.map((r) => [r.method, r.json?.['method'] ?? '', r.headers['authorization']]);
    assert.deepEqual(seen, [
      ['POST', 'initialize', 'Bearer t1'],
      ['POST', 'notifications/initialized', 'Bearer t2'],
      ['POST', 'tools/list', 'Bearer t3'],
      ['DELETE', '', 'Bearer t4'],
    ]);
  });

  it('a 401 is told to refused() with the parsed challenge; true sends that request once more', async () => {
    const accepted = new Set<string>();
    const s = await guarded(accepted);
    let token = 'Bearer old';
    const refusals: AuthRefusal[] = [];
    const auth: Authorizer = {
      authorization: () => token,
      refused: (refusal) => {
        refusals.push(refusal);
        token = 'Bearer fresh';
        accepted.add(token);
        return true;
      },
    };
    const client = await connect({ url: s.url.href }, { auth });
    await client.close();
    assert.equal(refusals.length, 1);
    const refusal = must(refusals[0], 'the refusal');
    assert.equal(refusal.status, 401);
    assert.equal(refusal.method, 'POST');
    assert.equal(refusal.authorization, 'Bearer old');
    assert.equal(refusal.challenge?.scheme.toLowerCase(), 'bearer');
    assert.equal(refusal.challenge?.resourceMetadata, 'https://as.example/prm');
    assert.equal(refusal.challenge?.scope, 'read');
    const inits = s.requests.filter((r) => r.json?.['method'] === 'initialize');
    assert.deepEqual(
      inits.map((r) => r.headers['authorization']),
      ['Bearer old', 'Bearer fresh'],
      'refused once, sent once more with the new value',
    );
  });

  it('one resend at most: a second 401 is an auth_required error with the challenge', async () => {
    const s = await guarded(new Set());
    let told = 0;
    const client = await connect(
      { url: s.url.href },
      { auth: { authorization: () => 'Bearer never', refused: () => ++told > 0 } },
    ).catch((e: unknown) => e);
    assert.ok(isMcpError(client), `want an error, got ${String(client)}`);
    assert.equal(client.kind, 'auth_required');
    assert.equal(client.status, 401);
    assert.equal(client.challenge?.resourceMetadata, 'https://as.example/prm');
    assert.doesNotMatch(client.message, /never/, 'no token in the message');
    assert.equal(told, 1);
    assert.equal(s.requests.length, 2);
  });

  it('a 403 with insufficient_scope is told as 403; false lets it through as forbidden', async () => {
    const statuses: number[] = [];
    const fixed = server((_req, res) => {
      res.writeHead(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="write"' });
      res.end();
    });
    const target = await fixed;
    const error = await connect(
      { url: target.url.href },
      { auth: { authorization: () => 'Bearer x', refused: (r) => void statuses.push(r.status) } },
    ).catch((e: unknown) => e);
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'forbidden');
    assert.equal(error.challenge?.scope, 'write');
    assert.deepEqual(statuses, [403]);
    assert.equal(target.requests.length, 1, 'no resend when refused() did not ask for one');
  });

  it('an authorizer that throws fails the request as not_sent, and nothing reaches the server', async () => {
    const s = await guarded(new Set(['Bearer ok']));
    const error = await connect(
      { url: s.url.href },
      {
        auth: {
          authorization: () => {
            throw new Error('token store locked: Bearer leaked-secret-value');
          },
        },
      },
    ).catch((e: unknown) => e);
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'auth_required');
    assert.equal(error.delivery, 'not_sent');
    assert.equal(s.requests.length, 0);
    assert.doesNotMatch(JSON.stringify(error.toJSON()), /leaked-secret-value/);
  });

  it('authToken in the config and an authorizer in options are refused together', async () => {
    const s = await guarded(new Set());
    const error = await connect(
      { url: s.url.href, authToken: 'abc' },
      { auth: { authorization: () => undefined } },
    ).catch((e: unknown) => e);
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'config');
    assert.equal(s.requests.length, 0);
  });
});

describe('Authorizer companions and errors', () => {
  it('companion headers go with that one request; a managed header cannot be replaced', async () => {
    const s = await guarded(new Set(['DPoP t']));
    let n = 0;
    const auth: Authorizer = {
      authorization: () => ({
        authorization: 'DPoP t',
        headers: { DPoP: `proof-${++n}`, 'Mcp-Session-Id': 'forged', accept: 'text/html' },
      }),
    };
    const client = await connect({ url: s.url.href }, { auth });
    await client.listTools();
    await client.close();
    const proofs = s.requests.map((r) => r.headers['dpop']);
    assert.deepEqual(
      proofs,
      s.requests.map((_r, i) => `proof-${i + 1}`),
    );
    const first = must(s.requests[0], 'the initialize request');
    assert.equal(first.headers['mcp-session-id'], undefined, 'no session id before the server gave one');
    assert.equal(first.headers['accept'], 'application/json, text/event-stream');
    assert.equal(must(s.requests[1], 'a later request').headers['mcp-session-id'], 's-1');
  });

  it('refused() is told the DPoP-Nonce; a thrown McpError reaches the caller as it is', async () => {
    const s = await server((_req, res) => {
      res.writeHead(401, { 'www-authenticate': 'DPoP error="use_dpop_nonce"', 'dpop-nonce': 'n-42' });
      res.end();
    });
    const nonces: Array<string | undefined> = [];
    const auth: Authorizer = {
      authorization: () => 'DPoP t',
      refused: (refusal) => {
        nonces.push(refusal.dpopNonce);
        throw new McpError('auth_required', 'log in again, please');
      },
    };
    const error = await connect({ url: s.url.href }, { auth }).catch((e: unknown) => e);
    assert.ok(isMcpError(error));
    assert.equal(error.message, 'log in again, please');
    assert.deepEqual(nonces, ['n-42']);
  });
});

describe('injected dispatcher', () => {
  it('carries every request and stays open after close()', async () => {
    const s = await guarded(new Set(['Bearer d']));
    const agent = new Agent();
    let dispatched = 0;
    const counting = agent.compose((dispatch) => (options: Dispatcher.DispatchOptions, handler) => {
      dispatched++;
      return dispatch(options, handler);
    });
    const client = await connect({ url: s.url.href, authToken: 'd' }, { dispatcher: counting });
    await client.listTools();
    await client.close();
    assert.equal(dispatched, s.requests.length, 'every request went through the given dispatcher');
    assert.ok(dispatched >= 3);
    assert.equal(agent.destroyed, false, 'the caller owns the dispatcher');
    assert.equal(agent.closed, false);
    await agent.close();
  });

  it('cannot be combined with proxy or ca in the config', async () => {
    const error = await connect(
      { url: 'http://127.0.0.1:9/mcp', proxy: 'http://127.0.0.1:8080' },
      { dispatcher: new Agent() },
    ).catch((e: unknown) => e);
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'config');
    assert.match(error.message, /dispatcher/);
  });
});
