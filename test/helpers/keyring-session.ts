/**
 * Runs a TypeScript worker script inside a fresh, private Secret Service: `dbus-run-session` starts a
 * session bus of its own, `gnome-keyring-daemon --unlock --components=secrets` serves the Secret Service on
 * it with a new login keyring (in a temp XDG_DATA_HOME, unlocked with a throwaway password), then the
 * worker runs as `node --import tsx <script> <args…>` and its stdout, stderr and exit are collected. The
 * bus and the keyring daemon end with the session; the temp dir is removed. Nothing of the user's own
 * session or keyring is touched.
 *
 * The binaries are Debian's `dbus` and `gnome-keyring` packages (scripts/test-all.sh installs them). When
 * one is missing, `keyringSessionTools()` and `runInKeyringSession()` throw an error saying so: the tests
 * that need a Secret Service never skip.
 *
 * `runNode()` runs a worker the same way but outside any session, with exactly the environment given.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface WorkerResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time from spawn to exit. */
  readonly ms: number;
}

export interface RunOptions {
  /** Extra environment for the worker (on top of this process's, or instead of it for `runNode`). */
  readonly env?: NodeJS.ProcessEnv;
  /** The worker is killed (and the run rejects) after this long. Default 60 s. */
  readonly timeoutMs?: number;
}

const TOOLS = ['dbus-run-session', 'gnome-keyring-daemon'] as const;

/** The first executable `name` on PATH, or undefined. */
function onPath(name: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The paths of dbus-run-session and gnome-keyring-daemon; throws naming what is missing and how to install it. */
export function keyringSessionTools(): Record<(typeof TOOLS)[number], string> {
  const found = TOOLS.map((tool) => [tool, onPath(tool)] as const);
  const missing = found.filter(([, at]) => at === undefined).map(([tool]) => tool);
  if (missing.length > 0)
    throw new Error(
      `the Secret Service tests need ${missing.join(' and ')} on PATH (not found). Install Debian's packages: ` +
        'apt-get install --no-install-recommends gnome-keyring dbus libsecret-tools (scripts/test-all.sh does this).',
    );
  return Object.fromEntries(found) as Record<(typeof TOOLS)[number], string>;
}

/**
 * The shell run by dbus-run-session: a private keyring home, the keyring daemon unlocked with a throwaway
 * password (it prints its environment, which is dropped), then the worker replaces the shell.
 */
const SESSION_SCRIPT =
  'printf autos-mcp-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null || ' +
  '{ echo "gnome-keyring-daemon --unlock failed" >&2; exit 97; }; exec "$@"';

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  what: string,
): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
      reject(new Error(`${what} did not end within ${timeoutMs} ms; stdout: ${stdout}; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${what} could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Runs `node --import tsx <script> <args…>` in a fresh D-Bus session with an unlocked gnome-keyring. */
export async function runInKeyringSession(
  script: string,
  args: readonly string[] = [],
  options: RunOptions = {},
): Promise<WorkerResult> {
  keyringSessionTools();
  const home = mkdtempSync(path.join(tmpdir(), 'autos-mcp-keyring-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_DATA_HOME: path.join(home, 'data'),
    XDG_RUNTIME_DIR: home, // the daemon's control socket; 0700 as mkdtemp makes it
    ...options.env,
  };
  delete env['DBUS_SESSION_BUS_ADDRESS']; // dbus-run-session sets its own
  delete env['GNOME_KEYRING_CONTROL'];
  try {
    return await run(
      'dbus-run-session',
      ['--', 'sh', '-c', SESSION_SCRIPT, 'sh', process.execPath, '--import', 'tsx', script, ...args],
      env,
      options.timeoutMs ?? 60_000,
      `the keyring session worker ${path.basename(script)}`,
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Runs `node --import tsx <script> <args…>` with exactly `options.env` (plus PATH and HOME) and no session. */
export function runNode(
  script: string,
  args: readonly string[] = [],
  options: RunOptions = {},
): Promise<WorkerResult> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    ...options.env,
  };
  return run(
    process.execPath,
    ['--import', 'tsx', script, ...args],
    env,
    options.timeoutMs ?? 60_000,
    `the worker ${path.basename(script)}`,
  );
}

/** The last line of `result.stdout` as JSON; fails with the whole output when the worker did not succeed. */
export function workerJson<T>(result: WorkerResult): T {
  const lines = result.stdout.trim().split('\n');
  const last = lines[lines.length - 1] ?? '';
  if (result.code !== 0 || last === '')
    throw new Error(
      `worker failed (exit ${result.code}, signal ${result.signal}); stdout: ${result.stdout}; stderr: ${result.stderr}`,
    );
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`worker printed no JSON last line; stdout: ${result.stdout}; stderr: ${result.stderr}`);
  }
}
