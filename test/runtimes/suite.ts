/**
 * The runtime suite: a representative part of the tests, run under Node, Bun and Deno against the packed and
 * installed package, as a user of each runtime runs it. The package is the run's build and pack
 * (test/helpers/package-build.ts), installed into a consumer project in a temp dir (as test/docs does); Bun and
 * Deno come from their npm packages at pinned versions (binaries.ts). Per runtime, scenario.mjs runs in the
 * consumer project (stdio one-shot and connect/close with a process tree, the stderr tail, a timeout and a
 * cancel, HTTP JSON and SSE at both revisions and `auto`, the undici path, the worker, settings in the
 * plaintext file, the keyring without a Secret Service), then again inside a private D-Bus session with
 * gnome-keyring, and the CLI runs from the installed copy (`bun x autos-mcp`, `deno run -A npm:autos-mcp`).
 * Servers are Node processes (the demo server over HTTP, the test fixtures over stdio): the runtime under
 * test is the client's. Not a `*.test.ts` file: scripts/test-all.sh runs it as its own step.
 * docs/runtimes.md lists what this covers; a gap a runtime has is a `todo` here naming the fix.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type RunningServer, startDemoHttp } from '../client/http-servers.js';
import { keyringSessionTools } from '../helpers/keyring-session.js';
import { npmEnv } from '../helpers/npm.js';
import { packageBuild } from '../helpers/package-build.js';
import { PINNED, type Runtime, type RuntimeName, resolveRuntime } from './binaries.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const STAGE = mkdtempSync(path.join(tmpdir(), 'autos-mcp-runtimes-'));
const CONSUMER = path.join(STAGE, 'consumer');
const BIN = path.join(CONSUMER, 'node_modules/autos-mcp/dist/bin.js');
const RUN_TIMEOUT_MS = 90_000;

/**
 * Gaps a runtime has today, each with the fix that closes it; the test runs and reports, but does not fail
 * the run. Remove an entry once its fix has landed.
 */
const KNOWN_GAPS: Partial<Record<RuntimeName, Partial<Record<string, string>>>> = {};

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `argv` with `env` (nothing inherited) in the consumer project; never rejects on a non-zero exit. */
function run(argv: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = RUN_TIMEOUT_MS): Promise<Ran> {
  const [command, ...args] = argv;
  assert.ok(command, 'an empty argv');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: CONSUMER, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${argv.join(' ')} did not end within ${timeoutMs} ms; stdout: ${stdout}; stderr: ${stderr}`,
        ),
      );
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function shown(ran: Ran): string {
  return `exit ${ran.code ?? ran.signal}\nstdout:\n${ran.stdout}\nstderr:\n${ran.stderr}`;
}

/** Installs the run's packed package into the consumer project. */
function install(): void {
  const { tarball } = packageBuild();
  mkdirSync(CONSUMER, { recursive: true });
  writeFileSync(
    path.join(CONSUMER, 'package.json'),
    JSON.stringify({ name: 'runtimes-consumer', private: true, type: 'module' }),
  );
  execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
    cwd: CONSUMER,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: npmEnv(),
  });
  assert.ok(existsSync(BIN), 'the bin is installed');
  copyFileSync(path.join(ROOT, 'test/runtimes/scenario.mjs'), path.join(CONSUMER, 'scenario.mjs'));
}

/**
 * The environment of every run: nothing inherited but PATH (this Node's directory first, so `node` and
 * `npx` are the ones under test; the consumer's .bin next) and a private HOME and config dir; no proxy
 * variables; the session bus pointed at nothing, so only the keyring run reaches a Secret Service. npm's
 * notices are off: with no CI variable and a fresh HOME, `npx` would print "New minor version of npm
 * available" to the stderr the CLI test reads (test/helpers/npm.ts).
 */
function baseEnv(home: string): NodeJS.ProcessEnv {
  return npmEnv({
    PATH: [
      path.dirname(process.execPath),
      path.join(CONSUMER, 'node_modules/.bin'),
      process.env['PATH'] ?? '',
    ].join(path.delimiter),
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    // npm and npx keep using the machine's cache (the consumer is installed; nothing is fetched).
    npm_config_cache: process.env['npm_config_cache'] ?? path.join(process.env['HOME'] ?? home, '.npm'),
    // Bun and Deno keep their caches where they are; Deno's is read for npm: specifiers.
    DENO_DIR: process.env['DENO_DIR'] ?? path.join(process.env['HOME'] ?? home, '.cache/deno'),
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/autos-mcp-runtime-suite',
    NO_COLOR: '1',
  });
}

/** The launcher a user of each runtime types for an installed package's bin. */
function launcher(runtime: Runtime): string[] {
  switch (runtime.name) {
    case 'node':
      return ['npx', '--no-install', 'autos-mcp'];
    case 'bun':
      return [...runtime.run.slice(0, 1), 'x', 'autos-mcp'];
    case 'deno':
      return [...runtime.run, 'npm:autos-mcp'];
  }
}

let sse: RunningServer | undefined;
let json: RunningServer | undefined;

before(async () => {
  install();
  [sse, json] = await Promise.all([startDemoHttp(false), startDemoHttp(true)]);
});

after(async () => {
  await Promise.all([sse?.stop(), json?.stop()]);
  rmSync(STAGE, { recursive: true, force: true });
});

for (const name of ['node', 'bun', 'deno'] as const) {
  describe(`${name}${name === 'node' ? ` ${process.version}` : ` ${PINNED[name]}`}`, () => {
    let runtime: Runtime;
    let report: Record<string, unknown> = {};
    let keyringReport: Record<string, unknown> = {};
    let main: Ran;
    let worker: Ran;
    let workerReport: Record<string, unknown> = {};
    let home: string;
    /** A test; `gapKey` names its entry in KNOWN_GAPS, which makes it a `todo` on a runtime listed there. */
    const it = (title: string, body: () => void | Promise<void>, gapKey?: string) => {
      const todo = gapKey === undefined ? undefined : KNOWN_GAPS[name]?.[gapKey];
      test(title, todo === undefined ? {} : { todo }, body);
    };

    before(async () => {
      runtime = resolveRuntime(name);
      home = mkdtempSync(path.join(STAGE, `home-${name}-`));
      const input = (mode: 'main' | 'worker' | 'keyring') =>
        JSON.stringify({
          mode,
          node: process.execPath,
          fixtures: path.join(ROOT, 'test/fixtures'),
          bin: BIN,
          sseUrl: sse?.url,
          jsonUrl: json?.url,
          dir: mkdtempSync(path.join(home, 'settings-')),
        });
      main = await run([...runtime.run, 'scenario.mjs', input('main')], baseEnv(home));
      assert.equal(main.code, 0, shown(main));
      report = JSON.parse(main.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
      worker = await run([...runtime.run, 'scenario.mjs', input('worker')], baseEnv(home));
      assert.equal(worker.code, 0, shown(worker));
      workerReport = JSON.parse(worker.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
    });

    /** The value the scenario reported for `check`, with the whole report when it is missing. */
    const value = (check: string, from: Record<string, unknown> = report): unknown => {
      assert.ok(check in from, `the scenario reported no "${check}"; got ${JSON.stringify(from)}`);
      return from[check];
    };

    it('stdio: callTool spawns the demo server, calls echo, ends it', () => {
      assert.equal(value('oneShot'), 'hello');
    });

    it('stdio: close() ends the whole process tree, grandchildren included (activeProcesses 0)', () => {
      assert.deepEqual(value('tree'), {
        count: 4,
        before: [true, true, true, true],
        after: [false, false, false, false],
        activeProcesses: 0,
      });
    });

    it('stdio: a server that exits at startup fails with its stderr tail, redacted', () => {
      const { error } = value('stderrTail') as { error?: Record<string, unknown> };
      assert.equal(error?.['kind'], 'closed', JSON.stringify(error));
      assert.equal(error?.['delivery'], 'not_sent');
      assert.match(
        String(error?.['message']),
        /exited during startup with code 2, before it answered initialize$/,
      );
      assert.match(String(error?.['stderrTail']), /fatal: cannot start, config missing/);
      assert.doesNotMatch(String(error?.['stderrTail']), /sk-live-0123456789abcdef/);
    });

    it('stdio: a timeout after sending is delivery unknown; the late answer never reaches the next call', () => {
      assert.deepEqual(value('timeout'), { late: { kind: 'timeout', delivery: 'unknown' }, next: 'second' });
    });

    it('stdio: aborting a sent call rejects with cancelled / unknown', () => {
      assert.deepEqual(value('cancel'), { kind: 'cancelled', delivery: 'unknown' });
    });

    for (const framing of ['sse', 'json'] as const) {
      for (const protocol of ['2025-11-25', '2026-07-28', 'auto'] as const) {
        it(`HTTP ${framing.toUpperCase()} ${protocol}: listTools, callTool, progress, close`, () => {
          assert.deepEqual(value(`http ${framing} ${protocol}`), {
            negotiated: protocol === 'auto' ? '2026-07-28' : protocol,
            tools: ['echo', 'fail', 'image', 'slow'],
            echo: `hi ${framing}`,
            // The demo server in JSON mode drops mid-call notifications; over SSE both steps arrive.
            progress: framing === 'sse' ? 2 : 0,
          });
        });
      }
    }

    it('HTTP: aborting a call on an SSE answer rejects with cancelled / unknown', () => {
      assert.deepEqual(value('http cancel'), { kind: 'cancelled', delivery: 'unknown' });
    });

    it('HTTP: the undici path (useEnvProxy, as a proxy or a custom CA) reaches the server', () => {
      assert.equal(value('http undici'), 'via undici');
    });

    it('autos-mcp/code: TypeScript runs in the QuickJS sandbox against a real server; no host globals; a loop ends', () => {
      assert.deepEqual(value('code'), {
        value: 'sandboxed',
        calls: ['delivered'],
        fenced: 'undefined,undefined,undefined,undefined,undefined',
        loop: 'timeout',
      });
    });

    it('autos-mcp/worker: open, callTool, close with activeProcesses 0', () => {
      assert.deepEqual(value('worker', workerReport), {
        echo: 'from the worker',
        state: 'closed',
        activeProcesses: 0,
      });
    });

    it('settings: the plaintext-file backend saves, lists, loads and removes, in a 0600 file', () => {
      assert.deepEqual(value('settings plaintext-file'), {
        names: ['demo'],
        loaded: { env: { GREETING: 'saved' } },
        modes: ['600'],
        removed: true,
        after: [],
      });
    });

    it(
      'keyring: without a Secret Service, a config error in one sentence naming the fix',
      () => {
        const { error } = value('keyring unavailable') as { error?: Record<string, unknown> };
        assert.equal(error?.['kind'], 'config', JSON.stringify(error));
        assert.match(
          String(error?.['message']),
          /^the Secret Service \(D-Bus\) is not available \(.*\): start a Secret Service .* or choose the plaintext file backend by name$/,
        );
      },
      'keyring unavailable',
    );

    it(
      'keyring: the OS store (a private gnome-keyring) saves, lists, loads and removes a setting',
      async () => {
        keyringSessionTools();
        const env: NodeJS.ProcessEnv = {
          ...baseEnv(home),
          XDG_DATA_HOME: path.join(home, 'data'),
          XDG_RUNTIME_DIR: home,
        };
        delete env['DBUS_SESSION_BUS_ADDRESS'];
        const session =
          'printf autos-mcp-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 97; exec "$@"';
        const input = JSON.stringify({ mode: 'keyring', dir: home });
        const ran = await run(
          ['dbus-run-session', '--', 'sh', '-c', session, 'sh', ...runtime.run, 'scenario.mjs', input],
          env,
        );
        assert.equal(ran.code, 0, shown(ran));
        keyringReport = JSON.parse(ran.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
        assert.deepEqual(value('keyring', keyringReport), {
          names: ['runtime-suite'],
          loaded: { env: { TOKEN: 'kept-in-the-keyring' } },
          removed: true,
        });
      },
      'keyring',
    );

    it('the main run writes nothing to stderr: no uncaught error, no runtime warning', () => {
      assert.equal(main.stderr, '');
    });

    it(
      'the worker run writes nothing to stderr: no uncaught error in the worker thread',
      () => {
        assert.equal(worker.stderr, '');
      },
      'worker stderr',
    );

    const cli = async (argv: string[], want: RegExp) => {
      const ran = await run(argv, baseEnv(home));
      assert.equal(ran.code, 0, shown(ran));
      assert.match(ran.stdout, want, shown(ran));
      assert.equal(ran.stderr, '', shown(ran));
    };
    const demo = () => ['--', process.execPath, BIN, 'demo-server'];

    it('CLI: call over stdio, the bin run by the runtime', async () => {
      await cli([...runtime.run, BIN, 'call', 'echo', '{"text":"cli stdio"}', ...demo()], /^cli stdio\n$/);
    });

    it('CLI: tools over HTTP SSE, and call over HTTP JSON at 2026-07-28', async () => {
      await cli([...runtime.run, BIN, 'tools', String(sse?.url)], /^echo\(text\)$/m);
      await cli(
        [
          ...runtime.run,
          BIN,
          'call',
          '--protocol',
          '2026-07-28',
          String(json?.url),
          'echo',
          '{"text":"cli http"}',
        ],
        /^cli http\n$/,
      );
    });

    it(`CLI: \`${launcher({ name, version: '', run: [name, ...(name === 'deno' ? ['run', '-A'] : [])] }).join(' ')}\` runs the installed copy`, async () => {
      await cli([...launcher(runtime), 'call', 'echo', '{"text":"launched"}', ...demo()], /^launched\n$/);
    });

    it('CLI: the demo server itself run by the runtime (autos-mcp demo-server)', async () => {
      await cli(
        [...runtime.run, BIN, 'tools', '--', ...runtime.run, BIN, 'demo-server'],
        /^slow\(steps, delayMs\)$/m,
      );
    });
  });
}
