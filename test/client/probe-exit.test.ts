/**
 * `auto` with stdio servers that end on any request before `initialize`, as every server built on the
 * Rust SDK (rmcp 0.x–2.x) does: the `server/discover` probe makes them exit (code 1, nothing on stdout).
 * The client starts such a server once more in legacy mode, within the same connect deadline, remembers
 * the era for the command line, never sends a call of the caller's twice, and says so in the close report.
 * Counts are taken on the server side: test/fixtures/initialize-first.mjs logs each start and request.
 * The real server, @temporal-cortex/cortex-mcp-linux-x64 (rmcp 1.1.1), runs where it is installed.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, beforeEach, describe, test } from 'node:test';
import { clearEraCache } from '../../src/client/lifecycle.js';
import {
  type CallToolResult,
  callToolOnce,
  connect,
  isMcpError,
  type StdioServerConfig,
} from '../../src/index.js';
import { fixture, ROOT, textOf } from './helpers.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'autos-mcp-probe-exit-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
beforeEach(() => clearEraCache());

let logs = 0;
/** The fixture under `auto`, logging to a file of its own (so each test has its own command line too). */
function server(...flags: string[]): { config: StdioServerConfig; log: () => string[] } {
  const file = path.join(scratch, `log-${++logs}.txt`);
  return {
    config: fixture('initialize-first.mjs', [...flags, '--log', file], { protocolVersion: 'auto' }),
    log: () => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []),
  };
}

/** The log split into starts: the requests each process got. */
function starts(log: string[]): string[][] {
  const runs: string[][] = [];
  for (const line of log) {
    if (line.startsWith('start ')) runs.push([]);
    else runs.at(-1)?.push(line);
  }
  return runs;
}

describe('auto with a server that exits on the server/discover probe (rmcp)', () => {
  test('works: started twice, the second time straight into initialize; the close report says so', async () => {
    const { config, log } = server();
    const client = await connect(config);
    let report: Awaited<ReturnType<typeof client.close>>;
    try {
      assert.equal(client.protocolVersion, '2025-06-18');
      const result = (await client.callTool('echo', { text: 'hello' })) as CallToolResult;
      assert.equal(textOf(result), 'hello');
    } finally {
      report = await client.close();
    }
    assert.deepEqual(starts(log()), [['server/discover'], ['initialize', 'tools/call']]);
    const first = report.probeRestart;
    assert.ok(first, `the close report names the first start: ${JSON.stringify(report)}`);
    assert.equal(first.exitCode, 1);
    assert.equal(first.ended, 'exited');
    assert.equal(first.activeProcesses, 0);
    assert.match(first.stderrTail, /expect initialized request/);
    assert.notEqual(first.pid, report.process?.pid);
    assert.equal(report.process?.activeProcesses, 0);
  });

  test('the era is remembered for the command line: the next connect starts it once, in legacy mode', async () => {
    const { config, log } = server();
    await (await connect(config)).close();
    const before = starts(log()).length;
    const client = await connect(config);
    const report = await client.close();
    const runs = starts(log());
    assert.equal(runs.length - before, 1, `one more start, got ${JSON.stringify(runs)}`);
    assert.deepEqual(runs.at(-1), ['initialize']);
    assert.equal(report.probeRestart, undefined);
  });

  test('a server that closes its stdout on the probe (and keeps running) is started again too', async () => {
    const { config, log } = server('--close-stdout');
    const client = await connect(config);
    const report = await client.close();
    assert.equal(client.protocolVersion, '2025-06-18');
    assert.deepEqual(starts(log()), [['server/discover'], ['initialize']]);
    assert.ok(report.probeRestart, JSON.stringify(report));
    assert.equal(report.probeRestart.activeProcesses, 0);
  });

  test('at most one more start: a server that also exits on initialize fails, started twice', async () => {
    const { config, log } = server('--always');
    await assert.rejects(connect(config), (error: unknown) => {
      assert.ok(isMcpError(error), String(error));
      assert.equal(error.kind, 'closed');
      assert.equal(error.delivery, 'not_sent');
      assert.match(
        error.message,
        /^node initialize-first\.mjs \(pid \d+\) exited during startup with code 1, before it answered initialize \(its second start, in legacy mode: the first ended on the server\/discover probe\)$/,
      );
      assert.match(error.stderrTail ?? '', /expect initialized request/);
      return true;
    });
    assert.deepEqual(starts(log()), [['server/discover'], ['initialize']]);
    // Not remembered: the legacy guess never worked, so the next connect probes again.
    await assert.rejects(connect(config));
    assert.deepEqual(starts(log()).slice(2), [['server/discover'], ['initialize']]);
  });

  test('the one-shot callTool sends the call exactly once', async () => {
    const { config, log } = server();
    const result = (await callToolOnce(config, 'echo', { text: 'once' })) as CallToolResult;
    assert.equal(textOf(result), 'once');
    assert.equal(log().filter((line) => line === 'tools/call').length, 1, log().join(', '));
    assert.deepEqual(starts(log()), [['server/discover'], ['initialize', 'tools/call']]);
  });
});

describe('auto with servers that stay alive is as it was: one start, no probeRestart', () => {
  test('a server that never answers the probe gets initialize once the probe gave up', async () => {
    // The probe waits at most half of what is left of the connect deadline: about 1 s of 2 s here.
    const client = await connect(
      fixture('silent-probe.mjs', [], { protocolVersion: 'auto', connectTimeoutMs: 2_000 }),
    );
    const report = await client.close();
    assert.equal(client.protocolVersion, '2025-11-25');
    assert.equal(report.probeRestart, undefined);
  });

  test('a server slower to read than the probe waits is not restarted either', async () => {
    // slow-start reads nothing for 3 s; the probe gives up after 2 s, then initialize is answered at 3 s.
    const client = await connect(
      fixture('slow-start.mjs', ['3000'], { protocolVersion: 'auto', connectTimeoutMs: 4_000 }),
    );
    const report = await client.close();
    assert.equal(client.protocolVersion, '2025-11-25');
    assert.equal(report.probeRestart, undefined);
  });
});

/** Where the real rmcp server is installed: node_modules, or AUTOS_MCP_RMCP_SERVER for a copy elsewhere. */
const CORTEX =
  process.env['AUTOS_MCP_RMCP_SERVER'] ??
  path.join(ROOT, 'node_modules/@temporal-cortex/cortex-mcp-linux-x64/bin/cortex-mcp');
// A devDependency built for linux x64 only: elsewhere the test is skipped with that reason; on linux x64 a missing
// binary is a failure (the test runs and cannot spawn it), never a silent skip.
const cortexMissing =
  process.platform === 'linux' && process.arch === 'x64'
    ? false
    : '@temporal-cortex/cortex-mcp-linux-x64 (rmcp 1.1.1) is built for linux x64 only';

describe('auto with a real Rust-SDK server: @temporal-cortex/cortex-mcp 0.9.1 (rmcp 1.1.1)', {
  skip: cortexMissing,
}, () => {
  const config: StdioServerConfig = { command: CORTEX, protocolVersion: 'auto', timeoutMs: 20_000 };

  test('connects in legacy mode after its exit on the probe, calls a tool, and remembers the era', async () => {
    const client = await connect(config);
    let report: Awaited<ReturnType<typeof client.close>>;
    try {
      assert.equal(client.protocolVersion, '2025-06-18');
      assert.equal(client.serverInfo?.name, 'temporal-cortex-mcp');
      const result = (await client.callTool('compute_duration', {
        start: '2026-03-07T12:00:00Z',
        end: '2026-03-08T13:30:00Z',
      })) as CallToolResult;
      assert.notEqual(result.isError, true, textOf(result));
      assert.match(textOf(result), /"total_seconds":\s*91800/);
    } finally {
      report = await client.close();
    }
    assert.equal(report.probeRestart?.exitCode, 1, JSON.stringify(report));
    assert.match(report.probeRestart?.stderrTail ?? '', /expect initialized request/);
    assert.equal(report.process?.activeProcesses, 0);

    const again = await connect(config);
    const second = await again.close();
    assert.equal(second.probeRestart, undefined, 'the remembered era skips the probe');
  });
});
