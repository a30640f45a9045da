/**
 * The credential stores behind autos-mcp/settings and autos-mcp/oauth: memory and plaintext file stores (round trip, deep copies, private
 * permissions, corrupt files, atomic writes, names), the default config directory, and the locks (mutual
 * exclusion in one process and across processes, timeouts, stale locks of dead or old holders).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { homedir, hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { type TestContext, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isErrorKind } from '../../src/errors/index.js';
import { type CredentialStore, memoryStore, plaintextFileStore } from '../../src/store/index.js';
import { withFileLock } from '../../src/store/lock.js';
import { configDir, displayPath } from '../../src/store/paths.js';

const run = promisify(execFile);
const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'lock-worker.ts');
const POSIX = process.platform !== 'win32';
const SECRET = 'sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';

async function tempDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'autos-mcp-store-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The path `withLock(key)` of the file store `name` locks, as documented. */
function keyLockPath(dir: string, name: string, key: string): string {
  return path.join(dir, `${name}.${createHash('sha256').update(key).digest('hex').slice(0, 16)}.lock`);
}

function holder(pid: number, acquiredAt: number, token = 'someone-else'): string {
  return JSON.stringify({ pid, host: hostname(), acquiredAt, token });
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = execFile(process.execPath, ['-e', '']);
  const pid = child.pid;
  await new Promise((resolve) => child.on('exit', resolve));
  assert.ok(pid !== undefined, 'want the pid of the exited child');
  assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' });
  return pid;
}

function isKind(kind: string, pattern?: RegExp) {
  return (error: unknown): boolean => {
    assert.ok(isErrorKind(error, kind as 'config'), `want kind ${kind}, got ${String(error)}`);
    if (pattern) assert.match(error.message, pattern);
    return true;
  };
}

async function mode(file: string): Promise<number> {
  return (await stat(file)).mode & 0o777;
}

/** 20 concurrent read-increment-write cycles under `withLock`; a lost update leaves the counter short. */
async function concurrentIncrements(store: CredentialStore): Promise<number> {
  await Promise.all(
    Array.from({ length: 20 }, () =>
      store.withLock('counter', async () => {
        const value = (await store.get('counter'))?.['n'];
        await new Promise((resolve) => setTimeout(resolve, 1));
        await store.set('counter', { n: (typeof value === 'number' ? value : 0) + 1 });
      }),
    ),
  );
  return (await store.get('counter'))?.['n'] as number;
}

async function roundTrip(store: CredentialStore): Promise<void> {
  assert.equal(await store.get('missing'), undefined);
  assert.deepEqual(await store.keys(), []);
  await store.set('tokens:https://a.example', { access: 'a1', nested: { list: [1, 2] } });
  await store.set('tokens:https://b.example', { access: 'b1' });
  await store.set('client:https://a.example', { id: 'c' });
  await store.set('__proto__', { odd: true });
  assert.deepEqual(await store.get('tokens:https://a.example'), { access: 'a1', nested: { list: [1, 2] } });
  assert.deepEqual(await store.get('__proto__'), { odd: true });
  assert.deepEqual(await store.keys('tokens:'), ['tokens:https://a.example', 'tokens:https://b.example']);
  assert.equal((await store.keys()).length, 4);
  await store.set('tokens:https://b.example', { access: 'b2' });
  assert.deepEqual(await store.get('tokens:https://b.example'), { access: 'b2' });
  await store.delete('tokens:https://b.example');
  await store.delete('never-there');
  assert.equal(await store.get('tokens:https://b.example'), undefined);
  assert.deepEqual(await store.keys('tokens:'), ['tokens:https://a.example']);
}

async function deepCopies(store: CredentialStore): Promise<void> {
  const value = { access: 'x', nested: { n: 1 } };
  await store.set('k', value);
  value.nested.n = 2;
  const got = await store.get('k');
  assert.deepEqual(got, { access: 'x', nested: { n: 1 } });
  (got?.['nested'] as { n: number }).n = 3;
  assert.deepEqual(await store.get('k'), { access: 'x', nested: { n: 1 } });
}

test('memory store: get, set, delete, keys', async () => {
  const store = memoryStore();
  assert.equal(store.description, 'memory');
  await roundTrip(store);
  assert.deepEqual(await memoryStore().keys(), [], 'each memory store is its own');
});

test('memory store: values are deep-copied in and out; non-objects refused', async () => {
  const store = memoryStore();
  await deepCopies(store);
  await assert.rejects(store.set('k', [1] as never), isKind('config'));
  await assert.rejects(store.set('k', { f: () => SECRET }), (error: unknown) => {
    isKind('config')(error);
    return !String(error).includes(SECRET);
  });
});

test('memory store: withLock excludes, queues FIFO, releases on throw, times out', async () => {
  const store = memoryStore();
  assert.equal(await concurrentIncrements(store), 20);

  const order: number[] = [];
  await Promise.all(
    [0, 1, 2, 3, 4].map((i) =>
      store.withLock('q', async () => {
        await new Promise((resolve) => setTimeout(resolve, 5 - i));
        order.push(i);
      }),
    ),
  );
  assert.deepEqual(order, [0, 1, 2, 3, 4]);

  await assert.rejects(
    store.withLock('t', () => Promise.reject(new Error('boom'))),
    /boom/,
  );
  assert.equal(await store.withLock('t', async () => 'free again'), 'free again');

  let release = (): void => {};
  const held = store.withLock('t', () => new Promise<void>((resolve) => (release = resolve)));
  await assert.rejects(
    store.withLock('t', async () => 'never', { timeoutMs: 30 }),
    (error: unknown) => {
      isKind('timeout', /timed out after 30 ms/)(error);
      assert.ok(isErrorKind(error, 'timeout') && error.delivery === 'not_sent');
      return true;
    },
  );
  const next = store.withLock('t', async () => 'after the timed-out waiter');
  release();
  await held;
  assert.equal(await next, 'after the timed-out waiter');
  assert.equal(await store.withLock('other', async () => 1, { timeoutMs: 0 }), 1);
});

test('file store: get, set, delete, keys, persisted across instances', async (t) => {
  const dir = await tempDir(t);
  const store = plaintextFileStore('work', { dir });
  await roundTrip(store);
  const again = plaintextFileStore('work', { dir });
  assert.deepEqual(await again.get('tokens:https://a.example'), { access: 'a1', nested: { list: [1, 2] } });
  assert.deepEqual(await plaintextFileStore('other', { dir }).keys(), []);
  assert.deepEqual(
    JSON.parse(await readFile(path.join(dir, 'work.json'), 'utf8'))['client:https://a.example'],
    {
      id: 'c',
    },
  );
  await deepCopies(store);
});

test('file store: description shows the path, home as ~; nothing is created before use', async (t) => {
  const home = path.join(homedir(), '.config', 'autos-mcp-test-never-created');
  assert.equal(
    plaintextFileStore('work', { dir: home }).description,
    `file ~${path.sep}${path.join('.config', 'autos-mcp-test-never-created', 'work.json')}`,
  );
  const dir = await tempDir(t);
  const store = plaintextFileStore('work', { dir: path.join(dir, 'sub') });
  assert.equal(store.description, `file ${displayPath(path.join(dir, 'sub', 'work.json'))}`);
  assert.equal(await store.get('k'), undefined);
  assert.deepEqual(await readdir(dir), []);
});

test('file store: directory 0700 and file 0600, tightened on write', { skip: !POSIX }, async (t) => {
  const dir = path.join(await tempDir(t), 'a', 'oauth');
  const store = plaintextFileStore('work', { dir });
  await store.set('k', { v: 1 });
  assert.equal(await mode(dir), 0o700);
  assert.equal(await mode(path.join(dir, 'work.json')), 0o600);
  await chmod(dir, 0o755);
  await chmod(path.join(dir, 'work.json'), 0o644);
  await store.set('k', { v: 2 });
  assert.equal(await mode(dir), 0o700);
  assert.equal(await mode(path.join(dir, 'work.json')), 0o600);
});

test('file store: a file others can read is refused with the chmod fix', { skip: !POSIX }, async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'work.json');
  await writeFile(file, JSON.stringify({ k: { token: SECRET } }), { mode: 0o644 });
  await chmod(file, 0o644);
  const store = plaintextFileStore('work', { dir });
  const refused = (error: unknown): boolean => {
    isKind('config', /other users may access it \(mode 644\)/)(error);
    assert.ok(String(error).includes(`chmod 600 ${file}`), String(error));
    return !String(error).includes(SECRET);
  };
  await assert.rejects(store.get('k'), refused);
  await assert.rejects(store.keys(), refused);
  await chmod(file, 0o640);
  await assert.rejects(store.get('k'), isKind('config', /mode 640/));
  await chmod(file, 0o600);
  assert.deepEqual(await store.get('k'), { token: SECRET });
});

test('file store: a corrupt file is a config error naming the path, never its content, and is kept', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'work.json');
  const store = plaintextFileStore('work', { dir });
  const cases = [
    `{"k": {"access_token": "${SECRET}", "note": ${SECRET}}}`,
    `{"k": {"v": "${SECRET}"}`,
    `["${SECRET}"]`,
    `"${SECRET}"`,
    `{"k": "${SECRET}"}`,
    '',
  ];
  for (const content of cases) {
    await writeFile(file, content, { mode: 0o600 });
    const corrupt = (error: unknown): boolean => {
      isKind('config', /is corrupt/)(error);
      assert.ok(isErrorKind(error, 'config'));
      assert.ok(error.message.includes(displayPath(file)), error.message);
      for (const text of [error.message, JSON.stringify(error.toJSON()), String(error.stack)]) {
        assert.ok(!text.includes(SECRET), `the content leaked: ${text}`);
        assert.ok(!text.includes('sk-live'), `the content leaked: ${text}`);
      }
      return true;
    };
    await assert.rejects(store.get('k'), corrupt);
    await assert.rejects(store.set('other', { v: 1 }), corrupt);
    await assert.rejects(store.delete('k'), corrupt);
    assert.equal(await readFile(file, 'utf8'), content, 'a corrupt file is never overwritten');
  }
});

test('file store: a file over 4 MiB is not read', async (t) => {
  const dir = await tempDir(t);
  await writeFile(path.join(dir, 'big.json'), `{"k": {"v": "${'x'.repeat(4 * 1024 * 1024)}"}}`, {
    mode: 0o600,
  });
  await assert.rejects(plaintextFileStore('big', { dir }).get('k'), isKind('config', /larger than/));
  const store = plaintextFileStore('small', { dir });
  await assert.rejects(store.set('k', { v: 'y'.repeat(4 * 1024 * 1024) }), isKind('too_large'));
  assert.equal(await store.get('k'), undefined);
});

test('file store: writes are atomic and leave no temp or lock files', async (t) => {
  const dir = await tempDir(t);
  const store = plaintextFileStore('work', { dir });
  const big = 'v'.repeat(64 * 1024);
  const writes = Promise.all(Array.from({ length: 30 }, (_, i) => store.set(`k${i}`, { i, big })));
  let reads = 0;
  let done = false;
  writes.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    const keys = await store.keys(); // a half-written file would be a corrupt-file error
    for (const key of keys) assert.equal((await store.get(key))?.['big'], big);
    reads++;
  }
  await writes;
  assert.ok(reads > 0);
  assert.equal((await store.keys()).length, 30);
  await store.withLock('x', async () => {});
  assert.deepEqual(await readdir(dir), ['work.json']);
});

test('file store: names are validated', async (t) => {
  const dir = await tempDir(t);
  for (const name of ['', '.hidden', '..', 'a/b', 'a\\b', 'a b', 'ä', 'x'.repeat(65), 'a\nb', 42]) {
    assert.throws(
      () => plaintextFileStore(name as string, { dir }),
      isKind('config', /store name/),
      `name ${String(name)}`,
    );
  }
  for (const name of ['work', 'a.b-c_1', 'x'.repeat(64), 'A9']) plaintextFileStore(name, { dir });
  assert.deepEqual(await readdir(dir), []);
});

test('configDir: XDG or ~/.config on Linux, Application Support on macOS, APPDATA on Windows', () => {
  const home = '/home/u';
  assert.equal(configDir({ platform: 'linux', home, env: {} }), '/home/u/.config/autos-mcp');
  assert.equal(
    configDir({ platform: 'linux', home, env: { XDG_CONFIG_HOME: '/x/cfg' } }),
    '/x/cfg/autos-mcp',
  );
  assert.equal(
    configDir({ platform: 'linux', home, env: { XDG_CONFIG_HOME: 'rel' } }),
    '/home/u/.config/autos-mcp',
  );
  assert.equal(configDir({ platform: 'freebsd', home, env: {} }), '/home/u/.config/autos-mcp');
  assert.equal(
    configDir({ platform: 'darwin', home: '/Users/u', env: { XDG_CONFIG_HOME: '/x' } }),
    '/Users/u/Library/Application Support/autos-mcp',
  );
  assert.equal(
    configDir({
      platform: 'win32',
      home: 'C:\\Users\\u',
      env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' },
    }),
    'C:\\Users\\u\\AppData\\Roaming\\autos-mcp',
  );
  assert.equal(
    configDir({ platform: 'win32', home: 'C:\\Users\\u', env: {} }),
    'C:\\Users\\u\\AppData\\Roaming\\autos-mcp',
  );
  assert.equal(displayPath('/home/u/.config/x.json', '/home/u'), '~/.config/x.json');
  assert.equal(displayPath('/home/user2/x.json', '/home/u'), '/home/user2/x.json');
  assert.equal(displayPath('C:\\Users\\u\\x.json', 'C:\\Users\\u'), '~\\x.json');
});

test('file store: withLock excludes 20 concurrent increments in one process and releases on throw', async (t) => {
  const dir = await tempDir(t);
  const store = plaintextFileStore('work', { dir });
  assert.equal(await concurrentIncrements(store), 20);
  await assert.rejects(
    store.withLock('counter', () => Promise.reject(new Error('boom'))),
    /boom/,
  );
  assert.equal(await store.withLock('counter', async () => 'free', { timeoutMs: 100 }), 'free');
  assert.deepEqual(await readdir(dir), ['work.json']);
});

test('file store: 3 processes × 10 locked increments end at exactly 30 (after breaking a dead lock)', async (t) => {
  const dir = await tempDir(t);
  await mkdir(dir, { recursive: true });
  // All three workers find this lock of a dead process and race to break it.
  await writeFile(keyLockPath(dir, 'shared', 'counter'), holder(await deadPid(), Date.now()), {
    mode: 0o600,
  });
  const startAt = Date.now() + 1500;
  const workers = [0, 1, 2].map(() =>
    run(process.execPath, ['--import', 'tsx', WORKER, dir, 'shared', 'counter', '10', String(startAt)], {
      timeout: 60_000,
    }),
  );
  await Promise.all(workers);
  assert.deepEqual(await plaintextFileStore('shared', { dir }).get('counter'), { n: 30 });
  assert.deepEqual(await readdir(dir), ['shared.json']);
});

test('file store: two processes writing different keys at once lose nothing', async (t) => {
  const dir = await tempDir(t);
  const startAt = Date.now() + 1500;
  await Promise.all(
    ['a', 'b'].map((prefix) =>
      run(
        process.execPath,
        ['--import', 'tsx', WORKER, dir, 'shared', 'keys', '25', String(startAt), prefix],
        {
          timeout: 60_000,
        },
      ),
    ),
  );
  const keys = await plaintextFileStore('shared', { dir }).keys();
  assert.equal(keys.length, 50, `lost writes: have ${keys.length} keys`);
  assert.equal((await plaintextFileStore('shared', { dir }).keys('a-')).length, 25);
});

test('lock: a live holder makes a waiter time out, naming the lock file, and its lock is kept', async (t) => {
  const dir = await tempDir(t);
  const store = plaintextFileStore('work', { dir });
  const lock = keyLockPath(dir, 'work', 'k');
  const foreign = holder(process.pid, Date.now());
  await writeFile(lock, foreign, { mode: 0o600 });
  const started = Date.now();
  await assert.rejects(
    store.withLock('k', async () => 'never', { timeoutMs: 150 }),
    (error: unknown) => {
      isKind('timeout', /timed out after 150 ms waiting for the lock file/)(error);
      assert.ok(isErrorKind(error, 'timeout'));
      assert.ok(error.message.includes(`${path.basename(lock)} in ${displayPath(dir)}`), error.message);
      assert.equal(error.delivery, 'not_sent');
      return true;
    },
  );
  assert.ok(Date.now() - started >= 140, 'waited for the timeout');
  assert.equal(await readFile(lock, 'utf8'), foreign, 'a live lock is not broken');
});

test('lock: a lock of a dead process is broken', async (t) => {
  const dir = await tempDir(t);
  const store = plaintextFileStore('work', { dir });
  await mkdir(dir, { recursive: true });
  await writeFile(keyLockPath(dir, 'work', 'k'), holder(await deadPid(), Date.now()), { mode: 0o600 });
  assert.equal(await store.withLock('k', async () => 'got it', { timeoutMs: 2000 }), 'got it');
  assert.deepEqual(await readdir(dir), []);
});

test('lock: a lock older than staleMs is broken, a younger one is not', async (t) => {
  const dir = await tempDir(t);
  const store = plaintextFileStore('work', { dir });
  const lock = keyLockPath(dir, 'work', 'k');
  await writeFile(lock, holder(process.pid, Date.now() - 60_000), { mode: 0o600 });
  await assert.rejects(
    store.withLock('k', async () => 'never', { timeoutMs: 100, staleMs: 120_000 }),
    isKind('timeout'),
  );
  assert.equal(await store.withLock('k', async () => 'got it', { timeoutMs: 2000 }), 'got it');
  // A lock file left empty (its holder died between creating and writing it) goes stale by its mtime.
  await writeFile(lock, '', { mode: 0o600 });
  await assert.rejects(
    store.withLock('k', async () => 'never', { timeoutMs: 100 }),
    isKind('timeout'),
  );
  const old = new Date(Date.now() - 60_000);
  await utimes(lock, old, old);
  assert.equal(await store.withLock('k', async () => 'got it', { timeoutMs: 2000 }), 'got it');
});

test('lock: release removes only a lock file that still holds our token', async (t) => {
  const dir = await tempDir(t);
  const lock = path.join(dir, 'x.lock');
  const replaced = holder(process.pid, Date.now(), 'the-next-holder');
  await withFileLock(lock, async () => {
    const mine = JSON.parse(await readFile(lock, 'utf8'));
    assert.equal(mine.pid, process.pid);
    assert.equal(mine.host, hostname());
    assert.equal(typeof mine.token, 'string');
    assert.equal(typeof mine.acquiredAt, 'number');
    if (POSIX) assert.equal(await mode(lock), 0o600);
    await writeFile(lock, replaced); // as if ours had been broken and another process had taken it
  });
  assert.equal(await readFile(lock, 'utf8'), replaced);
});

test('lock: polling is jittered, small, and bounded by timeoutMs on the given clock', async (t) => {
  const dir = await tempDir(t);
  const lock = path.join(dir, 'x.lock');
  await writeFile(lock, holder(process.pid, Date.now()), { mode: 0o600 });
  let now = Date.now();
  const sleeps: number[] = [];
  const options = {
    timeoutMs: 5_000,
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
  await assert.rejects(
    withFileLock(lock, async () => 'never', options),
    isKind('timeout', /5000 ms/),
  );
  assert.ok(sleeps.length >= 100 && sleeps.length <= 500, `${sleeps.length} polls`);
  assert.ok(
    sleeps.every((ms) => ms > 0 && ms <= 50),
    'each poll waits at most 50 ms',
  );
  assert.ok(new Set(sleeps).size > 10, 'the polls are jittered');
  await assert.rejects(
    withFileLock(lock, async () => 1, { timeoutMs: -1 }),
    isKind('config', /timeoutMs/),
  );
});

test('lock: callers in one process queue FIFO on the lock without polling', async (t) => {
  const dir = await tempDir(t);
  const lock = path.join(dir, 'x.lock');
  let polls = 0;
  const options = {
    sleep: async (ms: number) => {
      polls++;
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
  };
  const order: number[] = [];
  let inside = 0;
  await Promise.all(
    [0, 1, 2, 3, 4].map((i) =>
      withFileLock(
        lock,
        async () => {
          inside++;
          assert.equal(inside, 1, 'one holder at a time');
          await new Promise((resolve) => setTimeout(resolve, 5 - i));
          order.push(i);
          inside--;
        },
        options,
      ),
    ),
  );
  assert.deepEqual(order, [0, 1, 2, 3, 4]);
  assert.equal(polls, 0, 'in-process waiters are handed the lock, they do not poll the file');
});
