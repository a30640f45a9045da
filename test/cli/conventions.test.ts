/**
 * CLI conventions, through `main(argv, io)` in this process (the built binary where only it will do): --version, --json usage errors, options
 * that do not apply to the target, unknown tool names caught against tools/list, parameters in `tools`
 * and `call <tool> --help`, where the target goes, the result printed before a lingering server is
 * closed, and the bundled demo server (`autos-mcp demo-server`), also from a packed and installed copy.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PACKAGE_VERSION } from '../../src/version.js';
import { builtBin } from '../helpers/built-package.js';
import { must } from '../helpers/must.js';
import { npmEnv } from '../helpers/npm.js';
import { packageBuild } from '../helpers/package-build.js';
import { runMain } from './in-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The binary built from the current sources, once per test run (test/helpers/built-package.ts). */
const BIN = await builtBin();
const DEMO = ['--', process.execPath, BIN, 'demo-server'];
const dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-conventions-'));

/** Runs the CLI in this process (the demo server it starts is the built binary). */
async function cli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return runMain(args, { cwd: options.cwd ?? ROOT, env: options.env ?? {} });
}

/** A line-JSON server written for one test: lists `TOOLS`, records every request in the file named by its first argument. */
function fixture(name: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(
    file,
    `import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const log = process.argv[2];
${body}
createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (log) appendFileSync(log, msg.method + ' ' + (msg.params?.name ?? '') + '\\n');
  const answer = (result) => send({ jsonrpc: '2.0', id: msg.id, result });
  if (msg.method === 'initialize')
    return answer({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: '${name}', version: '1' } });
  if (msg.method === 'tools/list') return answer({ tools: TOOLS });
  if (msg.method === 'tools/call') return answer(call(msg.params));
  send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
}).on('close', onEnd);
`,
  );
  return file;
}

/** Answers any tool name, even one it does not list (so only the CLI's own check can refuse it). */
const LENIENT = fixture(
  'lenient.mjs',
  `const TOOLS = [
  { name: 'search_issues', description: 'Searches.', inputSchema: { type: 'object', properties: {
      query: { type: 'string', description: 'What to look for.' },
      limit: { type: 'integer', default: 10, description: 'At most this many.' },
      state: { enum: ['open', 'closed'] },
      labels: { type: 'array', items: { type: 'string' } } }, required: ['query'] } },
  { name: 'search_pulls', inputSchema: { type: 'object' } },
  { name: 'create_issue', inputSchema: { type: 'object', properties: { title: { type: 'string' } } } },
  { name: 'painted', description: 'Evil \\x1b]0;owned\\x07title \\x1b[31mred\\x1b[0m \\u009b2J c1 \\u202Ebidi',
    inputSchema: { type: 'object', properties: { 'p\\x1b[2Jx': { type: 'string', description: 'd\\x1b[1mbold\\x9b' } } } },
];
const call = (params) => ({ content: [{ type: 'text', text: 'ran ' + params.name }] });
const onEnd = () => process.exit(0);`,
);

/** Answers, then ignores the end of stdin: only the CLI's SIGTERM (after its grace period) ends it. */
const LINGERING = fixture(
  'lingering.mjs',
  `const TOOLS = [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }];
const call = (params) => ({ content: [{ type: 'text', text: String(params.arguments?.text) }] });
const onEnd = () => setTimeout(() => process.exit(0), 30_000);`,
);

function calls(log: string): string[] {
  return existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
    : [];
}

let http: ChildProcess | undefined;
let httpUrl = '';

before(async () => {
  // An HTTP target: the SDK-based example server on a free loopback port.
  const server = spawn(process.execPath, ['examples/demo-server.mjs', '--http', '0', '--json-response'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  http = server;
  httpUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /listening (\S+)/.exec(out);
      if (match) resolve(must(match[1], 'the URL'));
    });
    server.once('exit', (code) => reject(new Error(`the HTTP demo server exited with ${code}`)));
  });
});

after(() => {
  http?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('CLI conventions', () => {
  test('--version and -V print the package version; with --json as a document', async () => {
    for (const flag of ['--version', '-V']) {
      const run = await cli([flag]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, `${PACKAGE_VERSION}\n`);
    }
    const json = await cli(['--version', '--json']);
    assert.deepEqual(JSON.parse(json.stdout), { version: PACKAGE_VERSION });
    assert.match((await cli(['--help'])).stdout, /-V, --version/);
  });

  test('with --json, a usage error is one {"error": {"kind": "usage"}} document on stdout, exit 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['tools', '--json', '--bogus', ...DEMO], /unknown option --bogus/],
      [['--json', 'frobnicate'], /unknown command "frobnicate"/],
      [['--json'], /no command/],
      [['call', '--json', 'echo', '{not json', ...DEMO], /not valid JSON/],
      [['call', '--json', 'echo', '[1]', ...DEMO], /must be a JSON object/],
      [['tools', '--json', 'node'], /put its command after --/],
      [['tools', '--json', '--timeout', 'soon', ...DEMO], /--timeout needs/],
    ];
    for (const [args, message] of cases) {
      const run = await cli(args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      const doc = JSON.parse(run.stdout) as { error: { kind: string; message: string } };
      assert.equal(doc.error.kind, 'usage', args.join(' '));
      assert.match(doc.error.message, message);
      assert.equal(run.stdout.trim().split('\n').length, 1, 'exactly one document');
    }
    // Without --json, stdout stays empty and the message is on stderr.
    const plain = await cli(['frobnicate']);
    assert.equal(plain.code, 2);
    assert.equal(plain.stdout, '');
    assert.match(plain.stderr, /unknown command/);
  });

  test('options that do not apply to the target are refused with exit 2, naming the option', async () => {
    // Had the server been started, this command would fail with a spawn error (exit 3).
    const missing = ['--', 'autos-mcp-no-such-command'];
    const header = await cli(['tools', '--header', 'X-A: b', ...missing]);
    assert.equal(header.code, 2, header.stderr);
    assert.match(header.stderr, /^--header applies to an HTTP target/);
    for (const option of [
      ['--env', 'A=b'],
      ['--cwd', '/tmp'],
    ]) {
      const run = await cli(['tools', '--json', ...option, httpUrl]);
      assert.equal(run.code, 2, run.stderr);
      const doc = JSON.parse(run.stdout) as { error: { kind: string; message: string } };
      assert.match(doc.error.message, new RegExp(`^${option[0]} applies to a server started as a command`));
    }
    // The same options where they do apply are taken.
    assert.equal((await cli(['tools', '--header', 'X-A: b', httpUrl])).code, 0);
    assert.equal((await cli(['tools', '--env', 'A=b', '--cwd', tmpdir(), ...DEMO])).code, 0);
    // demo and demo-server take no target options.
    assert.equal((await cli(['demo', '--header', 'X-A: b'])).code, 2);
    assert.equal((await cli(['demo-server', 'extra'])).code, 2);
  });

  test('an unknown tool is caught against tools/list before any call is sent: exit 2, closest names', async () => {
    const log = path.join(dir, 'unknown.log');
    const target = ['--', process.execPath, LENIENT, log];
    const run = await cli(['call', 'search_issuse', '{"query":"x"}', ...target]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /unknown tool "search_issuse".*did you mean: search_issues\?/);
    assert.deepEqual(calls(log), ['initialize', 'tools/list'], 'no tools/call was sent');
    assert.match(
      (await cli(['call', 'search', ...target])).stderr,
      /did you mean: search_issues, search_pulls\?/,
    );
    const json = await cli(['call', '--json', 'creat_issue', ...target]);
    assert.equal(json.code, 2);
    const doc = JSON.parse(json.stdout) as { error: { kind: string; tool: string; suggestions: string[] } };
    assert.equal(doc.error.kind, 'usage');
    assert.equal(doc.error.tool, 'creat_issue');
    assert.deepEqual(doc.error.suggestions, ['create_issue']);
    // Nothing close: with few tools (up to 20), all their names; a huge name is bounded in the message.
    const far = await cli(['call', `zz${'q'.repeat(5000)}`, ...target]);
    assert.equal(far.code, 2);
    assert.match(far.stderr, /; its tools: search_issues, search_pulls, create_issue, painted\n/);
    assert.ok(far.stderr.length < 4000, 'the message is bounded');
    const farJson = JSON.parse((await cli(['call', '--json', 'zz', ...target])).stdout) as {
      error: { suggestions: string[]; tools: string[] };
    };
    assert.deepEqual(farJson.error.suggestions, []);
    assert.equal(farJson.error.tools.length, 4);
    // The same against the bundled demo server, whose own answer would be a JSON-RPC error.
    const demo = await cli(['call', 'ecoh', '{"text":"x"}', ...DEMO]);
    assert.equal(demo.code, 2, demo.stderr);
    assert.match(demo.stderr, /did you mean: echo\?/);
    // A listed name is called as before.
    const ok = await cli(['call', 'search_pulls', ...target]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, 'ran search_pulls\n');
    // Of every run above, only this one sent a tools/call.
    assert.deepEqual(
      calls(log).filter((line) => line.startsWith('tools/call')),
      ['tools/call search_pulls'],
    );
  });

  test('an unknown tool among more than 20: the closest names and the count, with the command that lists them', async () => {
    const many = fixture(
      'many.mjs',
      `const TOOLS = Array.from({ length: 30 }, (_, i) => ({ name: 'tool_' + i, inputSchema: { type: 'object' } }));
const call = (params) => ({ content: [{ type: 'text', text: 'ran ' + params.name }] });
const onEnd = () => process.exit(0);`,
    );
    const near = await cli(['call', 'tool_3x', '--', process.execPath, many]);
    assert.equal(near.code, 2, near.stderr);
    assert.match(
      near.stderr,
      /did you mean: tool_3, tool_0, tool_1\? \(it lists 30 tools; autos-mcp tools <target> lists them\)/,
    );
    const far = await cli(['call', 'zzzzzzzz', '--', process.execPath, many]);
    assert.match(far.stderr, /; it lists 30 tools; autos-mcp tools <target> lists them\n/);
    assert.doesNotMatch(far.stderr, /tool_29/, 'not every name');
  });

  test('tools shows each parameter: type, required or optional, default, description; server text made safe', async () => {
    const run = await cli(['tools', '--', process.execPath, LENIENT]);
    assert.equal(run.code, 0, run.stderr);
    const out = run.stdout;
    assert.match(out, /^search_issues\(query, limit, state, labels\)$/m);
    assert.match(out, /^ {4}- query: string, required — What to look for\.$/m);
    assert.match(out, /^ {4}- limit: integer, optional, default 10 — At most this many\.$/m);
    assert.match(out, /^ {4}- state: "open" \| "closed", optional$/m);
    assert.match(out, /^ {4}- labels: array of string, optional$/m);
    assert.match(out, /^search_pulls\(\)$/m);
    // ESC, C1 controls and their payloads never reach the terminal.
    assert.doesNotMatch(out, /[\x1b\x07\x9b]/);
    const demo = await cli(['tools', ...DEMO]);
    assert.match(demo.stdout, /^ {4}- steps: integer, optional, default 5 — How many steps\.$/m);
  });

  test("call <tool> --help shows that tool's parameters and calls nothing", async () => {
    const log = path.join(dir, 'help.log');
    const run = await cli(['call', 'search_issues', '--help', '--', process.execPath, LENIENT, log]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Tool search_issues$/m);
    assert.match(run.stdout, /^Parameters:$/m);
    assert.match(run.stdout, /^ {2}query: string, required\n {6}What to look for\.$/m);
    assert.match(run.stdout, /^ {2}limit: integer, optional, default 10$/m);
    assert.match(run.stdout, /autos-mcp call search_issues '\{"query":"…"\}' <target>/);
    assert.deepEqual(calls(log), ['initialize', 'tools/list'], 'no tools/call was sent');
    const painted = await cli(['call', 'painted', '--help', '--', process.execPath, LENIENT]);
    assert.equal(painted.code, 0, painted.stderr);
    assert.doesNotMatch(painted.stdout, /[\x1b\x07\x9b]/);
    const unknown = await cli(['call', 'serch_issues', '--help', '--', process.execPath, LENIENT]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /did you mean: search_issues/);
    // Without a target, the command's help.
    assert.match((await cli(['call', 'echo', '--help'])).stdout, /^Usage: autos-mcp call/);
  });

  test('the target is accepted first or last; elsewhere a usage error names the word that looked like one', async () => {
    const args = '{"text":"placed"}';
    for (const argv of [
      ['call', httpUrl, 'echo', args],
      ['call', 'echo', args, httpUrl],
      [httpUrl, 'call', 'echo', args],
    ]) {
      const run = await cli(argv);
      assert.equal(run.code, 0, `${argv.join(' ')}: ${run.stderr}`);
      assert.equal(run.stdout, 'placed\n');
    }
    const middle = await cli(['call', 'echo', httpUrl, args]);
    assert.equal(middle.code, 2);
    assert.match(middle.stderr, new RegExp(`^"${httpUrl}" looks like the target: put it first or last`));
    const noDashes = await cli(['call', 'echo', args, 'node', 'server.mjs']);
    assert.equal(noDashes.code, 2);
    assert.match(
      noDashes.stderr,
      /^"node" looks like a server command: .*after -- \(… -- node server\.mjs\)/,
    );
    const two = await cli(['tools', httpUrl, ...DEMO]);
    assert.equal(two.code, 2);
    assert.match(two.stderr, /^two targets: /);
    const none = await cli(['call', 'echo', args]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^no target: /);
  });

  test('the result is printed the moment it arrives; a server that lingers is closed afterwards', async () => {
    const child = spawn(process.execPath, [
      BIN,
      'call',
      'echo',
      '{"text":"early"}',
      '--',
      process.execPath,
      LINGERING,
    ]);
    const started = Date.now();
    let stdout = '';
    let stdoutAt: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      stdoutAt ??= Date.now();
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    const exitedAt = Date.now();
    assert.equal(code, 0);
    assert.equal(stdout, 'early\n');
    const printed = must(stdoutAt, 'stdout data') - started;
    const exited = exitedAt - started;
    // The server ignores the end of stdin, so closing it takes the 2 s grace period before SIGTERM.
    assert.ok(exited >= 1500, `the server lingered (exit after ${exited} ms)`);
    assert.ok(printed + 1000 < exited, `printed at ${printed} ms, exited at ${exited} ms`);
  });

  test('autos-mcp demo-server is a stdio MCP server (both revisions); demo uses it from any directory', async () => {
    assert.equal((await cli(['call', 'echo', '{"text":"hi"}', ...DEMO])).stdout, 'hi\n');
    const modern = await cli(['call', '--protocol', '2026-07-28', 'echo', '{"text":"new"}', ...DEMO]);
    assert.equal(modern.code, 0, modern.stderr);
    assert.equal(modern.stdout, 'new\n');
    const auto = await cli(['discover', '--protocol', 'auto', ...DEMO]);
    assert.match(auto.stdout, /protocol version: 2026-07-28/);
    const slow = await cli(['call', 'slow', '{"steps":2,"delayMs":10}', ...DEMO]);
    assert.equal(slow.stdout, 'done after 2 steps\n');
    assert.match(slow.stderr, /progress .*2\/2 step 2 of 2/);
    const fail = await cli(['call', 'fail', '{"reason":"bad day"}', ...DEMO]);
    assert.equal(fail.code, 1);
    const image = await cli(['call', '--json', 'image', ...DEMO]);
    const prepared = JSON.parse(image.stdout) as { content: Array<{ mimeType: string; path: string }> };
    const png = readFileSync(must(prepared.content[0], 'an image block').path);
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    rmSync(path.dirname(must(prepared.content[0], 'an image block').path), { recursive: true, force: true });
    // The built executable: it starts its own demo server from wherever it is installed.
    const demo = spawnSync(process.execPath, [BIN, 'demo'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    assert.equal(demo.status, 0, demo.stderr);
    assert.match(demo.stdout, /server: autos-mcp demo-server/);
    assert.match(demo.stdout, /result\.isError === true/);
    assert.match(demo.stdout, /processes left: 0/);
  });

  test('from a packed and installed copy: call echo -- autos-mcp demo-server, no repository files', {
    timeout: 180_000,
  }, async () => {
    const consumer = mkdtempSync(path.join(tmpdir(), 'autos-mcp-demo-pack-'));
    try {
      const { tarball } = packageBuild();
      writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
      execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
        cwd: consumer,
        stdio: 'ignore',
        env: npmEnv(),
      });
      const bin = 'node_modules/.bin/autos-mcp';
      const out = execFileSync(bin, ['call', 'echo', '{"text":"hi"}', '--', bin, 'demo-server'], {
        cwd: consumer,
        encoding: 'utf8',
      });
      assert.equal(out, 'hi\n');
      const demo = execFileSync(bin, ['demo'], { cwd: consumer, encoding: 'utf8' });
      assert.match(demo, /processes left: 0/);
      assert.equal(execFileSync(bin, ['-V'], { cwd: consumer, encoding: 'utf8' }), `${PACKAGE_VERSION}\n`);
    } finally {
      rmSync(consumer, { recursive: true, force: true });
    }
  });
});
