/**
 * The `autos-mcp` executable, run as a user runs it (the built bin, a real child process), against the demo
 * server (official SDK v2): output, --json, progress on stderr, and exit codes.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { npmEnv } from '../helpers/npm.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'dist/bin.js');
const DEMO = ['--', process.execPath, 'examples/demo-server.mjs'];

function cli(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

before(() => {
  if (!existsSync(BIN)) execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, env: npmEnv() });
});

describe('autos-mcp CLI', () => {
  test('a server that writes log lines to stdout works, with one warning line on stderr', () => {
    const noisy = ['--', process.execPath, 'test/fixtures/noisy-server.mjs', 'between'];
    const run = cli(['call', 'echo', '{"text":"through the noise"}', ...noisy]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /through the noise/);
    const warnings = run.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    assert.equal(warnings.length, 1, `want one warning line, got:\n${run.stderr}`);
    assert.match(warnings[0] ?? '', /wrote 6 lines that are not MCP messages to stdout \(skipped\)/);
    assert.doesNotMatch(run.stderr, /supersecretvalue123/);
  });

  test('--help prints usage and exits 0; no command exits 2', () => {
    const help = cli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /autos-mcp tools/);
    assert.match(cli(['call', '--help']).stdout, /Exit code 1 means the tool ran/);
    assert.equal(cli([]).code, 2);
    assert.equal(cli(['frobnicate']).code, 2);
  });

  test('tools lists the demo tools readably, and as JSON with --json', () => {
    const readable = cli(['tools', ...DEMO]);
    assert.equal(readable.code, 0, readable.stderr);
    assert.match(readable.stdout, /^echo\(text\)$/m);
    assert.match(readable.stdout, /^slow\(steps, delayMs\)$/m);
    const json = cli(['tools', '--json', ...DEMO]);
    assert.equal(json.code, 0);
    const parsed = JSON.parse(json.stdout) as { tools: Array<{ name: string }>; excluded: unknown[] };
    assert.deepEqual(parsed.tools.map((t) => t.name).sort(), ['echo', 'fail', 'image', 'slow']);
  });

  test('call prints the result and exits 0; an isError result exits 1', () => {
    const ok = cli(['call', 'echo', '{"text":"hi from the shell"}', ...DEMO]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, 'hi from the shell\n');
    const failed = cli(['call', 'fail', '{"reason":"bad day"}', ...DEMO]);
    assert.equal(failed.code, 1);
    assert.match(failed.stdout, /Tool reported an error:\nbad day/);
  });

  test('a failing call exits 3 with the error kind; --json prints the error as JSON', () => {
    const crash = ['--', process.execPath, 'test/fixtures/crash-mid-call.mjs'];
    const failed = cli(['call', 'echo', '{"text":"x"}', ...crash]);
    assert.equal(failed.code, 3);
    assert.match(failed.stderr, /error \[(transport|closed)\]/);
    const json = cli(['call', '--json', 'echo', '{"text":"x"}', ...crash]);
    assert.match((JSON.parse(json.stdout) as { error: { kind: string } }).error.kind, /^(transport|closed)$/);
  });

  test('an unknown tool is a usage error (exit 2) found before anything is sent', () => {
    const missing = cli(['call', '--json', 'no_such_tool', ...DEMO]);
    assert.equal(missing.code, 2);
    assert.equal((JSON.parse(missing.stdout) as { error: { kind: string } }).error.kind, 'usage');
  });

  test('progress goes to stderr, never stdout', () => {
    const run = cli(['call', 'slow', '{"steps":2,"delayMs":10}', ...DEMO]);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, 'done after 2 steps\n');
    assert.match(run.stderr, /progress .*2\/2/);
  });

  test('usage errors exit 2: bad JSON args, a target that is not a URL, a plain-http remote URL', () => {
    assert.equal(cli(['call', 'echo', '{not json', ...DEMO]).code, 2);
    const notUrl = cli(['tools', 'node']);
    assert.equal(notUrl.code, 2);
    assert.match(notUrl.stderr, /put its command after --/);
    const plain = cli(['tools', 'http://example.com/mcp']);
    assert.equal(plain.code, 2);
    assert.match(plain.stderr, /config/);
  });

  test('discover --protocol 2026-07-28 shows the version and instructions as data', () => {
    const run = cli(['discover', '--protocol', '2026-07-28', ...DEMO]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /protocol version: 2026-07-28/);
    assert.match(run.stdout, /instructions \(data from the server\):/);
  });

  test('a missing server command exits 3 with a spawn error naming it', () => {
    const run = cli(['tools', '--', 'autos-mcp-no-such-command']);
    assert.equal(run.code, 3);
    assert.match(run.stderr, /error \[spawn\].*autos-mcp-no-such-command/);
  });

  test('demo runs the main job end to end', () => {
    const run = cli(['demo']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /hello from autos-mcp/);
    assert.match(run.stdout, /result\.isError === true/);
    assert.match(run.stdout, /processes left: 0/);
  });
});
