/**
 * The refresh race, for real: 12 callers in 3 processes (4 concurrent `callTool` each) find the same
 * expired access token in one shared `plaintextFileStore`, behind a real authorization server (oidc-provider) that
 * rotates refresh tokens and revokes the whole grant when a rotated-out one is presented again. The
 * authorization server must see exactly one refresh, every caller must succeed with the new token, and
 * the store must hold the rotated refresh token.
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createOAuth, plaintextFileStore } from '../../src/oauth/index.js';
import { testClock } from '../helpers/clock.js';
import { must } from '../helpers/must.js';
import {
  type AuthorizationServer,
  NATIVE_CLIENT,
  startAuthorizationServer,
} from '../helpers/oidc-provider.js';
import { type ProtectedMcpServer, startProtectedMcpServer } from '../helpers/protected-mcp.js';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'race-worker.ts');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PROCESSES = 3;
const CALLS = 4;

interface WorkerResult {
  ok: boolean;
  text?: string;
  kind?: string;
  message?: string;
}

/** A worker, with its stdout split into JSON lines. */
class Worker {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: Record<string, unknown>[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;
  #waiters: (() => void)[] = [];

  constructor(args: string[]) {
    this.child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let buffer = '';
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        try {
          this.lines.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          this.lines.push({ unparsed: line });
        }
        for (const wake of this.#waiters.splice(0)) wake();
      }
    });
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    void this.exited.then(() => {
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  /** The first line with `field`; fails when the worker exits or `timeoutMs` passes first. */
  async line(field: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.find((l) => field in l);
      if (found !== undefined) return found;
      if (this.child.exitCode !== null || Date.now() > deadline)
        assert.fail(
          `worker gave no ${field} line (exit ${this.child.exitCode}): ${this.stderr.slice(-2000)}`,
        );
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
}

let as: AuthorizationServer;
let mcp: ProtectedMcpServer;
let dir: string;
const workers: Worker[] = [];

before(async () => {
  as = await startAuthorizationServer();
  mcp = await startProtectedMcpServer({ authorizationServer: as.issuer });
  as.addResource(mcp.resource);
  dir = await mkdtemp(path.join(tmpdir(), 'autos-mcp-race-'));
});
after(async () => {
  for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
  await mcp?.close();
  await as?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

test(`refresh race: ${PROCESSES} processes × ${CALLS} concurrent calls on one file store refresh exactly once`, async (t) => {
  const store = plaintextFileStore('race', { dir });
  const clock = testClock();
  const auth = createOAuth(
    { url: mcp.url.href, clientId: NATIVE_CLIENT.client_id },
    { store, clock, openUrl: () => assert.fail('a device login opens no browser') },
  );
  const approvals: Promise<void>[] = [];
  await auth.login({
    device: true,
    prompt: (prompt) => {
      if (prompt.kind === 'device') approvals.push(as.approveDevice(prompt.userCode));
    },
  });
  await Promise.all(approvals);
  const status = await auth.status();
  assert.equal(status.refreshable, true);
  const tokenKeys = await store.keys('token ');
  assert.equal(tokenKeys.length, 1);
  const key = must(tokenKeys[0], 'a token key');
  const before = must(await store.get(key), 'the stored token');

  const started = Date.now();
  for (let i = 0; i < PROCESSES; i++) workers.push(new Worker([dir, 'race', mcp.url.href, String(CALLS)]));
  await Promise.all(workers.map((w) => w.line('ready')));
  t.diagnostic(`${PROCESSES} workers connected in ${Date.now() - started} ms`);
  // A real race needs every worker to have connected with the old token, and none to have refreshed.
  assert.equal(as.events.refreshes, 0, 'no refresh before the race');
  assert.equal((await auth.status()).expired, false);

  // Every clock (this one and each worker's) moves past the expiry at once: no real time is waited out.
  const expiry = Date.parse(must(status.expiresAt, 'an expiry')) + 1000;
  clock.advance(expiry - clock.now());
  assert.equal((await auth.status()).expired, true);
  const seen = mcp.requests.length;
  const go = Date.now();
  for (const worker of workers) worker.child.stdin.write(`go ${expiry}\n`);
  const outputs = await Promise.all(workers.map((w) => w.line('results')));
  t.diagnostic(`${PROCESSES * CALLS} calls across the refresh in ${Date.now() - go} ms`);
  assert.deepEqual(
    await Promise.all(workers.map((w) => w.exited)),
    workers.map(() => 0),
  );

  const results = outputs.flatMap((o) => o['results'] as WorkerResult[]);
  assert.equal(results.length, PROCESSES * CALLS);
  assert.deepEqual(
    results,
    results.map(() => ({ ok: true, text: 'sub=device-user scope=mcp:read mcp:write' })),
  );

  // The authorization server saw one refresh, and no reuse of a rotated-out refresh token.
  assert.equal(as.events.refreshes, 1);
  assert.equal(as.events.refreshFailures, 0);
  assert.equal(as.events.tokenRequestLog.filter((r) => r.grantType === 'refresh_token').length, 1);

  // The store holds the rotated credential, one write after the login's.
  const afterRace = must(await store.get(key), 'the stored token after the race');
  assert.notEqual(afterRace['refreshToken'], before['refreshToken']);
  assert.equal(typeof afterRace['refreshToken'], 'string');
  assert.notEqual(afterRace['accessToken'], before['accessToken']);
  assert.equal(afterRace['serial'], Number(before['serial']) + 1);
  const statusAfter = await auth.status();
  assert.equal(statusAfter.expired, false);
  assert.equal(statusAfter.refreshable, true);

  // Every caller refreshed (or waited) before sending: only the new token reached the MCP server.
  const calls = mcp.requests.slice(seen);
  assert.equal(calls.filter((r) => r.method === 'tools/call').length, PROCESSES * CALLS);
  assert.ok(
    calls.every((r) => r.token === afterRace['accessToken'] && r.status === 200),
    `every call carried the new token and was accepted: ${JSON.stringify(calls.map((r) => r.status))}`,
  );
});
