/**
 * The human debug log: switched on by AUTOS_MCP_DEBUG or NODE_DEBUG=autos-mcp (and off, unloaded,
 * otherwise), one sanitized line per event through the real CLI binary against servers whose every
 * string is hostile, and no secret in it (env values, option values, a token, a header, a URL query).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { diagnosticsChannels } from '../../src/diagnostics/channels.js';
import { createDebugLog } from '../../src/diagnostics/debug-log.js';
import { debugLogState, debugWanted } from '../../src/diagnostics/publish.js';
import { type RunningServer, startDemoHttp } from '../client/http-servers.js';
import { builtBin } from '../helpers/built-package.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The CLI built from the sources as they are now (never a dist/ left by an older build). */
const BIN = await builtBin();
const HOSTILE = 'test/diagnostics/fixtures/hostile-debug.mjs';
const mint = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 12)}${Date.now() % 100000}Q`;

const ESC = /\x1b/;
const C1 = /[\u0080-\u009f]/;
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
const C0 = /[\x00-\x08\x0b-\x1f\x7f]/;
const LINE = /^AUTOS-MCP \d+: /;

/** The environment without any debug switch of the caller's. */
function quietEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { AUTOS_MCP_DEBUG: _a, NODE_DEBUG: _n, ...env } = process.env;
  return { ...env, ...extra };
}

function cli(args: string[], env: Record<string, string>) {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: quietEnv(env),
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const debugLines = (stderr: string) => stderr.split('\n').filter((line) => LINE.test(line));

function assertTerminalSafe(lines: string[]): void {
  for (const line of lines) {
    for (const [what, pattern] of [
      ['ESC', ESC],
      ['a C1 control', C1],
      ['a bidi control', BIDI],
      ['a C0 control or CR', C0],
    ] as const) {
      assert.doesNotMatch(line, pattern, `want no ${what} in the debug line, got ${JSON.stringify(line)}`);
    }
  }
}

before(() => {});

describe('the debug log switch', () => {
  test('AUTOS_MCP_DEBUG turns it on unless empty or 0; NODE_DEBUG as util.debuglog reads it', () => {
    const cases: [Record<string, string>, boolean][] = [
      [{}, false],
      [{ AUTOS_MCP_DEBUG: '1' }, true],
      [{ AUTOS_MCP_DEBUG: 'yes' }, true],
      [{ AUTOS_MCP_DEBUG: '0' }, false],
      [{ AUTOS_MCP_DEBUG: '' }, false],
      [{ NODE_DEBUG: 'autos-mcp' }, true],
      [{ NODE_DEBUG: 'http,AUTOS-MCP' }, true],
      [{ NODE_DEBUG: 'net autos-*' }, true],
      [{ NODE_DEBUG: '*' }, true],
      [{ NODE_DEBUG: 'autos' }, false],
      [{ NODE_DEBUG: 'autos-mcp-extra' }, false],
      [{ NODE_DEBUG: 'http' }, false],
    ];
    for (const [env, want] of cases) assert.equal(debugWanted(env), want, JSON.stringify(env));
  });

  test('off: the library subscribes to nothing and never loads the logger; on: it does, and writes lines', () => {
    const script = `
      import * as dc from 'node:diagnostics_channel';
      const { callToolOnce } = await import(${JSON.stringify(path.join(ROOT, 'src/index.ts'))});
      const { diagnosticsChannels } = await import(${JSON.stringify(path.join(ROOT, 'src/diagnostics/index.ts'))});
      const { debugLogState } = await import(${JSON.stringify(path.join(ROOT, 'src/diagnostics/publish.ts'))});
      const { demoServerCommand } = await import(${JSON.stringify(path.join(ROOT, 'src/cli/demo-server.ts'))});
      await callToolOnce(demoServerCommand(), 'echo', { text: 'x' });
      const subscribed = Object.values(diagnosticsChannels).filter((n) => dc.channel(n).hasSubscribers);
      console.log(JSON.stringify({ state: debugLogState(), subscribed: subscribed.length }));
    `;
    const run = (env: Record<string, string>) => {
      const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        env: quietEnv(env),
      });
      assert.equal(out.status, 0, out.stderr);
      return {
        ...(JSON.parse(out.stdout.trim()) as { state: string; subscribed: number }),
        stderr: out.stderr,
      };
    };
    // This process too: the state follows the switch it was started with.
    assert.equal(debugLogState() === 'off', !debugWanted(process.env));
    const off = run({});
    assert.deepEqual([off.state, off.subscribed], ['off', 0]);
    assert.equal(debugLines(off.stderr).length, 0, off.stderr);
    const on = run({ AUTOS_MCP_DEBUG: '1' });
    assert.deepEqual([on.state, on.subscribed], ['on', Object.keys(diagnosticsChannels).length]);
    assert.ok(
      debugLines(on.stderr).some((line) => line.includes('request:end #2 tools/call echo')),
      on.stderr,
    );
  });
});

describe('debug lines', () => {
  test('every server-controlled string in a line goes through the terminal sanitizer', () => {
    const evil = '\x1b]0;pwned title\x07\x1b[31mred\u009b2J rlo\u202eevil\u202c cr\rhidden\nnext';
    const written: string[] = [];
    const log = createDebugLog((line) => written.push(line));
    log(
      {
        connectionId: 'c-1',
        target: 't',
        transport: 'stdio',
        protocolVersion: '2025-11-25',
        durationMs: 3,
        serverName: evil,
        serverVersion: evil,
      },
      diagnosticsChannels.connectionReady,
    );
    log(
      {
        connectionId: 'c-1',
        requestId: 3,
        method: 'tools/call',
        tool: evil,
        durationMs: 1,
        error: { kind: 'rpc', delivery: 'delivered', message: evil },
      },
      diagnosticsChannels.requestError,
    );
    log({ connectionId: 'c-1', text: evil }, 'autos-mcp:note');
    assert.equal(written.length, 3);
    assertTerminalSafe(written);
    for (const line of written) {
      assert.ok(!line.includes('pwned title'), line);
      assert.match(line, /red/);
    }
  });
});

describe('the debug log through the CLI binary', () => {
  test('AUTOS_MCP_DEBUG=1: one sanitized line per event against a hostile server, no secret in any line', () => {
    const planted = mint('ek-');
    const argSecret = mint('ak-');
    const run = cli(
      [
        'call',
        'echo',
        '{"text":"hi"}',
        '--env',
        `PLANTED=${planted}`,
        '--',
        process.execPath,
        HOSTILE,
        '--leak',
        `--api-key=${argSecret}`,
      ],
      { AUTOS_MCP_DEBUG: '1' },
    );
    assert.equal(run.code, 3, run.stderr);
    const lines = debugLines(run.stderr);
    const events = lines.map((line) => line.replace(LINE, '').split(' ')[1]);
    for (const want of [
      'connection:open',
      'stdio:spawn',
      'connection:ready',
      'request:error',
      'note',
      'stdio:exit',
      'connection:close',
    ]) {
      assert.ok(events.includes(want), `want a ${want} line, got:\n${lines.join('\n')}`);
    }
    assertTerminalSafe(lines);
    const ready = lines.find((line) => line.includes('connection:ready')) ?? '';
    assert.match(ready, /server name: cleared red click/);
    assert.ok(!ready.includes('pwned title') && !ready.includes('http://evil'), ready);
    const joined = lines.join('\n');
    for (const secret of [planted, argSecret])
      assert.ok(!joined.includes(secret), `a debug line holds ${secret}`);
    assert.ok(!joined.includes('stderr:'), 'a debug line holds stderr text');
  });

  test('NODE_DEBUG=autos-mcp turns the same log on; without either, no debug line', () => {
    const args = ['call', 'echo', '{"text":"hi"}', '--', process.execPath, HOSTILE];
    const on = debugLines(cli(args, { NODE_DEBUG: 'autos-mcp' }).stderr);
    assert.ok(
      on.some((line) => line.includes('connection:ready')),
      on.join('\n'),
    );
    assert.deepEqual(debugLines(cli(args, {}).stderr), []);
  });

  describe('over HTTP', () => {
    let server: RunningServer;
    before(async () => {
      server = await startDemoHttp(true);
    });
    after(() => server.stop());

    test('a token, a header and a query-string secret reach no line; method, status and duration do', () => {
      const token = mint('sk-');
      const header = mint('hk-');
      const query = mint('qk-');
      const url = new URL(server.url);
      url.searchParams.set('key', query);
      const run = cli(['call', url.href, 'echo', '{"text":"hi"}', '--header', `X-Api-Key: ${header}`], {
        AUTOS_MCP_DEBUG: '1',
        AUTOS_MCP_TOKEN: token,
      });
      assert.equal(run.code, 0, run.stderr);
      const lines = debugLines(run.stderr);
      assert.ok(
        lines.some((line) =>
          / http:response POST tools\/call http:\/\/127\.0\.0\.1:\d+\/mcp -> 200 /.test(line),
        ),
        lines.join('\n'),
      );
      const all = `${run.stdout}\n${run.stderr}`;
      for (const secret of [token, header, query])
        assert.ok(!all.includes(secret), `the output holds ${secret}`);
    });
  });
});
