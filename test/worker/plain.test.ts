/**
 * The plain-data boundary: what crosses into the worker unchanged (explicit null, '', 0, false, the length
 * of arrays with explicit nulls), what is refused with `kind: 'config'` before anything is sent (functions,
 * class instances, proxies, handles, symbols, cycles, sparse arrays), and `nullGaps` for arrays with gaps.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import vm from 'node:vm';
import { MessageChannel } from 'node:worker_threads';
import { snapshotPlainData as toPlainData } from '../../src/config/plain-data.js';
import { isMcpError } from '../../src/errors/index.js';
import { callTool, close, nullGaps, open } from '../../src/worker/index.js';
import { nodeServer, STATE_SERVER, threadCount } from './helpers.js';

class Point {
  x = 1;
}

function refused(value: unknown): string {
  const out = toPlainData(value, 'arguments');
  assert.equal(out.ok, false, `want ${String(value)} refused`);
  return out.ok ? '' : out.reason;
}

describe('toPlainData', () => {
  test('explicit null, empty string, 0, false and -0 survive; undefined keys mean "not set"', () => {
    const out = toPlainData({ n: null, s: '', z: 0, f: false, m: -0, u: undefined }, 'arguments');
    assert.ok(out.ok);
    assert.deepEqual(out.value, { n: null, s: '', z: 0, f: false, m: -0 });
    assert.ok(Object.is((out.value as { m: number }).m, -0));
  });

  test('arrays keep their logical length with explicit nulls', () => {
    const out = toPlainData({ a: [null, null, 1, null], e: [] }, 'arguments');
    assert.ok(out.ok);
    const value = out.value as { a: unknown[]; e: unknown[] };
    assert.equal(value.a.length, 4);
    assert.deepEqual(value.a, [null, null, 1, null]);
    assert.deepEqual(value.e, []);
  });

  test('sparse arrays are refused, never compacted; nullGaps expresses the gaps', () => {
    // biome-ignore lint/suspicious/noSparseArray: the case under test
    const holey = [1, , 3];
    assert.match(refused({ holey }), /arguments\.holey\[1\] is a hole in a sparse array; use nullGaps/);
    assert.match(refused({ a: new Array(3) }), /\[0\] is a hole/);
    const grown = [1];
    grown.length = 4;
    assert.match(refused({ grown }), /\[1\] is a hole/);
    assert.match(refused({ u: [1, undefined] }), /\[1\] is undefined; use nullGaps/);
    const filled = toPlainData({ holey: nullGaps(holey), grown: nullGaps(grown) }, 'arguments');
    assert.ok(filled.ok);
    assert.deepEqual(filled.value, { holey: [1, null, 3], grown: [1, null, null, null] });
  });

  test('functions, class instances, handles, proxies, symbols, bigints, cycles and accessors are refused', () => {
    const { port1, port2 } = new MessageChannel();
    try {
      assert.match(refused({ f: () => 1 }), /arguments\.f is a function/);
      assert.match(refused({ d: new Date() }), /arguments\.d is a Date/);
      assert.match(refused({ m: new Map() }), /is a Map/);
      assert.match(refused({ b: Buffer.from('x') }), /is a Buffer/);
      assert.match(refused({ p: port1 }), /is a MessagePort/);
      assert.match(refused({ c: new Point() }), /is a Point/);
      assert.match(refused({ s: new String('x') }), /is a String/);
      assert.match(refused({ proxy: new Proxy({}, {}) }), /is a Proxy/);
      assert.match(refused({ list: new Proxy([], {}) }), /is a Proxy/);
      assert.match(refused({ sym: Symbol('x') }), /is a symbol/);
      assert.match(refused({ [Symbol('k')]: 1 }), /symbol keys/);
      assert.match(refused({ big: 1n }), /is a bigint/);
      assert.match(refused({ nan: Number.NaN }), /not a finite number/);
      assert.match(refused({ inf: Number.POSITIVE_INFINITY }), /not a finite number/);
      const cycle: Record<string, unknown> = {};
      cycle['self'] = cycle;
      assert.match(refused(cycle), /arguments\.self is a circular reference/);
      let ran = false;
      const getter = Object.defineProperty({}, 'g', {
        enumerable: true,
        get: () => {
          ran = true;
          return 1;
        },
      });
      assert.match(refused(getter), /arguments\.g is an accessor/);
      assert.equal(ran, false, 'a getter must never run');
      class List extends Array {}
      assert.match(refused({ l: new List() }), /Array subclass/);
      assert.match(refused({ extra: Object.assign([1], { k: 2 }) }), /keys besides its items/);
    } finally {
      port1.close();
      port2.close();
    }
  });

  test('the same value twice (not a cycle) is fine; a null-prototype object is plain', () => {
    const shared = { a: 1 };
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 2 });
    const out = toPlainData({ x: shared, y: shared, bare }, 'arguments');
    assert.ok(out.ok);
    assert.deepEqual(out.value, { x: { a: 1 }, y: { a: 1 }, bare: { b: 2 } });
  });

  test('objects and arrays of a vm realm are plain data; its class instances are not', () => {
    const value = vm.runInNewContext('({ list: [1, null], nested: { ok: true } })');
    const out = toPlainData(value, 'arguments');
    assert.ok(out.ok);
    assert.deepEqual(out.value, { list: [1, null], nested: { ok: true } });
    assert.equal(Object.getPrototypeOf(out.value), Object.prototype, 'the copy is of this realm');
    assert.match(refused(vm.runInNewContext('({ d: new Date(0) })')), /is a Date/);
    assert.match(refused(vm.runInNewContext('class A {}; ({ a: new A() })')), /is a A/);
  });

  test('a __proto__ key stays data', () => {
    const out = toPlainData(JSON.parse('{"__proto__": {"polluted": true}}'), 'arguments');
    assert.ok(out.ok);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.deepEqual(Object.keys(out.value as object), ['__proto__']);
  });
});

describe('the boundary of open and callTool', () => {
  let id = '';
  before(async () => {
    id = await open(nodeServer(STATE_SERVER));
  });
  after(async () => {
    await close(id).catch(() => {});
  });

  test('explicit nulls, empty strings, zeros, false and array lengths reach the server', async () => {
    // biome-ignore lint/suspicious/noSparseArray: the case under test
    const holey = [1, , 3];
    const args = { n: null, s: '', z: 0, f: false, list: [null, 'a', null, null], gaps: nullGaps(holey) };
    const result = await callTool(id, 'args', args);
    assert.deepEqual(result.structuredContent, { args: { ...args, gaps: [1, null, 3] } });
    assert.equal((result.structuredContent as { args: { list: unknown[] } }).args.list.length, 4);
  });

  test('non-plain arguments are refused with config / not_sent, and the worker stays ready', async () => {
    // biome-ignore lint/suspicious/noSparseArray: the case under test
    for (const bad of [{ f: () => 1 }, { d: new Date() }, { p: new Proxy({}, {}) }, { s: [1, , 2] }]) {
      await assert.rejects(callTool(id, 'args', bad), (e) => {
        assert.ok(isMcpError(e));
        assert.equal(e.kind, 'config');
        assert.equal(e.delivery, 'not_sent');
        return true;
      });
    }
    assert.equal((await callTool(id, 'args', { ok: true })).isError, undefined);
  });

  test('a config with a function, a class instance or a cycle is refused before any thread starts', async () => {
    const threads = threadCount();
    const cycle: Record<string, unknown> = { command: process.execPath };
    cycle['env'] = { self: cycle };
    const bad: unknown[] = [
      { command: process.execPath, onLog: () => {} },
      { command: process.execPath, env: new Map() },
      cycle,
      new Proxy({ command: process.execPath }, {}),
    ];
    for (const config of bad) {
      await assert.rejects(open(config as { command: string }), (e) => {
        assert.ok(isMcpError(e));
        assert.equal(e.kind, 'config');
        assert.equal(e.delivery, 'not_sent');
        return true;
      });
    }
    assert.equal(threadCount(), threads, 'no thread was started');
  });
});
