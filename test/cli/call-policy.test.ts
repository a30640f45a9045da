/**
 * `call --max-chars N` and the approval prompt of `call`, in process against the bundled demo server: a
 * budgeted `--json` result carries `truncated` and its file holds the whole result; a tool the config's
 * `tools.approve` names is refused with exit code 5 and nothing sent when no terminal can answer, and asks
 * `Call TOOL on SERVER? [y/N]` on one.
 */
import assert from 'node:assert/strict';
import diagnostics_channel from 'node:diagnostics_channel';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, test } from 'node:test';
import { demoServerCommand } from '../../src/cli/demo-server.js';
import { main } from '../../src/cli/main.js';
import { diagnosticsChannels } from '../../src/diagnostics/index.js';
import { ROOT } from '../client/helpers.js';
import { runMain } from './in-process.js';

const demo = demoServerCommand();
const DEMO = ['--', demo.command, ...demo.args];
const dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-call-policy-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A config file with the demo server as `demo`, its tools matching `approve` needing a yes. */
function configFile(approve: string[]): string {
  const file = path.join(dir, `servers-${approve.join('-')}.json`);
  // From the repository, where the demo server's `--import tsx` resolves.
  const server = { command: demo.command, args: demo.args, cwd: ROOT, tools: { approve } };
  writeFileSync(file, JSON.stringify({ mcpServers: { demo: server } }));
  return file;
}

describe('call --max-chars', () => {
  test('--json carries truncated; the file holds the whole result; the marker ends the content', async () => {
    const run = await runMain(['call', '--json', '--max-chars', '1000', 'big', 'chars=5000', ...DEMO]);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as {
      content: Array<{ type: string; text: string }>;
      truncated: { originalChars: number; file: string };
    };
    assert.ok(run.stdout.trimEnd().length <= 1000, `want ≤ 1000 characters, got ${run.stdout.length}`);
    const whole = readFileSync(result.truncated.file, 'utf8');
    assert.equal(whole.length, result.truncated.originalChars);
    assert.equal((JSON.parse(whole) as { content: Array<{ text: string }> }).content[0]?.text.length, 5000);
    if (process.platform !== 'win32') assert.equal(statSync(result.truncated.file).mode & 0o777, 0o600);
    assert.match(result.content.at(-1)?.text ?? '', /result cut to maxResultChars 1000/);
    rmSync(result.truncated.file);
  });

  test('without --json the marker is printed, naming the file', async () => {
    const run = await runMain(['call', '--max-chars', '600', 'big', 'chars=5000', ...DEMO]);
    assert.equal(run.code, 0, run.stderr);
    const file = /is in (\S+\.json)\]/.exec(run.stdout)?.[1];
    assert.ok(file, run.stdout);
    rmSync(file);
  });

  test('a budget below 512 or not a number is a usage error before anything starts', async () => {
    for (const bad of ['511', 'x', '1e3', '-5']) {
      const run = await runMain(['call', '--max-chars', bad, 'big', ...DEMO]);
      assert.equal(run.code, 2, bad);
      assert.match(run.stderr, /--max-chars needs a whole number from 512/);
    }
  });
});

describe('call of a tool that needs approval', () => {
  test('no terminal: refused (denied, not_sent), exit code 5, and no tools/call was sent', async () => {
    const file = configFile(['ech*']);
    const sent: string[] = [];
    const onStart = (message: unknown) => sent.push((message as { method: string }).method);
    diagnostics_channel.subscribe(diagnosticsChannels.requestStart, onStart);
    let run: Awaited<ReturnType<typeof runMain>>;
    try {
      run = await runMain(['call', '--json', 'demo.echo', 'text=hi', '--config', file, '--trust-project']);
    } finally {
      diagnostics_channel.unsubscribe(diagnosticsChannels.requestStart, onStart);
    }
    assert.equal(run.code, 5, run.stderr);
    const { error } = JSON.parse(run.stdout) as {
      error: { kind: string; delivery: string; message: string };
    };
    assert.equal(error.kind, 'denied');
    assert.equal(error.delivery, 'not_sent');
    assert.match(error.message, /tool echo on .* was not called: it needs approval and no one can answer/);
    assert.ok(sent.includes('tools/list'), `the client did talk to the server: ${sent.join(', ')}`);
    assert.ok(!sent.includes('tools/call'), `no tools/call: ${sent.join(', ')}`);
  });

  test('a terminal: asks, with the arguments; y calls, anything else refuses', async () => {
    const file = configFile(['echo']);
    for (const [answer, code] of [
      ['y\n', 0],
      ['n\n', 5],
      ['\n', 5],
    ] as const) {
      const stdin = Object.assign(new PassThrough(), { isTTY: true });
      let stderr = '';
      let stdout = '';
      const running = main(['call', 'demo.echo', 'text=hi\u001b[31m', '--config', file, '--trust-project'], {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: {
          write: (text: string) => {
            stderr += text;
            if (text.includes('[y/N]')) stdin.write(answer);
          },
          isTTY: true,
        },
        stdin,
      });
      assert.equal(await running, code, stderr);
      assert.match(
        stderr,
        /echo needs approval; arguments: \{"text":"hi\\u001b\[31m"\}\nCall echo on .+\? \[y\/N\] /,
      );
      assert.doesNotMatch(stderr, /\u001b/, 'terminal-safe');
      if (code === 0) assert.match(stdout, /hi/);
      else assert.match(stderr, /approval refused/);
    }
  });
});
