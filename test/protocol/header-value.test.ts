/** Tests for the Mcp-Name / Mcp-Param-* value encoding (S26/basic/transports/streamable-http, "Value encoding"). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodeHeaderValue, encodeHeaderValue, isHeaderSafe } from '../../src/protocol/header-value.js';

test('plain ASCII strings, integers and booleans are sent as-is', () => {
  assert.equal(encodeHeaderValue('us-west1'), 'us-west1');
  assert.equal(encodeHeaderValue('us west 1'), 'us west 1');
  assert.equal(encodeHeaderValue(''), '');
  assert.equal(encodeHeaderValue(42), '42');
  assert.equal(encodeHeaderValue(-7), '-7');
  assert.equal(encodeHeaderValue(-0), '0');
  assert.equal(encodeHeaderValue(true), 'true');
  assert.equal(encodeHeaderValue(false), 'false');
  assert.equal(encodeHeaderValue('file:///path/to/file%20name.txt'), 'file:///path/to/file%20name.txt');
});

test('the spec examples encode to the exact Base64 form', () => {
  assert.equal(encodeHeaderValue('Hello, 世界'), '=?base64?SGVsbG8sIOS4lueVjA==?=');
  assert.equal(encodeHeaderValue(' padded '), '=?base64?IHBhZGRlZCA=?=');
});

test('unsafe strings (control chars, CR/LF, TAB, edges, non-ASCII, sentinel look-alike) are Base64', () => {
  for (const value of [
    'line1\nline2',
    'line1\r\nline2',
    '\tindented',
    'a\tb',
    ' us-west1',
    'us-west1 ',
    'é',
    '\u007f',
    '=?base64?abc?=',
    '=?BASE64?x?=',
  ]) {
    const encoded = encodeHeaderValue(value);
    assert.match(
      encoded,
      /^=\?base64\?[A-Za-z0-9+/]*={0,2}\?=$/,
      `want Base64 for ${JSON.stringify(value)}, got ${encoded}`,
    );
    assert.equal(decodeHeaderValue(encoded), value);
  }
});

test('non-integers and unsafe integers are refused with kind config', () => {
  for (const value of [3.14, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
    assert.throws(
      () => encodeHeaderValue(value),
      (error: { kind?: string }) => error.kind === 'config',
    );
  }
});

test('every encoded string is a safe raw header value and round-trips', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (value) => {
      const encoded = encodeHeaderValue(value);
      assert.ok(/^[\x20-\x7e]*$/.test(encoded), 'only visible ASCII and space on the wire');
      assert.ok(!/^[ ]|[ ]$/.test(encoded), 'no edge whitespace on the wire');
      assert.equal(decodeHeaderValue(encoded), value);
      if (encoded === value) assert.ok(isHeaderSafe(value));
    }),
    { numRuns: 500 },
  );
});
