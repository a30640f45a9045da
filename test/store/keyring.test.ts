/**
 * The OS credential store (`keyringStore`) on Linux, against a real Secret Service: gnome-keyring in a
 * private D-Bus session (test/helpers/keyring-session.ts), driven by fixtures/keyring-worker.ts, which
 * performs the calls and prints their outcomes. Round trips, prefixes, stores kept apart, items the store
 * did not write, writers in three processes under `withLock`; then no Secret Service at all (fails fast
 * with `kind: 'config'` naming the fix), and a D-Bus that accepts and never answers (`kind: 'timeout'`
 * on the deadline, the helper child killed, the process free to end). No planted secret is ever in an error.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type TestContext, test } from 'node:test';
import { keyringStore } from '../../src/store/keyring.js';
import { runInKeyringSession, runNode, type WorkerResult, workerJson } from '../helpers/keyring-session.js';
import { must } from '../helpers/must.js';
import { KEYRING_WORKER, type Step, type StepResult } from './fixtures/keyring-worker.js';

/** Planted secrets: one the message redactor would mask anyway, one only the code itself keeps out. */
const SECRET_SK = 'sk-live-0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d';
const SECRET_PLAIN = 'quartz-heron-lantern';
const SECRETS = [SECRET_SK, SECRET_PLAIN];

async function tempDir(t: TestContext, prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function stepsArgs(lockDir: string, timeoutMs: number | undefined, steps: readonly Step[]): string[] {
  return ['steps', lockDir, timeoutMs === undefined ? '-' : String(timeoutMs), JSON.stringify(steps)];
}

/** The results of a steps run, one per step, after checking that no secret reached the worker's output. */
function results(result: WorkerResult, count: number): StepResult[] {
  const out = workerJson<StepResult[]>(result);
  assert.equal(out.length, count, 'one result per step');
  for (const r of out)
    if (!r.ok)
      for (const text of [r.message, ...r.causes])
        for (const secret of SECRETS) assert.ok(!text.includes(secret), `a secret in an error: ${text}`);
  for (const secret of SECRETS)
    assert.ok(!result.stderr.includes(secret), `a secret on stderr: ${result.stderr}`);
  return out;
}

function ok(result: StepResult | undefined, what: string): unknown {
  const r = must(result, what);
  if (!r.ok) assert.fail(`${what}: want success, got ${r.kind} error after ${r.ms} ms: ${r.message}`);
  return r.value;
}

function err(result: StepResult | undefined, what: string): Extract<StepResult, { ok: false }> {
  const r = must(result, what);
  if (r.ok) assert.fail(`${what}: want an error, got ${JSON.stringify(r.value)}`);
  return r;
}

test('keyring store in a real Secret Service: round trips, prefixes, stores apart, foreign items', async (t) => {
  const lockDir = await tempDir(t, 'autos-mcp-keyring-locks-');
  const planted = { token: SECRET_SK, nested: { refresh: SECRET_PLAIN, n: 3, list: [1, 'two', null] } };
  const steps: Step[] = [
    /* 0 */ { op: 'set', store: 'one', key: 'https://a.example/1', value: planted },
    /* 1 */ { op: 'set', store: 'one', key: 'https://a.example/2', value: { n: 2 } },
    /* 2 */ { op: 'set', store: 'one', key: 'b/1', value: { n: 3 } },
    /* 3 */ { op: 'set', store: 'two', key: 'https://a.example/1', value: { other: true } },
    /* 4 */ { op: 'get', store: 'one', key: 'https://a.example/1' },
    /* 5 */ { op: 'get', store: 'two', key: 'https://a.example/1' },
    /* 6 */ { op: 'keys', store: 'one', prefix: 'https://a.example/' },
    /* 7 */ { op: 'keys', store: 'one' },
    /* 8 */ { op: 'keys', store: 'two' },
    /* 9 */ { op: 'get', store: 'one', key: 'missing' },
    /* 10 */ { op: 'raw-search', service: 'autos-mcp/one' },
    /* 11 */ { op: 'delete', store: 'one', key: 'https://a.example/2' },
    /* 12 */ { op: 'get', store: 'one', key: 'https://a.example/2' },
    /* 13 */ { op: 'delete', store: 'one', key: 'never-there' },
    /* 14 */ { op: 'keys', store: 'one', prefix: 'https://' },
    /* 15 */ { op: 'set', store: 'one', key: 'b/1', value: { n: 4, replaced: true } },
    /* 16 */ { op: 'get', store: 'one', key: 'b/1' },
    // Items written by someone else (secret-tool), under the attributes the binding uses.
    /* 17 */ {
      op: 'raw-store',
      service: 'autos-mcp/one',
      username: 'foreign',
      text: `not json ${SECRET_PLAIN}`,
    },
    /* 18 */ { op: 'get', store: 'one', key: 'foreign' },
    /* 19 */ { op: 'raw-store', service: 'autos-mcp/one', username: 'scalar', text: `"${SECRET_PLAIN}"` },
    /* 20 */ { op: 'get', store: 'one', key: 'scalar' },
    /* 21 */ { op: 'raw-store', service: 'autos-mcp/one', username: 'array', text: `["${SECRET_PLAIN}"]` },
    /* 22 */ { op: 'get', store: 'one', key: 'array' },
    /* 23 */ { op: 'keys', store: 'one' },
    /* 24 */ { op: 'keys', store: 'two' },
    /* 25 */ { op: 'set-repeated', store: 'one', key: 'big', text: SECRET_PLAIN, chars: 1_100_000 },
    /* 26 */ { op: 'locked-get', store: 'one', key: 'b/1' },
    /* 27 */ { op: 'helpers' },
  ];
  const result = await runInKeyringSession(KEYRING_WORKER, stepsArgs(lockDir, undefined, steps));
  const r = results(result, steps.length);

  for (const i of [0, 1, 2, 3, 11, 13, 15]) ok(r[i], `step ${i}`);
  assert.deepEqual(ok(r[4], 'get of the planted value'), planted, 'a value with secrets round-trips');
  assert.deepEqual(ok(r[5], 'get from store two'), { other: true }, 'store two keeps its own value');
  assert.deepEqual(ok(r[6], 'keys with a prefix'), ['https://a.example/1', 'https://a.example/2']);
  assert.deepEqual(ok(r[7], 'keys'), ['b/1', 'https://a.example/1', 'https://a.example/2']);
  assert.deepEqual(ok(r[8], 'keys of store two'), ['https://a.example/1']);
  assert.equal(ok(r[9], 'get missing'), null, 'a missing key is undefined');

  const attributes = ok(r[10], 'secret-tool search') as string[];
  assert.ok(attributes.includes('attribute.service = autos-mcp/one'), attributes.join('\n'));
  assert.ok(attributes.includes('attribute.username = https://a.example/1'), attributes.join('\n'));

  assert.equal(ok(r[12], 'get after delete'), null);
  assert.deepEqual(ok(r[14], 'keys after delete'), ['https://a.example/1']);
  assert.deepEqual(ok(r[16], 'get after replace'), { n: 4, replaced: true });

  for (const [i, what] of [
    [18, 'non-JSON text'],
    [20, 'a JSON string'],
    [22, 'a JSON array'],
  ] as const) {
    ok(r[i - 1], `raw-store of ${what}`);
    const e = err(r[i], `get of ${what}`);
    assert.equal(e.kind, 'config', e.message);
    assert.match(e.message, /corrupt/);
    assert.match(e.message, /autos-mcp\/one/, 'names the service');
    assert.ok(!e.message.includes('not json') && !e.message.includes(SECRET_PLAIN), e.message);
  }
  assert.deepEqual(ok(r[23], 'keys with foreign items'), [
    'array',
    'b/1',
    'foreign',
    'https://a.example/1',
    'scalar',
  ]);
  assert.deepEqual(ok(r[24], 'keys of store two, still'), ['https://a.example/1']);

  const big = err(r[25], 'set of a value over the bound');
  assert.equal(big.kind, 'too_large', big.message);

  assert.deepEqual(ok(r[26], 'get under withLock'), { n: 4, replaced: true });
  assert.equal((ok(r[27], 'helpers') as number[]).length, 1, 'one helper child serves every call');
  assert.equal(result.code, 0, 'the worker ended by itself, with its idle helper child still there');
});

test('keyring store: three processes in one session, 10 locked read-increment-writes each, make 30', async (t) => {
  const lockDir = await tempDir(t, 'autos-mcp-keyring-locks-');
  const steps: Step[] = [
    { op: 'counters', store: 'race', key: 'counter', processes: 3, cycles: 10 },
    { op: 'get', store: 'race', key: 'counter' },
  ];
  const result = await runInKeyringSession(KEYRING_WORKER, stepsArgs(lockDir, undefined, steps));
  const r = results(result, steps.length);
  ok(r[0], 'the counter workers');
  assert.deepEqual(ok(r[1], 'the counter'), { n: 30 });
  assert.ok(
    (await readdir(lockDir)).every((f) => !f.endsWith('.lock')),
    'every lock was released',
  );
});

const UNAVAILABLE_STEPS: Step[] = [
  { op: 'get', store: 'x', key: 'k' },
  { op: 'set', store: 'x', key: 'k', value: { token: SECRET_SK, other: SECRET_PLAIN } },
  { op: 'keys', store: 'x' },
  { op: 'delete', store: 'x', key: 'k' },
];

function checkUnavailable(result: WorkerResult): void {
  const r = results(result, UNAVAILABLE_STEPS.length);
  for (const [i, step] of UNAVAILABLE_STEPS.entries()) {
    const e = err(r[i], step.op);
    assert.equal(e.kind, 'config', `${step.op}: ${e.kind}: ${e.message}`);
    assert.ok(e.ms < 3000, `${step.op} failed fast: ${e.ms} ms`);
    assert.match(e.message, /Secret Service/, e.message);
    assert.match(e.message, /gnome-keyring/, e.message);
    assert.match(e.message, /plaintext file backend/, e.message);
  }
  assert.equal(result.code, 0, `the worker ended by itself: ${result.stderr}`);
}

test('no Secret Service: DBUS_SESSION_BUS_ADDRESS at a socket that does not exist → config, fast', async (t) => {
  const dir = await tempDir(t, 'autos-mcp-nobus-');
  const env = {
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(dir, 'no-such-bus')}`,
    XDG_RUNTIME_DIR: dir,
  };
  checkUnavailable(
    await runNode(KEYRING_WORKER, stepsArgs(dir, 8000, UNAVAILABLE_STEPS), { env, timeoutMs: 20_000 }),
  );
});

test('no Secret Service: DBUS_SESSION_BUS_ADDRESS unset (and no bus in XDG_RUNTIME_DIR) → config, fast', async (t) => {
  const dir = await tempDir(t, 'autos-mcp-nobus-');
  // runNode passes only PATH, HOME and these: no DBUS_SESSION_BUS_ADDRESS, no DISPLAY to autolaunch on.
  checkUnavailable(
    await runNode(KEYRING_WORKER, stepsArgs(dir, 8000, UNAVAILABLE_STEPS), {
      env: { XDG_RUNTIME_DIR: dir },
      timeoutMs: 20_000,
    }),
  );
});

/** Live processes running the keyring helper (its program pins the Secret Service) whose environment holds `mark`. */
async function helpersWith(mark: string): Promise<number[]> {
  const out: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes("store: 'secret-service'")) continue;
      if ((await readFile(`/proc/${entry}/environ`, 'utf8')).includes(mark)) out.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

test('a D-Bus that accepts and never answers: timeout on the deadline, helper killed, process ends', async (t) => {
  const dir = await tempDir(t, 'autos-mcp-hungbus-');
  const socketPath = path.join(dir, 'bus');
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.resume(); // reads what the client sends, never writes a byte
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  t.after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const steps: Step[] = [
    { op: 'get', store: 'x', key: 'k' },
    { op: 'helpers', settle: true },
    { op: 'set', store: 'x', key: 'k', value: { token: SECRET_SK, other: SECRET_PLAIN } },
    { op: 'helpers', settle: true },
    { op: 'keys', store: 'x' },
  ];
  const result = await runNode(KEYRING_WORKER, stepsArgs(dir, 1500, steps), {
    env: { DBUS_SESSION_BUS_ADDRESS: `unix:path=${socketPath}`, XDG_RUNTIME_DIR: dir },
    timeoutMs: 30_000,
  });
  const r = results(result, steps.length);
  for (const i of [0, 2, 4]) {
    const e = err(r[i], `call ${i}`);
    assert.equal(e.kind, 'timeout', `call ${i}: ${e.kind}: ${e.message}`);
    assert.ok(e.ms >= 1400 && e.ms < 6000, `call ${i} failed on its deadline: ${e.ms} ms`);
    assert.match(e.message, /did not answer within 1\.5 s/);
  }
  assert.deepEqual(ok(r[1], 'helpers after the first timeout'), [], 'the hung helper child was killed');
  assert.deepEqual(ok(r[3], 'helpers after the second timeout'), [], 'its successor was killed too');
  assert.ok(connections >= 3, `each call's helper reached the bus (${connections} connections)`);
  assert.equal(result.code, 0, `the worker ended by itself after the timeouts: ${result.stderr}`);
  assert.ok(result.ms < 20_000, `the worker did not linger: ${result.ms} ms`);
  assert.deepEqual(await helpersWith(socketPath), [], 'no helper process outlived the worker');
});

test('keyringStore refuses a bad store name without touching the OS store', () => {
  for (const name of ['', '.hidden', 'a/b', 'x'.repeat(65), 'sp ace'])
    assert.throws(() => keyringStore(name), { name: 'McpError', kind: 'config' }, JSON.stringify(name));
  assert.match(keyringStore('ok.name-1_x').description, /service autos-mcp\/ok\.name-1_x/);
});
