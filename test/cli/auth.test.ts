/**
 * `autos-mcp login`, `logout` and `auth status`, and the stored login `tools`/`call` use, run as a user
 * runs them: the built bin in a child process, against a real authorization server (oidc-provider) and a
 * real MCP server that checks its JWTs, with chromium playing the user for the browser login. The store is
 * a temp directory (`AUTOS_MCP_OAUTH_STORE`), so the user's own config is never touched.
 *
 * Every stdout and stderr is kept, and checked at the end against every secret the runs handled: the access
 * and refresh tokens (read from the store file and from what the MCP server was sent), the authorization
 * code, the PKCE code_verifier (any printed string whose S256 is a challenge the server saw), the client secret.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { plaintextFileStore } from '../../src/oauth/index.js';
import { approveInBrowser, type Browser, launchBrowser } from '../helpers/browser.js';
import { builtBin } from '../helpers/built-package.js';
import { must } from '../helpers/must.js';
import {
  type AuthorizationServer,
  NATIVE_CLIENT,
  startAuthorizationServer,
} from '../helpers/oidc-provider.js';
import { type ProtectedMcpServer, startProtectedMcpServer } from '../helpers/protected-mcp.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The binary built from the current sources, once per test run (test/helpers/built-package.ts). */
const BIN = await builtBin();

/** A native client with a secret (confidential, device grant allowed): its secret must never be printed. */
const SECRET_CLIENT = {
  ...NATIVE_CLIENT,
  client_id: 'native-secret-client',
  client_secret: 'cli-test-client-secret-5f0c2a9e71b84d36',
  token_endpoint_auth_method: 'client_secret_basic',
} as const;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Every output of every run, for the secret scan. */
const outputs: string[] = [];
const temps: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-cli-auth-'));
  temps.push(dir);
  return dir;
}

/** A running CLI: its output so far, a wait for a line of stderr, and its end. */
interface Started {
  child: ChildProcess;
  stderrSoFar(): string;
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  done: Promise<Run>;
}

/** Starts the CLI asynchronously (the servers live in this process: a synchronous spawn would block them). */
function start(args: string[], store: string, env: Record<string, string> = {}): Started {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, AUTOS_MCP_OAUTH_STORE: store, ...env };
  delete childEnv['AUTOS_MCP_TOKEN'];
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: childEnv, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const wake of waiters) wake();
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const done = new Promise<Run>((resolve) => {
    child.on('close', (code) => {
      clearTimeout(killer);
      outputs.push(stdout, stderr);
      for (const wake of waiters) wake();
      resolve({ code, stdout, stderr });
    });
  });
  let exited = false;
  void done.then(() => {
    exited = true;
  });
  return {
    child,
    stderrSoFar: () => stderr,
    done,
    waitForStderr(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${pattern} on stderr within ${timeoutMs} ms; stderr:\n${stderr}`));
        }, timeoutMs);
        const check = (): void => {
          const match = pattern.exec(stderr);
          if (match === null && !exited) return;
          waiters.delete(check);
          clearTimeout(timer);
          if (match === null) reject(new Error(`the CLI ended without ${pattern} on stderr:\n${stderr}`));
          else resolve(match);
        };
        waiters.add(check);
        check();
      });
    },
  };
}

function cli(args: string[], store: string, env: Record<string, string> = {}): Promise<Run> {
  return start(args, store, env).done;
}

/** The store file's entries, read directly (the test's way to learn the real token values). */
function storeEntries(store: string): Record<string, Record<string, unknown>> {
  return JSON.parse(readFileSync(path.join(store, 'cli.json'), 'utf8')) as Record<
    string,
    Record<string, unknown>
  >;
}

const secrets = new Map<string, string>();

/** Remembers the tokens the store holds now, for the final scan. */
function rememberTokens(store: string): void {
  for (const [key, value] of Object.entries(storeEntries(store))) {
    if (!key.startsWith('token ')) continue;
    secrets.set(`access token (${key})`, String(must(value['accessToken'], 'a stored access token')));
    if (typeof value['refreshToken'] === 'string')
      secrets.set(`refresh token (${key})`, value['refreshToken']);
  }
}

/** Logs in with the device grant, approving the code the CLI prints; resolves with the finished run. */
async function deviceLogin(
  as: AuthorizationServer,
  url: string,
  store: string,
  extra: string[] = [],
  env: Record<string, string> = {},
): Promise<{ run: Run; userCode: string }> {
  const login = start(['login', url, '--device', ...extra], store, env);
  const [, userCode] = await login.waitForStderr(/enter the code: (\S+)/);
  await as.approveDevice(must(userCode, 'a user code'));
  return { run: await login.done, userCode: must(userCode, 'a user code') };
}

after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('autos-mcp login / logout / auth status, and tools with a stored login', () => {
  let as: AuthorizationServer;
  let mcp: ProtectedMcpServer;
  let browser: Browser;
  let url: string;

  before(async () => {
    as = await startAuthorizationServer({ clients: [NATIVE_CLIENT, SECRET_CLIENT] });
    mcp = await startProtectedMcpServer({ authorizationServer: as.issuer });
    as.addResource(mcp.resource);
    url = mcp.url.href;
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await mcp?.close();
    await as?.close();
  });

  test('device login, then tools and call use it, status shows it, logout forgets it', async () => {
    const store = tempDir();
    const { run, userCode } = await deviceLogin(as, url, store, ['--client-id', 'native-client']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Logged in to http:\/\/127\.0\.0\.1:\d+\/mcp$/m);
    assert.match(run.stdout, new RegExp(`^  issuer:  ${as.issuer}$`, 'm'));
    assert.match(run.stdout, /^ {2}scopes: .*mcp:read/m);
    assert.match(run.stdout, /^ {2}expires: \S+Z \(in \d+ min; refreshable\)$/m);
    assert.match(run.stderr, new RegExp(`open ${as.issuer}/device and enter the code: ${userCode}`));
    assert.equal(statSync(path.join(store, 'cli.json')).mode & 0o777, 0o600);
    rememberTokens(store);

    const tools = await cli(['tools', url], store);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /^whoami\(\)$/m);
    // The tool name and arguments first, the URL last (the URL may also come first).
    const call = await cli(['call', 'whoami', '{}', url], store);
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /^sub=device-user scope=.*mcp:read/m);
    const callFirst = await cli(['call', url, 'whoami'], store);
    assert.equal(callFirst.code, 0, callFirst.stderr);
    assert.ok(mcp.tokensSeen.length > 0);
    for (const token of mcp.tokensSeen) secrets.set('a token the MCP server was sent', token);

    const status = await cli(['auth', 'status', url], store);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /: logged in$/m);
    assert.match(status.stdout, new RegExp(`^  issuer:  ${as.issuer}$`, 'm'));
    assert.match(status.stdout, /^ {2}scopes: .*mcp:read/m);
    assert.match(status.stdout, /^ {2}store: {3}file .*cli\.json$/m);
    const statusJson = JSON.parse((await cli(['auth', 'status', '--json', url], store)).stdout) as {
      loggedIn: boolean;
      issuer: string;
      refreshable: boolean;
    };
    assert.equal(statusJson.loggedIn, true);
    assert.equal(statusJson.issuer, as.issuer);
    assert.equal(statusJson.refreshable, true);
    const list = await cli(['auth', 'status'], store);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^Stored logins \(file .*cli\.json\):$/m);
    assert.ok(list.stdout.includes(`${url}: logged in`), list.stdout);

    const logout = await cli(['logout', url], store);
    assert.equal(logout.code, 0, logout.stderr);
    assert.match(logout.stdout, /^Logged out of http:\/\/127\.0\.0\.1:\d+\/mcp: its tokens were removed/m);
    const again = await cli(['logout', url], store);
    assert.match(again.stdout, /^Not logged in to .*: nothing was removed$/m);
    assert.doesNotMatch(JSON.stringify(storeEntries(store)), /accessToken/);

    const refused = await cli(['tools', url], store);
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(refused.stderr, /error \[auth_required\]/);
    assert.ok(refused.stderr.includes(`run: autos-mcp login ${url}\n`), refused.stderr);
    assert.match((await cli(['auth', 'status'], store)).stdout, /^No stored logins/m);
  });

  test('--no-browser prints the authorization URL; the browser approves; the code comes back to the loopback', async () => {
    const store = tempDir();
    const login = start(['login', '--no-browser', '--client-id', 'native-client', url], store);
    const [, authorizationUrl] = await login.waitForStderr(/^ {2}(http:\/\/\S+\/auth\?\S+)$/m);
    const authorize = new URL(must(authorizationUrl, 'the authorization URL'));
    assert.equal(authorize.origin, as.issuer);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorize.searchParams.get('resource'), mcp.resource);
    const redirect = await approveInBrowser(browser, authorize, { login: 'browser-user' });
    const code = must(redirect.searchParams.get('code'), 'a code in the redirect');
    secrets.set('the authorization code', code);
    assert.equal(redirect.origin.startsWith('http://127.0.0.1:'), true, redirect.href);
    // The browser's own request to the loopback may or may not have gone out: hand the code over here.
    const answered = await fetch(redirect).then(
      (response) => response.status,
      () => 0,
    );
    const run = await login.done;
    assert.equal(run.code, 0, `${run.stderr}\n(loopback answered ${answered})`);
    assert.match(run.stdout, new RegExp(`^  issuer:  ${as.issuer}$`, 'm'));
    rememberTokens(store);
    const call = await cli(['call', 'whoami', '{}', url], store);
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /^sub=browser-user /m);
    for (const token of mcp.tokensSeen) secrets.set('a token the MCP server was sent', token);

    const json = await cli(['logout', '--json', url], store);
    assert.deepEqual(JSON.parse(json.stdout), { url, removed: true });
  });

  test('a client secret comes from the variable --client-secret-env names, never from argv', async () => {
    const store = tempDir();
    const flag = await cli(['login', url, '--client-secret', SECRET_CLIENT.client_secret], store);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /--client-secret-env/);
    const unset = await cli(
      ['login', url, '--device', '--client-id', SECRET_CLIENT.client_id, '--client-secret-env', 'NOPE_X'],
      store,
    );
    assert.equal(unset.code, 2);
    assert.match(unset.stderr, /NOPE_X .*is not set/);
    assert.equal(existsSync(path.join(store, 'cli.json')), false);

    secrets.set('the client secret', SECRET_CLIENT.client_secret);
    const env = { CLI_TEST_SECRET: SECRET_CLIENT.client_secret };
    const args = ['--client-id', SECRET_CLIENT.client_id, '--client-secret-env', 'CLI_TEST_SECRET', '--json'];
    const { run } = await deviceLogin(as, url, store, args, env);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { issuer: string; scopes: string[]; refreshable: boolean };
    assert.equal(result.issuer, as.issuer);
    assert.ok(result.scopes.includes('mcp:read'));
    assert.ok(
      as.events.tokenRequestLog.some((r) => r.clientId === SECRET_CLIENT.client_id && r.ok),
      'the token came to the confidential client',
    );
    rememberTokens(store);
    assert.doesNotMatch(readFileSync(path.join(store, 'cli.json'), 'utf8'), /cli-test-client-secret/);
    const tools = await cli(['tools', url], store, env);
    assert.equal(tools.code, 0, tools.stderr);
  });

  test('tools without a stored login: exit 3 with the login hint, and nothing is created in the store', async () => {
    const store = path.join(tempDir(), 'not-yet');
    const run = await cli(['tools', `${url}?k=v#frag`], store);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /error \[auth_required\]/);
    const hints = run.stderr.split('\n').filter((line) => line.startsWith('run: '));
    assert.deepEqual(hints, [`run: autos-mcp login ${url}`]);
    assert.equal(existsSync(store), false);
    const status = await cli(['auth', 'status', url], store);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /: not logged in$/m);
    const json = await cli(['tools', '--json', url], store);
    assert.equal(json.code, 3);
    assert.equal((JSON.parse(json.stdout) as { error: { kind: string } }).error.kind, 'auth_required');
    assert.equal(existsSync(store), false);
    assert.equal(readdirSync(path.dirname(store)).length, 0);
  });

  test('usage errors exit 2: a login option on another command, a missing URL, a bad auth subcommand', async () => {
    const store = tempDir();
    assert.equal((await cli(['tools', '--device', url], store)).code, 2);
    assert.equal((await cli(['login'], store)).code, 2);
    assert.equal((await cli(['login', 'not-a-url'], store)).code, 2);
    assert.equal((await cli(['auth'], store)).code, 2);
    assert.equal((await cli(['auth', 'frob'], store)).code, 2);
    assert.equal((await cli(['logout'], store)).code, 2);
    const help = await cli(['--help'], store);
    assert.match(help.stdout, /autos-mcp login \[options\] <url>/);
    assert.match(help.stdout, /autos-mcp auth status/);
    assert.match((await cli(['login', '--help'], store)).stdout, /--client-secret-env/);
  });

  test('no output of any run carries a token, the code, the code_verifier or the client secret', () => {
    assert.ok(secrets.size >= 4, `want the secrets of the runs above, got ${[...secrets.keys()]}`);
    const all = outputs.join('\n');
    for (const [what, value] of secrets) assert.ok(!all.includes(value), `${what} was printed`);
    const challenges = new Set(
      as.events.authorizationRequests.map((query) => query.get('code_challenge')).filter(Boolean),
    );
    assert.ok(challenges.size > 0, 'the browser login sent a code challenge');
    for (const candidate of all.match(/[A-Za-z0-9\-._~]{43,128}/g) ?? []) {
      const s256 = createHash('sha256').update(candidate).digest('base64url');
      assert.ok(!challenges.has(s256), 'a code_verifier was printed');
    }
  });
});

describe('a stored login that has expired is refreshed by tools, as the client that logged in', () => {
  let as: AuthorizationServer;
  let mcp: ProtectedMcpServer;

  before(async () => {
    as = await startAuthorizationServer({ issueRefreshToken: 'always' });
    mcp = await startProtectedMcpServer({ authorizationServer: as.issuer });
    as.addResource(mcp.resource);
  });

  after(async () => {
    await mcp?.close();
    await as?.close();
  });

  test('tools after the access token expired: one refresh, then the call works', async () => {
    const store = tempDir();
    const url = mcp.url.href;
    const { run } = await deviceLogin(as, url, store, ['--client-id', 'native-client']);
    assert.equal(run.code, 0, run.stderr);
    const before = storeEntries(store);
    // The stored login ages past its expiry (the bin reads the wall clock: the record moves, not time).
    const file = plaintextFileStore('cli', { dir: store });
    for (const key of await file.keys('token ')) {
      const token = must(await file.get(key), 'the stored token');
      await file.set(key, { ...token, expiresAt: Date.now() - 1000 });
    }
    const tools = await cli(['tools', url], store);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /^whoami\(\)$/m);
    assert.equal(as.events.refreshes, 1);
    const tokenKey = must(
      Object.keys(before).find((key) => key.startsWith('token ')),
      'a token in the store',
    );
    const after = storeEntries(store);
    assert.notEqual(after[tokenKey]?.['accessToken'], before[tokenKey]?.['accessToken']);
    const all = [run.stdout, run.stderr, tools.stdout, tools.stderr].join('\n');
    for (const entries of [before, after]) {
      const token = must(entries[tokenKey], 'the stored token');
      assert.ok(!all.includes(String(token['accessToken'])));
      assert.ok(!all.includes(String(token['refreshToken'])));
    }
  });
});

describe('logins that cannot mislead: CLI flags in messages, a forgotten registration, Bearer-only servers', () => {
  let as: AuthorizationServer;
  let mcp: ProtectedMcpServer;
  let browser: Browser;
  let url: string;

  before(async () => {
    // Registrations kept in memory, without RFC 7592: a restart forgets them and nothing can tell.
    as = await startAuthorizationServer({ registration: true, registrationManagement: false });
    mcp = await startProtectedMcpServer({ authorizationServer: as.issuer });
    as.addResource(mcp.resource);
    url = mcp.url.href;
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await mcp?.close();
    await as?.close();
  });

  /** `login --no-browser --dcr`, with chromium approving the printed URL. */
  async function browserLogin(store: string): Promise<Run> {
    const login = start(['login', '--no-browser', '--dcr', url], store);
    const [, printed] = await login.waitForStderr(/^ {2}(http:\/\/\S+\/auth\?\S+)$/m);
    const redirect = await approveInBrowser(browser, must(printed, 'the authorization URL'));
    await fetch(redirect).then(
      (response) => response.arrayBuffer(),
      () => {},
    );
    return login.done;
  }

  test('no client at hand: the error names --client-id and --dcr, not the library options', async () => {
    const run = await cli(['login', '--no-browser', url], tempDir());
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /give a pre-registered client with --client-id, or allow dynamic registration with --dcr/,
    );
    assert.doesNotMatch(run.stderr, /dcr: true|clientId|clientMetadataUrl/);
    assert.equal(as.events.authorizationRequests.length, 0);
  });

  test('a registration the server forgot: the login times out naming logout --forget-registration, which frees it', async () => {
    const store = tempDir();
    const first = await browserLogin(store);
    assert.equal(first.code, 0, first.stderr);
    const registrations = as.events.registrations;
    // The next login listens on the port the registration names: no late request of this browser may reach it.
    await browser.close();
    browser = await launchBrowser();

    await as.restart();
    const started = performance.now();
    const stuck = await cli(['login', '--no-browser', '--dcr', '--timeout', '2000', url], store);
    const took = performance.now() - started;
    assert.equal(stuck.code, 3, stuck.stderr);
    assert.match(stuck.stderr, /the login did not finish within 2000 ms \(--timeout\)/);
    assert.match(stuck.stderr, /may have forgotten the client autos-mcp registered there/);
    assert.ok(
      stuck.stderr.includes(`drop it with autos-mcp logout --forget-registration ${url} and log in again`),
      stuck.stderr,
    );
    assert.doesNotMatch(stuck.stderr, /forgetRegistration\(\)/);
    assert.ok(took < 15_000, `the --timeout was kept (${Math.round(took)} ms)`);

    const logout = await cli(['logout', '--forget-registration', url], store);
    assert.equal(logout.code, 0, logout.stderr);
    assert.match(logout.stdout, /^The client registered at its authorization server was forgotten/m);
    const json = await cli(['logout', '--forget-registration', '--json', url], store);
    assert.deepEqual(JSON.parse(json.stdout), { url, removed: false, registrationForgotten: false });

    const again = await browserLogin(store);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(as.events.registrations, registrations + 1, 'a new registration');
    assert.equal((await cli(['tools', url], store)).code, 0);
    assert.equal((await cli(['tools', '--forget-registration', url], store)).code, 2);
  });

  test('--dpop at a server that takes Bearer tokens only: one refused call, a sentence naming --dpop', async () => {
    const store = tempDir();
    const { run } = await deviceLogin(as, url, store, ['--client-id', 'native-client', '--dpop']);
    assert.equal(run.code, 0, run.stderr);
    const refreshes = as.events.tokenRequests;
    const seen = mcp.requests.length;
    const tools = await cli(['tools', url], store);
    assert.equal(tools.code, 3, tools.stderr);
    assert.match(
      tools.stderr,
      /takes Bearer tokens only and refused the DPoP-bound token \(--dpop\): log in again without it/,
    );
    assert.ok(tools.stderr.includes(`run: autos-mcp login ${url}\n`), tools.stderr);
    assert.equal(as.events.tokenRequests, refreshes, 'no refresh: another DPoP-bound token would not help');
    assert.equal(mcp.requests.length - seen, 1, 'one request, refused once');
  });

  test('login --help names the real default store; without a Secret Service the error names the setting', async () => {
    const help = await cli(['login', '--help'], tempDir());
    assert.match(help.stdout, /Logins are kept in the OS credential store/);
    assert.doesNotMatch(help.stdout, /The store is a private file/);

    const home = tempDir();
    const run = await cli(['auth', 'status'], '', {
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(home, 'no-bus')}`,
      XDG_CONFIG_HOME: home,
      HOME: home,
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /is not available/);
    assert.match(
      run.stderr,
      /set AUTOS_MCP_OAUTH_STORE=<dir> to keep logins in a plaintext file <dir>\/cli\.json/,
    );
  });
});
