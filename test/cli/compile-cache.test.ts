/**
 * The CLI's V8 compile cache is turned on only in a private directory of the user's cache directory: never
 * where the runtime has no `enableCompileCache` (Node 20), never when the user set or disabled Node's own,
 * and never in a directory that is a symlink, is another user's or is open to others. The runtime's
 * `enableCompileCache` is replaced by a recorder (what it does is Node's); the directories are real.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { compileCacheDir, enableCompileCache } from '../../src/cli/compile-cache.js';

const root = mkdtempSync(path.join(tmpdir(), 'autos-cc-'));
after(() => rmSync(root, { recursive: true, force: true }));
const posixOnly = { skip: process.platform === 'win32' ? 'POSIX modes and owners' : false };
const uid = process.getuid?.() ?? 0;

/** A fresh home, and an `enable` that records the directories it was given. */
function setup(name: string) {
  const home = path.join(root, name);
  mkdirSync(home, { recursive: true });
  const calls: string[] = [];
  const enable = (dir: string) => {
    calls.push(dir);
  };
  return { home, calls, options: { env: {}, platform: 'linux' as const, home, enable, uid } };
}

test('the cache directory is per user: XDG_CACHE_HOME, ~/.cache, ~/Library/Caches, LOCALAPPDATA', () => {
  assert.equal(
    compileCacheDir({ env: {}, platform: 'linux', home: '/home/a' }),
    '/home/a/.cache/autos-mcp/compile-cache',
  );
  assert.equal(
    compileCacheDir({ env: { XDG_CACHE_HOME: '/x/c' }, platform: 'linux', home: '/home/a' }),
    '/x/c/autos-mcp/compile-cache',
  );
  // A relative XDG_CACHE_HOME is ignored (it would depend on the working directory).
  assert.equal(
    compileCacheDir({ env: { XDG_CACHE_HOME: 'rel' }, platform: 'linux', home: '/home/a' }),
    '/home/a/.cache/autos-mcp/compile-cache',
  );
  assert.equal(
    compileCacheDir({ env: {}, platform: 'darwin', home: '/Users/a' }),
    '/Users/a/Library/Caches/autos-mcp/compile-cache',
  );
  assert.equal(
    compileCacheDir({
      env: { LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local' },
      platform: 'win32',
      home: 'C:\\Users\\a',
    }),
    'C:\\Users\\a\\AppData\\Local\\autos-mcp\\compile-cache',
  );
  // No home directory: no cache (never a shared fallback such as the temp directory).
  assert.equal(compileCacheDir({ env: {}, platform: 'linux', home: '' }), undefined);
  assert.equal(compileCacheDir({ env: {}, platform: 'linux', home: '/' }), undefined);
});

test('a runtime without enableCompileCache: nothing is done, no directory is made', () => {
  const { home, options } = setup('node20');
  assert.equal(enableCompileCache({ ...options, enable: undefined }), undefined);
  assert.throws(() => statSync(path.join(home, '.cache')));
});

test("turned on in a fresh private directory (0700, the user's own)", posixOnly, () => {
  const { home, calls, options } = setup('fresh');
  const dir = enableCompileCache(options);
  assert.equal(dir, path.join(home, '.cache', 'autos-mcp', 'compile-cache'));
  assert.deepEqual(calls, [dir]);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
});

test("Node's own switches and the user's own cache win: not turned on", () => {
  for (const env of [
    { NODE_DISABLE_COMPILE_CACHE: '1' },
    { NODE_COMPILE_CACHE: '/elsewhere' },
    { AUTOS_MCP_NO_COMPILE_CACHE: '1' },
  ]) {
    const { calls, options } = setup(`env-${Object.keys(env)[0]}`);
    assert.equal(enableCompileCache({ ...options, env }), undefined);
    assert.deepEqual(calls, []);
  }
});

test("a directory open to others, another user's, or a symlink is not used", posixOnly, () => {
  const open = setup('open');
  const openDir = path.join(open.home, '.cache', 'autos-mcp', 'compile-cache');
  mkdirSync(openDir, { recursive: true });
  chmodSync(openDir, 0o777);
  assert.equal(enableCompileCache(open.options), undefined);
  assert.deepEqual(open.calls, []);

  const other = setup('other');
  assert.equal(enableCompileCache({ ...other.options, uid: uid + 1 }), undefined);
  assert.deepEqual(other.calls, []);

  const linked = setup('linked');
  const target = path.join(root, 'shared-target');
  mkdirSync(target, { mode: 0o700 });
  mkdirSync(path.join(linked.home, '.cache', 'autos-mcp'), { recursive: true });
  symlinkSync(target, path.join(linked.home, '.cache', 'autos-mcp', 'compile-cache'));
  assert.equal(enableCompileCache(linked.options), undefined);
  assert.deepEqual(linked.calls, []);
});

test('a failure of the runtime call leaves the cache off and the run going', () => {
  const { options } = setup('throws');
  const enable = () => {
    throw new Error('no');
  };
  assert.equal(enableCompileCache({ ...options, enable }), undefined);
});
