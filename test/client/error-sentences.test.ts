/**
 * One honest sentence per error: no delivery note inside messages (`delivery` is the one note, so a
 * wrapped or re-thrown error never gets a second one), the server named by what the user typed, an HTTP
 * error quoting the server's own message from its body (sanitized, bounded, redacted), and the method
 * that failed named — a failing `tools/call` is not reported as `tools/list`.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, describe, test } from 'node:test';
import { normalizeConfig } from '../../src/config/index.js';
import { type AnyMcpError, callToolOnce, connect, isMcpError } from '../../src/index.js';
import { listenLocal, readBody } from '../helpers/http-server.js';
import { fixture } from './helpers.js';

/** What a delivery note looks like; none may appear inside a message. */
const DELIVERY_NOTE = /not sent|was sent|may have run/i;

async function failure(promise: Promise<unknown>): Promise<AnyMcpError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isMcpError(error), `not an McpError: ${String(error)}`);
    return error;
  }
  assert.fail('expected a rejection');
}

type Answer = (method: string, id: unknown, res: http.ServerResponse) => void;

const servers: http.Server[] = [];
after(() => {
  for (const server of servers) server.close();
});

/** A Streamable HTTP endpoint that answers each request with `answer` (notifications get 202). */
async function endpoint(answer: Answer): Promise<string> {
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    const message = body === '' ? {} : (JSON.parse(body) as { method?: string; id?: unknown });
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    answer(message.method ?? '', message.id, res);
  });
  servers.push(server);
  const url = await listenLocal(server);
  return `${url.href}?key=query-secret-123`;
}

function result(id: unknown, res: http.ServerResponse, value: unknown): void {
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id, result: value }));
}

const INITIALIZED = {
  protocolVersion: '2025-11-25',
  capabilities: { tools: {} },
  serverInfo: { name: 's', version: '1' },
};
const TOOLS = { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };

/** A 2025 endpoint whose tools/call gets `status` with `body` (and `headers`). */
function failingCall(
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<string> {
  return endpoint((method, id, res) => {
    if (method === 'initialize') result(id, res, INITIALIZED);
    else res.writeHead(status, { 'content-type': contentType, ...headers }).end(body);
  });
}

describe('the server named by what the user typed', () => {
  const target = (config: Parameters<typeof normalizeConfig>[0]) => normalizeConfig(config).target;

  test('program and script, not `stdio server "node"`', () => {
    assert.equal(
      target({ command: '/usr/bin/node', args: ['--no-warnings', '/srv/crash-server.mjs', '--token', 'x'] }),
      'node crash-server.mjs',
    );
    assert.equal(
      target({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] }),
      'npx server-filesystem',
    );
    assert.equal(target({ command: 'python', args: ['-m', 'my_server'] }), 'python my_server');
    assert.equal(
      target({ command: 'C:\\Tools\\uvx.exe', args: ['mcp-server-git'] }),
      'uvx.exe mcp-server-git',
    );
    assert.equal(target({ command: 'node' }), 'node');
  });

  test('never an env value, an option value, code, or a URL query or userinfo', () => {
    assert.equal(target({ command: 'env', args: ['API_KEY=sk-live-secret', 'node', 's.mjs'] }), 'env node');
    assert.equal(target({ command: 'node', args: ['--key=sk-live-secret', 's.mjs'] }), 'node s.mjs');
    assert.equal(target({ command: 'node', args: ['-e', 'console.log("sk-live-secret")'] }), 'node');
    assert.equal(
      target({ command: 'mcp-remote', args: ['https://user:pw@host.example/sse?key=sk-live-secret'] }),
      'mcp-remote host.example/sse',
    );
    assert.equal(target({ url: 'https://host.example/mcp?key=secret' }), 'https://host.example/mcp');
  });

  test('bounded and free of control characters', () => {
    const long = target({ command: 'node', args: [`${'a'.repeat(200)}.mjs`] });
    assert.ok(long.length <= 'node '.length + 48, long);
    assert.ok(long.endsWith('…'));
    assert.equal(target({ command: 'no\u001b[31mde\u202e', args: [] }), 'node');
  });
});

describe('one delivery note, describing the operation asked for', () => {
  test('a timeout says what happened; delivery says it was sent', async () => {
    const client = await connect(fixture('hang.mjs', ['2000']));
    try {
      const error = await failure(client.callTool('echo', {}, { timeoutMs: 150 }));
      assert.equal(error.kind, 'timeout');
      assert.equal(error.delivery, 'unknown');
      assert.equal(error.message, 'tools/call on node hang.mjs: no answer within 150 ms');
    } finally {
      await client.close();
    }
  });

  test('a refused connection: the one-shot call is not_sent and no note is inside the message', async () => {
    const error = await failure(callToolOnce({ url: 'http://127.0.0.1:1/mcp?key=query-secret-123' }, 'echo'));
    assert.equal(error.kind, 'transport');
    assert.equal(error.delivery, 'not_sent');
    assert.equal(
      error.message,
      'tools/call echo: connecting failed: POST initialize to http://127.0.0.1:1/mcp: connection refused (ECONNREFUSED)',
    );
    const cause = error.cause as AnyMcpError;
    assert.equal(cause.delivery, 'not_sent', "the step's own delivery stays on cause");
  });

  test('a call on a closed client', async () => {
    const client = await connect(fixture('echo-server.mjs'));
    await client.close();
    const error = await failure(client.callTool('echo', {}));
    assert.equal(error.delivery, 'not_sent');
    assert.equal(error.message, 'tools/call on node echo-server.mjs: the connection is already closed');
  });

  test('a 503 from a gateway: delivery unknown, still no note in the text', async () => {
    const url = await failingCall(503, 'text/plain', 'upstream unavailable');
    const client = await connect({ url });
    try {
      const error = await failure(client.callTool('echo', {}));
      assert.equal(error.delivery, 'unknown');
      assert.doesNotMatch(error.message, DELIVERY_NOTE);
    } finally {
      await client.close();
    }
  });
});

describe("an HTTP error quotes the server's own message", () => {
  const cases: Array<[string, number, string, string, string]> = [
    [
      'JSON error.message',
      500,
      'application/json',
      '{"error":{"message":"database is down"}}',
      ': HTTP 500: database is down',
    ],
    [
      'JSON error string + error_description',
      400,
      'application/json',
      '{"error":"invalid_request","error_description":"x is required"}',
      ': HTTP 400: invalid_request: x is required',
    ],
    ['JSON message', 500, 'application/json', '{"message":"boom"}', ': HTTP 500: boom'],
    [
      'the first line of text',
      400,
      'text/plain',
      '\n  bad request: argument x\nsecond line',
      ': HTTP 400: bad request: argument x',
    ],
    [
      'a JSON-RPC error without an id',
      400,
      'application/json',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no session"}}',
      ': HTTP 400: JSON-RPC error -32600: no session',
    ],
    ['HTML is not quoted', 500, 'text/html', '<html><body>oops</body></html>', ': HTTP 500'],
  ];
  for (const [name, status, type, body, expected] of cases) {
    test(name, async () => {
      const url = await failingCall(status, type, body);
      const client = await connect({ url });
      try {
        const error = await failure(client.callTool('echo', {}));
        assert.equal(error.kind, 'transport');
        assert.equal(error.status, status);
        assert.ok(error.message.startsWith('POST tools/call to http://127.0.0.1:'), error.message);
        assert.ok(error.message.endsWith(expected), error.message);
        assert.ok(!error.message.includes('query-secret'), 'never the query');
      } finally {
        await client.close();
      }
    });
  }

  const refusals: Array<[string, number, string, string, Record<string, string>, string]> = [
    [
      'a 403 with a text body: its first line',
      403,
      'text/plain',
      'Forbidden: 203.0.113.7 is not on the allow list\nrequest id 42',
      {},
      ': HTTP 403 forbidden: Forbidden: 203.0.113.7 is not on the allow list',
    ],
    [
      "a 403 from a proxy's HTML page: its title",
      403,
      'text/html',
      '<!DOCTYPE html>\n<html><head><TITLE>Access denied &amp; logged</TITLE></head><body>…</body></html>',
      {},
      ': HTTP 403 forbidden: Access denied & logged',
    ],
    [
      'a 401 with a JSON body: its words, without the repeated challenge code',
      401,
      'application/json',
      '{"error":"invalid_token","error_description":"the token expired"}',
      { 'www-authenticate': 'Bearer error="invalid_token"' },
      ': HTTP 401 authorization required (invalid_token): the token expired',
    ],
    [
      'a 401 whose body only repeats the challenge: nothing more',
      401,
      'application/json',
      '{"error":"invalid_token"}',
      { 'www-authenticate': 'Bearer error="invalid_token"' },
      ': HTTP 401 authorization required (invalid_token)',
    ],
  ];
  for (const [name, status, type, body, headers, expected] of refusals) {
    test(name, async () => {
      const url = await failingCall(status, type, body, headers);
      const client = await connect({ url });
      try {
        const error = await failure(client.callTool('echo', {}));
        assert.equal(error.kind, status === 401 ? 'auth_required' : 'forbidden');
        assert.equal(error.status, status);
        assert.ok(error.message.endsWith(expected), error.message);
        // What the body said is a field as well as words: code reads `detail`, never the message.
        if (/\): |forbidden: /.test(expected)) assert.ok(error.message.endsWith(`: ${error.detail}`));
        else assert.equal(error.detail, undefined);
      } finally {
        await client.close();
      }
    });
  }

  test('sanitized (escape sequences, controls, bidi), redacted and cut to 300 characters', async () => {
    const said = `\u001b]8;;http://evil\u0007click\u001b[31m red\u202e\u0085 token=sk-live-0123456789abcdef ${'x'.repeat(1000)}`;
    const url = await failingCall(500, 'application/json', JSON.stringify({ error: said }));
    const client = await connect({ url });
    try {
      const error = await failure(client.callTool('echo', {}));
      const quoted = error.message.slice(error.message.indexOf('HTTP 500: ') + 'HTTP 500: '.length);
      assert.ok(quoted.startsWith('click red'), quoted.slice(0, 40));
      assert.doesNotMatch(quoted, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      assert.ok(
        !quoted.includes('evil') && !quoted.includes('sk-live-0123456789abcdef'),
        quoted.slice(0, 80),
      );
      assert.ok(quoted.length <= 301 && quoted.endsWith('…'), `${quoted.length}`);
      assert.equal(error.detail, quoted, "the quoted words are the error's detail");
    } finally {
      await client.close();
    }
  });

  test('an HTML page of unclosed <title tags is not quoted (found with indexOf: linear)', async () => {
    const url = await failingCall(500, 'text/html', `<html>${'<title'.repeat(12_000)}`);
    const client = await connect({ url });
    try {
      const error = await failure(client.callTool('echo', {}));
      assert.ok(error.message.endsWith(': HTTP 500'), error.message);
    } finally {
      await client.close();
    }
  });

  test('a huge error body is not read past the bound and not quoted', async () => {
    const url = await failingCall(500, 'text/plain', `first line\n${'y'.repeat(200_000)}`);
    const client = await connect({ url });
    try {
      const error = await failure(client.callTool('echo', {}));
      assert.ok(error.message.endsWith(': HTTP 500'), error.message);
    } finally {
      await client.close();
    }
  });
});

describe('the method that failed is named', () => {
  test('2026: a failing tools/call is reported as tools/call, not as the tools/list before it', async () => {
    const url = await endpoint((method, id, res) => {
      if (method === 'tools/list') result(id, res, TOOLS);
      else res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"call exploded"}');
    });
    const error = await failure(callToolOnce({ url, protocolVersion: '2026-07-28' }, 'echo'));
    assert.match(
      error.message,
      /^POST tools\/call to http:\/\/127\.0\.0\.1:\d+\/mcp: HTTP 500: call exploded$/,
    );
    assert.equal(error.delivery, 'delivered');
  });

  test('2026: a failing implicit tools/list is the call, not_sent, with the list as the step', async () => {
    const url = await endpoint((_method, _id, res) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"list exploded"}');
    });
    const error = await failure(callToolOnce({ url, protocolVersion: '2026-07-28' }, 'echo'));
    assert.equal(error.delivery, 'not_sent');
    assert.match(
      error.message,
      /^tools\/call echo: the tools\/list it needs first failed: POST tools\/list to http:\/\/127\.0\.0\.1:\d+\/mcp: HTTP 500: list exploded$/,
    );
    assert.equal((error.cause as AnyMcpError).delivery, 'delivered');
  });

  test('2026: a caller cancelling while the shared tools/list runs gets its own cancel', async () => {
    let answerList: (() => void) | undefined;
    const url = await endpoint((method, id, res) => {
      if (method === 'tools/list') answerList = () => result(id, res, TOOLS);
      else result(id, res, { content: [{ type: 'text', text: 'ok' }] });
    });
    const client = await connect({ url, protocolVersion: '2026-07-28' });
    try {
      const controller = new AbortController();
      const first = client.callTool('echo', {}, { signal: controller.signal });
      const second = client.callTool('echo', {});
      await new Promise((resolve) => setTimeout(resolve, 100));
      controller.abort();
      const error = await failure(first);
      assert.equal(error.kind, 'cancelled');
      assert.equal(error.delivery, 'not_sent');
      assert.match(
        error.message,
        /^tools\/call echo on .*: cancelled by the caller while the tools\/list it needs first was running$/,
      );
      answerList?.();
      const outcome = await second;
      assert.equal(outcome.isError, undefined, 'the other caller is not cancelled by the first one');
    } finally {
      await client.close();
    }
  });
});
