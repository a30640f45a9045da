/**
 * Secrets never leak: a secret planted in the parent environment, in an HTTP `authToken`, in a user
 * header and in server stderr must not appear in any error message, `toJSON()`, close report, CLI output
 * or `NODE_DEBUG=autos-mcp` debug log — even when a hostile server echoes it back.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { inspect } from 'node:util';
import { connect, isMcpError, type McpError } from '../../src/index.js';
import { FIXTURES, fixture, ROOT } from '../client/helpers.js';
import { listenLocal, readBody } from '../helpers/http-server.js';
import { must } from '../helpers/must.js';
import { trapEscapes } from './helpers.js';

trapEscapes();

/** Realistic API-key-shaped secrets, short enough (< 32 chars) that only the credential rules can mask them. */
const mint = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 12)}${Date.now() % 100000}Q`;
const PARENT_SECRET = mint('pk-');
const TOKEN = mint('sk-');
const HEADER_SECRET = mint('hk-');
const STDERR_SECRET = mint('ek-');
const ALL = [PARENT_SECRET, TOKEN, HEADER_SECRET, STDERR_SECRET];

function assertClean(where: string, text: string): void {
  for (const secret of ALL) {
    assert.ok(!text.includes(secret), `${where} leaks ${secret}: ${text.slice(0, 2000)}`);
  }
}

/** Every surface of an error a caller might log: message, toJSON, stderr tail and the whole cause chain. */
function errorSurfaces(error: McpError): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    parts.push(e.message);
  }
  parts.push(JSON.stringify(error.toJSON()), error.stderrTail ?? '', inspect(error, { depth: 6 }));
  return parts.join('\n');
}

/**
 * A hostile HTTP server that echoes credentials back: 401 with the token in the challenge's
 * error_description, or 500 with a JSON-RPC error whose message quotes the Authorization and X-Api-Key headers.
 */
function hostileHttp(mode: '401' | '500') {
  return (req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then(() => {
      const auth = String(req.headers['authorization'] ?? '');
      const key = String(req.headers['x-api-key'] ?? '');
      if (mode === '401') {
        res.writeHead(401, {
          'www-authenticate': `Bearer error="invalid_token", error_description="Authorization: ${auth}"`,
          'content-type': 'text/plain',
        });
        res.end(`bad credentials: Authorization: ${auth}; X-Api-Key: ${key}`);
        return;
      }
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          error: { code: -32603, message: `upstream refused Authorization: ${auth} with X-Api-Key: ${key}` },
        }),
      );
    });
  };
}

/**
 * Known leaks, each with its reason: a listed case still runs and shows as TODO until fixed. None today;
 * keep the list empty.
 */
const KNOWN_LEAK: Record<string, string> = {};
const todo = (key: string) => (KNOWN_LEAK[key] ? { todo: KNOWN_LEAK[key] } : {});

const servers: Record<string, { server: Server; url: string }> = {};
before(async () => {
  process.env['AUTOS_RELIABILITY_PARENT_VALUE'] = PARENT_SECRET;
  for (const mode of ['401', '500'] as const) {
    const server = createServer(hostileHttp(mode));
    servers[mode] = { server, url: (await listenLocal(server)).href };
  }
});
after(async () => {
  delete process.env['AUTOS_RELIABILITY_PARENT_VALUE'];
  for (const { server } of Object.values(servers)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('secrets in errors and reports', () => {
  it('stdio: parent env and secrets in server stderr leak into no error, toJSON or close report', async () => {
    const client = await connect(fixture('secret-stderr.mjs', [], { env: { PLANTED: STDERR_SECRET } }));
    const error = await client.callTool('echo', { text: 'x' }).then(
      () => assert.fail('want a rejection'),
      (e: unknown) => e,
    );
    assert.ok(isMcpError(error));
    assert.ok(
      error.stderrTail?.includes('environment:'),
      'want the stderr tail captured (else the test proves nothing)',
    );
    assertClean('stdio error', errorSurfaces(error));
    const report = await client.close();
    assert.equal(report.process?.activeProcesses, 0);
    assertClean('close report', JSON.stringify(report));
  });

  for (const mode of ['401', '500'] as const) {
    it(
      `HTTP ${mode} echoing the token and a user header: neither leaks into the error or toJSON`,
      todo(`lib ${mode}`),
      async () => {
        const error = await connect({
          url: must(servers[mode], `the HTTP ${mode} server`).url,
          authToken: TOKEN,
          headers: { 'X-Api-Key': HEADER_SECRET },
          timeoutMs: 5000,
        }).then(
          () => assert.fail('want a rejection'),
          (e: unknown) => e,
        );
        assert.ok(isMcpError(error), `want McpError, got ${String(error)}`);
        assertClean(`HTTP ${mode} error`, errorSurfaces(error));
      },
    );
  }
});

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'src/cli/bin.ts'), ...args],
      { cwd: ROOT, env: { ...process.env, ...env, NODE_DEBUG: 'autos-mcp' }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = typeof error?.code === 'number' ? error.code : 0;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

describe('secrets in CLI output and NODE_DEBUG=autos-mcp logs', () => {
  for (const mode of ['401', '500'] as const) {
    for (const json of [false, true]) {
      it(
        `autos-mcp call against an HTTP ${mode}${json ? ' with --json' : ''} prints neither the token nor the header`,
        todo(`cli ${mode} ${json ? 'json' : 'text'}`),
        async () => {
          const { code, output } = await runCli(
            [
              'call',
              ...(json ? ['--json'] : []),
              '--header',
              `X-Api-Key: ${HEADER_SECRET}`,
              must(servers[mode], `the HTTP ${mode} server`).url,
              'echo',
              '{"text":"x"}',
            ],
            { AUTOS_MCP_TOKEN: TOKEN },
          );
          assert.equal(code, 3, `want exit code 3, got ${code}: ${output.slice(0, 500)}`);
          assert.match(output, /AUTOS-MCP \d+:/, 'want debuglog output (else the test proves nothing)');
          assertClean(`CLI output (${mode})`, output);
        },
      );
    }
  }

  it('autos-mcp call against a stdio server leaking secrets on stderr prints none of them', async () => {
    const { code, output } = await runCli(
      [
        'call',
        'echo',
        '{"text":"x"}',
        '--env',
        `PLANTED=${STDERR_SECRET}`,
        '--',
        process.execPath,
        path.join(FIXTURES, 'secret-stderr.mjs'),
      ],
      { AUTOS_RELIABILITY_PARENT_VALUE: PARENT_SECRET },
    );
    assert.equal(code, 3, `want exit code 3, got ${code}: ${output.slice(0, 500)}`);
    assert.match(output, /environment:/, 'want the server stderr shown (else the test proves nothing)');
    assertClean('CLI output (stdio)', output);
  });
});
