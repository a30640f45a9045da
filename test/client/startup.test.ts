/**
 * Startup diagnostics over real child processes: a server that exits before answering `initialize`, one
 * that runs but stays silent (with `connectTimeoutMs`, also under `auto`, which adds no hidden wait), a
 * command written as one string with spaces, and a start failure that names the program that failed.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { normalizeConfig } from '../../src/config/index.js';
import { type AnyMcpError, callToolOnce, connect, isMcpError } from '../../src/index.js';
import { FIXTURES, fixture } from './helpers.js';

const posix = process.platform !== 'win32';
const scratch = mkdtempSync(path.join(tmpdir(), 'autos-mcp-startup-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The error `promise` rejects with (the test fails if it resolves). */
async function failure(promise: Promise<unknown>): Promise<AnyMcpError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isMcpError(error), `not an McpError: ${String(error)}`);
    return error;
  }
  assert.fail('expected a rejection');
}

/** An executable script in the scratch directory. */
function script(name: string, text: string): string {
  const file = path.join(scratch, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

describe('a server that exits before answering initialize', () => {
  test('"… exited during startup with code N, before it answered initialize", with its stderr tail', async () => {
    const error = await failure(connect(fixture('exit-at-start.mjs')));
    assert.equal(error.kind, 'closed');
    assert.equal(error.delivery, 'not_sent', 'nothing of the caller left');
    assert.match(
      error.message,
      /^node exit-at-start\.mjs \(pid \d+\) exited during startup with code 2, before it answered initialize$/,
    );
    assert.match(error.stderrTail ?? '', /fatal: cannot start, config missing/);
    assert.ok(!`${error.message}${error.stderrTail}`.includes('sk-live-0123456789abcdef'), 'redacted');
  });

  test('a server killed by a signal during startup names the signal', async () => {
    const error = await failure(
      connect({ command: process.execPath, args: ['-e', "process.kill(process.pid, 'SIGKILL')"] }),
    );
    assert.equal(error.kind, 'closed');
    assert.match(
      error.message,
      /^node \(pid \d+\) was killed by SIGKILL during startup, before it answered initialize$/,
    );
  });

  test('under auto it is started once more in legacy mode, and the error says which start failed', async () => {
    // Exiting on the probe is what servers on the Rust SDK do; this one exits whatever it reads.
    const error = await failure(connect(fixture('exit-at-start.mjs', [], { protocolVersion: 'auto' })));
    assert.equal(error.delivery, 'not_sent');
    assert.match(
      error.message,
      /^node exit-at-start\.mjs \(pid \d+\) exited during startup with code 2, before it answered initialize \(its second start, in legacy mode: the first ended on the server\/discover probe\)$/,
    );
    assert.match(error.stderrTail ?? '', /fatal: cannot start/);
  });

  test('the one-shot callTool names the call, once, and the startup failure', async () => {
    const error = await failure(callToolOnce(fixture('exit-at-start.mjs'), 'echo'));
    assert.equal(error.delivery, 'not_sent');
    assert.match(
      error.message,
      /^tools\/call echo: connecting failed: node exit-at-start\.mjs \(pid \d+\) exited during startup with code 2, before it answered initialize$/,
    );
    assert.match(error.stderrTail ?? '', /fatal: cannot start/);
  });

  test('a crash after startup is not called a startup failure', async () => {
    const client = await connect(fixture('crash-mid-call.mjs'));
    try {
      const error = await failure(client.callTool('echo', {}));
      assert.equal(error.kind, 'closed');
      assert.equal(error.delivery, 'unknown');
      assert.match(
        error.message,
        /^tools\/call failed: node crash-mid-call\.mjs \(pid \d+\) exited with code 3$/,
      );
      assert.match(error.stderrTail ?? '', /crashing in the middle of a call/);
    } finally {
      await client.close();
    }
  });
});

describe('a server that runs but does not answer (connectTimeoutMs)', () => {
  test('"… is running but did not answer initialize within N ms", with its stderr tail, on time', async () => {
    const started = Date.now();
    const error = await failure(connect(fixture('silent-start.mjs', [], { connectTimeoutMs: 600 })));
    const took = Date.now() - started;
    assert.equal(error.kind, 'timeout');
    assert.equal(error.delivery, 'not_sent');
    assert.match(
      error.message,
      /^node silent-start\.mjs \(pid \d+\) is running but did not answer initialize within 600 ms$/,
    );
    assert.match(error.stderrTail ?? '', /loading a very large model/);
    assert.ok(took >= 550 && took < 600 + 1500, `took ${took} ms`);
  });

  test('auto: the probe and initialize share the one deadline (no hidden second wait)', async () => {
    const started = Date.now();
    const error = await failure(
      connect(fixture('silent-start.mjs', [], { protocolVersion: 'auto', connectTimeoutMs: 800 })),
    );
    const took = Date.now() - started;
    assert.equal(error.kind, 'timeout');
    assert.match(
      error.message,
      /^node silent-start\.mjs \(pid \d+\) is running but did not answer server\/discover or initialize within 800 ms$/,
    );
    assert.match(error.stderrTail ?? '', /loading a very large model/);
    assert.ok(took < 800 + 1000, `auto took ${took} ms for a deadline of 800 ms`);
  });

  test('auto without connectTimeoutMs: the default is timeoutMs when smaller, waited once', async () => {
    const started = Date.now();
    const error = await failure(
      connect(fixture('silent-start.mjs', [], { protocolVersion: 'auto', timeoutMs: 700 })),
    );
    const took = Date.now() - started;
    assert.match(error.message, /did not answer server\/discover or initialize within 700 ms$/);
    assert.ok(took < 700 + 1000, `took ${took} ms`);
  });

  test("connect's own timeoutMs option wins over connectTimeoutMs", async () => {
    const error = await failure(
      connect(fixture('silent-start.mjs', [], { connectTimeoutMs: 60_000 }), { timeoutMs: 300 }),
    );
    assert.match(error.message, /did not answer initialize within 300 ms$/);
  });

  test('the connect deadline is apart from the per-call one: a slow start within it succeeds', async () => {
    // slow-start reads nothing for 400 ms; each request's own deadline (timeoutMs) is shorter than that.
    const client = await connect(
      fixture('slow-start.mjs', ['400'], { timeoutMs: 5_000, connectTimeoutMs: 5_000 }),
    );
    await client.close();
  });

  test('connectTimeoutMs is validated and defaulted by normalizeConfig', () => {
    const base = { command: 'node', args: ['s.mjs'] };
    assert.equal(normalizeConfig(base).connectTimeoutMs, 30_000);
    assert.equal(normalizeConfig({ ...base, timeoutMs: 1_000 }).connectTimeoutMs, 1_000);
    assert.equal(normalizeConfig({ ...base, connectTimeoutMs: 5_000 }).connectTimeoutMs, 5_000);
    assert.equal(
      normalizeConfig({ ...base, connectTimeoutMs: Number.POSITIVE_INFINITY }).connectTimeoutMs,
      Number.POSITIVE_INFINITY,
    );
    assert.equal(normalizeConfig({ url: 'http://127.0.0.1:1/mcp', connectTimeoutMs: 9 }).connectTimeoutMs, 9);
    for (const bad of [0, -1, Number.NaN, '5000']) {
      assert.throws(
        () => normalizeConfig({ ...base, connectTimeoutMs: bad as number }),
        (error: unknown) =>
          isMcpError(error) && error.kind === 'config' && /connectTimeoutMs/.test(error.message),
      );
    }
  });
});

describe('a command given as one string with spaces', () => {
  test('is a config error that shows the split form', async () => {
    const server = path.join(FIXTURES, 'echo-server.mjs');
    const error = await failure(connect({ command: `${process.execPath} ${server}` }));
    assert.equal(error.kind, 'config');
    assert.equal(error.delivery, 'not_sent');
    assert.ok(
      error.message.includes(
        `did you mean command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(server)}]?`,
      ),
      error.message,
    );
    assert.match(error.message, /^no program ".+": the command is not split on spaces/);
  });

  test('a long word is shown whole up to 240 characters, then cut', async () => {
    const long = `/${'d'.repeat(300)}/server.mjs`;
    const error = await failure(connect({ command: `node ${long}` }));
    assert.equal(error.kind, 'config');
    assert.ok(error.message.includes(`args: ["${long.slice(0, 240)}…"]?`), error.message);
    assert.ok(error.message.length < 700, `${error.message.length} characters`);
  });

  test('with more words, the shown args are bounded', async () => {
    const error = await failure(connect({ command: 'node a.mjs b c d e f g' }));
    assert.equal(error.kind, 'config');
    assert.match(error.message, /args: \["a\.mjs", "b", "c", "d", …\]\?$/);
  });

  test('a program whose own path has a space still runs', { skip: !posix }, async () => {
    const file = script(
      'dir with space/server',
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(FIXTURES, 'echo-server.mjs'))}\n`,
    );
    const client = await connect({ command: file });
    await client.close();
  });

  test('an unknown first word is a plain "not found", with no split suggestion', async () => {
    const error = await failure(connect({ command: 'no-such-program-autos-mcp server.mjs' }));
    assert.equal(error.kind, 'spawn');
    assert.match(error.message, /no-such-program-autos-mcp server\.mjs was not found \(ENOENT\)/);
  });
});

describe('a start failure names the program that failed', () => {
  test('a missing command', async () => {
    const error = await failure(connect({ command: 'no-such-program-autos-mcp', args: ['server.mjs'] }));
    assert.equal(error.kind, 'spawn');
    assert.equal(
      error.message,
      'cannot start no-such-program-autos-mcp server.mjs: no-such-program-autos-mcp was not found (ENOENT); is it installed and on PATH?',
    );
  });

  test('a script whose #! interpreter is missing names the interpreter, not the script', {
    skip: !posix,
  }, async () => {
    const file = script('tool.sh', '#!/nonexistent/autos-mcp-interpreter\necho hi\n');
    const error = await failure(connect({ command: file }));
    assert.equal(error.kind, 'spawn');
    assert.match(
      error.message,
      /^cannot start tool\.sh: the interpreter "\/nonexistent\/autos-mcp-interpreter" named on the #! line of tool\.sh was not found \(ENOENT\)/,
    );
  });

  test('the same with isolate: checked before unshare runs it', {
    skip: process.platform !== 'linux',
  }, async () => {
    const file = script('tool2.sh', '#!/nonexistent/autos-mcp-interpreter\necho hi\n');
    const error = await failure(connect({ command: file, isolate: true }));
    // Where unshare cannot make a PID namespace, isolate itself is refused (config); never unshare's exit.
    if (error.kind === 'config') assert.match(error.message, /cannot isolate/);
    else assert.match(error.message, /the interpreter "\/nonexistent\/autos-mcp-interpreter"/);
  });

  test("an interpreter missing behind env: exit 127 with the hint and env's own words", {
    skip: !posix,
  }, async () => {
    const file = script('tool3.sh', '#!/usr/bin/env autos-mcp-missing-interpreter\n');
    const error = await failure(connect({ command: file }));
    assert.equal(error.kind, 'closed');
    assert.match(
      error.message,
      /^tool3\.sh \(pid \d+\) exited during startup with code 127 \(a program it runs was not found\), before it answered initialize$/,
    );
    assert.match(error.stderrTail ?? '', /autos-mcp-missing-interpreter/);
  });
});
