/**
 * The JSON measures a result budget relies on: `jsonSizeWithin` is the length of `JSON.stringify` (or
 * Infinity past the limit), `jsonPrefix` never splits a surrogate pair, and `jsonText`/`sameJson` work at
 * depths `JSON.stringify` cannot reach.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { jsonPrefix, jsonSizeWithin, stringSizeWithin } from '../../src/internal/json-size.js';
import { jsonText, sameJson } from '../../src/internal/json-text.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('jsonSizeWithin', () => {
  test('is the length of JSON.stringify, lone surrogates and control characters included', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        const data = { value, text, nested: [text, { [text]: value }] };
        const want = JSON.stringify(data).length;
        assert.equal(jsonSizeWithin(data, want), want);
        assert.equal(jsonSizeWithin(data, want - 1), Number.POSITIVE_INFINITY);
      }),
    );
  });

  test('skips undefined members and writes undefined array items as null, as JSON.stringify does', () => {
    const data = { a: undefined, b: [undefined, 1], c: '\u0001\ud800"' };
    assert.equal(jsonSizeWithin(data, 1000), JSON.stringify(data).length);
  });

  test('stops at the limit without scanning a long string', () => {
    assert.equal(stringSizeWithin('x'.repeat(10_000_000), 100), Number.POSITIVE_INFINITY);
  });
});

describe('jsonPrefix', () => {
  test('fits the room and never ends inside a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat(200), (text, room) => {
        const prefix = jsonPrefix(text, room);
        assert.ok(text.startsWith(prefix));
        assert.ok(JSON.stringify(prefix).length - 2 <= room);
        assert.doesNotMatch(prefix, LONE_SURROGATE);
      }),
    );
  });
});

describe('jsonText and sameJson at any depth', () => {
  test('a value nested 100,000 levels deep is written as JSON.parse read it, and compared', () => {
    const text = `${'{"a":['.repeat(100_000)}1${']}'.repeat(100_000)}`;
    const value: unknown = JSON.parse(text);
    assert.throws(() => JSON.stringify(value), RangeError);
    assert.equal(jsonText(value), text);
    assert.equal(jsonSizeWithin(value, text.length), text.length);
    assert.ok(sameJson(value, JSON.parse(text)));
    assert.ok(!sameJson(value, JSON.parse(text.replace('1', '2'))));
  });

  test('sameJson ignores key order, not values', () => {
    assert.ok(sameJson({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }));
    assert.ok(!sameJson({ a: 1 }, { a: 1, b: 2 }));
    assert.ok(!sameJson([1, 2], [2, 1]));
    assert.ok(!sameJson({ a: null }, { a: {} }));
  });
});
