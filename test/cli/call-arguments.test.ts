/**
 * `autos-mcp call <tool> key=value …` through `main(argv, io)` in this process: values typed by the tool's
 * inputSchema against the bundled demo server (`typed` returns its arguments as JSON), files and stdin,
 * the old JSON form, a URL target first or last, and usage errors (exit 2) found before tools/call is sent.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { builtBin } from '../helpers/built-package.js';
import { must } from '../helpers/must.js';
import { runMain } from './in-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The binary built from the current sources, once per test run (test/helpers/built-package.ts). */
const BIN = await builtBin();
const DEMO = ['--', process.execPath, BIN, 'demo-server'];
const dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-call-arguments-'));

/** Runs the CLI in this process, with `input` on stdin (empty when not given). */
async function cli(args: string[], input?: string) {
  return runMain(args, { cwd: dir, ...(input === undefined ? {} : { input }) });
}

/** What `typed` got, from its one line of JSON. */
async function typed(args: string[], input?: string): Promise<unknown> {
  const run = await cli(['call', 'typed', ...args, ...DEMO], input);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout);
}

/** A line-JSON server that lists `tools` and logs each request's method (and tool name) to `log`. */
function recordingServer(name: string, tools: unknown[]): { command: string[]; log: string } {
  const file = path.join(dir, `${name}.mjs`);
  const log = path.join(dir, `${name}.log`);
  writeFileSync(
    file,
    `import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const TOOLS = ${JSON.stringify(tools)};
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  appendFileSync(${JSON.stringify(log)}, msg.method + '\\n');
  const answer = (result) => send({ jsonrpc: '2.0', id: msg.id, result });
  if (msg.method === 'initialize')
    return answer({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'rec', version: '1' } });
  if (msg.method === 'tools/list') return answer({ tools: TOOLS });
  if (msg.method === 'tools/call') return answer({ content: [{ type: 'text', text: JSON.stringify(msg.params.arguments) }] });
  send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
}).on('close', () => process.exit(0));
`,
  );
  return { command: ['--', process.execPath, file], log };
}

function methods(log: string): string[] {
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
}

let http: ChildProcess | undefined;
let httpUrl = '';

before(async () => {
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

describe('call <tool> key=value', () => {
  test('values arrive typed by the schema; a string id stays a string', async () => {
    assert.deepEqual(
      await typed([
        'id=1712345.000100',
        'count=42',
        'ratio=0.25',
        'dryRun=true',
        'mode=safe',
        'tags=["a","b"]',
        'options={"depth":2}',
      ]),
      {
        id: '1712345.000100',
        count: 42,
        ratio: 0.25,
        dryRun: true,
        mode: 'safe',
        tags: ['a', 'b'],
        options: { depth: 2 },
      },
    );
    assert.deepEqual(await typed(['id=0012']), { id: '0012' });
    assert.deepEqual(await typed(['id=\\@home', 'count:=7']), { id: '@home', count: 7 });
  });

  test('key=@file reads the file as text, - reads a JSON object from stdin, key=@- a value', async () => {
    const file = path.join(dir, 'id.txt');
    writeFileSync(file, 'from a file\nline 2');
    assert.deepEqual(await typed([`id=@${file}`]), { id: 'from a file\nline 2' });
    assert.deepEqual(await typed(['-', 'count=3'], '{"id":"piped"}'), { id: 'piped', count: 3 });
    assert.deepEqual(await typed(['id=@-'], '1712345.000100'), { id: '1712345.000100' });
  });

  test('the JSON object argument still works, alone or with pairs', async () => {
    assert.deepEqual(await typed(['{"id":"x","tags":["t"]}']), { id: 'x', tags: ['t'] });
    assert.deepEqual(await typed(['{"id":"x"}', 'dryRun=false']), { id: 'x', dryRun: false });
    const echo = await cli(['call', 'echo', '{"text":"hi"}', ...DEMO]);
    assert.equal(echo.stdout, 'hi\n', echo.stderr);
  });

  test('a URL target comes first or last, after key=value words too', async () => {
    for (const args of [
      ['call', 'echo', 'text=hi', httpUrl],
      ['call', httpUrl, 'echo', 'text=hi'],
      ['call', 'echo', 'text=run.sh', httpUrl],
    ]) {
      const run = await cli(args);
      assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stdout, /^(hi|run\.sh)\n$/);
    }
  });

  test('an unknown key, a missing required key or a wrong type: exit 2, the parameters listed, no tools/call', async () => {
    const server = recordingServer('strict', [
      {
        name: 'search',
        inputSchema: {
          type: 'object',
          properties: { q: { type: 'string', description: 'What to look for.' }, limit: { type: 'integer' } },
          required: ['q'],
        },
      },
    ]);
    const run = await cli(['call', 'search', 'qq=x', 'limit=ten', ...server.command]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^invalid arguments for search \(nothing was called\):$/m);
    assert.match(run.stderr, /^ {2}"qq" is not a parameter of this tool$/m);
    assert.match(run.stderr, /^ {2}"limit" must be integer \(got "ten"\)$/m);
    assert.match(run.stderr, /^ {2}missing required parameter "q"$/m);
    assert.match(
      run.stderr,
      /^Parameters of search:\n {2}q: string, required — What to look for\.\n {2}limit: integer, optional$/m,
    );
    assert.deepEqual(methods(server.log), ['initialize', 'tools/list']);
    const json = await cli(['call', '--json', 'search', 'limit=1', ...server.command]);
    assert.equal(json.code, 2);
    const doc = JSON.parse(json.stdout) as { error: { kind: string; tool: string; problems: string[] } };
    assert.deepEqual(doc.error, {
      ...doc.error,
      kind: 'usage',
      tool: 'search',
      problems: ['missing required parameter "q"'],
    });
    assert.ok(!methods(server.log).includes('tools/call'), 'nothing was called');
    // The same arguments, right, are sent.
    const ok = await cli(['call', 'search', 'q=0012', 'limit=5', ...server.command]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout), { q: '0012', limit: 5 });
  });

  test('a missing file or a bad word is a usage error before the server is started', async () => {
    // Had the server been started, this would be a spawn failure (exit 3).
    const missing = ['--', 'autos-mcp-no-such-command'];
    const file = await cli(['call', 'typed', 'id=@no/such/file.txt', ...missing]);
    assert.equal(file.code, 2, file.stderr);
    assert.match(file.stderr, /the file "no\/such\/file\.txt" does not exist/);
    const word = await cli(['call', 'typed', 'justaword', ...missing]);
    assert.equal(word.code, 2, word.stderr);
    assert.match(word.stderr, /"justaword" is not key=value/);
    const big = path.join(dir, 'big.txt');
    writeFileSync(big, Buffer.alloc(4 * 1024 * 1024 + 1, 0x61));
    const tooBig = await cli(['call', 'typed', `id=@${big}`, ...missing]);
    assert.equal(tooBig.code, 2, tooBig.stderr);
    assert.match(tooBig.stderr, /is larger than 4 MiB/);
    const stdin = await cli(['call', 'typed', '-', ...missing], 'x'.repeat(4 * 1024 * 1024 + 1));
    assert.equal(stdin.code, 2, stdin.stderr);
    assert.match(stdin.stderr, /stdin holds more than 4 MiB/);
  });

  test('schema text in an argument error is sanitized for the terminal', async () => {
    const server = recordingServer('painted', [
      {
        name: 'paint',
        inputSchema: {
          type: 'object',
          properties: {
            'p\u001b[2Jx': { type: 'string', description: 'd\u001b]0;owned\u0007' },
            mode: { enum: ['\u001b[31mred', '\u202eevil'] },
          },
        },
      },
    ]);
    const run = await cli(['call', 'paint', 'mode=blue', ...server.command]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /"mode" must be one of/);
    assert.doesNotMatch(run.stderr, /[\u001b\u0007\u009b\u202e]/);
  });
});
