// scripts/node-modules-current.mjs decides whether demo.sh, bench.sh and test-all.sh skip `npm ci`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';

const script = resolve('scripts/node-modules-current.mjs');
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const entry = (version: string, extra: Record<string, unknown> = {}) => ({
  version,
  resolved: `https://registry.npmjs.org/x/-/x-${version}.tgz`,
  integrity: `sha512-${version}`,
  ...extra,
});

/** Exit code of the script in a project with this lock and this install record (undefined: none). */
function current(
  lock: Record<string, unknown>,
  installed: Record<string, unknown> | undefined,
): number | null {
  const dir = mkdtempSync(join(tmpdir(), 'nm-current-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ packages: lock }));
  if (installed !== undefined) {
    mkdirSync(join(dir, 'node_modules'));
    writeFileSync(join(dir, 'node_modules', '.package-lock.json'), JSON.stringify({ packages: installed }));
  }
  return spawnSync(process.execPath, [script], { cwd: dir }).status;
}

describe('node-modules-current', () => {
  const lock = {
    '': { name: 'p' },
    'node_modules/a': entry('1.0.0'),
    'node_modules/b-linux': entry('2.0.0', { optional: true }),
    'node_modules/b-darwin': entry('2.0.0', { optional: true }),
  };
  const installed = { 'node_modules/a': entry('1.0.0'), 'node_modules/b-linux': entry('2.0.0') };

  test('the same packages, without the root entry and other platforms’ optional ones: current', () => {
    assert.equal(current(lock, installed), 0);
  });
  test('another version, integrity or source: not current', () => {
    assert.equal(current(lock, { ...installed, 'node_modules/a': entry('1.0.1') }), 1);
    assert.equal(current(lock, { ...installed, 'node_modules/a': { ...entry('1.0.0'), integrity: 'x' } }), 1);
  });
  test('a missing required package, or an extra one: not current', () => {
    assert.equal(current(lock, { 'node_modules/b-linux': entry('2.0.0') }), 1);
    assert.equal(current(lock, { ...installed, 'node_modules/c': entry('1.0.0') }), 1);
  });
  test('no node_modules at all: not current', () => {
    assert.equal(current(lock, undefined), 1);
  });
});
