/**
 * The `autos-mcp` commands, run in this process through `main(argv, io)`, against the demo server (official
 * SDK v2): output, --json, progress on stderr, and exit codes; and the built executable itself, run as a
 * user runs it (a child process), for what only it does: the exit code reaches the shell.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { builtBin } from '../helpers/built-package.js';
import { runMain } from './in-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The binary built from the current sources, once per test run (test/helpers/built-package.ts). */
const BIN = await builtBin();
const DEMO = ['--', process.execPath, 'examples/demo-server.mjs'];

function cli(args: string[], env: Record<string, string> = {}) {
  return runMain(args, { cwd: ROOT, env });
}

/** The built executable, as a user runs it. */
function bin(args: string[]) {
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('autos-mcp CLI', () => {
  test('a server that writes log lines to stdout works, with one warning line on stderr', async () => {
    const noisy = ['--', process.execPath, 'test/fixtures/noisy-server.mjs', 'between'];
    const run = await cli(['call', 'echo', '{"text":"through the noise"}', ...noisy]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /through the noise/);
    const warnings = run.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    assert.equal(warnings.length, 1, `want one warning line, got:\n${run.stderr}`);
    assert.match(warnings[0] ?? '', /wrote 6 lines that are not MCP messages to stdout \(skipped\)/);
    assert.doesNotMatch(run.stderr, /supersecretvalue123/);
  });

  test('--help prints usage and exits 0; no command exits 2', async () => {
    const help = await cli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /autos-mcp tools/);
    assert.match((await cli(['call', '--help'])).stdout, /Exit code 1 means the tool ran/);
    assert.equal((await cli([])).code, 2);
    assert.equal((await cli(['frobnicate'])).code, 2);
  });

  test('tools lists the demo tools readably, and as JSON with --json', async () => {
    const readable = await cli(['tools', ...DEMO]);
    assert.equal(readable.code, 0, readable.stderr);
    assert.match(readable.stdout, /^echo\(text\)$/m);
    assert.match(readable.stdout, /^slow\(steps, delayMs\)$/m);
    const json = await cli(['tools', '--json', ...DEMO]);
    assert.equal(json.code, 0);
    const parsed = JSON.parse(json.stdout) as { tools: Array<{ name: string }>; excluded: unknown[] };
    assert.deepEqual(parsed.tools.map((t) => t.name).sort(), ['echo', 'fail', 'image', 'slow']);
  });

  test('call prints the result and exits 0; an isError result exits 1', async () => {
    const ok = await cli(['call', 'echo', '{"text":"hi from the shell"}', ...DEMO]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, 'hi from the shell\n');
    const failed = await cli(['call', 'fail', '{"reason":"bad day"}', ...DEMO]);
    assert.equal(failed.code, 1);
    assert.match(failed.stdout, /Tool reported an error:\nbad day/);
  });

  test('a failing call exits 3 with the error kind; --json prints the error as JSON', async () => {
    const crash = ['--', process.execPath, 'test/fixtures/crash-mid-call.mjs'];
    const failed = await cli(['call', 'echo', '{"text":"x"}', ...crash]);
    assert.equal(failed.code, 3);
    assert.match(failed.stderr, /error \[(transport|closed)\]/);
    const json = await cli(['call', '--json', 'echo', '{"text":"x"}', ...crash]);
    assert.match((JSON.parse(json.stdout) as { error: { kind: string } }).error.kind, /^(transport|closed)$/);
  });

  test('an unknown tool is a usage error (exit 2) found before anything is sent', async () => {
    const missing = await cli(['call', '--json', 'no_such_tool', ...DEMO]);
    assert.equal(missing.code, 2);
    assert.equal((JSON.parse(missing.stdout) as { error: { kind: string } }).error.kind, 'usage');
  });

  test('progress goes to stderr, never stdout', async () => {
    const run = await cli(['call', 'slow', '{"steps":2,"delayMs":10}', ...DEMO]);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, 'done after 2 steps\n');
    assert.match(run.stderr, /progress .*2\/2/);
  });

  test('usage errors exit 2: bad JSON args, a target that is not a URL, a plain-http remote URL', async () => {
    assert.equal((await cli(['call', 'echo', '{not json', ...DEMO])).code, 2);
    const notUrl = await cli(['tools', 'node']);
    assert.equal(notUrl.code, 2);
    assert.match(notUrl.stderr, /put its command after --/);
    const plain = await cli(['tools', 'http://example.com/mcp']);
    assert.equal(plain.code, 2);
    assert.match(plain.stderr, /config/);
  });

  test('discover --protocol 2026-07-28 shows the version and instructions as data', async () => {
    const run = await cli(['discover', '--protocol', '2026-07-28', ...DEMO]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /protocol version: 2026-07-28/);
    assert.match(run.stdout, /instructions \(data from the server\):/);
  });

  test('a missing server command exits 3 with a spawn error naming it', async () => {
    const run = await cli(['tools', '--', 'autos-mcp-no-such-command']);
    assert.equal(run.code, 3);
    assert.match(run.stderr, /error \[spawn\].*autos-mcp-no-such-command/);
  });

  test('demo runs the main job end to end', async () => {
    const run = await cli(['demo']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /hello from autos-mcp/);
    assert.match(run.stdout, /result\.isError === true/);
    assert.match(run.stdout, /processes left: 0/);
  });
});

describe('the built executable', () => {
  test("its exit code is the command's: 0 for a call, 1 for isError, 2 for a usage error", () => {
    const ok = bin(['call', 'echo', 'text=hi', ...DEMO]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, 'hi\n');
    assert.equal(bin(['call', 'fail', 'reason=x', ...DEMO]).code, 1);
    const usage = bin(['frobnicate']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^unknown command "frobnicate"/);
  });
});
