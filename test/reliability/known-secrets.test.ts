/**
 * Secrets the caller injected never come back: a server that echoes its environment, a header or its
 * bearer token into an error (message, data, HTTP body, stderr) gets none of those values shown —
 * as written, URL-encoded, JSON-escaped or base64 — by the library (`message`, `toJSON()`,
 * `stderrTail`, close report, diagnostics payloads), the CLI (text and `--json`) or the debug log, though
 * the values look like nothing the shape rules know. A tool result holding the value is returned as
 * sent; a value under 6 characters is not masked (docs/limits.md).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as dc from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { inspect } from 'node:util';
import { diagnosticsChannels } from '../../src/diagnostics/channels.js';
import { connect, isMcpError, type McpError } from '../../src/index.js';
import { createOAuth } from '../../src/oauth/index.js';
import { openSettings } from '../../src/settings/index.js';
import * as worker from '../../src/worker/index.js';
import { FIXTURES, fixture, ROOT, textOf } from '../client/helpers.js';
import { listenLocal, readBody } from '../helpers/http-server.js';

/** Values no shape rule masks (words, spaces, quotes, non-ASCII, `+`, `/`; no `key=`, under 32 characters). */
const ENV_VALUE = 'moonlit "orchard" ü+1/2';
const SETTING_VALUE = 'amber-harbor-willow-3';
const TOKEN = 'velvet-quiet-river-42';
const HEADER_VALUE = 'silver lantern orchard';
/** Under 6 characters: documented as not masked. */
const SHORT = 'ab1c2';

function formsOf(value: string): string[] {
  return [
    value,
    encodeURIComponent(value),
    JSON.stringify(value).slice(1, -1),
    Buffer.from(value).toString('base64').replace(/=+$/, ''),
  ];
}

function assertClean(where: string, text: string, values: string[]): void {
  for (const value of values) {
    for (const form of formsOf(value)) {
      assert.ok(!text.includes(form), `${where} shows ${JSON.stringify(form)}: ${text.slice(0, 3000)}`);
    }
  }
}

/** Every surface of an error a caller might log: message, toJSON, stderr tail, data and the cause chain. */
function errorSurfaces(error: McpError): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    parts.push(e.message);
  }
  parts.push(JSON.stringify(error.toJSON()), error.stderrTail ?? '', inspect(error, { depth: 8 }));
  parts.push(JSON.stringify(structuredClone(error.toJSON())));
  return parts.join('\n');
}

/** Every diagnostics payload published while `body` runs, as JSON. */
async function published(body: () => Promise<void>): Promise<string> {
  const seen: string[] = [];
  const listener = (message: unknown, name: string | symbol) => {
    seen.push(`${String(name)} ${JSON.stringify(message)}`);
  };
  for (const name of Object.values(diagnosticsChannels)) dc.subscribe(name, listener);
  try {
    await body();
  } finally {
    for (const name of Object.values(diagnosticsChannels)) dc.unsubscribe(name, listener);
  }
  return seen.join('\n');
}

const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => assert.fail('want a rejection'),
    (e: unknown) => e,
  );

describe('stdio: a server echoing its env values', () => {
  const config = fixture('echo-secret.mjs', [], { env: { BACKEND_KEY: ENV_VALUE, SHORT_KEY: SHORT } });

  it('a JSON-RPC error quoting them shows none in message, rpcMessage, data, toJSON or diagnostics', async () => {
    let error: unknown;
    const events = await published(async () => {
      const client = await connect(config);
      error = await rejection(client.callTool('fail', {}));
      await client.close();
    });
    assert.ok(isMcpError(error) && error.kind === 'rpc', `want an rpc error, got ${String(error)}`);
    assert.match(error.message, /backend refused key \[redacted\]/);
    assertClean('the error', errorSurfaces(error), [ENV_VALUE]);
    assert.deepEqual(Object.keys(error.data as object).sort(), [
      '[redacted]',
      'base64',
      'json',
      'key',
      'url',
    ]);
    assert.match(events, /request:error/, 'want the request:error event (else the test proves nothing)');
    assertClean('diagnostics payloads', events, [ENV_VALUE]);
    assert.ok(
      error.message.includes(`short key ${SHORT}`),
      `a 5-character value is not masked: ${error.message}`,
    );
  });

  it('stderr quoting them shows none in the error, its stderrTail or the close report', async () => {
    const client = await connect(config);
    const error = await rejection(client.callTool('crash', {}));
    assert.ok(isMcpError(error));
    assert.match(error.stderrTail ?? '', /backend refused key \[redacted\]/);
    assertClean('the error', errorSurfaces(error), [ENV_VALUE]);
    const report = await client.close();
    assert.match(report.process?.stderrTail ?? '', /backend refused key \[redacted\]/);
    assertClean('the close report', JSON.stringify(report), [ENV_VALUE]);
  });

  it('a value from envFrom settings is masked too', async () => {
    const settings = openSettings({ backend: 'memory' });
    await settings.save('backend', { env: { KEY: SETTING_VALUE } });
    const client = await connect(
      fixture('echo-secret.mjs', [], { envFrom: { BACKEND_KEY: { setting: 'backend', key: 'KEY' } } }),
      { settings },
    );
    const error = await rejection(client.callTool('fail', {}));
    await client.close();
    assert.ok(isMcpError(error));
    assert.match(error.message, /backend refused key \[redacted\]/);
    assertClean('the error', errorSurfaces(error), [SETTING_VALUE]);
  });

  it('through the worker thread: the error that crosses to the caller, and the status, show none', async () => {
    const id = await worker.open(config);
    try {
      const error = await rejection(worker.callTool(id, 'fail', {}));
      assert.ok(isMcpError(error) && error.kind === 'rpc', `want an rpc error, got ${String(error)}`);
      assert.match(error.message, /backend refused key \[redacted\]/);
      assertClean('the error from the worker', errorSurfaces(error), [ENV_VALUE]);
      assertClean('the worker status', JSON.stringify(await worker.status(id)), [ENV_VALUE]);
    } finally {
      await worker.close(id);
    }
  });

  it('a tool result holding the value is returned as sent', async () => {
    const client = await connect(config);
    const result = await client.callTool('leak', {});
    await client.close();
    assert.equal(textOf(result), `the key is ${ENV_VALUE}`);
  });
});

/**
 * An HTTP server that echoes what it was sent: 500 with a text body quoting the bearer token and the
 * X-Tenant header, 500 with a JSON-RPC error quoting them (message and data), or 401 with them in the
 * challenge's error_description.
 */
function echoing(mode: 'text' | 'rpc' | '401') {
  return (req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then(() => {
      const auth = String(req.headers['authorization'] ?? '').replace(/^Bearer /, '');
      const tenant = String(req.headers['x-tenant'] ?? '');
      const said = `backend refused key ${auth} for ${encodeURIComponent(tenant)} (${tenant})`;
      if (mode === 'text') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(said);
      } else if (mode === 'rpc') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: said, data: { auth } } }),
        );
      } else {
        res.writeHead(401, {
          'www-authenticate': `Bearer error="invalid_token", error_description="${said}"`,
        });
        res.end();
      }
    });
  };
}

const servers = new Map<string, { server: Server; url: string }>();
before(async () => {
  for (const mode of ['text', 'rpc', '401'] as const) {
    const server = createServer(echoing(mode));
    servers.set(mode, { server, url: (await listenLocal(server)).href });
  }
});
after(async () => {
  for (const { server } of servers.values()) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
const urlOf = (mode: string): string => (servers.get(mode) as { url: string }).url;

describe('HTTP: a server echoing the bearer token and a header value', () => {
  for (const mode of ['text', 'rpc', '401'] as const) {
    it(`${mode === '401' ? 'a 401 challenge' : `a 500 with a ${mode} body`} shows neither, anywhere in the error`, async () => {
      const error = await rejection(
        connect({
          url: urlOf(mode),
          authToken: TOKEN,
          headers: { 'X-Tenant': HEADER_VALUE },
          timeoutMs: 5000,
        }),
      );
      assert.ok(isMcpError(error), `want McpError, got ${String(error)}`);
      const surfaces = errorSurfaces(error);
      assert.match(
        surfaces,
        /backend refused key \[redacted\]/,
        'want the body quoted (else the test proves nothing)',
      );
      assertClean(`HTTP ${mode} error`, surfaces, [TOKEN, HEADER_VALUE]);
    });
  }
});

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'src/cli/bin.ts'), ...args],
      { cwd: ROOT, env: { ...process.env, ...env, AUTOS_MCP_DEBUG: '1' }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = typeof error?.code === 'number' ? error.code : 0;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

describe('the CLI (text, --json) and its debug log', () => {
  for (const json of [false, true]) {
    for (const tool of ['fail', 'crash']) {
      it(`call ${tool}${json ? ' --json' : ''} against a stdio server echoing --env values prints none`, async () => {
        const { code, output } = await runCli(
          [
            'call',
            ...(json ? ['--json'] : []),
            tool,
            '{}',
            '--env',
            `BACKEND_KEY=${ENV_VALUE}`,
            '--',
            process.execPath,
            path.join(FIXTURES, 'echo-secret.mjs'),
          ],
          {},
        );
        assert.notEqual(code, 0, output.slice(0, 500));
        assert.match(output, /AUTOS-MCP \d+:/, 'want the debug log (else the test proves nothing)');
        assert.match(
          output,
          /backend refused key \[redacted\]/,
          'want the server text shown (else the test proves nothing)',
        );
        assertClean(`CLI output (${tool})`, output, [ENV_VALUE]);
      });
    }
    it(`call${json ? ' --json' : ''} against an HTTP server echoing the token and a --header value prints neither`, async () => {
      const { code, output } = await runCli(
        [
          'call',
          ...(json ? ['--json'] : []),
          '--header',
          `X-Tenant: ${HEADER_VALUE}`,
          urlOf('text'),
          'echo',
          '{}',
        ],
        { AUTOS_MCP_TOKEN: TOKEN },
      );
      assert.notEqual(code, 0, output.slice(0, 500));
      assert.match(output, /AUTOS-MCP \d+:/, 'want the debug log (else the test proves nothing)');
      assert.match(
        output,
        /backend refused key \[redacted\]/,
        'want the server text shown (else the test proves nothing)',
      );
      assertClean('CLI output (HTTP)', output, [TOKEN, HEADER_VALUE]);
    });
  }
});

describe('HTTP: what an authorizer hands out', () => {
  it('the access tokens it sends (before and after a refresh) and the values of its secrets() are masked', async () => {
    const FIRST = 'first-access-orchard';
    const SECOND = 'second-access-harbor';
    const REFRESH = 'refresh-willow-lantern';
    let sent = FIRST;
    const server = createServer((req, res) => {
      void readBody(req).then(() => {
        const auth = String(req.headers['authorization'] ?? '');
        if (auth === `Bearer ${FIRST}`) {
          res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' });
          res.end();
          return;
        }
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`backend refused key ${auth.slice(7)} after ${FIRST}; refresh with ${REFRESH}`);
      });
    });
    const url = (await listenLocal(server)).href;
    try {
      const error = await rejection(
        connect(
          { url, timeoutMs: 5000 },
          {
            auth: {
              authorization: () => `Bearer ${sent}`,
              refused: () => {
                sent = SECOND;
                return true;
              },
              secrets: () => [REFRESH],
            },
          },
        ),
      );
      assert.ok(isMcpError(error), `want McpError, got ${String(error)}`);
      const surfaces = errorSurfaces(error);
      assert.match(
        surfaces,
        /backend refused key \[redacted\] after \[redacted\]; refresh with \[redacted\]/,
      );
      assertClean('the error', surfaces, [FIRST, SECOND, REFRESH]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('HTTP: the OAuth authorizer', () => {
  it('its client secret and the access and refresh tokens it got are masked in the server text', async () => {
    const CLIENT_SECRET = 'plain client words 99';
    const ACCESS = 'orchard-access-value-77';
    const REFRESH = 'harbor-refresh-value-88';
    let origin = '';
    const json = (res: ServerResponse, status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    // One server plays the MCP server (401 until it gets a token, then a 500 echoing what it knows), its
    // Protected Resource Metadata, and the authorization server's metadata and token endpoint.
    const server = createServer((req, res) => {
      void readBody(req).then(() => {
        const auth = String(req.headers['authorization'] ?? '');
        if (req.url === '/.well-known/oauth-protected-resource/mcp') {
          json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
        } else if (req.url === '/.well-known/oauth-authorization-server') {
          json(res, 200, {
            issuer: origin,
            token_endpoint: `${origin}/token`,
            grant_types_supported: ['client_credentials'],
            token_endpoint_auth_methods_supported: ['client_secret_post'],
          });
        } else if (req.url === '/token') {
          json(res, 200, {
            access_token: ACCESS,
            token_type: 'Bearer',
            expires_in: 3600,
            refresh_token: REFRESH,
          });
        } else if (auth === '') {
          res.writeHead(401, {
            'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
          });
          res.end();
        } else {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(
            `backend refused key ${auth.slice(7)} (client secret ${CLIENT_SECRET}, refresh ${REFRESH})`,
          );
        }
      });
    });
    origin = (await listenLocal(server)).origin;
    try {
      const auth = createOAuth({
        url: `${origin}/mcp`,
        clientId: 'service',
        clientSecret: CLIENT_SECRET,
        grant: 'client_credentials',
      });
      const error = await rejection(connect({ url: `${origin}/mcp`, timeoutMs: 5000 }, { auth }));
      assert.ok(isMcpError(error), `want McpError, got ${String(error)}`);
      const surfaces = errorSurfaces(error);
      assert.match(
        surfaces,
        /backend refused key \[redacted\] \(client secret \[redacted\], refresh \[redacted\]\)/,
      );
      assertClean('the error', surfaces, [ACCESS, CLIENT_SECRET, REFRESH]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
