/**
 * `autos-mcp settings set|get|list|rm`, `--settings <name>` on tools/call, and `call` writing binary content
 * to files — run as a user runs them: the built bin in a child process, with the plaintext file backend in a
 * temp directory (`AUTOS_MCP_SETTINGS_BACKEND=plaintext-file`, `AUTOS_MCP_SETTINGS_DIR`), so the user's own
 * settings are never touched (the OS credential store backend is tested elsewhere).
 *
 * Every secret goes in on stdin (or at a pty prompt), never in argv; every stdout and stderr is kept and
 * checked at the end: no secret appears in any of them. The runs whose server prints its own environment
 * on purpose (to show the secret reached it) are the one exception, kept out of that list.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
const DEMO = ['--', process.execPath, 'examples/demo-server.mjs'];
const PRINT_ENV = ['--', process.execPath, 'test/fixtures/print-env.mjs'];

const API_KEY = 'sk-live-settings-test-4f1c9a7e2b5d8036a1c4';
const DEMO_SECRET = 'demo-secret-value-77d2e91b0c';
const AUTH_TOKEN = 'tok-settings-test-0e6b3c2a9f1d4e78b5a60c3d';
const HEADER_VALUE = 'hdr-settings-test-91ab27';
const TYPED = 'typed-at-the-prompt-5c1e0a';
const SECRETS = [API_KEY, DEMO_SECRET, AUTH_TOKEN, HEADER_VALUE, TYPED];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const outputs: string[] = [];
const argvs: string[][] = [];
const temps: string[] = [];
let dir = '';

function tempDir(prefix: string): string {
  const made = mkdtempSync(path.join(tmpdir(), prefix));
  temps.push(made);
  return made;
}

function settingsEnv(): Record<string, string> {
  return { AUTOS_MCP_SETTINGS_BACKEND: 'plaintext-file', AUTOS_MCP_SETTINGS_DIR: dir };
}

/**
 * Runs the CLI in this process with `input` on stdin (a stream, not a terminal). `scan: false` keeps it out of
 * the secret scan.
 */
async function cli(
  args: string[],
  input = '',
  options: { scan?: boolean; env?: Record<string, string> } = {},
): Promise<Run> {
  argvs.push(args);
  const run = await runMain(args, { cwd: ROOT, input, env: { ...settingsEnv(), ...options.env } });
  if (options.scan !== false) outputs.push(run.stdout, run.stderr);
  return run;
}

function storeFile(): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(dir, 'settings.json'), 'utf8')) as Record<string, unknown>;
}

before(() => {
  dir = tempDir('autos-mcp-cli-settings-');
});

after(() => {
  for (const made of temps) rmSync(made, { recursive: true, force: true });
});

describe('autos-mcp settings', () => {
  test('set --env KEY reads the value from stdin; it is saved, and shown nowhere', async () => {
    const run = await cli(['settings', 'set', 'keys', '--env', 'API_KEY'], `${API_KEY}\n`);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Saved settings "keys" in the plaintext file .*settings\.json: env API_KEY\n$/);
    assert.match(
      run.stderr,
      /^note: settings are kept in the plaintext file .*, not in the OS credential store\n$/,
    );
    const stored = must(
      storeFile()['config keys'] as Record<string, unknown> | undefined,
      'the stored entry',
    );
    assert.deepEqual(stored, { env: { API_KEY } });
  });

  test('set merges into what is saved (env one level deep); --replace replaces', async () => {
    const add = await cli(['settings', 'set', 'keys', '--env', 'DEMO_SECRET'], `${DEMO_SECRET}\r\n`);
    assert.equal(add.code, 0, add.stderr);
    assert.match(add.stdout, /^Updated settings "keys" .*: env API_KEY, DEMO_SECRET\n$/);
    assert.deepEqual(storeFile()['config keys'], { env: { API_KEY, DEMO_SECRET } });

    const first = await cli(
      ['settings', 'set', 'scratch', '--env', 'A', '--env', 'B'],
      `${API_KEY}\n${DEMO_SECRET}\n`,
    );
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(storeFile()['config scratch'], { env: { A: API_KEY, B: DEMO_SECRET } });
    const replaced = await cli(['settings', 'set', 'scratch', '--replace', '--env', 'C'], `${API_KEY}\n`);
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.deepEqual(storeFile()['config scratch'], { env: { C: API_KEY } });
  });

  test('stdin is read up to the lines wanted: a writer that keeps it open does not hold the command', async () => {
    const child = spawn(process.execPath, [BIN, 'settings', 'set', 'open-stdin', '--env', 'K'], {
      cwd: ROOT,
      env: { ...process.env, ...settingsEnv() },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.stdin?.write(`${API_KEY}\n`); // and never ended
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`still running:\n${out}`)), 20_000);
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    }).finally(() => {
      child.stdin?.destroy();
      child.kill();
    });
    outputs.push(out);
    assert.equal(code, 0, out);
    assert.deepEqual(storeFile()['config open-stdin'], { env: { K: API_KEY } });
    assert.equal((await cli(['settings', 'rm', 'open-stdin'])).code, 0);
  });

  test('get masks every env value with its length; --reveal shows it; --json is the config', async () => {
    const masked = await cli(['settings', 'get', 'keys']);
    assert.equal(masked.code, 0, masked.stderr);
    assert.match(masked.stdout, new RegExp(`^    API_KEY=•••• \\(${API_KEY.length} chars\\)$`, 'm'));
    assert.match(masked.stdout, new RegExp(`^    DEMO_SECRET=•••• \\(${DEMO_SECRET.length} chars\\)$`, 'm'));
    const json = await cli(['settings', 'get', 'keys', '--json']);
    assert.deepEqual(JSON.parse(json.stdout), {
      env: { API_KEY: `•••• (${API_KEY.length} chars)`, DEMO_SECRET: `•••• (${DEMO_SECRET.length} chars)` },
    });

    const revealed = await cli(['settings', 'get', 'keys', '--reveal', '--json'], '', { scan: false });
    assert.equal(revealed.code, 0, revealed.stderr);
    assert.deepEqual(JSON.parse(revealed.stdout), { env: { API_KEY, DEMO_SECRET } });
    const readable = await cli(['settings', 'get', 'keys', '--reveal'], '', { scan: false });
    assert.match(readable.stdout, new RegExp(`^    API_KEY=${API_KEY}$`, 'm'));
  });

  test('headers and authToken are read in the order given, and masked', async () => {
    const run = await cli(
      ['settings', 'set', 'api', '--url', 'https://example.com/mcp', '--header', 'X-Api-Key', '--auth-token'],
      `${HEADER_VALUE}\n${AUTH_TOKEN}\n`,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(storeFile()['config api'], {
      headers: { 'X-Api-Key': HEADER_VALUE },
      authToken: AUTH_TOKEN,
      url: 'https://example.com/mcp',
    });
    const masked = await cli(['settings', 'get', 'api']);
    assert.equal(masked.code, 0, masked.stderr);
    assert.match(masked.stdout, new RegExp(`^    X-Api-Key: •••• \\(${HEADER_VALUE.length} chars\\)$`, 'm'));
    assert.match(masked.stdout, new RegExp(`^  authToken: •••• \\(${AUTH_TOKEN.length} chars\\)$`, 'm'));
    assert.match(masked.stdout, /^ {2}url: https:\/\/example\.com\/mcp$/m);
    const json = JSON.parse((await cli(['settings', 'get', 'api', '--json'])).stdout) as Record<
      string,
      unknown
    >;
    assert.equal(json['authToken'], `•••• (${AUTH_TOKEN.length} chars)`);
    assert.deepEqual(json['headers'], { 'X-Api-Key': `•••• (${HEADER_VALUE.length} chars)` });
  });

  test('a value on the command line, a missing line, an empty value: refused, nothing saved', async () => {
    const before = JSON.stringify(storeFile());
    const inline = await cli(['settings', 'set', 'keys', '--env', 'API_KEY=value-on-the-argv']);
    assert.equal(inline.code, 2);
    assert.match(inline.stderr, /--env takes only the variable's name here/);
    assert.doesNotMatch(inline.stderr + inline.stdout, /value-on-the-argv/);
    const header = await cli(['settings', 'set', 'api', '--header', 'X-Api-Key: header-on-the-argv']);
    assert.equal(header.code, 2);
    assert.doesNotMatch(header.stderr + header.stdout, /header-on-the-argv/);

    const short = await cli(['settings', 'set', 'keys', '--env', 'ONE', '--env', 'TWO'], `${API_KEY}\n`);
    assert.equal(short.code, 2);
    assert.match(short.stderr, /stdin ended after 1 line; .*missing: env TWO/);
    const empty = await cli(['settings', 'set', 'keys', '--env', 'ONE'], '\n');
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /the value of env ONE is empty/);
    assert.equal(JSON.stringify(storeFile()), before);
  });

  test('list, rm, and a name that is not saved', async () => {
    const list = await cli(['settings', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.equal(list.stdout, 'api\nkeys\nscratch\n');
    const json = JSON.parse((await cli(['settings', 'list', '--json'])).stdout) as {
      names: string[];
      store: string;
    };
    assert.deepEqual(json.names, ['api', 'keys', 'scratch']);
    assert.match(json.store, /plaintext file/);

    const rm = await cli(['settings', 'rm', 'scratch']);
    assert.equal(rm.code, 0, rm.stderr);
    assert.match(rm.stdout, /^Removed settings "scratch"/);
    const again = await cli(['settings', 'rm', 'scratch']);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /nothing was removed/);
    const gone = await cli(['settings', 'get', 'scratch']);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /no settings named "scratch"/);
    assert.equal((await cli(['settings', 'list'])).stdout, 'api\nkeys\n');
  });

  test('usage: subcommands, names, options in the wrong place, a bad backend name', async () => {
    assert.equal((await cli(['settings'])).code, 2);
    assert.equal((await cli(['settings', 'frob'])).code, 2);
    assert.equal((await cli(['settings', 'get'])).code, 2);
    assert.equal((await cli(['settings', 'get', '../etc'])).code, 2);
    assert.equal((await cli(['settings', 'set', 'x'])).code, 2); // nothing to save
    assert.match(
      (await cli(['settings', 'get', 'keys', '--auth-token'])).stderr,
      /--auth-token is an option of settings set/,
    );
    assert.match((await cli(['tools', '--reveal', ...DEMO])).stderr, /--reveal is an option of settings/);
    assert.match(
      (await cli(['login', '--settings', 'keys', 'https://example.com/mcp'])).stderr,
      /--settings is an option/,
    );
    const bad = await cli(['settings', 'list'], '', { env: { AUTOS_MCP_SETTINGS_BACKEND: 'floppy' } });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /AUTOS_MCP_SETTINGS_BACKEND must be keyring, plaintext-file or memory/);
    const help = await cli(['settings', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Secret VALUES are never taken from the command line/);
    assert.match((await cli(['--help'])).stdout, /autos-mcp settings set\|get\|list\|rm/);
  });
});

describe('--settings <name> as a target', () => {
  test('settings that hold { command, args } are the target of tools', async () => {
    const json = JSON.stringify({ command: 'node', args: ['examples/demo-server.mjs'] });
    const saved = await cli(['settings', 'set', 'demo', '--json-config'], json);
    assert.equal(saved.code, 0, saved.stderr);
    const tools = await cli(['tools', '--settings', 'demo']);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /^echo\(text\)$/m);
    assert.match(tools.stdout, /^image\(\)$/m);
    const call = await cli(['call', '--settings', 'demo', 'echo', '{"text":"via settings"}']);
    assert.equal(call.code, 0, call.stderr);
    assert.equal(call.stdout, 'via settings\n');
  });

  test('--command and --arg save the same thing', async () => {
    const saved = await cli([
      'settings',
      'set',
      'demo2',
      '--command',
      'node',
      '--arg',
      'examples/demo-server.mjs',
    ]);
    assert.equal(saved.code, 0, saved.stderr);
    assert.deepEqual(storeFile()['config demo2'], { command: 'node', args: ['examples/demo-server.mjs'] });
    assert.equal((await cli(['tools', '--settings', 'demo2'])).code, 0);
  });

  test('settings of secrets only, merged over a -- command target: the server gets the env', async () => {
    const run = await cli(['call', '--json', '--settings', 'keys', 'env', ...PRINT_ENV], '', { scan: false });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { content: Array<{ text: string }> };
    const env = JSON.parse(must(result.content[0], 'a text block').text) as Record<string, string>;
    assert.equal(env['API_KEY'], API_KEY);
    assert.equal(env['DEMO_SECRET'], DEMO_SECRET);
    assert.doesNotMatch(run.stderr, new RegExp(DEMO_SECRET));
  });

  test("a stdio config's envFrom is read from the same backend as --settings", async () => {
    const config = {
      command: process.execPath,
      args: ['test/fixtures/print-env.mjs'],
      envFrom: { FROM_SETTINGS: { setting: 'keys', key: 'DEMO_SECRET' } },
    };
    const saved = await cli(['settings', 'set', 'printer', '--json-config'], JSON.stringify(config));
    assert.equal(saved.code, 0, saved.stderr);
    const run = await cli(['call', '--json', '--settings', 'printer', 'env'], '', { scan: false });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { content: Array<{ text: string }> };
    const env = JSON.parse(must(result.content[0], 'a text block').text) as Record<string, string>;
    assert.equal(env['FROM_SETTINGS'], DEMO_SECRET);
    assert.equal(env['API_KEY'], undefined);
  });

  test('settings without a server and no target, or not saved: exit 2', async () => {
    const none = await cli(['tools', '--settings', 'keys']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /hold no command or url/);
    const missing = await cli(['tools', '--settings', 'nope', ...DEMO]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no settings named "nope"/);
  });

  test('HTTP settings with an authToken and a header reach a server over HTTP', async () => {
    const server: ChildProcess = spawn(process.execPath, ['examples/demo-server.mjs', '--http', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        server.stdout?.on('data', (chunk: Buffer) => {
          seen += chunk.toString('utf8');
          const match = /listening (http:\/\/\S+)/.exec(seen);
          if (match?.[1]) resolve(match[1]);
        });
        server.once('exit', () => reject(new Error('the demo server ended')));
      });
      const saved = await cli(
        ['settings', 'set', 'remote', '--url', url, '--auth-token', '--header', 'X-Api-Key'],
        `${AUTH_TOKEN}\n${HEADER_VALUE}\n`,
      );
      assert.equal(saved.code, 0, saved.stderr);
      const tools = await cli(['tools', '--settings', 'remote']);
      assert.equal(tools.code, 0, tools.stderr);
      assert.match(tools.stdout, /^echo\(text\)$/m);
    } finally {
      server.kill();
    }
  });
});

describe('call writes binary content to files', () => {
  test('an image is one line with its type, size and path; the file holds the PNG', async () => {
    const run = await cli(['call', 'image', ...DEMO]);
    assert.equal(run.code, 0, run.stderr);
    const match = must(/^image\/png (\d+) bytes → (\/\S+\.png)\n$/.exec(run.stdout), 'a file line');
    const file = must(match[2], 'the path');
    temps.push(path.dirname(file));
    const bytes = readFileSync(file);
    assert.equal(bytes.length, Number(match[1]));
    assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.doesNotMatch(run.stdout, /iVBOR/); // no base64
  });

  test('--json prints the prepared result: path, mimeType, bytes, sha256, no data', async () => {
    const run = await cli(['call', '--json', '--settings', 'demo', 'image']);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as {
      content: Array<Record<string, unknown>>;
      files: Array<{ path: string; bytes: number; sha256: string }>;
      dir: string;
      problems: unknown[];
    };
    temps.push(result.dir);
    const block = must(result.content[0], 'the image block');
    assert.equal(block['type'], 'image');
    assert.equal(block['mimeType'], 'image/png');
    assert.equal(block['data'], undefined);
    const file = must(result.files[0], 'a file');
    assert.equal(block['path'], file.path);
    assert.match(file.sha256, /^[0-9a-f]{64}$/);
    assert.equal(readFileSync(file.path).length, file.bytes);
    assert.deepEqual(result.problems, []);
  });

  test('a result without binary content is printed as before', async () => {
    const run = await cli(['call', '--json', 'echo', '{"text":"plain"}', ...DEMO]);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.equal(result['files'], undefined);
    assert.deepEqual(result['content'], [{ type: 'text', text: 'plain' }]);
  });
});

/** `script` runs the CLI on a pty, so stdin is a terminal: the hidden prompt. */
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((candidate) => existsSync(candidate));

function onPty(args: string[]): {
  child: ChildProcess;
  output: () => string;
  waitFor: (pattern: RegExp) => Promise<void>;
  done: Promise<number | null>;
} {
  const command = [process.execPath, BIN, ...args].map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(' ');
  const child = spawn(must(SCRIPT, 'script'), ['-qec', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...process.env, ...settingsEnv() },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let seen = '';
  const waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];
  const onChunk = (chunk: Buffer) => {
    seen += chunk.toString('utf8');
    for (const waiter of [...waiters])
      if (waiter.pattern.test(seen)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  };
  child.stdout?.on('data', onChunk);
  child.stderr?.on('data', onChunk);
  const done = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => seen,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        if (pattern.test(seen)) return resolve();
        const timer = setTimeout(() => reject(new Error(`no ${pattern} in:\n${seen}`)), 20_000);
        waiters.push({
          pattern,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      }),
    done,
  };
}

describe('the hidden prompt on a terminal', {
  skip: SCRIPT === undefined ? 'no script(1) for a pty' : false,
}, () => {
  test('the value typed is not echoed, and is saved', async () => {
    const run = onPty(['settings', 'set', 'typed', '--env', 'TYPED_KEY']);
    await run.waitFor(/Value of env TYPED_KEY \(input hidden\): /);
    run.child.stdin?.write(`${TYPED}\r`);
    assert.equal(await run.done, 0, run.output());
    outputs.push(run.output());
    assert.match(run.output(), /Saved settings "typed"/);
    assert.doesNotMatch(run.output(), /\*/);
    assert.deepEqual(storeFile()['config typed'], { env: { TYPED_KEY: TYPED } });
  });

  test('Ctrl-C at the prompt: exit 130, nothing saved', async () => {
    const run = onPty(['settings', 'set', 'cancelled', '--env', 'K']);
    await run.waitFor(/input hidden\): /);
    run.child.stdin?.write('abc\x03');
    assert.equal(await run.done, 130, run.output());
    outputs.push(run.output());
    assert.match(run.output(), /cancelled: nothing was saved/);
    assert.equal(storeFile()['config cancelled'], undefined);
  });
});

describe('secrets', () => {
  test('no secret is in any argv, nor in any stdout or stderr', async () => {
    assert.ok(outputs.length > 20);
    for (const secret of SECRETS) {
      for (const args of argvs) assert.ok(!args.some((a) => a.includes(secret)), `argv ${args.join(' ')}`);
      for (const output of outputs) assert.ok(!output.includes(secret), `a secret was printed:\n${output}`);
    }
  });
});
